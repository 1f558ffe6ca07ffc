/* Route oracle for the untimed link-usage pass (seed 001, Section 3:
 * linkUsage turns a list of exchanges into traffic per link).
 *
 * Routes are the platform's own, as SimGrid computes them
 * (sg_host_get_route), so a traffic count and a timed run on the same XML see
 * the same links.  Node g is host "node-<g>".  Link ids are dense,
 * 0..nlinks-1, in natural order of the link names (L1-s0-n2-n10 after
 * L1-s0-n2-n9): the same on every run.  Every link SimGrid reports has an id,
 * including its internal "__loopback__" (cs_routes_link_internal), which
 * serves the hosts that have no loopback of their own (tier "intra").
 *
 * A link's endpoints (the netpoints it joins, in its direction) are read
 * from the platform file: a <route> of that one link joins its src and dst,
 * a <zoneRoute> of that one link its gw_src and gw_dst (direction UP or
 * DOWN names the half "<id>_UP" / "<id>_DOWN" of a split-duplex link; a
 * symmetrical route gives the other half the reverse).  Links that SimGrid
 * makes itself (cluster elements) get theirs from the platform family
 * (cs_link_namer).  "?" when neither knows.
 *
 * Speed (percs:64,16,16, all 1,047,552 ordered pairs): routes are composed
 * from parts cached per pair of zones, following SimGrid's hierarchical
 * routing (see sg_routes.c): 0.11 s for the first pass (140,352 queries),
 * 0.017 s for each later one.  One sg_host_get_route costs 0.3 us here (23 us
 * under AddressSanitizer); cs_routes_get_direct asks SimGrid every time. */
#ifndef COLLSIM_SG_ROUTES_H
#define COLLSIM_SG_ROUTES_H

#include "sim/engine/sg_engine.h"

#include <glib.h>
#include <stdint.h>

typedef struct cs_routes cs_routes;

/* What the platform family knows of the links SimGrid made itself (any
 * member may be NULL): the tier of a link without a "tier" property (NULL:
 * unknown), and its endpoints (FALSE: unknown; else *src and *dst are
 * g_free'd by the caller). */
typedef struct cs_link_namer {
  const char *(*tier)(void *user, const char *link_name);
  gboolean (*ends)(void *user, const char *link_name, char **src, char **dst);
  void *user;
} cs_link_namer;

/* Loads cfg->platform_file with cs_engine_load (once per process) and maps
 * nodes 0..nodes-1 to hosts node-0..node-<nodes-1>.  NULL with an error
 * (CS_INPUT_ERROR) if a host is missing or the file cannot be read.
 * namer (may be NULL) names what the file does not. */
cs_routes *cs_routes_open(const cs_engine_config *cfg, int64_t nodes, const cs_link_namer *namer, GError **err);
void cs_routes_close(cs_routes *r);

int64_t cs_routes_nodes(const cs_routes *r);

/* Links.  The tier is the link's "tier" property in the platform file (L1,
 * L2, T, intra for platforms/two_tier_net.c), else the namer's, "?" if
 * neither names one.  Endpoints: see above. */
int64_t cs_routes_nlinks(const cs_routes *r);
const char *cs_routes_link_name(const cs_routes *r, int64_t id);
const char *cs_routes_link_tier(const cs_routes *r, int64_t id);
const char *cs_routes_link_src(const cs_routes *r, int64_t id);
const char *cs_routes_link_dst(const cs_routes *r, int64_t id);
/* SimGrid's own "__loopback__", not a link of the platform file. */
gboolean cs_routes_link_internal(const cs_routes *r, int64_t id);
double cs_routes_link_bandwidth(const cs_routes *r, int64_t id); /* bytes/s */
double cs_routes_link_latency(const cs_routes *r, int64_t id);   /* s */

/* Tiers present, sorted by name ("?", "L1", "L2", "T", "intra"); a link's
 * tier as an index into them; links per tier (0 for a tier not present). */
int cs_routes_ntiers(const cs_routes *r);
const char *cs_routes_tier_name(const cs_routes *r, int tier);
int cs_routes_link_tier_index(const cs_routes *r, int64_t id);
int64_t cs_routes_tier_count(const cs_routes *r, const char *tier);

/* The links of the route from node a to node b, in order; returns their
 * number and points *links at their ids, valid until the next call on r.
 * a == b: the node's own route to itself (its loopback, as SimGrid sends
 * a message between two of its cores).  -1 if a or b is out of range. */
int cs_routes_get(cs_routes *r, int64_t a, int64_t b, const int32_t **links);
/* The same, straight from sg_host_get_route, uncached (tests, checks). */
int cs_routes_get_direct(cs_routes *r, int64_t a, int64_t b, const int32_t **links);
/* The route from node a to itself, the one messages between two cores of a
 * take (its loopback link), as cs_routes_get_direct returns links. */
int cs_routes_get_self(cs_routes *r, int64_t a, const int32_t **links);

/* sg_host_get_route calls made so far. */
int64_t cs_routes_queries(const cs_routes *r);

#endif

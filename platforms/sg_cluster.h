/* SimGrid 3.32's <cluster> zones, routed as SimGrid routes them, without
 * SimGrid: the links SimGrid creates for a cluster element (with SimGrid's
 * own names), their tiers, and the route between two of its hosts or
 * between a host and the cluster's router.
 *
 * Topologies: flat (SimGrid's ClusterZone: a private link per host, an
 * optional backbone, loopback and limiter links), TORUS, FAT_TREE and
 * DRAGONFLY, each in its own file (sg_cluster_<topology>.c) behind this one
 * interface.  Users:
 *   - the platform families that write one cluster element (torus, smp,
 *     fattree) take their netmap from here (cs_sg_cluster_netmap);
 *   - collsim's reader of a user's XML file (xml_routes.c) routes the
 *     cluster zones it finds through here.
 * tests/unit/sg_cluster.c checks every route against SimGrid's
 * sg_host_get_route, link for link by name, on every ordered pair of hosts.
 *
 * Tiers (the hierarchy's link tiers):
 *   flat:      "cluster" (a host's private link), "backbone", "limiter", "intra" (loopback)
 *   TORUS:     "X", "Y", "Z" (dimensions 0, 1, 2), "D3", "D4" ... beyond; "intra"
 *   FAT_TREE:  "S1" .. "SL": the link between switch level i-1 (0: the hosts) and level i; "intra"
 *   DRAGONFLY: "local" (host to router), "green" (routers of a chassis), "black" (chassis of a group),
 *              "blue" (groups); "intra"
 * Hierarchy levels (top first, down to "node"): flat: node; TORUS: one level per dimension from
 * the last to the first (the first dimension's level is "node"); FAT_TREE: "pod-L" .. "pod-1"
 * (the subtrees under one switch of level i; pod-1 is a level-1 switch's hosts), node;
 * DRAGONFLY: group, chassis, router, node.
 */
#ifndef COLLSIM_SG_CLUSTER_H
#define COLLSIM_SG_CLUSTER_H

#include "sim/contracts/hierarchy.h"
#include "sim/contracts/netmap.h"

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* The attributes of a <cluster> element, as SimGrid reads them (values in
 * base units: bytes/s, seconds). */
typedef struct cs_sgc_params {
  const char *id, *prefix, *suffix;
  const int64_t *radical; /* host numbers in the radical's order ("0-3,7": 0 1 2 3 7) */
  int64_t nhosts;
  const char *topology;        /* NULL or "FLAT", "TORUS", "FAT_TREE", "DRAGONFLY" */
  const char *topo_parameters; /* NULL unless the topology needs it */
  double bw, lat;
  const char *sharing_policy;  /* NULL (SPLITDUPLEX), "SPLITDUPLEX", "SHARED", "FATPIPE" */
  double loopback_bw, loopback_lat; /* NAN: no loopback attribute */
  double limiter_link;              /* NAN: no limiter */
  double bb_bw, bb_lat;             /* bb_bw NAN: no backbone */
  const char *bb_sharing_policy;    /* NULL (SHARED) or "SHARED", "FATPIPE" */
  const char *router_id;            /* NULL: SimGrid's default name */
} cs_sgc_params;

typedef struct cs_sg_cluster cs_sg_cluster;

/* The cluster's links and routes.  NULL with err (CS_INPUT_ERROR) naming
 * the problem if SimGrid would refuse the parameters (topo_parameters that
 * do not parse or do not match the host count). */
cs_sg_cluster *cs_sg_cluster_new(const cs_sgc_params *p, GError **err);
void cs_sg_cluster_free(cs_sg_cluster *c);

int64_t cs_sg_cluster_hosts(const cs_sg_cluster *c);
/* "<prefix><radical[i]><suffix>" (appended to out). */
void cs_sg_cluster_host_name(const cs_sg_cluster *c, int64_t i, GString *out);
/* The router's name: the cluster's gateway to the rest of the platform. */
const char *cs_sg_cluster_router(const cs_sg_cluster *c);

/* Links, ids 0 .. nlinks-1 in the cluster's own order. */
int64_t cs_sg_cluster_nlinks(const cs_sg_cluster *c);
void cs_sg_cluster_link_name(const cs_sg_cluster *c, int64_t id, GString *out);
const char *cs_sg_cluster_link_tier(const cs_sg_cluster *c, int64_t id);
bool cs_sg_cluster_link_ends(const cs_sg_cluster *c, int64_t id, GString *src, GString *dst);
double cs_sg_cluster_link_bandwidth(const cs_sg_cluster *c, int64_t id);
double cs_sg_cluster_link_latency(const cs_sg_cluster *c, int64_t id);

/* The route SimGrid takes inside the cluster from host a to host b
 * (positions 0 .. hosts-1; CS_SGC_ROUTER for the cluster's router), as
 * link ids: writes up to cap, returns the length (-1: out of range).  a ==
 * b: the host's loopback if it has one; else what SimGrid does: on a flat
 * cluster up and back down the host's own private link (through the
 * backbone), on a torus [its limiter] or no link at all (SimGrid then uses
 * its internal "__loopback__", which cs_sg_cluster_netmap adds). */
#define CS_SGC_ROUTER ((int64_t)-1)
int cs_sg_cluster_route(const cs_sg_cluster *c, int64_t a, int64_t b, int32_t *links, int cap);

/* Tiers in report order (top first, "intra" last); returns their number. */
int cs_sg_cluster_tiers(const cs_sg_cluster *c, const char **names, int max);
/* The hierarchy of the cluster's hosts (levels down to "node", then "core"
 * with `cores` per host). */
void cs_sg_cluster_hierarchy(const cs_sg_cluster *c, int64_t cores, cs_hierarchy *out);

/* Write p as a <cluster> element (indent, then the element and a newline)
 * with hosts of `speed` flop/s and `cores` cores: the element a family
 * writes is the one its netmap routes (values in base units, shortest
 * exact decimals, so SimGrid reads back the same doubles; the radical as
 * runs "a-b,c").  FALSE on a write error. */
bool cs_sg_cluster_write_xml(FILE *out, const char *indent, const cs_sgc_params *p, double speed, int cores);
/* Host numbers 0 .. n-1 as a radical (g_free it). */
int64_t *cs_sgc_radical_range(int64_t first, int64_t n);

/* The cluster as a whole platform's netmap (nodes = its hosts in radical
 * order; a == b routes as above, with SimGrid's "__loopback__" as an extra
 * internal link when hosts have no loopback).  Takes ownership of c. */
cs_netmap *cs_sg_cluster_netmap(cs_sg_cluster *c);

#endif

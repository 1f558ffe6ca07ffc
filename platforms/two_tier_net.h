/* Two-tier direct networks (seed 001, Sections 2-3): what the PERCS family
 * (platforms/percs.c) and the Dragonfly family (platforms/dragonfly.c)
 * share: their parameters, link parameters, two-tier view and XML helpers.
 *
 * A `cs_net` describes the machine in the two-tier view every collective
 * schedule uses: sn "supernodes" (PERCS supernodes, Dragonfly groups), nps
 * nodes in each, cpn cores per node, p = sn * nps * cpn ranks mapped in order
 * (rank r on core r % cpn of global node r / cpn; global node g is node
 * g % nps of supernode g / nps).
 *
 * Specs (--platform):
 *   percs:SN,NPS,CPN          e.g. percs:64,16,16 (the paper's machine)
 *   dragonfly:G,A,H,P[,C]     G groups of A routers, H global links per router,
 *                             P nodes per router, C cores per node (default 1);
 *                             two-tier view: sn = G, nps = A*P, cpn = C.
 * Optional link parameters may follow after a slash, e.g.
 *   percs:64,16,16/l1=10GBps,l2=10GBps,lat=100ns  (see two_tier_net.c for defaults).
 */
#ifndef COLLSIM_TWO_TIER_NET_H
#define COLLSIM_TWO_TIER_NET_H

#include "sim/contracts/two_tier.h"

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

typedef enum { CS_NET_PERCS, CS_NET_DRAGONFLY } cs_net_kind;

typedef struct cs_net {
  cs_net_kind kind;
  int64_t sn, nps, cpn, p;       /* two-tier view */
  int64_t df_g, df_a, df_h, df_p; /* Dragonfly parameters (0 for PERCS) */
  double l1_bw, l2_bw, term_bw;   /* bytes/s: local, global, node<->router (Dragonfly) */
  double latency;                 /* seconds per link */
  double loopback_bw, loopback_lat; /* intra-node (shared memory) */
  cs_two_tier tt;                 /* the view schedules use (set by cs_net_parse, cs_net_percs) */
} cs_net;

/* Parse "percs:..." or "dragonfly:..."; on failure a message naming the
 * problem (domain CS_INPUT_ERROR).  (The platform registry parses the same
 * specs; this entry point is for code that wants the cs_net itself.) */
bool cs_net_parse(const char *spec, cs_net *out, GError **err);
/* Canonical spec string (g_free it). */
char *cs_net_describe(const cs_net *n);

/* Node index (0..nps-1) inside supernode `from` that holds the L2 link to
 * supernode `to` (from != to), and the node of `to` where that link lands.
 * PERCS: node (to mod nps) of `from`, landing on node (from mod nps) of `to`. */
int64_t cs_net_gateway(const cs_net *n, int64_t from, int64_t to);
int64_t cs_net_landing(const cs_net *n, int64_t from, int64_t to);

/* Dragonfly only: router (0..A-1) of group `from` holding the global link to
 * group `to`, and the router of `to` where it lands (see dragonfly.c for the
 * arrangement).  The gateway node above is a node of that router. */
int64_t cs_net_df_gateway_router(const cs_net *n, int64_t from, int64_t to);
int64_t cs_net_df_landing_router(const cs_net *n, int64_t from, int64_t to);

/* Nodes (sn * nps) and the links of the written platform per tier:
 * L1 (PERCS: node pairs of a supernode; Dragonfly: router pairs of a group),
 * L2 (supernode / group pairs), T (Dragonfly terminal links, 2 per node) and
 * loopback (one per node, tier intra).  All links are directed. */
int64_t cs_net_nodes(const cs_net *n);
/* A PERCS machine with the default link parameters (no checks: for code
 * that builds shapes itself, e.g. the tests). */
cs_net cs_net_percs(int64_t sn, int64_t nps, int64_t cpn);
typedef struct cs_net_link_counts {
  int64_t l1, l2, term, loopback;
} cs_net_link_counts;
cs_net_link_counts cs_net_count_links(const cs_net *n);

/* Fill n->tt from n's shape (after changing sn, nps, cpn or p by hand). */
void cs_net_set_view(cs_net *n);

/* Write the platform as SimGrid XML, atomically.  Host of global node g is
 * named "node-<g>"; every link carries a property "tier" (L1, L2, T for a
 * Dragonfly terminal link, intra for a node's loopback). */
bool cs_net_write_xml(const cs_net *n, const char *path, GError **err);

/* ---- for the family files (percs.c, dragonfly.c) ---- */

void cs_net_set_defaults(cs_net *n);
/* Link parameters "key=value,..." (bw, l1, l2, term, lat, loopback, loopback_lat). */
bool cs_net_parse_params(const char *text, cs_net *n, GError **err);
/* a * b, or -1 above 2^31-1. */
int64_t cs_net_mul_capped(int64_t a, int64_t b);
bool cs_net_write_stream(const cs_net *n, FILE *f);
void cs_net_estimate(const cs_net *n, int64_t *links, int64_t *xml_bytes);

/* XML writing context shared by the two families. */
typedef struct cs_net_xml {
  FILE *f;
  const cs_net *n;
  char *l1, *l2, *term, *lat, *lo, *lolat; /* attribute values in base units */
} cs_net_xml;

void cs_net_xml_link_attrs(cs_net_xml *x, const char *bw, const char *lat, const char *policy, const char *tier);
void cs_net_xml_loopback(cs_net_xml *x, int64_t g);
void cs_net_xml_host(cs_net_xml *x, const char *indent, int64_t g);
void cs_net_xml_loopback_route(cs_net_xml *x, const char *indent, int64_t g);

/* Family-specific parts, defined in percs.c and dragonfly.c. */
bool cs_percs_parse_shape(const char *fields, cs_net *n, GError **err);
int64_t cs_percs_gateway(int64_t nps, int64_t from, int64_t to);
void cs_percs_xml(cs_net_xml *x);
bool cs_dragonfly_parse_shape(const char *fields, cs_net *n, GError **err);
int64_t cs_dragonfly_gateway(int64_t g, int64_t h, int64_t p, int64_t from, int64_t to);
void cs_dragonfly_xml(cs_net_xml *x);

/* The platform-interface functions both families use (platform.h). */
struct cs_platform;
bool cs_net_family_parse(struct cs_platform *p, const char *kind, const char *args, GError **err);
char *cs_net_family_describe(const struct cs_platform *p);
bool cs_net_family_write(const struct cs_platform *p, FILE *out);
void cs_net_family_estimate(const struct cs_platform *p, int64_t *links, int64_t *xml_bytes);
void cs_net_family_two_tier(const struct cs_platform *p, cs_two_tier *out);

#endif

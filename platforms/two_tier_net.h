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

#include "sim/contracts/hierarchy.h"
#include "sim/contracts/netmap.h"
#include "sim/contracts/two_tier.h"

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

typedef struct cs_net_shape cs_net_shape;

typedef struct cs_net {
  const cs_net_shape *shape;     /* the family: cs_net_shape_percs or cs_net_shape_dragonfly */
  int64_t sn, nps, cpn, p;       /* two-tier view */
  int64_t df_g, df_a, df_h, df_p; /* Dragonfly parameters (0 for PERCS) */
  double l1_bw, l2_bw, term_bw;   /* bytes/s: local, global, node<->router (Dragonfly) */
  double latency;                 /* seconds per link */
  double loopback_bw, loopback_lat; /* intra-node (shared memory) */
  cs_two_tier tt;                 /* the view schedules use (set by cs_net_parse, cs_net_percs) */
} cs_net;

/* Parse "percs:..." or "dragonfly:..." (the shape and link parameters
 * after the family's "KIND:"); on failure a message naming the problem
 * (domain CS_INPUT_ERROR) and *out untouched.  Code that has the whole
 * spec uses cs_net_parse (platforms/two_tier_spec.h). */
bool cs_net_parse_shape(const cs_net_shape *shape, const char *args, cs_net *out, GError **err);
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
 * that builds shapes itself, e.g. the tests; defined in percs.c). */
cs_net cs_net_percs(int64_t sn, int64_t nps, int64_t cpn);
typedef struct cs_net_link_counts {
  int64_t l1, l2, term, loopback;
} cs_net_link_counts;
cs_net_link_counts cs_net_count_links(const cs_net *n);

/* Fill n->tt from n's shape (after changing sn, nps, cpn or p by hand). */
void cs_net_set_view(cs_net *n);

/* The platform as SimGrid XML (cs_net_write_xml, platforms/two_tier_spec.h,
 * writes it to a file atomically).  Host of global node g is named
 * "node-<g>"; every link carries a property "tier" (L1, L2, T for a
 * Dragonfly terminal link, intra for a node's loopback). */

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

/* The netmap (sim/contracts/netmap.h) of both families, without SimGrid:
 * link ids are the loopbacks (node g: id g), then the L2 links (supernode a
 * to b: nodes + a * (sn - 1) + b - (b > a)), then the family's own links
 * (L1, and T on Dragonfly: cs_net_own_link_id); names, ends, bandwidths
 * and routes as the family's XML gives them to SimGrid. */
int32_t cs_net_loopback_link_id(const cs_net *n, int64_t g);
int32_t cs_net_l2_link_id(const cs_net *n, int64_t a, int64_t b);
int32_t cs_net_own_link_id(const cs_net *n, int64_t idx);

/* One of the family's own links, described. */
typedef struct cs_net_link {
  GString *name, *src, *dst; /* appended to */
  const char *tier;          /* "L1", "T" */
  double bw;
} cs_net_link;

/* What a family (percs.c, dragonfly.c) tells the shared code: the shared
 * code calls a family only through its cs_net_shape, never by name. */
struct cs_net_shape {
  const char *name;          /* "percs": the spec's KIND, messages, the XML's comment */
  bool terminal_links;       /* has node<->router links (link parameter term) */
  /* Set n's shape fields (sn, nps, cpn, p and the family's own) from
   * "SN,NPS,CPN"-like fields; FALSE with err naming the problem. */
  bool (*parse)(const char *fields, cs_net *n, GError **err);
  /* Append the shape part of the canonical spec, e.g. "percs:64,16,16". */
  void (*describe)(const cs_net *n, GString *s);
  /* The view's wiring: t->wiring[] as set_wiring left it. */
  void (*set_wiring)(const cs_net *n, cs_two_tier *t);
  int64_t (*gateway)(const cs_two_tier *t, int64_t from, int64_t to);
  /* L1 and terminal links (L2 and loopback are the same for every family). */
  void (*count_links)(const cs_net *n, cs_net_link_counts *c);
  /* The zones, links and routes of the XML (between the platform tags). */
  void (*xml)(cs_net_xml *x);
  /* Own link idx (0 .. l1 + term - 1), as the XML declares and routes it. */
  void (*own_link)(const cs_net *n, int64_t idx, cs_net_link *out);
  /* The links SimGrid routes from node a to node b != a through the XML,
   * as ids (at most 8); returns their number. */
  int (*route)(const cs_net *n, int64_t a, int64_t b, int32_t *out);
  /* The netpoints the L2 link from supernode a to b joins (appended). */
  void (*l2_ends)(const cs_net *n, int64_t a, int64_t b, GString *src, GString *dst);
  /* The hierarchy's levels above the node (cs_hier_push), top first, and
   * the tier joining the nodes at the lowest of them. */
  void (*levels)(const cs_net *n, cs_hierarchy *h, const char **node_tier);
};

extern const cs_net_shape cs_net_shape_percs;     /* percs.c */
extern const cs_net_shape cs_net_shape_dragonfly; /* dragonfly.c */

/* The platform-interface functions both families use (platform.h). */
struct cs_platform;
bool cs_net_family_parse(struct cs_platform *p, const cs_net_shape *shape, const char *args, GError **err);
char *cs_net_family_describe(const struct cs_platform *p);
bool cs_net_family_write(const struct cs_platform *p, FILE *out);
void cs_net_family_estimate(const struct cs_platform *p, int64_t *links, int64_t *xml_bytes);
void cs_net_family_hierarchy(const struct cs_platform *p, cs_hierarchy *out);
cs_netmap *cs_net_family_netmap(const struct cs_platform *p, GError **err);

#endif

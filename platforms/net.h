/* Two-tier direct networks (seed 001, Sections 2-3): PERCS and Dragonfly.
 *
 * A `cs_net` describes the machine in the two-tier view every collective
 * schedule uses: sn "supernodes" (PERCS supernodes, Dragonfly groups), nps
 * nodes in each, cpn cores per node, p = sn * nps * cpn ranks mapped in order
 * (rank r on core r % cpn of global node r / cpn; global node g is node
 * g % nps of supernode g / nps).
 *
 * Spec strings (the --net option):
 *   percs:SN,NPS,CPN          e.g. percs:64,16,16 (the paper's machine)
 *   dragonfly:G,A,H,P[,C]     G groups of A routers, H global links per router,
 *                             P nodes per router, C cores per node (default 1);
 *                             two-tier view: sn = G, nps = A*P, cpn = C.
 * Optional link parameters may follow after a slash, e.g.
 *   percs:64,16,16/l1=10GBps,l2=10GBps,lat=100ns  (see net.c for defaults).
 */
#ifndef COLLSIM_NET_H
#define COLLSIM_NET_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

typedef enum { CS_NET_PERCS, CS_NET_DRAGONFLY } cs_net_kind;

typedef struct cs_net {
  cs_net_kind kind;
  int64_t sn, nps, cpn, p;       /* two-tier view */
  int64_t df_g, df_a, df_h, df_p; /* Dragonfly parameters (0 for PERCS) */
  double l1_bw, l2_bw, term_bw;   /* bytes/s: local, global, node<->router (Dragonfly) */
  double latency;                 /* seconds per link */
  double loopback_bw, loopback_lat; /* intra-node (shared memory) */
} cs_net;

#define CS_NET_ERROR (cs_net_error_quark())
GQuark cs_net_error_quark(void);
typedef enum { CS_NET_ERROR_SPEC = 1, CS_NET_ERROR_IO, CS_NET_ERROR_SIZE } cs_net_error;

/* Parse a spec; on failure a message naming the problem (exit status 2). */
bool cs_net_parse(const char *spec, cs_net *out, GError **err);
/* Canonical spec string (g_free it). */
char *cs_net_describe(const cs_net *n);

/* Node index (0..nps-1) inside supernode `from` that holds the L2 link to
 * supernode `to` (from != to), and the node of `to` where that link lands.
 * PERCS: node (to mod nps) of `from`, landing on node (from mod nps) of `to`. */
int64_t cs_net_gateway(const cs_net *n, int64_t from, int64_t to);
int64_t cs_net_landing(const cs_net *n, int64_t from, int64_t to);

/* Dragonfly only: router (0..A-1) of group `from` holding the global link to
 * group `to`, and the router of `to` where it lands (see net.c for the
 * arrangement).  The gateway node above is a node of that router. */
int64_t cs_net_df_gateway_router(const cs_net *n, int64_t from, int64_t to);
int64_t cs_net_df_landing_router(const cs_net *n, int64_t from, int64_t to);

/* Nodes (sn * nps) and the links of the written platform per tier:
 * L1 (PERCS: node pairs of a supernode; Dragonfly: router pairs of a group),
 * L2 (supernode / group pairs), T (Dragonfly terminal links, 2 per node) and
 * loopback (one per node).  All links are directed. */
int64_t cs_net_nodes(const cs_net *n);
/* A PERCS machine with the default link parameters (no checks: for code
 * that builds shapes itself, e.g. the tests). */
cs_net cs_net_percs(int64_t sn, int64_t nps, int64_t cpn);
typedef struct cs_net_link_counts {
  int64_t l1, l2, term, loopback;
} cs_net_link_counts;
cs_net_link_counts cs_net_count_links(const cs_net *n);

/* Write the platform as SimGrid XML.  Host of global node g is named
 * "node-<g>"; every link carries a property "tier" (L1, L2, or T for a
 * Dragonfly terminal link).  Returns false with a message on I/O failure. */
bool cs_net_write_xml(const cs_net *n, const char *path, GError **err);

#endif

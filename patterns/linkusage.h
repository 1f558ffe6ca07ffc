/* linkUsage (seed 001, Section 3): traffic per network link.
 *
 * Exchanges arrive aggregated per (source node, destination node) and are
 * routed with a route function (in collsim: the platform's own routes, see
 * sim/engine/sg_routes.h); every link of the route is charged the bytes and the
 * messages.  Traffic between cores of one node never touches a network link:
 * it is kept apart as the "intra" tier (one pseudo-link per node).
 * All byte counts are exact integers. */
#ifndef COLLSIM_LINKUSAGE_H
#define COLLSIM_LINKUSAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Network links of the route from node a to node b (a != b), in order.
 * Returns the number of links; *links stays valid until the next call. */
typedef int (*cs_route_fn)(void *ctx, int64_t a, int64_t b, const int32_t **links);

typedef struct cs_linkusage cs_linkusage;

cs_linkusage *cs_linkusage_new(int64_t nlinks, int64_t nodes, cs_route_fn route, void *route_ctx);
void cs_linkusage_free(cs_linkusage *lu);

/* Charge `messages` messages totalling `bytes` from node a to node b. */
void cs_linkusage_add(cs_linkusage *lu, int64_t a, int64_t b, uint64_t bytes, uint64_t messages);

uint64_t cs_linkusage_link_bytes(const cs_linkusage *lu, int64_t link);
uint64_t cs_linkusage_link_messages(const cs_linkusage *lu, int64_t link);
uint64_t cs_linkusage_node_intra_bytes(const cs_linkusage *lu, int64_t node);

/* Totals: bytes injected into the network (between different nodes), the sum
 * over those exchanges of bytes x hops (must equal the sum over links), and
 * the intra-node bytes. */
typedef struct cs_linkusage_totals {
  uint64_t network_bytes, network_messages, byte_hops, intra_bytes, intra_messages, node_pairs;
} cs_linkusage_totals;
cs_linkusage_totals cs_linkusage_get_totals(const cs_linkusage *lu);

/* Summary of one tier: links of the tier, links that carried at least one
 * message, min and max bytes over the links used, total bytes. */
typedef struct cs_tier_summary {
  char name[16];
  int64_t links, links_used;
  uint64_t min_bytes, max_bytes, total_bytes, messages;
} cs_tier_summary;

/* Per-tier summaries, tiers in order of first appearance among the link ids,
 * then "intra".  tier_of_link[i] names link i's tier.  Returns the count;
 * *out is g_free'd by the caller. */
size_t cs_linkusage_tiers(const cs_linkusage *lu, const char *const *tier_of_link, cs_tier_summary **out);

#endif

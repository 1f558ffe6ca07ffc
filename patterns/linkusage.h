/* linkUsage (seed 001, Section 3): traffic per network link.
 *
 * Exchanges arrive aggregated per (source node, destination node) and are
 * routed with a route function (in collsim: the platform's own routes, see
 * sim/engine/sg_routes.h); every link of the route is charged the bytes and the
 * messages.  Traffic between cores of one node follows the node's route to
 * itself (its loopback link, where SimGrid sends it too) and is counted
 * apart in the totals.  All byte counts are exact integers. */
#ifndef COLLSIM_LINKUSAGE_H
#define COLLSIM_LINKUSAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Links of the route from node a to node b (a == b: the node's route to
 * itself), in order.  Returns the number of links; *links stays valid until
 * the next call. */
typedef int (*cs_route_fn)(void *ctx, int64_t a, int64_t b, const int32_t **links);

typedef struct cs_linkusage cs_linkusage;

cs_linkusage *cs_linkusage_new(int64_t nlinks, int64_t nodes, cs_route_fn route, void *route_ctx);
void cs_linkusage_free(cs_linkusage *lu);

/* Charge `messages` messages totalling `bytes` from node a to node b.  A
 * pair the route function has no route for (-1) is charged nothing and
 * remembered: cs_linkusage_unrouted. */
void cs_linkusage_add(cs_linkusage *lu, int64_t a, int64_t b, uint64_t bytes, uint64_t messages);
/* TRUE when some exchange had no route; *a, *b: the first such pair. */
bool cs_linkusage_unrouted(const cs_linkusage *lu, int64_t *a, int64_t *b);

uint64_t cs_linkusage_link_bytes(const cs_linkusage *lu, int64_t link);
uint64_t cs_linkusage_link_messages(const cs_linkusage *lu, int64_t link);

/* Totals: bytes injected into the network (between different nodes), the sum
 * over those exchanges of bytes x hops (equal to the sum over the links that
 * routes between different nodes use), and the intra-node bytes and
 * messages. */
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

/* Per-tier summaries of the links l with listed[l] (NULL: every link), tiers
 * in order of first appearance among those link ids.  tier_of_link[l] names
 * link l's tier.  Returns the count; *out is g_free'd by the caller. */
size_t cs_linkusage_tiers(const cs_linkusage *lu, const char *const *tier_of_link, const bool *listed,
                          cs_tier_summary **out);

#endif

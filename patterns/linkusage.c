/* linkUsage: per-link accounting of node-to-node traffic (see linkusage.h). */
#include "patterns/linkusage.h"

#include <glib.h>
#include <string.h>

struct cs_linkusage {
  int64_t nlinks, nodes;
  cs_route_fn route;
  void *route_ctx;
  uint64_t *bytes, *messages; /* per link */
  cs_linkusage_totals totals;
  int64_t unrouted_a, unrouted_b; /* the first pair without a route (-1: none) */
};

cs_linkusage *cs_linkusage_new(int64_t nlinks, int64_t nodes, cs_route_fn route, void *route_ctx)
{
  cs_linkusage *lu = g_new0(cs_linkusage, 1);
  lu->nlinks = nlinks;
  lu->nodes = nodes;
  lu->unrouted_a = lu->unrouted_b = -1;
  lu->route = route;
  lu->route_ctx = route_ctx;
  lu->bytes = g_new0(uint64_t, nlinks > 0 ? nlinks : 1);
  lu->messages = g_new0(uint64_t, nlinks > 0 ? nlinks : 1);
  return lu;
}

void cs_linkusage_free(cs_linkusage *lu)
{
  if (!lu)
    return;
  g_free(lu->bytes);
  g_free(lu->messages);
  g_free(lu);
}

void cs_linkusage_add(cs_linkusage *lu, int64_t a, int64_t b, uint64_t bytes, uint64_t messages)
{
  if (messages == 0)
    return;
  const int32_t *links = NULL;
  int n = lu->route(lu->route_ctx, a, b, &links);
  if (n < 0) { /* no route: nothing charged, the pair reported */
    if (lu->unrouted_a < 0) {
      lu->unrouted_a = a;
      lu->unrouted_b = b;
    }
    return;
  }
  for (int i = 0; i < n; i++) {
    lu->bytes[links[i]] += bytes;
    lu->messages[links[i]] += messages;
  }
  if (a == b) {
    lu->totals.intra_bytes += bytes;
    lu->totals.intra_messages += messages;
    return;
  }
  lu->totals.network_bytes += bytes;
  lu->totals.network_messages += messages;
  lu->totals.byte_hops += bytes * (uint64_t)n;
  lu->totals.node_pairs++;
}

bool cs_linkusage_unrouted(const cs_linkusage *lu, int64_t *a, int64_t *b)
{
  *a = lu->unrouted_a;
  *b = lu->unrouted_b;
  return lu->unrouted_a >= 0;
}

uint64_t cs_linkusage_link_bytes(const cs_linkusage *lu, int64_t link) { return lu->bytes[link]; }

uint64_t cs_linkusage_link_messages(const cs_linkusage *lu, int64_t link) { return lu->messages[link]; }

cs_linkusage_totals cs_linkusage_get_totals(const cs_linkusage *lu) { return lu->totals; }

static void tally(cs_tier_summary *t, uint64_t bytes, uint64_t messages)
{
  t->links++;
  if (messages == 0)
    return;
  if (t->links_used == 0 || bytes < t->min_bytes)
    t->min_bytes = bytes;
  if (bytes > t->max_bytes)
    t->max_bytes = bytes;
  t->links_used++;
  t->total_bytes += bytes;
  t->messages += messages;
}

static cs_tier_summary *tier_named(GArray *tiers, const char *name)
{
  for (guint i = 0; i < tiers->len; i++) {
    cs_tier_summary *t = &g_array_index(tiers, cs_tier_summary, i);
    if (strcmp(t->name, name) == 0)
      return t;
  }
  cs_tier_summary fresh = {0};
  g_strlcpy(fresh.name, name, sizeof fresh.name);
  g_array_append_val(tiers, fresh);
  return &g_array_index(tiers, cs_tier_summary, tiers->len - 1);
}

size_t cs_linkusage_tiers(const cs_linkusage *lu, const char *const *tier_of_link, const bool *listed,
                          cs_tier_summary **out)
{
  GArray *tiers = g_array_new(FALSE, TRUE, sizeof(cs_tier_summary));
  for (int64_t l = 0; l < lu->nlinks; l++)
    if (!listed || listed[l])
      tally(tier_named(tiers, tier_of_link[l]), lu->bytes[l], lu->messages[l]);
  size_t count = tiers->len;
  *out = (cs_tier_summary *)g_array_free(tiers, FALSE);
  return count;
}

/* The hierarchy view (hierarchy.h): construction, indices, the two-tier
 * projection of seed 001. */
#include "sim/contracts/hierarchy.h"

#include <glib.h>
#include <string.h>

static void set_level(cs_hier_level *l, const char *name, const char *tier, int64_t count)
{
  memset(l, 0, sizeof *l);
  g_strlcpy(l->name, name, sizeof l->name);
  g_strlcpy(l->tier, tier ? tier : "", sizeof l->tier);
  l->count = count;
}

int cs_hier_push(cs_hierarchy *h, const char *name, const char *tier, int64_t count)
{
  g_assert(h->nlevels < CS_HIER_MAX_LEVELS - 2); /* room for node and core */
  set_level(&h->level[h->nlevels], name, tier, count);
  return h->nlevels++;
}

void cs_hier_finish(cs_hierarchy *h, int64_t nodes, int64_t cores, const char *node_tier)
{
  h->nodes = nodes;
  h->cores = cores;
  h->node_level = h->nlevels;
  set_level(&h->level[h->nlevels++], "node", node_tier, nodes);
  set_level(&h->level[h->nlevels++], "core", "intra", nodes * cores);
}

void cs_hier_flat(cs_hierarchy *h, int64_t nodes, int64_t cores, const char *tier)
{
  memset(h, 0, sizeof *h);
  cs_hier_finish(h, nodes, cores, tier);
}

void cs_hier_rename_tier(cs_hierarchy *h, const char *from, const char *to)
{
  for (int l = 0; l < h->nlevels; l++)
    if (strcmp(h->level[l].tier, from) == 0)
      g_strlcpy(h->level[l].tier, to, sizeof h->level[l].tier);
}

int64_t cs_hier_node_index(const cs_hierarchy *h, int64_t node, int level)
{
  if (level == h->node_level)
    return node;
  if (level > h->node_level)
    return 0;
  if (h->node_index)
    return h->node_index(h, node, level);
  if (h->table)
    return h->table[node * h->node_level + level];
  return node / (h->nodes / h->level[level].count);
}

int64_t cs_hier_node_of(const cs_hierarchy *h, int64_t rank)
{
  return h->spread ? rank % h->nodes : rank / h->cores;
}

int64_t cs_hier_rank_index(const cs_hierarchy *h, int64_t rank, int level)
{
  if (level == h->nlevels - 1) /* core: its core on its node */
    return h->spread ? rank / h->nodes : rank % h->cores;
  return cs_hier_node_index(h, cs_hier_node_of(h, rank), level);
}

int cs_hier_network_levels(const cs_hierarchy *h) { return h->node_level + 1; }

int cs_hier_level_named(const cs_hierarchy *h, const char *name)
{
  for (int l = 0; l < h->nlevels; l++)
    if (strcmp(h->level[l].name, name) == 0)
      return l;
  return -1;
}

bool cs_hier_level_regular(const cs_hierarchy *h, int level)
{
  int64_t count = h->level[level].count;
  if (level >= h->node_level)
    return true;
  if (count <= 0 || h->nodes % count != 0)
    return false;
  int64_t size = h->nodes / count;
  for (int64_t g = 0; g < h->nodes; g++)
    if (cs_hier_node_index(h, g, level) != g / size)
      return false;
  return true;
}

/* ---- the two-tier projection ---- */

static int64_t spread_gateway(const cs_two_tier *t, int64_t from, int64_t to)
{
  if (from < 0 || to < 0 || from >= t->sn || to >= t->sn || from == to)
    return -1;
  return to % t->nps;
}

static int64_t spread_landing(const cs_two_tier *t, int64_t from, int64_t to)
{
  return spread_gateway(t, to, from);
}

static int64_t spread_node_of(const cs_two_tier *t, int64_t rank) { return rank % (t->sn * t->nps); }

void cs_hier_two_tier(const cs_hierarchy *h, cs_two_tier *out)
{
  memset(out, 0, sizeof *out);
  bool tiered = h->node_level > 0 && cs_hier_level_regular(h, 0);
  out->sn = tiered ? h->level[0].count : 1;
  out->nps = h->nodes / out->sn;
  out->cpn = h->cores;
  out->p = h->nodes * h->cores;
  out->gateway = tiered && h->gateway ? h->gateway : spread_gateway;
  out->landing = tiered && h->landing ? h->landing : spread_landing;
  out->node_of = h->spread ? spread_node_of : NULL;
  memcpy(out->wiring, h->wiring, sizeof out->wiring);
}

char *cs_hier_describe(const cs_hierarchy *h)
{
  GString *s = g_string_new(NULL);
  for (int l = 0; l < h->nlevels; l++) {
    int64_t above = l == 0 ? 1 : h->level[l - 1].count;
    g_string_append_printf(s, "%s%s:%lld", l ? " > " : "", h->level[l].name,
                           (long long)(above > 0 && h->level[l].count % above == 0 ? h->level[l].count / above
                                                                                   : h->level[l].count));
  }
  return g_string_free(s, FALSE);
}

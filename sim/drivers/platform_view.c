/* The hierarchy view of a platform as a record (platform_view.h).
 *
 * One record per platform: its spec, nodes, cores, the hierarchy in one
 * line, the two-tier projection the SDTA algorithms of seed 001 see, and
 * one CSV row per level (its entities, how many per entity of the level
 * above, the tier joining them and that tier's links).  Tiers that join no
 * level (a cluster's backbone, "?") are in the JSON's tiers. */
#include "sim/drivers/platform_view.h"

#include <string.h>

enum { L_LEVEL, L_COUNT, L_PER_PARENT, L_TIER, L_TIER_LINKS };

static const cs_column level_columns[] = {
    [L_LEVEL] = {"level", CS_COL_TEXT, NULL, "", NULL, CS_COL_KEY | CS_COL_CSV_ONLY,
                 "the level (supernode, group, router, pod-2, Z, node, core ...), top first: one CSV row each"},
    [L_COUNT] = {"count", CS_COL_INT, NULL, "entities", NULL, 0, "its entities in the whole machine"},
    [L_PER_PARENT] = {"per_parent", CS_COL_INT, NULL, "entities", NULL, 0,
                      "its entities in one entity of the level above (0: they differ)"},
    [L_TIER] = {"tier", CS_COL_TEXT, NULL, "", NULL, 0,
                "the tier of the links joining its entities inside one of the level above (empty: none directly)"},
    [L_TIER_LINKS] = {"tier_links", CS_COL_INT, NULL, "links", NULL, 0, "links of that tier in the machine"},
};

static const cs_record_kind level_kind = {"level", "one level of the hierarchy", level_columns,
                                          G_N_ELEMENTS(level_columns), NULL};

enum { T_TIER, T_LINKS };

static const cs_column tier_columns[] = {
    [T_TIER] = {"tier", CS_COL_TEXT, NULL, "", NULL, CS_COL_KEY | CS_COL_CSV_ONLY, "the tier"},
    [T_LINKS] = {"links", CS_COL_INT, NULL, "links", NULL, 0, "links of the tier (SimGrid's internal loopback aside)"},
};

static const cs_record_kind tier_kind = {"tier", "the links of one tier", tier_columns, G_N_ELEMENTS(tier_columns),
                                         NULL};

enum { K_PLATFORM, K_NODES, K_CORES, K_RANKS, K_HIERARCHY, K_SN, K_NPS, K_CPN, K_LINKS, K_LEVELS, K_TIERS };

static const cs_column columns[] = {
    [K_PLATFORM] = {"platform", CS_COL_TEXT, NULL, "", NULL, CS_COL_KEY, "the platform's spec"},
    [K_NODES] = {"nodes", CS_COL_INT, NULL, "nodes", NULL, 0, "hosts"},
    [K_CORES] = {"cores", CS_COL_INT, NULL, "ranks", NULL, 0, "ranks per node"},
    [K_RANKS] = {"ranks", CS_COL_INT, NULL, "ranks", NULL, CS_COL_NO_CSV, "nodes x cores"},
    [K_HIERARCHY] = {"hierarchy", CS_COL_TEXT, NULL, "", NULL, CS_COL_NO_CSV,
                     "the levels, top first, with their entities per entity of the level above"},
    [K_SN] = {"sn", CS_COL_INT, NULL, "supernodes", NULL, CS_COL_NO_CSV,
              "the two-tier projection (seed 001's algorithms): supernodes"},
    [K_NPS] = {"nps", CS_COL_INT, NULL, "nodes", NULL, CS_COL_NO_CSV, "the two-tier projection: nodes per supernode"},
    [K_CPN] = {"cpn", CS_COL_INT, NULL, "cores", NULL, CS_COL_NO_CSV, "the two-tier projection: cores per node"},
    [K_LINKS] = {"links", CS_COL_INT, NULL, "links", NULL, CS_COL_NO_CSV,
                 "links of the machine (SimGrid's internal loopback aside)"},
    [K_LEVELS] = {"levels", CS_COL_RECORD, NULL, "", NULL, 0, "the levels, top first", &level_kind},
    [K_TIERS] = {"tiers", CS_COL_RECORD, NULL, "", NULL, CS_COL_NO_CSV, "links per tier", &tier_kind},
};

static const int csv_columns[] = {K_PLATFORM, K_NODES, K_CORES, K_LEVELS, -1};

const cs_record_kind cs_platform_record_kind = {"platform", "the hierarchy view of one platform", columns,
                                                G_N_ELEMENTS(columns), csv_columns};

/* Links per tier of the map (internal links left out). */
static int64_t *links_per_tier(const cs_netmap *m, int64_t *total)
{
  int64_t *count = g_new0(int64_t, m->ntiers > 0 ? m->ntiers : 1);
  *total = 0;
  for (int64_t l = 0; l < m->nlinks; l++)
    if (!cs_netmap_link_internal(m, l)) {
      count[m->ops->link_tier(m, l)]++;
      (*total)++;
    }
  return count;
}

static int64_t tier_links(const cs_netmap *m, const int64_t *count, const char *tier)
{
  for (int t = 0; t < m->ntiers; t++)
    if (strcmp(m->tier_name[t], tier) == 0)
      return count[t];
  return 0;
}

static void level_rows(cs_record *r, const cs_hierarchy *h, const cs_netmap *m, const int64_t *count)
{
  cs_record *levels = cs_col_child(r, &columns[K_LEVELS]);
  for (int l = 0; l < h->nlevels; l++) {
    const cs_hier_level *v = &h->level[l];
    int64_t above = l == 0 ? 1 : h->level[l - 1].count;
    cs_record *row = cs_rec_child(levels, v->name);
    cs_col_i64(row, &level_columns[L_COUNT], v->count);
    cs_col_i64(row, &level_columns[L_PER_PARENT], above > 0 && v->count % above == 0 ? v->count / above : 0);
    cs_col_str(row, &level_columns[L_TIER], v->tier);
    cs_col_i64(row, &level_columns[L_TIER_LINKS], v->tier[0] ? tier_links(m, count, v->tier) : 0);
  }
  cs_col_set_rows(r, &columns[K_LEVELS]);
}

static void tier_rows(cs_record *r, const cs_netmap *m, const int64_t *count)
{
  cs_record *tiers = cs_col_child(r, &columns[K_TIERS]);
  for (int t = 0; t < m->ntiers; t++)
    if (count[t] > 0)
      cs_col_i64(cs_rec_child(tiers, m->tier_name[t]), &tier_columns[T_LINKS], count[t]);
}

cs_record *cs_platform_view(const cs_platform *p, GError **err)
{
  cs_netmap *m = cs_platform_netmap(p, err);
  if (!m)
    return NULL;
  cs_hierarchy h;
  cs_platform_hierarchy(p, &h);
  cs_two_tier tt;
  cs_hier_two_tier(&h, &tt);
  int64_t total;
  int64_t *count = links_per_tier(m, &total);
  cs_record *r = cs_record_new();
  char *spec = cs_platform_describe(p), *line = cs_hier_describe(&h);
  cs_col_str(r, &columns[K_PLATFORM], spec);
  cs_col_i64(r, &columns[K_NODES], p->nodes);
  cs_col_i64(r, &columns[K_CORES], p->cores);
  cs_col_i64(r, &columns[K_RANKS], cs_platform_slots(p));
  cs_col_str(r, &columns[K_HIERARCHY], line);
  cs_col_i64(r, &columns[K_SN], tt.sn);
  cs_col_i64(r, &columns[K_NPS], tt.nps);
  cs_col_i64(r, &columns[K_CPN], tt.cpn);
  cs_col_i64(r, &columns[K_LINKS], total);
  level_rows(r, &h, m, count);
  tier_rows(r, m, count);
  g_free(spec);
  g_free(line);
  g_free(count);
  cs_netmap_free(m);
  return r;
}

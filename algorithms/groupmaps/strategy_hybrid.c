/* Strategy "ST": the paper's hybrid of space and time (seed 003, Section
 * 6.1 for ordered groups, Section 6.2 for unordered ones; the ST
 * annotations of Tables 1 and 2).
 *
 * ORDERED GROUP (a set), first rule that applies:
 *   1. R/S when the group is a progression (constant space and time;
 *      Table 1's group 6);
 *   2. BDD when it builds, its bpg is below ST_BDD_MAX_BPG and at most
 *      1 / ST_BDD_VS_BM of BM's eq. (1) estimate (groups 1, 3, 5, 7);
 *   3. BM when eq. (1), bpg = (max - min - 1) / M, is below ST_BM_MAX_BPG
 *      (groups 2 and 4);
 *   4. ARRAY (group 8).
 * UNORDERED GROUP (a map): if lim->rs_allow_negative and the group is a
 * decreasing progression, R/S (our extension: 96 bits and O(1) beat
 * anything).  Otherwise the fewest bits among
 *   - ARRAY,
 *   - BWT when its compression is good: bpg at most ST_BWT_MAX_BPG
 *     (Table 2's group 4),
 *   - "wtr+X" with X the set the ordered rules pick for the sorted members
 *     (groups 1 and 3), when the permutation builds (WTR's run limit; group
 *     2 fails it);
 * ties in that order (ARRAY first: it is the fastest, Section 6.2 "an array
 * is chosen more often").  ARRAY's 32 m bits are known without building it:
 * it is built last, only when it wins, so no candidate is alive beside it.
 *
 * THRESHOLDS, named, with their reasons:
 *   ST_BDD_MAX_BPG = 5     the paper: "a BDD is only chosen when bpg is
 *                          small (<5)", because its select time grows with
 *                          its size.
 *   ST_BDD_VS_BM = 2       "and significantly smaller than bpg for BM": the
 *                          paper's choices bracket the factor: group 2 keeps
 *                          BM at BDD 1.8 vs BM 2 (factor 1.1), group 7 takes
 *                          BDD at 0.31 vs 4.1 (13); we ask for half.
 *   ST_BM_MAX_BPG = 32     an ARRAY costs 32 bpg: a bitmap estimated larger
 *                          is both bigger and slower.
 *   ST_BWT_MAX_BPG = 16    "when compression is sufficiently good": half an
 *                          ARRAY.  Table 2 takes BWT at 10 bpg (group 4) and
 *                          refuses it at 27 (group 2); BWT's S-One is about
 *                          10^4 times an array's, so it must at least halve
 *                          the space.
 * Choices the paper leaves open: BM's bpg is eq. (1)'s estimate (the paper's
 * rule) though the built BM also has its directory; BDD's bpg is the built
 * BDD's (the paper's "bpg value returned by BDD create"); a representation
 * that is not registered is skipped; beyond-paper representations (ef,
 * roaring) are not considered: ST is the paper's rule.
 */
#include "sim/contracts/groupmap_strategy.h"

#include <string.h>

#define ST_BDD_MAX_BPG 5.0
#define ST_BDD_VS_BM 2.0
#define ST_BM_MAX_BPG 32.0
#define ST_BWT_MAX_BPG 16.0

/* Eq. (1): (max - min - 1) / M; 0 for fewer than two members. */
static double eq1_bpg(const cs_wid *sorted, int64_t m)
{
  if (m < 2)
    return 0.0;
  return ((double)sorted[m - 1] - (double)sorted[0] - 1.0) / (double)m;
}

static cs_groupmap *try_if_registered(const char *name, const cs_wid *wids, int64_t m, int64_t world,
                                      const cs_gm_limits *lim, cs_gm_pick *pick)
{
  if (cs_gm_name_available(name))
    return cs_gm_strategy_try(name, wids, m, world, lim, pick);
  cs_gm_strategy_note(pick, name, CS_GM_CAND_SKIPPED, 0, m, "not registered");
  return NULL;
}

static bool bdd_wins(cs_groupmap *bdd, int64_t m, double bm_bpg)
{
  double bpg = cs_gm_bpg(cs_gm_size_of(bdd).bits, m);
  return bpg < ST_BDD_MAX_BPG && bpg * ST_BDD_VS_BM <= bm_bpg;
}

/* Section 6.1's rules on an ordered group (sorted wids); the built map. */
static cs_groupmap *choose_ordered(const cs_wid *sorted, int64_t m, int64_t world,
                                   const cs_gm_limits *lim, cs_gm_pick *pick)
{
  cs_groupmap *map = try_if_registered("rs", sorted, m, world, lim, pick);
  if (map) {
    cs_gm_strategy_decide(pick, "rs", "a progression: R/S, 96 bits, O(1) select");
    return map;
  }
  double bm_bpg = eq1_bpg(sorted, m);
  cs_gm_strategy_note(pick, "bm", CS_GM_CAND_ESTIMATED, (uint64_t)(bm_bpg * (double)m), m,
                      "eq. (1): (max - min - 1) / M = %.3f bpg", bm_bpg);
  map = try_if_registered("bdd", sorted, m, world, lim, pick);
  if (map && bdd_wins(map, m, bm_bpg)) {
    cs_gm_strategy_decide(pick, "bdd", "BDD %.3f bpg: below %.0f and at most 1/%.0f of BM's %.3f",
                          cs_gm_bpg(cs_gm_size_of(map).bits, m), ST_BDD_MAX_BPG, ST_BDD_VS_BM,
                          bm_bpg);
    return map;
  }
  cs_gm_free(map);
  if (bm_bpg < ST_BM_MAX_BPG && (map = try_if_registered("bm", sorted, m, world, lim, pick))) {
    cs_gm_strategy_decide(pick, "bm", "BM by eq. (1) %.3f bpg, below an array's %.0f", bm_bpg,
                          ST_BM_MAX_BPG);
    return map;
  }
  map = cs_gm_strategy_try("array", sorted, m, world, lim, pick);
  cs_gm_strategy_decide(pick, "array", "sparse: eq. (1) %.3f bpg is not below %.0f, no small BDD",
                        bm_bpg, ST_BM_MAX_BPG);
  return map;
}

typedef struct {
  cs_groupmap *map;
  uint64_t bits;
} hybrid_best;

static void keep_smaller(hybrid_best *best, cs_groupmap *map)
{
  if (!map)
    return;
  uint64_t bits = cs_gm_size_of(map).bits;
  if (best->map && bits >= best->bits) {
    cs_gm_free(map);
    return;
  }
  cs_gm_free(best->map);
  *best = (hybrid_best){map, bits};
}

/* BWT only when it compresses to ST_BWT_MAX_BPG or less. */
static cs_groupmap *good_bwt(const cs_wid *wids, int64_t m, int64_t world, const cs_gm_limits *lim,
                             cs_gm_pick *pick)
{
  cs_groupmap *bwt = try_if_registered("bwt", wids, m, world, lim, pick);
  if (bwt && cs_gm_bpg(cs_gm_size_of(bwt).bits, m) > ST_BWT_MAX_BPG) {
    cs_gm_strategy_note(pick, "bwt", CS_GM_CAND_SKIPPED, cs_gm_size_of(bwt).bits, m,
                        "compression not good enough: above %.0f bpg", ST_BWT_MAX_BPG);
    cs_gm_free(bwt);
    return NULL;
  }
  return bwt;
}

/* "wtr+X" with X the ordered rules' pick for the sorted members (the
 * set's candidates are built and freed here), or "" without WTR. */
static void chosen_composite(const cs_wid *sorted, int64_t m, int64_t world, const cs_gm_limits *lim,
                             char *name, size_t size)
{
  name[0] = '\0';
  if (!cs_perm_rep_wtr())
    return;
  cs_gm_pick set_pick = {0};
  cs_gm_free(choose_ordered(sorted, m, world, lim, &set_pick));
  cs_gm_pick_clear(&set_pick);
  g_snprintf(name, size, "wtr+%s", set_pick.name);
}

/* sorted is taken over (freed before the candidates are built, so the
 * sorted copy is never alive beside a permutation being built). */
static cs_groupmap *choose_unordered(const cs_wid *wids, cs_wid *sorted, int64_t m, int64_t world,
                                     const cs_gm_limits *lim, cs_gm_pick *pick)
{
  if (lim && lim->rs_allow_negative) {
    cs_groupmap *rs = cs_gm_strategy_try("rs", wids, m, world, lim, pick);
    if (rs) {
      g_free(sorted);
      cs_gm_strategy_decide(pick, "rs", "a decreasing progression (rs_allow_negative): R/S, 96 bits");
      return rs;
    }
  }
  char composite[64];
  chosen_composite(sorted, m, world, lim, composite, sizeof composite);
  g_free(sorted);
  hybrid_best best = {0};
  keep_smaller(&best, good_bwt(wids, m, world, lim, pick));
  if (composite[0])
    keep_smaller(&best, cs_gm_strategy_try(composite, wids, m, world, lim, pick));
  if (!best.map || best.bits >= (uint64_t)m * 32) { /* ARRAY's 32 m bits win ties; built last, alone */
    cs_gm_free(best.map);
    best = (hybrid_best){0};
    keep_smaller(&best, cs_gm_strategy_try("array", wids, m, world, lim, pick));
  } else {
    cs_gm_strategy_note(pick, "array", CS_GM_CAND_ESTIMATED, (uint64_t)m * 32, m,
                        "32 bits per member: not built, %s is smaller", cs_gm_name(best.map));
  }
  cs_gm_strategy_decide(pick, cs_gm_name(best.map),
                        "unordered: fewest bits of array, good BWT and wtr+(ST's set): %s, %.3f bpg",
                        cs_gm_name(best.map), cs_gm_bpg(best.bits, m));
  return best.map;
}

static cs_groupmap *hybrid_build(const cs_wid *wids, int64_t m, int64_t world, const cs_gm_limits *lim,
                                 cs_gm_pick *pick, GError **err)
{
  bool ordered;
  cs_wid *sorted = NULL;
  if (!cs_gm_check_wids_sorted(wids, m, world, &ordered, &sorted, err))
    return NULL;
  cs_gm_pick local = {0};
  cs_gm_pick *use = pick ? pick : &local;
  cs_groupmap *map = ordered ? choose_ordered(wids, m, world, lim, use)
                             : choose_unordered(wids, sorted, m, world, lim, use);
  cs_gm_pick_clear(&local);
  if (!map)
    g_set_error(err, CS_GM_ERROR, CS_GM_ERROR_NOT_APPLICABLE, "no representation could be built");
  return map;
}

const cs_gm_strategy cs_gm_strategy_hybrid = {
    .name = "ST",
    .description = "the paper's hybrid (Section 6): R/S, else a small BDD, else BM by eq. (1), else "
                   "array; unordered: fewest bits of array, good BWT, wtr + that set",
    .build = hybrid_build,
};

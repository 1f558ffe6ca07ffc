/* Strategy "S": smallest space (seed 003, Section 6: "The best
 * representation is found by calculating bpg for each representation and
 * choosing the one with the smallest bpg, which succeeds"; the S
 * annotations of Tables 1 and 2).
 *
 * Builds every applicable representation and keeps the one of fewest bits:
 *  - every row of the registry alone, except a set representation on an
 *    unordered group (recorded as skipped: the core would refuse it);
 *  - for an unordered group, also "wtr+X" for every row X (every
 *    representation stores the sorted set).
 * Choices the paper leaves open: the paper estimates some sizes (eq. (1),
 * lg N for BWT) where we measure them all by building; a refusal (not
 * applicable, or over a limit) just drops the candidate; ties go to the
 * earlier candidate (registry order, singles before composites).  ARRAY
 * always builds, so S always picks something.  Only the current best map is
 * kept alive, so memory stays at two maps.  A candidate whose lower bound
 * (the representation's min_bits; for "wtr+X", X's, the permutation adding
 * to it) is not below the best so far is skipped, not built: it cannot win
 * (ties go to the earlier), and building it would only raise the peak
 * memory (wtr+array on a 10^6-member group held the group, its sorted copy
 * and two ARRAYs at once).  The pick is the same as building everything.
 */
#include "sim/contracts/groupmap_strategy.h"

#include <stdio.h>

typedef struct {
  cs_groupmap *map;
  uint64_t bits;
  int built;
} space_best;

static void consider(space_best *best, cs_groupmap *map)
{
  if (!map)
    return;
  best->built++;
  uint64_t bits = cs_gm_size_of(map).bits;
  if (best->map && bits >= best->bits) {
    cs_gm_free(map);
    return;
  }
  cs_gm_free(best->map);
  best->map = map;
  best->bits = bits;
}

/* A lower bound on the bits of candidate `name` over X = rep. */
static uint64_t candidate_floor(const cs_gm_rep *rep, int64_t m, int64_t world)
{
  return rep->min_bits ? rep->min_bits(m, world) : 0;
}

/* Build candidate `name` unless its floor shows it cannot beat the best. */
static void try_candidate(space_best *best, const char *name, const cs_gm_rep *rep, const cs_wid *wids,
                          int64_t m, int64_t world, const cs_gm_limits *lim, cs_gm_pick *pick)
{
  uint64_t floor = candidate_floor(rep, m, world);
  if (best->map && floor >= best->bits) {
    cs_gm_strategy_note(pick, name, CS_GM_CAND_SKIPPED, 0, m,
                        "at least %" G_GUINT64_FORMAT " bits: cannot beat %s's %" G_GUINT64_FORMAT, floor,
                        cs_gm_name(best->map), best->bits);
    return;
  }
  consider(best, cs_gm_strategy_try(name, wids, m, world, lim, pick));
}

static cs_groupmap *space_build(const cs_wid *wids, int64_t m, int64_t world, const cs_gm_limits *lim,
                                cs_gm_pick *pick, GError **err)
{
  bool ordered;
  if (!cs_gm_check_wids(wids, m, world, &ordered, err))
    return NULL;
  space_best best = {0};
  for (size_t i = 0; i < cs_gm_rep_count(); i++) {
    const cs_gm_rep *rep = cs_gm_rep_at(i);
    if (!ordered && rep->kind == CS_GM_SET)
      cs_gm_strategy_note(pick, rep->name, CS_GM_CAND_SKIPPED, 0, m,
                          "a set representation; the group is unordered");
    else
      try_candidate(&best, rep->name, rep, wids, m, world, lim, pick);
  }
  for (size_t i = 0; !ordered && cs_perm_rep_wtr() && i < cs_gm_rep_count(); i++) {
    char name[64];
    snprintf(name, sizeof name, "wtr+%s", cs_gm_rep_at(i)->name);
    try_candidate(&best, name, cs_gm_rep_at(i), wids, m, world, lim, pick);
  }
  if (!best.map) { /* only when even ARRAY failed, i.e. never */
    g_set_error(err, CS_GM_ERROR, CS_GM_ERROR_NOT_APPLICABLE, "no representation could be built");
    return NULL;
  }
  cs_gm_strategy_decide(pick, cs_gm_name(best.map),
                        "fewest bits of %d built: %s, %" G_GUINT64_FORMAT " bits (%.3f bpg)", best.built,
                        cs_gm_name(best.map), best.bits, cs_gm_bpg(best.bits, m));
  return best.map;
}

const cs_gm_strategy cs_gm_strategy_space = {
    .name = "S",
    .description = "smallest space: build every applicable representation (and wtr+X for an "
                   "unordered group), keep the fewest bits",
    .build = space_build,
};

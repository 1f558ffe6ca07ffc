/* Strategy "T": fastest SELECT (seed 003, Section 6: the strategy that
 * "attempts to minimize ... time"; the T2 annotations of Tables 1 and 2,
 * S-One = the select time of one member, "the overhead for a send").
 *
 * Deterministic: no clock is read.  Each candidate's S-One time comes from
 * the static cost model cs_gm_model_select_ns (a table fitted to this
 * machine's group-map benchmark; the table and where its numbers come from:
 * algorithms/groupmaps/cost_table.c).
 *
 * PROCEDURE.  Every applicable candidate (as for S: each registry row alone,
 * a set representation only on an ordered group; "wtr+X" for each X on an
 * unordered group) gets its model cost with the quantities known before
 * building (p = 1, r = 1: a lower bound).  Candidates are tried cheapest
 * first; a built one gets its full cost (with its real paths, runs and
 * bpg); candidates whose lower bound is above the best full cost are
 * skipped (an equal bound is still tried: it may win the tie on size).  Ties go to the smaller size, then to the
 * earlier candidate.  In practice T picks R/S for a progression and ARRAY
 * otherwise, as the paper finds ("for time, an array is always the
 * fastest"); the candidate table shows the runners-up.
 */
#include "sim/contracts/groupmap_strategy.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* What the model needs to know of a candidate; lower bounds before it is built. */
typedef struct {
  int64_t paths; /* BDD paths, 1 before building */
  int64_t runs;  /* WTR runs, 1 before building */
  double bpg;    /* 0 before building */
} cost_inputs;

static double model_cost(const char *name, const cost_inputs *in)
{
  return cs_gm_model_select_ns(name, in->paths, in->runs, in->bpg);
}

typedef struct {
  char name[32];
  double bound_ns;
  size_t order;
} time_candidate;

static int by_bound(const void *a, const void *b)
{
  const time_candidate *x = a, *y = b;
  if (x->bound_ns != y->bound_ns)
    return x->bound_ns < y->bound_ns ? -1 : 1;
  return (x->order > y->order) - (x->order < y->order);
}

static GArray *applicable_candidates(bool ordered)
{
  GArray *c = g_array_new(FALSE, TRUE, sizeof(time_candidate));
  cost_inputs lower = {.paths = 1, .runs = 1, .bpg = 0};
  for (int composite = 0; composite <= (ordered || !cs_perm_rep_wtr() ? 0 : 1); composite++)
    for (size_t i = 0; i < cs_gm_rep_count(); i++) {
      const cs_gm_rep *rep = cs_gm_rep_at(i);
      if (!composite && !ordered && rep->kind == CS_GM_SET)
        continue;
      time_candidate t = {.order = c->len};
      snprintf(t.name, sizeof t.name, "%s%s", composite ? "wtr+" : "", rep->name);
      t.bound_ns = model_cost(t.name, &lower);
      g_array_append_val(c, t);
    }
  g_array_sort(c, by_bound);
  return c;
}

static double built_cost(const char *name, cs_groupmap *map)
{
  cs_gm_size s = cs_gm_size_of(map);
  cost_inputs in = {.paths = s.paths > 0 ? s.paths : 1,
                    .runs = s.runs > 0 ? s.runs : 1,
                    .bpg = cs_gm_bpg(s.bits, cs_gm_members(map))};
  return model_cost(name, &in);
}

typedef struct {
  cs_groupmap *map;
  double cost;
  uint64_t bits;
} time_best;

static bool better(const time_best *best, double cost, uint64_t bits)
{
  return !best->map || cost < best->cost || (cost == best->cost && bits < best->bits);
}

static void last_row_cost(cs_gm_pick *pick, double cost)
{
  if (pick && pick->candidates && pick->candidates->len > 0)
    g_array_index(pick->candidates, cs_gm_candidate, pick->candidates->len - 1).cost_ns = cost;
}

static void try_candidate(time_best *best, const time_candidate *c, const cs_wid *wids, int64_t m,
                          int64_t world, const cs_gm_limits *lim, cs_gm_pick *pick)
{
  cs_groupmap *map = cs_gm_strategy_try(c->name, wids, m, world, lim, pick);
  if (!map) {
    last_row_cost(pick, c->bound_ns);
    return;
  }
  double cost = built_cost(c->name, map);
  uint64_t bits = cs_gm_size_of(map).bits;
  last_row_cost(pick, cost);
  if (!better(best, cost, bits)) {
    cs_gm_free(map);
    return;
  }
  cs_gm_free(best->map);
  *best = (time_best){map, cost, bits};
}

static cs_groupmap *time_build(const cs_wid *wids, int64_t m, int64_t world, const cs_gm_limits *lim,
                               cs_gm_pick *pick, GError **err)
{
  bool ordered;
  if (!cs_gm_check_wids(wids, m, world, &ordered, err))
    return NULL;
  GArray *cands = applicable_candidates(ordered);
  time_best best = {0};
  for (guint i = 0; i < cands->len; i++) {
    const time_candidate *c = &g_array_index(cands, time_candidate, i);
    if (best.map && c->bound_ns > best.cost) {
      cs_gm_strategy_note(pick, c->name, CS_GM_CAND_SKIPPED, 0, m,
                          "model cost at least %.0f ns, above the best", c->bound_ns);
      last_row_cost(pick, c->bound_ns);
      continue;
    }
    try_candidate(&best, c, wids, m, world, lim, pick);
  }
  g_array_free(cands, TRUE);
  if (!best.map) {
    g_set_error(err, CS_GM_ERROR, CS_GM_ERROR_NOT_APPLICABLE, "no representation could be built");
    return NULL;
  }
  cs_gm_strategy_decide(pick, cs_gm_name(best.map), "fastest modelled S-One: %s, %.1f ns (%.3f bpg)",
                        cs_gm_name(best.map), best.cost, cs_gm_bpg(best.bits, m));
  return best.map;
}

const cs_gm_strategy cs_gm_strategy_time = {
    .name = "T",
    .description = "fastest select: candidates ranked by a static S-One cost model measured on this "
                   "machine (no clock read), the fastest that builds",
    .build = time_build,
};

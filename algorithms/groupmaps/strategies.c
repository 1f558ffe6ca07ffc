/* The strategy registry (seed 003, Section 6: "a routine for configuring
 * different strategies that implement various time/space trade-offs"; "the
 * framework and strategies are designed to allow ... new strategies"), and
 * the helpers the strategy files share: building a candidate and recording
 * it in the candidate table, and setting the pick.  Adding a strategy is its
 * file plus one line in the table below.  Contract:
 * sim/contracts/groupmap_strategy.h.
 */
#include "sim/contracts/groupmap_strategy.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

extern const cs_gm_strategy cs_gm_strategy_space;  /* strategy_space.c */
extern const cs_gm_strategy cs_gm_strategy_time;   /* strategy_time.c */
extern const cs_gm_strategy cs_gm_strategy_hybrid; /* strategy_hybrid.c */

static const cs_gm_strategy *const strategies[] = {
    &cs_gm_strategy_space,
    &cs_gm_strategy_time,
    &cs_gm_strategy_hybrid,
};

size_t cs_gm_strategy_count(void) { return sizeof strategies / sizeof strategies[0]; }

const cs_gm_strategy *cs_gm_strategy_at(size_t i)
{
  return i < cs_gm_strategy_count() ? strategies[i] : NULL;
}

const cs_gm_strategy *cs_gm_strategy_find(const char *name)
{
  for (size_t i = 0; name && i < cs_gm_strategy_count(); i++)
    if (strcmp(strategies[i]->name, name) == 0)
      return strategies[i];
  return NULL;
}

cs_groupmap *cs_gm_create_by_strategy(const char *strategy, const cs_wid *wids, int64_t m,
                                      int64_t world, const cs_gm_limits *lim, cs_gm_pick *pick,
                                      GError **err)
{
  const cs_gm_strategy *s = cs_gm_strategy_find(strategy);
  if (!s) {
    g_set_error(err, CS_GM_ERROR, CS_GM_ERROR_INPUT, "unknown group-map strategy '%s' (known: S, T, ST)",
                strategy ? strategy : "(null)");
    return NULL;
  }
  return s->build(wids, m, world, lim, pick, err);
}

/* ------------------------------------------------------------- helpers */

void cs_gm_pick_clear(cs_gm_pick *pick)
{
  if (!pick)
    return;
  if (pick->candidates)
    g_array_free(pick->candidates, TRUE);
  pick->candidates = NULL;
}

double cs_gm_bpg(uint64_t bits, int64_t m) { return m > 0 ? (double)bits / (double)m : (double)bits; }

static cs_gm_candidate *append_row(cs_gm_pick *pick, const char *name, cs_gm_cand_status status)
{
  if (!pick->candidates)
    pick->candidates = g_array_new(FALSE, TRUE, sizeof(cs_gm_candidate));
  cs_gm_candidate row = {.status = status, .cost_ns = -1};
  g_strlcpy(row.name, name, sizeof row.name);
  g_array_append_val(pick->candidates, row);
  return &g_array_index(pick->candidates, cs_gm_candidate, pick->candidates->len - 1);
}

cs_groupmap *cs_gm_strategy_try(const char *name, const cs_wid *wids, int64_t m, int64_t world,
                                const cs_gm_limits *lim, cs_gm_pick *pick)
{
  GError *e = NULL;
  cs_groupmap *map = cs_gm_create(name, wids, m, world, lim, &e);
  if (pick) {
    cs_gm_candidate *row = append_row(pick, name, map ? CS_GM_CAND_BUILT : CS_GM_CAND_REFUSED);
    if (map) {
      row->bits = cs_gm_size_of(map).bits;
      row->bpg = cs_gm_bpg(row->bits, m);
    } else {
      g_strlcpy(row->note, e->message, sizeof row->note);
    }
  }
  if (e)
    g_error_free(e);
  return map;
}

void cs_gm_strategy_note(cs_gm_pick *pick, const char *name, cs_gm_cand_status status,
                         uint64_t bits, int64_t m, const char *fmt, ...)
{
  if (!pick)
    return;
  cs_gm_candidate *row = append_row(pick, name, status);
  row->bits = bits;
  row->bpg = cs_gm_bpg(bits, m);
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(row->note, sizeof row->note, fmt, ap);
  va_end(ap);
}

void cs_gm_strategy_decide(cs_gm_pick *pick, const char *name, const char *fmt, ...)
{
  if (!pick)
    return;
  g_strlcpy(pick->name, name, sizeof pick->name);
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(pick->reason, sizeof pick->reason, fmt, ap);
  va_end(ap);
}

bool cs_gm_name_available(const char *name)
{
  if (!name)
    return false;
  if (g_str_has_prefix(name, "wtr+"))
    return cs_perm_rep_wtr() != NULL && cs_gm_rep_find(name + 4) != NULL;
  return cs_gm_rep_find(name) != NULL;
}

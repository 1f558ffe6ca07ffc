/* The executor of GOAL graphs on the native engine (see goal_source.h).
 * An op is free when the count of its dependencies reaches zero: an
 * `irequires` dependency is met when the op it names starts, a `requires`
 * one when it completes; the ops freed are offered in the order of the
 * file's dependency lines, and at the start every op without dependencies
 * in the order of the file, as LogGOPSim's txt2bin and Parser do. */
#include "sim/engine/native/goal_source.h"
#include "sim/contracts/bigarray.h"

#include <inttypes.h>
#include <string.h>

typedef struct goal_source {
  const cs_goal_graph *g;
  uint32_t *waiting; /* per op: dependencies not yet met */
  uint8_t *done;     /* per op */
  cs_bigarray *waiting_store, *done_store; /* on disk when the graph is (bigarray.h) */
} goal_source;

static uint64_t global(const goal_source *S, uint32_t rank, uint64_t op) { return S->g->rank_first[rank] + op; }

static void roots(void *self, uint32_t rank, ng_ids *out)
{
  goal_source *S = self;
  uint64_t n = S->g->rank_first[rank + 1] - S->g->rank_first[rank];
  for (uint64_t i = 0; i < n; i++)
    if (S->g->ndeps[global(S, rank, i)] == 0)
      ng_ids_add(out, i);
}

/* Dependants [from, to) of an op: one dependency met each. */
static void release(goal_source *S, uint32_t rank, uint64_t from, uint64_t to, ng_ids *out)
{
  for (uint64_t e = from; e < to; e++) {
    uint32_t d = S->g->out[e];
    if (--S->waiting[global(S, rank, d)] == 0)
      ng_ids_add(out, d);
  }
}

static void started(void *self, uint32_t rank, uint64_t op, ng_ids *out)
{
  goal_source *S = self;
  uint64_t i = global(S, rank, op);
  release(S, rank, S->g->out_first[i] + S->g->nrequired[i], S->g->out_first[i + 1], out);
}

static void done(void *self, uint32_t rank, uint64_t op, ng_ids *out)
{
  goal_source *S = self;
  uint64_t i = global(S, rank, op);
  S->done[i] = 1;
  release(S, rank, S->g->out_first[i], S->g->out_first[i] + S->g->nrequired[i], out);
}

static void get(void *self, uint32_t rank, uint64_t op, cs_goal_op *out)
{
  goal_source *S = self;
  *out = S->g->ops[global(S, rank, op)];
}

static bool finished(void *self, uint32_t rank, GString *waiting)
{
  goal_source *S = self;
  uint64_t n = S->g->rank_first[rank + 1] - S->g->rank_first[rank];
  for (uint64_t i = 0; i < n; i++)
    if (!S->done[global(S, rank, i)]) {
      g_string_append_printf(waiting, "its operation %" PRIu64 " (", i + 1);
      cs_goal_op_text(&S->g->ops[global(S, rank, i)], waiting);
      g_string_append_c(waiting, ')');
      return false;
    }
  return true;
}

bool cs_native_run_goal(const cs_goal_graph *g, const cs_loggops_params *m, cs_native_delivery on_delivery,
                        void *user, cs_native_result *out, GError **err)
{
  goal_source S = {.g = g};
  bool ok = (S.waiting_store = cs_bigarray_new(sizeof(uint32_t), g->on_disk, err)) &&
            cs_bigarray_append(S.waiting_store, g->ndeps, g->nops, err) &&
            cs_bigarray_append(S.waiting_store, NULL, 1, err) &&
            cs_bigarray_finish(S.waiting_store, (void **)&S.waiting, err) &&
            (S.done_store = cs_bigarray_new(sizeof(uint8_t), g->on_disk, err)) &&
            cs_bigarray_append(S.done_store, NULL, g->nops + 1, err) &&
            cs_bigarray_finish(S.done_store, (void **)&S.done, err);
  ng_source src = {.self = &S, .p = g->p, .ncpus = g->ncpus, .nnics = g->nnics, .roots = roots, .started = started,
                   .done = done, .get = get, .finished = finished};
  ok = ok && cs_loggops_run(&src, m, on_delivery, user, out, err);
  cs_bigarray_free(S.waiting_store);
  cs_bigarray_free(S.done_store);
  return ok;
}

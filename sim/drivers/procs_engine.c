/* The engine-neutral entry point of the process drivers (procs_engine.h). */
#include "sim/drivers/procs_engine.h"
#include "sim/contracts/errors.h"
#include "sim/contracts/progress.h"
#include "sim/engine/native/proc_engine.h"

#include <string.h>

/* The last run: which engine, and the native engine's outcome. */
static struct {
  bool native;
  cs_pe_outcome out;
  cs_stuck *stuck;
} last;

typedef struct hooks {
  const cs_engine_config *c;
} hooks;

static int host_of(const cs_engine_config *c, int rank)
{
  return c->host_of ? c->host_of[rank] : rank / (c->cores > 0 ? c->cores : 1);
}

/* A message taken: the configuration's delivery hooks, as SimGrid's
 * backend calls them. */
static void on_take(void *user, const cs_proc *p, const cs_msg *m, double t_recv)
{
  const cs_engine_config *c = ((hooks *)user)->c;
  cs_delivery d = {m->t_sent, t_recv, m->src, p->rank, host_of(c, m->src), host_of(c, p->rank),
                   m->bytes, m->tag, m->ctx, (cs_phase)m->phase};
  if (c->on_delivery)
    c->on_delivery(&d, c->on_delivery_user);
  if (c->tracer)
    c->tracer(&d, c->tracer_user);
}

/* What the native engine cannot honour: one message naming it. */
static bool native_refuses(const cs_engine_config *c, GError **err)
{
  const char *what = c->fail_rank >= 0                     ? "process failure"
                     : c->semantics == CS_SEMANTICS_MPI    ? "--semantics mpi (SimGrid SMPI's)"
                     : c->extra_cfg && c->extra_cfg->len   ? "--cfg (SimGrid's settings)"
                     : c->factory                          ? "--factory (SimGrid's contexts)"
                     : c->crosstraffic                     ? "--crosstraffic (SimGrid's flows)"
                                                           : NULL;
  if (!what)
    return false;
  cs_input_error(err, "the native engine does not model %s: use --engine simgrid", what);
  return true;
}

static void forget_last(void)
{
  g_free(last.out.stuck);
  g_free(last.stuck);
  memset(&last, 0, sizeof last);
}

static gboolean run_native(const cs_procs_engine *e, const cs_engine_config *c, cs_proc *procs, cs_proc_main_fn fn,
                           void *user, GError **err)
{
  if (native_refuses(c, err))
    return FALSE;
  hooks h = {c};
  cs_pe_config pc = {
      .n = c->n, .loggops = e->loggops,
      .stack_bytes = (size_t)(c->stack_kib > 0 ? c->stack_kib : CS_DEFAULT_STACK_KIB) * 1024,
      .host_of = c->host_of, .cores = c->cores, .shared_cpu = c->shared_cpu != 0,
      .observer = c->observer, .observer_user = c->observer_user,
      .on_take = c->on_delivery || c->tracer ? on_take : NULL, .on_take_user = &h,
      .quiet = c->quiet != 0, .progress_messages = c->progress_messages,
  };
  last.native = true;
  if (!cs_pe_run(&pc, procs, fn, user, &last.out, err))
    return FALSE;
  last.stuck = g_new(cs_stuck, last.out.nstuck + 1);
  for (int i = 0; i < last.out.nstuck; i++) {
    const cs_pe_stuck *s = &last.out.stuck[i];
    last.stuck[i] = (cs_stuck){s->rank, s->src, s->ctx, s->tag};
  }
  if (c->tracer_end)
    c->tracer_end(c, c->tracer_user);
  return TRUE;
}

gboolean cs_procs_run(const cs_procs_engine *e, const cs_engine_config *c, cs_proc *procs, cs_proc_main_fn fn,
                      void *user, GError **err)
{
  forget_last();
  if (cs_progress_plan_path()) /* collsim sweep's planning: SimGrid's engine writes the plan and exits before it starts */
    return cs_engine_run(c, procs, fn, user, err);
  if (e && e->native)
    return run_native(e, c, procs, fn, user, err);
  return cs_engine_run(c, procs, fn, user, err);
}

int cs_procs_retired(void) { return last.native ? last.out.retired : cs_engine_retired(); }
bool cs_procs_deadlocked(void) { return last.native ? last.out.deadlocked : cs_engine_deadlocked(); }
double cs_procs_clock(void) { return last.native ? last.out.clock_s : cs_engine_clock(); }

const cs_stuck *cs_procs_stuck(int *count)
{
  if (!last.native)
    return cs_engine_stuck(count);
  if (count)
    *count = last.out.nstuck;
  return last.stuck;
}

char *cs_procs_first_stuck(void)
{
  int n = 0;
  const cs_stuck *s = cs_procs_stuck(&n);
  if (n == 0 || !s)
    return NULL;
  char from[32];
  if (s->src == CS_ANY)
    g_strlcpy(from, "any source", sizeof from);
  else
    g_snprintf(from, sizeof from, "rank %d", s->src);
  return g_strdup_printf("rank %d waits for a message from %s (context %u, tag %d)", s->rank, from, s->ctx, s->tag);
}

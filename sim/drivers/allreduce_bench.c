/* The Allreduce benchmark (see allreduce_bench.h): the reduce and the
 * broadcast tree of a script as two phases of the timed schedule
 * interpreter, repeated 1 + iterations times; hooks carry each rank's
 * value and take rank 0's timestamps.  Tags: iteration i uses 2i for the
 * reduce and 2i + 1 for the broadcast. */
#include "sim/drivers/allreduce_bench.h"
#include "sim/contracts/errors.h"
#include "sim/contracts/tempdir.h"
#include "sim/engine/sched_interp.h"

#include <string.h>

#define VALUE_BYTES 4 /* one int */

typedef struct bench {
  int n;
  long long *value; /* per rank */
  double t_start, t_end;
  long long wrong;
} bench;

static void check_value(bench *b, int rank, int64_t rep)
{
  if (b->value[rank] != (long long)rep * b->n)
    b->wrong++;
}

static void on_start(void *user, cs_proc *p, int64_t rep)
{
  bench *b = user;
  int r = cs_rank(p);
  if (rep > 0)
    check_value(b, r, rep - 1);
  b->value[r] = rep; /* iteration i contributes i */
  if (rep == 1 && r == 0)
    b->t_start = cs_now(p);
}

static size_t payload(void *user, cs_proc *p, int64_t rep, int phase, const cs_op *op, void *buf, size_t cap)
{
  (void)rep;
  (void)phase;
  (void)op;
  bench *b = user;
  g_assert(cap >= sizeof(long long));
  memcpy(buf, &b->value[cs_rank(p)], sizeof(long long));
  return sizeof(long long);
}

static void on_receive(void *user, cs_proc *p, int64_t rep, int phase, const cs_op *op, const cs_msg *m)
{
  (void)rep;
  (void)phase;
  bench *b = user;
  long long v;
  memcpy(&v, m->data, sizeof v);
  if (op->kind == CS_OP_RECV_REDUCE)
    b->value[cs_rank(p)] += v;
  else
    b->value[cs_rank(p)] = v;
}

static void on_end(void *user, cs_proc *p)
{
  bench *b = user;
  (void)p;
  int r = cs_rank(p);
  if (r == 0)
    b->t_end = cs_now(p);
}

int *cs_allreduce_node_map(const cs_platform *p, int n)
{
  int *node_of = g_new(int, n > 0 ? n : 1);
  for (int r = 0; r < n; r++)
    node_of[r] = (int)cs_platform_node_of(p, r);
  return node_of;
}

static bool setup_phases(const cs_platform *pf, const cs_tree_script *s, cs_two_tier *tt, cs_sched_params prm[2],
                         cs_interp_phase phases[2], GError **err)
{
  cs_platform_two_tier(pf, tt);
  tt->p = s->n; /* the script's ranks, maybe fewer than the platform's cores */
  const cs_coll colls[2] = {CS_COLL_REDUCE, CS_COLL_BCAST};
  for (int k = 0; k < 2; k++) {
    const cs_coll_algo *a = cs_coll_algo_find(colls[k], "script");
    GError *e = NULL;
    if (!a || !cs_sched_setup_script(&prm[k], a, tt, VALUE_BYTES, s, &e)) {
      g_set_error(err, CS_INPUT_ERROR, 1, "%s", e ? e->message : "no script schedule");
      g_clear_error(&e);
      return false;
    }
    phases[k] = (cs_interp_phase){a, &prm[k]};
  }
  return true;
}

bool cs_allreduce_run(const cs_platform *pf, const cs_tree_script *s, int iterations, cs_engine_config *ec,
                      cs_allreduce_result *out, GError **err)
{
  memset(out, 0, sizeof *out);
  if (s->n > cs_platform_slots(pf)) {
    g_set_error(err, CS_INPUT_ERROR, 1, "n = %d is larger than the platform: %lld nodes x %d cores", s->n,
                (long long)pf->nodes, pf->cores);
    return false;
  }
  cs_two_tier tt;
  cs_sched_params prm[2];
  cs_interp_phase phases[2];
  if (!setup_phases(pf, s, &tt, prm, phases, err))
    return false;
  char *xml = NULL;
  bool is_temp = false;
  if (!cs_platform_xml_for_run(pf, &xml, &is_temp, err))
    return false;
  int *node_of = cs_allreduce_node_map(pf, s->n);
  bench b = {.n = s->n, .value = g_new0(long long, s->n)};
  cs_interp_hooks hooks = {on_start, payload, on_receive, on_end};
  cs_interp_run run = {.phases = phases, .nphases = 2, .repetitions = (int64_t)iterations + 1, .tag_stride = 1,
                       .gamma = 0, .header_bytes = (uint64_t)pf->header_bytes, .hooks = &hooks, .user = &b};
  ec->platform_file = xml;
  ec->cores = pf->cores;
  ec->host_of = node_of;
  ec->progress_messages = (double)cs_ts_messages(s) * (double)run.repetitions; /* progress against it */
  cs_coll_timed t;
  bool ok = cs_sched_run_timed(&run, ec, &t, err);
  if (ok) {
    for (int r = 0; r < s->n; r++)
      check_value(&b, r, iterations);
    out->sim_time_s = t.sim_time_s;
    out->us_per_allreduce = iterations > 0 ? (b.t_end - b.t_start) / iterations * 1e6 : 0;
    out->messages_per_allreduce = cs_ts_messages(s);
    out->internode_messages_per_allreduce = cs_ts_internode_messages(s, node_of);
    out->wrong_results = b.wrong;
    out->result_ok = b.wrong == 0 && t.finished == s->n && !t.stray_messages && !t.size_mismatches;
  }
  if (is_temp)
    cs_tempfile_remove(xml);
  g_free(xml);
  g_free(node_of);
  g_free(b.value);
  ec->host_of = NULL;
  ec->platform_file = NULL;
  return ok;
}

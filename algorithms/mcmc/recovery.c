/* Rebuilding a communicator after a process failure (seed 004, Section
 * 2.1): "a new communicator can be rebuilt by the application after a
 * failure ... MPI_COMM_SELF is well defined on all live processes,
 * irrespective of the state of any other communicators", so Algorithm 1
 * can build one over the survivors, while MPI_Comm_create, collective over
 * the parent (which holds the failed process), cannot complete.
 *
 * The model (our choices):
 *  - the failure detector is perfect (the messaging interface's
 *    cs_proc_failed: a fault-tolerant MPI's error on any operation with the
 *    failed process), consulted by every survivor at the later of the end
 *    of its work and fail_at + detect (detect: the detector's delay, e.g. a
 *    heartbeat period), so every survivor sees the same failed set;
 *  - the survivors, in rank order, make the new communicator over
 *    MPI_COMM_WORLD: "intercomm" (Algorithm 1), "direct" (Section 5.1) or
 *    "parent" (MPICH's MPI_Comm_create: its id allreduce waits forever for
 *    the failed process; the engine reports the deadlock and the stuck
 *    ranks);
 *  - then an allreduce (sum of 1 per member) on it: every survivor must
 *    get n - 1.
 */
#include "algorithms/mcmc/mcmc.h"

static void sum_i32(void *inout, const void *in, size_t bytes)
{
  int32_t *a = inout;
  const int32_t *b = in;
  for (size_t i = 0; i < bytes / sizeof(int32_t); i++)
    a[i] += b[i];
}

/* The live ranks in order (the detector's view), and p's place in them. */
static cs_wid *live_ranks(cs_proc *p, int64_t n, int64_t *m, int *me)
{
  cs_wid *live = cs_alloc(p, sizeof(cs_wid) * (size_t)n);
  *m = 0;
  for (int64_t r = 0; r < n; r++)
    if (!cs_proc_failed(p, (int)r)) {
      if (r == cs_rank(p))
        *me = (int)*m;
      live[(*m)++] = (cs_wid)r;
    }
  return live;
}

static cs_comm *rebuild(cs_proc *p, cs_mcmc_run *run, cs_comm *world, const cs_wid *live, int64_t m, int me)
{
  const char *how = run->cfg->rebuild;
  uint64_t key = UINT64_C(3) << 62;
  if (g_strcmp0(how, "parent") == 0) {
    cs_create_status status;
    return cs_mpich_comm_create(p, world, live, m, me, run->ids, key, &status);
  }
  if (g_strcmp0(how, "direct") == 0)
    return cs_group_comm_create_direct(p, world, live, m, me, CS_MCMC_TAG_REBUILD, run->ids, key);
  return cs_group_comm_create_intercomm(p, world, live, m, me, CS_MCMC_TAG_REBUILD, run->ids, key);
}

void cs_mcmc_recover(cs_proc *p, cs_mcmc_run *run)
{
  const cs_mcmc_config *c = run->cfg;
  cs_mcmc_proc *me = &run->procs[cs_rank(p)];
  me->rebuilt_size = -1;
  if (c->fail_rank < 0)
    return;
  double start = c->fail_at + c->detect;
  if (cs_now(p) < start)
    cs_compute(p, start - cs_now(p)); /* idle until the detector has spoken */
  cs_comm *world = cs_comm_world(p, run->world);
  int64_t m;
  int mine = -1;
  cs_wid *live = live_ranks(p, c->n, &m, &mine);
  cs_comm *comm = rebuild(p, run, world, live, m, mine);
  cs_free(p, live);
  if (comm) {
    int32_t count = 1;
    cs_comm_allreduce(p, comm, &count, sizeof count, sum_i32);
    me->rebuilt_size = count;
    cs_mpich_comm_free(p, comm, run->ids);
  }
  cs_comm_free(p, world);
}

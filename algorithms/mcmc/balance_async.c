/* Seed 004, Section 4.2, "async": asynchronous load balancing with
 * group-collective communicator creation.  "When a group finishes
 * processing its S work items, it merges with the group to its right.
 * Likewise, groups must periodically check for incoming merge requests";
 * "polling for load balancing requests is performed once after each step".
 * Only the two merging groups take part in a merge.
 *
 * RULES (the paper leaves them open; ours):
 *  1. Groups are ranges [lo, hi] of ranks, the leader is lo.  The group
 *     "to the right" of [lo, hi] is the one holding rank hi + 1, whose
 *     leader is hi + 1 (ranges only grow leftwards into their left
 *     neighbour, so a group's leader is always its lowest rank).  The last
 *     group (hi = n - 1) has no right neighbour: it never wraps around.
 *  2. After every step the leader polls (a non-blocking receive on
 *     MPI_COMM_WORLD) for one merge request and broadcasts the decision over
 *     its group (4 ints: the action, the new range, the items left), so the
 *     group's members move in step with it.
 *  3. A group whose chain is empty after a step is finished: its leader
 *     sends a request (its range) to hi + 1 and waits for the answer; its
 *     members wait for the leader's broadcast.
 *  4. A leader with items left accepts the request it polls (answer: its
 *     hi and the items left) and both groups create the union [lo', hi] by
 *     Algorithm 1 over MPI_COMM_WORLD (--create direct: Section 5.1's
 *     direct creation), tag CS_MCMC_TAG_CREATE + lo'; the merged group goes
 *     on with the right group's chain, each item now taking T / (its new
 *     size).
 *  5. A request that arrives while its target has no items left (it is
 *     finished and waiting for its own right neighbour) stays queued: the
 *     target answers it at its first poll after its own merge.  A target
 *     that will never have work again (nothing to its right has any) is
 *     retired: it answers "no" and its requester retires too, so the "no"
 *     travels leftwards and every group ends.
 *  6. A retired leader with lo > 0 waits for the one request its left
 *     neighbour will send, answers "no" and ends; every other process of a
 *     retired group ends at once.
 * The execution time is when the last process's work ended (its last step,
 * or the "no" that retired its group); the leaders' answering "no"
 * afterwards is not counted.
 */
#include "algorithms/mcmc/mcmc.h"

enum { KEEP_GOING = 0, ABSORB_LEFT = 1, JOIN_RIGHT = 2, RETIRE = 3 };

typedef struct decision {
  int32_t action, lo, hi, items;
} decision;

typedef struct walker {
  int64_t lo, hi, items; /* the group and the items left in its chain */
  cs_comm *comm;
} walker;

static bool is_leader(cs_proc *p, const walker *w) { return cs_rank(p) == w->lo; }

/* The group communicator over [lo, hi] (rules 4 and the initial groups). */
static cs_comm *create_range(cs_proc *p, cs_mcmc_run *run, cs_comm *world, int64_t lo, int64_t hi)
{
  cs_wid *members = cs_mcmc_range(p, lo, hi);
  int tag = CS_MCMC_TAG_CREATE + (int)lo;
  uint64_t key = cs_mcmc_range_key(lo, hi);
  int64_t m = hi - lo + 1, me = cs_rank(p) - lo;
  cs_comm *c = g_strcmp0(run->cfg->create_impl, "direct") == 0
                   ? cs_group_comm_create_direct(p, world, members, m, (int)me, tag, run->ids, key)
                   : cs_group_comm_create_intercomm(p, world, members, m, (int)me, tag, run->ids, key);
  cs_free(p, members);
  g_assert(c && c->size == m && c->rank == me);
  run->procs[cs_rank(p)].regroupings++;
  return c;
}

/* Rule 4: the leader's answer to a polled request. */
static decision absorb(cs_proc *p, cs_msg *req, const walker *w)
{
  const int32_t *asked = req->data; /* the requester's lo, hi */
  int32_t answer[3] = {1, (int32_t)w->hi, (int32_t)w->items};
  cs_send(p, req->src, CS_MCMC_TAG_REPLY, answer, sizeof answer);
  decision d = {ABSORB_LEFT, asked[0], (int32_t)w->hi, (int32_t)w->items};
  cs_msg_free(p, req);
  return d;
}

/* Rule 3: a finished group's leader asks the group on its right. */
static decision ask_right(cs_proc *p, cs_mcmc_run *run, const walker *w)
{
  decision d = {RETIRE, (int32_t)w->lo, (int32_t)w->hi, 0};
  if (w->hi + 1 >= run->cfg->n)
    return d;
  int32_t mine[2] = {(int32_t)w->lo, (int32_t)w->hi};
  cs_send(p, (int)w->hi + 1, CS_MCMC_TAG_REQUEST, mine, sizeof mine);
  cs_msg *m = cs_recv(p, (int)w->hi + 1, CS_MCMC_TAG_REPLY);
  const int32_t *answer = m->data;
  if (answer[0])
    d = (decision){JOIN_RIGHT, (int32_t)w->lo, answer[1], answer[2]};
  cs_msg_free(p, m);
  return d;
}

/* Rule 2: after a step, what the leader decides. */
static decision leader_decides(cs_proc *p, cs_mcmc_run *run, const walker *w)
{
  if (w->items == 0)
    return ask_right(p, run, w);
  cs_msg *req = cs_recv_try(p, CS_ANY, CS_MCMC_TAG_REQUEST);
  return req ? absorb(p, req, w) : (decision){KEEP_GOING, 0, 0, 0};
}

/* Rule 6: the last request from the left gets "no". */
static void refuse_left(cs_proc *p, const walker *w)
{
  if (w->lo == 0)
    return;
  cs_msg *req = cs_recv(p, CS_ANY, CS_MCMC_TAG_REQUEST);
  int32_t answer[3] = {0, 0, 0};
  cs_send(p, req->src, CS_MCMC_TAG_REPLY, answer, sizeof answer);
  cs_msg_free(p, req);
}

static void regroup(cs_proc *p, cs_mcmc_run *run, cs_comm *world, walker *w, const decision *d)
{
  cs_comm *old = w->comm;
  w->comm = create_range(p, run, world, d->lo, d->hi);
  cs_mpich_comm_free(p, old, run->ids);
  w->lo = d->lo;
  w->hi = d->hi;
  w->items = d->items;
}

static void async_main(cs_proc *p, cs_mcmc_run *run)
{
  cs_mcmc_proc *me = &run->procs[cs_rank(p)];
  cs_comm *world = cs_comm_world(p, run->world);
  walker w;
  cs_mcmc_initial_group(run->cfg, cs_rank(p), &w.lo, &w.hi);
  w.items = cs_mcmc_chain_items(run->cfg, w.lo);
  w.comm = create_range(p, run, world, w.lo, w.hi);
  for (;;) {
    if (w.items > 0) {
      cs_mcmc_step(p, run, w.hi - w.lo + 1);
      w.items--;
      me->items_led += is_leader(p, &w);
    }
    decision d = is_leader(p, &w) ? leader_decides(p, run, &w) : (decision){0, 0, 0, 0};
    cs_comm_bcast(p, w.comm, 0, &d, sizeof d);
    if (d.action == RETIRE)
      break;
    if (d.action != KEEP_GOING)
      regroup(p, run, world, &w, &d);
  }
  cs_mcmc_finish(p, run, w.lo, w.hi);
  if (is_leader(p, &w))
    refuse_left(p, &w);
  cs_mpich_comm_free(p, w.comm, run->ids);
  cs_comm_free(p, world);
}

const cs_mcmc_balance cs_mcmc_balance_async = {
    .name = "async",
    .description = "a finished group asks the group on its right; merges by group-collective creation, "
                   "only the two groups take part",
    .run = async_main,
    .creates_groups = true,
};

/* Seed 004, Section 4.2, "collective": parent-collective load balancing.
 * "All processes must perform periodic collective exchange of load
 * information followed by regrouping.  This collective load balancing is
 * performed every i work units."
 *
 * RULES (the paper leaves them open; ours):
 *  1. A process enters a balancing round after every `interval` of its own
 *     steps, or at once when its group has no items left; every process
 *     takes part in every round (the rounds are collective over
 *     MPI_COMM_WORLD), so a finished group waits in the round for the busy
 *     ones.
 *  2. The exchange: an allreduce (OR) over MPI_COMM_WORLD of two bitmaps of
 *     n bits, "rank r leads its group" and "rank r's group has no items
 *     left", by a binomial reduce and broadcast (2 (n - 1) messages of
 *     n / 4 bytes).  Every process then knows every group and which are
 *     finished.
 *  3. When every group is finished the run ends.  Otherwise each maximal
 *     run of consecutive finished groups joins the nearest group on its
 *     right that has items left (the paper's rule for the asynchronous
 *     mode; with it the deterministic model gives Table 1's collective
 *     counts); finished groups with no busy group to their right stay as
 *     they are.  Not implemented: joining the most loaded group, which
 *     needs the items per group in the exchange and groups that are not
 *     rank ranges.
 *  4. If some group changes, every process calls MPI_Comm_create over
 *     MPI_COMM_WORLD (MPICH's, parent-collective: the id allreduce over all
 *     n), the members of a changed group with their new range, the others
 *     with the empty group (they keep their communicator); then the new
 *     group's members learn the items left by a broadcast from the busy
 *     group's first member.  No change, no creation.
 *  5. The initial walker groups are made the same way: one MPI_Comm_create
 *     over MPI_COMM_WORLD with every group.
 * The execution time is when the last process left the round that found
 * every group finished.
 */
#include "algorithms/mcmc/mcmc.h"

#include <string.h>

typedef struct walker {
  int64_t lo, hi, items;
  cs_comm *comm;
} walker;

/* One MPI_Comm_create over the world: members of [lo, hi] (lo < 0: this
 * process's group does not change). */
static cs_comm *create_over_world(cs_proc *p, cs_mcmc_run *run, cs_comm *world, int64_t lo, int64_t hi)
{
  cs_wid *members = lo >= 0 ? cs_mcmc_range(p, lo, hi) : NULL;
  uint64_t key = lo >= 0 ? cs_mcmc_range_key(lo, hi) : 0;
  cs_create_status status;
  cs_comm *c = cs_mpich_comm_create(p, world, members, hi - lo + 1, (int)(cs_rank(p) - lo), run->ids, key, &status);
  g_assert(status == CS_CREATE_OK && (lo < 0 || (c && c->size == hi - lo + 1)));
  if (members) {
    cs_free(p, members);
    run->procs[cs_rank(p)].regroupings++;
  }
  return c;
}

/* Rule 2: the two bitmaps, OR-ed over the world. */
static uint8_t *exchange(cs_proc *p, cs_comm *world, const walker *w)
{
  size_t half = (size_t)(world->size + 7) / 8;
  uint8_t *bits = cs_alloc(p, 2 * half);
  memset(bits, 0, 2 * half);
  int r = cs_rank(p);
  if (r == w->lo)
    bits[r / 8] |= (uint8_t)(1u << (r % 8));
  if (w->items == 0)
    bits[half + (size_t)r / 8] |= (uint8_t)(1u << (r % 8));
  cs_comm_reduce(p, world, 0, bits, 2 * half, cs_reduce_bor);
  cs_comm_bcast(p, world, 0, bits, 2 * half);
  return bits;
}

static bool bit(const uint8_t *b, int64_t i) { return (b[i / 8] >> (i % 8)) & 1; }

/* Rule 3's outcome for the process of rank r. */
typedef struct plan_t {
  int64_t lo, hi;  /* its new group, lo = -1 when its group does not change */
  int64_t busy_lo; /* the first rank of the busy group it is in or joins */
  bool all_done;   /* every group is finished */
  bool any;        /* some group changes */
} plan_t;

static plan_t plan(const uint8_t *bits, int64_t n, int64_t r)
{
  const uint8_t *leads = bits, *idle = bits + (n + 7) / 8;
  plan_t pl = {-1, -1, -1, true, false};
  int64_t run_start = -1; /* first rank of the current run of finished groups */
  for (int64_t g = 0; g < n;) {
    int64_t end = g + 1;
    while (end < n && !bit(leads, end))
      end++;
    bool finished = bit(idle, g);
    pl.all_done &= finished;
    if (finished && run_start < 0)
      run_start = g;
    if (!finished && run_start >= 0) { /* the run [run_start, g) joins [g, end) */
      pl.any = true;
      if (r >= run_start && r < end)
        pl = (plan_t){run_start, end - 1, g, pl.all_done, true};
    }
    if (!finished)
      run_start = -1;
    g = end;
  }
  return pl;
}

/* Rules 1-4: one round; FALSE when every group is finished. */
static bool balance_round(cs_proc *p, cs_mcmc_run *run, cs_comm *world, walker *w)
{
  uint8_t *bits = exchange(p, world, w);
  plan_t pl = plan(bits, world->size, cs_rank(p));
  cs_free(p, bits);
  if (pl.all_done || !pl.any)
    return !pl.all_done;
  cs_comm *c = create_over_world(p, run, world, pl.lo, pl.hi);
  if (!c)
    return true; /* this process's group does not change */
  int32_t items = (int32_t)w->items;
  cs_comm_bcast(p, c, (int)(pl.busy_lo - pl.lo), &items, sizeof items);
  cs_mpich_comm_free(p, w->comm, run->ids);
  *w = (walker){pl.lo, pl.hi, items, c};
  return true;
}

static void collective_main(cs_proc *p, cs_mcmc_run *run)
{
  cs_mcmc_proc *me = &run->procs[cs_rank(p)];
  cs_comm *world = cs_comm_world(p, run->world);
  walker w;
  cs_mcmc_initial_group(run->cfg, cs_rank(p), &w.lo, &w.hi);
  w.items = cs_mcmc_chain_items(run->cfg, w.lo);
  w.comm = create_over_world(p, run, world, w.lo, w.hi);
  int64_t since = 0;
  for (bool going = true; going;) {
    if (w.items > 0) {
      cs_mcmc_step(p, run, w.hi - w.lo + 1);
      w.items--;
      since++;
      me->items_led += cs_rank(p) == w.lo;
    }
    if (w.items > 0 && since < run->cfg->interval)
      continue;
    since = 0;
    going = balance_round(p, run, world, &w);
  }
  cs_mcmc_finish(p, run, w.lo, w.hi);
  cs_mpich_comm_free(p, w.comm, run->ids);
  cs_comm_free(p, world);
}

const cs_mcmc_balance cs_mcmc_balance_collective = {
    .name = "collective",
    .description = "every i steps all processes exchange load and regroup with MPI_Comm_create over "
                   "MPI_COMM_WORLD (parent-collective)",
    .run = collective_main,
    .regroups_every_interval = true,
};

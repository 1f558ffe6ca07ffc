/* MPI_Comm_split baseline (seed 000, Sec. 6 "Comparison with MPI_Comm_split",
 * Table 1), as MPICH and Open MPI implement it: every process contributes
 * (colour, key), an allgather gives every process all n pairs, and each
 * process sorts the pairs of its colour by (key, old rank) to find its new rank.
 *
 * Allgather: Bruck's algorithm (MPICH's choice for short messages and any n):
 * ceil(log2 n) rounds; in round s process r sends to r - 2^s the
 * min(2^s, n - 2^s) pairs it has and receives as many from r + 2^s (mod n).
 * Messages: n * ceil(log2 n); 8 bytes per pair.  The pairs travel as virtual
 * payloads (sim/contracts/msg.h): their size is simulated and charged as memory (n words
 * per process: O(n)), and their content -- every rank's colour, key = old rank
 * -- is decoded with ctx->color_of once the allgather is complete.
 *
 * Sort: charged as CPU time, m_c log2(m_c) comparisons of SORT_COMPARE_S each
 * (m_c members of the process's colour; 20 ns = 17 cycles of an 850 MHz
 * PowerPC 450, our estimate), and m_c words of memory.  The new
 * communicator's tree is the k-ary heap over the new ranks.  The decoded
 * member lists are identical on every process of a colour, so the simulator
 * builds each one once (a cache of the simulator, not of the processes).
 */
#include "algorithms/shapes/tree_shapes.h"
#include "algorithms/spanning_trees/tree_algo.h"

#include <glib.h>
#include <math.h>

#define SORT_COMPARE_S 20e-9
enum { TAG_ALLGATHER = CS_TAG_ALGO_BASE };

void comm_split_run(cs_proc *p, const cs_tree_ctx *ctx, cs_tree_node *out);
uint64_t comm_split_messages(const cs_tree_shape *s);
double comm_split_work(const cs_tree_shape *s);

/* n * ceil(log2 n): every process sends once per round of Bruck's allgather. */
uint64_t comm_split_messages(const cs_tree_shape *s)
{
  uint64_t rounds = 0;
  while ((1ULL << rounds) < (uint64_t)s->n)
    rounds++;
  return (uint64_t)s->n * rounds;
}

/* Pairs each process sends in the round at distance dist: min(dist, n - dist). */
static int64_t round_pairs(int64_t dist, int64_t n) { return dist < n - dist ? dist : n - dist; }

/* The progress weight of those messages: round s carries min(2^s, n - 2^s)
 * pairs of 8 bytes, from 8 B to n/2 x 8 B, so plain counting would make the
 * cheap first rounds look like most of the run. */
double comm_split_work(const cs_tree_shape *s)
{
  double work = 0;
  for (int64_t dist = 1; dist < s->n; dist *= 2)
    work += (double)s->n * cs_message_work((size_t)round_pairs(dist, s->n) * 8);
  return work;
}

static void bruck_allgather(cs_proc *p, int n)
{
  int r = cs_rank(p);
  cs_mem_hold(p, n); /* the receive buffer: one 8-byte pair per process */
  for (int64_t dist = 1; dist < n; dist *= 2) {
    int64_t count = round_pairs(dist, n);
    int to = (int)((r - dist + n) % n), from = (int)((r + dist) % n);
    cs_send(p, to, TAG_ALLGATHER, NULL, (size_t)count * 8);
    cs_msg_free(p, cs_recv(p, from, TAG_ALLGATHER));
  }
}

/* Members of each colour in increasing old rank (= key order): the sort's
 * result, decoded once per colour from the allgathered pairs. */
static GArray **member_lists;

static const GArray *sorted_members(const cs_tree_ctx *ctx, int color)
{
  if (!member_lists)
    member_lists = g_new0(GArray *, ctx->colors);
  if (!member_lists[color]) {
    GArray *a = g_array_new(FALSE, FALSE, sizeof(int32_t));
    for (int32_t r = 0; r < ctx->n; r++)
      if (ctx->color_of(ctx, r) == color)
        g_array_append_val(a, r);
    member_lists[color] = a;
  }
  return member_lists[color];
}

static int64_t position_of(const GArray *list, int32_t id)
{
  int64_t lo = 0, hi = (int64_t)list->len - 1;
  while (lo <= hi) {
    int64_t mid = (lo + hi) / 2, v = g_array_index(list, int32_t, mid);
    if (v == id)
      return mid;
    if (v < id)
      lo = mid + 1;
    else
      hi = mid - 1;
  }
  return -1;
}

void comm_split_run(cs_proc *p, const cs_tree_ctx *ctx, cs_tree_node *out)
{
  int n = ctx->n, k = ctx->k;
  bruck_allgather(p, n);
  if (!ctx->is_member) {
    cs_mem_hold(p, -n);
    return;
  }
  const GArray *list = sorted_members(ctx, ctx->color);
  int64_t m = list->len;
  cs_mem_hold(p, m); /* the sorted pairs of this colour */
  cs_compute(p, m > 1 ? (double)m * log2((double)m) * SORT_COMPARE_S : 0);
  int64_t me = position_of(list, cs_rank(p));
  out->member = 1;
  out->color = ctx->color;
  int64_t parent = kary_parent(me, k);
  out->parent = parent < 0 ? -1 : g_array_index(list, int32_t, parent);
  out->nchildren = kary_nchildren(me, k, m);
  out->children = cs_alloc(p, sizeof(int) * (size_t)out->nchildren);
  for (int i = 0; i < out->nchildren; i++)
    out->children[i] = g_array_index(list, int32_t, kary_first_child(me, k) + i);
  cs_mem_hold(p, -m - n);
}

/* Rank-and-Hash (seed 000, Sec. 5), written for C colours so that the
 * multi-colour version of Sec. 6 (rank_hash_split.c) is the same code.
 *
 * Upward pass: each vertex of the parent tree (k-ary heap over 0..n-1) adds
 * its own participation to its children's counts and sends the per-colour
 * counts (C words) to its parent; it keeps its children's counts.
 * Downward pass: the root knows the group sizes m_c; ranks [0, m_c) are split
 * among subtrees in order: the vertex itself first, then its children in heap
 * order.  A message (sizes, first rank per colour: 2C words) goes only to
 * children whose subtree holds a member; a vertex whose subtree holds none
 * knows it from its counts and stops after the upward pass.
 * Hashing: see hash_exchange.c.
 *
 * Exact message count for one colour with m >= 1 (test: tests/unit/spanning_trees.c):
 *   (n - 1)            upward counts
 * + s                  downward: s = non-root vertices whose subtree holds a member
 * + (2m - 1)           ids to intermediaries
 * + (m - 1)            parent ids back
 * + ceil((m - 1) / k)  children ids back
 * The paper's n + 4m + m/k counts the downward pass as m; s >= m - 1, with
 * equality when every vertex on the way to a member is itself a member.
 * With m = 0 only the n - 1 upward messages are sent.  With C colours the
 * upward pass and s are shared and the last three terms are summed over the
 * colours (rank_and_hash_messages).
 */
#include "algorithms/spanning_trees/rank_hash.h"
#include "algorithms/spanning_trees/hash_exchange.h"
#include "algorithms/shapes/tree_shapes.h"

#include <glib.h>
#include <string.h>

enum { TAG_COUNT_UP = CS_TAG_ALGO_BASE, TAG_RANKS_DOWN };

void rank_hash_run(cs_proc *p, const cs_tree_ctx *ctx, cs_tree_node *out);

/* s: non-root vertices of the parent heap whose subtree holds a member. */
uint64_t cs_tree_vertices_above_members(const cs_tree_shape *s)
{
  int64_t *below = g_new0(int64_t, s->n > 0 ? s->n : 1);
  uint64_t count = 0;
  for (int64_t v = (int64_t)s->n - 1; v > 0; v--) {
    below[v] += s->color[v] >= 0;
    count += below[v] > 0;
    below[kary_parent(v, s->k)] += below[v];
  }
  g_free(below);
  return count;
}

uint64_t rank_and_hash_messages(const cs_tree_shape *s)
{
  uint64_t total = (uint64_t)s->n - 1, m = 0;
  for (int c = 0; c < s->colors; c++) {
    uint64_t mc = (uint64_t)s->m_color[c], k = (uint64_t)s->k;
    m += mc;
    if (mc > 0)
      total += (2 * mc - 1) + (mc - 1) + (mc - 1 + k - 1) / k;
  }
  return m > 0 ? total + cs_tree_vertices_above_members(s) : total;
}

static int64_t sum_of(const int64_t *v, int colors)
{
  int64_t s = 0;
  for (int c = 0; c < colors; c++)
    s += v[c];
  return s;
}

/* Upward pass. child_counts gets nchildren x C counts; total gets the subtree's. */
static void count_up(cs_proc *p, const cs_tree_ctx *ctx, int nchildren, int64_t *child_counts, int64_t *total)
{
  int r = cs_rank(p), C = ctx->colors;
  int64_t first = kary_first_child(r, ctx->k);
  memset(total, 0, sizeof(int64_t) * (size_t)C);
  if (ctx->is_member)
    total[ctx->color] = 1;
  for (int i = 0; i < nchildren; i++) {
    cs_msg *m = cs_recv(p, (int)(first + i), TAG_COUNT_UP);
    memcpy(&child_counts[(size_t)i * C], m->data, sizeof(int64_t) * (size_t)C);
    cs_msg_free(p, m);
    for (int c = 0; c < C; c++)
      total[c] += child_counts[(size_t)i * C + c];
  }
  if (r != 0)
    cs_send(p, kary_parent(r, ctx->k), TAG_COUNT_UP, total, sizeof(int64_t) * (size_t)C);
}

/* Downward pass: sizes_and_next = [m_0..m_{C-1}, next rank_0..next rank_{C-1}].
 * Takes this vertex's rank, then hands ranges to the children. Returns its rank. */
static int64_t assign_ranks(cs_proc *p, const cs_tree_ctx *ctx, int nchildren, const int64_t *child_counts,
                            int64_t *sizes_and_next)
{
  int r = cs_rank(p), C = ctx->colors;
  int64_t *next = sizes_and_next + C;
  int64_t my_rank = -1;
  if (ctx->is_member)
    my_rank = next[ctx->color]++;
  int64_t first = kary_first_child(r, ctx->k);
  for (int i = 0; i < nchildren; i++) {
    const int64_t *cc = &child_counts[(size_t)i * C];
    if (sum_of(cc, C) == 0)
      continue;
    cs_send(p, (int)(first + i), TAG_RANKS_DOWN, sizes_and_next, sizeof(int64_t) * 2 * (size_t)C);
    for (int c = 0; c < C; c++)
      next[c] += cc[c];
  }
  return my_rank;
}

void rank_and_hash(cs_proc *p, const cs_tree_ctx *ctx, cs_tree_node *out)
{
  int r = cs_rank(p), C = ctx->colors;
  hash_exchange_install(p, ctx->k);
  int nchildren = kary_nchildren(r, ctx->k, ctx->n);
  int64_t *child_counts = cs_alloc(p, sizeof(int64_t) * (size_t)(nchildren > 0 ? nchildren : 1) * C);
  int64_t *total = cs_alloc(p, sizeof(int64_t) * (size_t)C);
  int64_t *sizes_and_next = cs_alloc(p, sizeof(int64_t) * 2 * (size_t)C);
  count_up(p, ctx, nchildren, child_counts, total);
  int64_t my_rank = -1;
  if (sum_of(total, C) > 0) {
    if (r == 0) {
      memcpy(sizes_and_next, total, sizeof(int64_t) * (size_t)C);
      memset(sizes_and_next + C, 0, sizeof(int64_t) * (size_t)C);
    } else {
      cs_msg *m = cs_recv(p, kary_parent(r, ctx->k), TAG_RANKS_DOWN);
      memcpy(sizes_and_next, m->data, sizeof(int64_t) * 2 * (size_t)C);
      cs_msg_free(p, m);
    }
    my_rank = assign_ranks(p, ctx, nchildren, child_counts, sizes_and_next);
  }
  int64_t m_color = ctx->is_member ? sizes_and_next[ctx->color] : 0, offset = 0;
  for (int c = 0; ctx->is_member && c < ctx->color; c++)
    offset += sizes_and_next[c];
  cs_free(p, child_counts);
  cs_free(p, total);
  cs_free(p, sizes_and_next);
  if (ctx->is_member)
    hash_exchange_discover(p, ctx->k, my_rank, m_color, offset, ctx->color, out);
}

void rank_hash_run(cs_proc *p, const cs_tree_ctx *ctx, cs_tree_node *out) { rank_and_hash(p, ctx, out); }

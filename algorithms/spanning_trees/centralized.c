/* Centralized reference scheme (seed 000, Sec. 3): a gatherv of member ids up
 * the parent tree, then a scatter down the tree under construction.
 *
 * Upward: every vertex of the parent tree (k-ary heap over 0..n-1) sends its
 * parent the ids of the members in its subtree (itself first, then each child's
 * list in heap order) -- an empty message when there is none, as a gatherv
 * does.  Downward: the parent-tree root sends the whole list of m ids to the
 * new root, the first id of the list (no message when that is itself).  A
 * vertex holding the list of its subtree reads it as a k-ary heap: entry 0 is
 * itself, entries 1..k its children, and each child gets the ids of its heap
 * subtree in breadth-first order (a heap subtree of a heap is again a heap,
 * because the descendants at each depth form one contiguous range truncated
 * at the end).  So the new tree is the k-ary heap over the gathered list and
 * has minimal height.
 *
 * Messages: (n - 1) up + (1 if the new root is not rank 0) + (m - 1) down,
 * and n - 1 when m = 0.  Payloads are 4-byte ids; a downward message also
 * carries the sender's id (its parent).  Memory: O(m) at the root.
 */
#include "algorithms/shapes/tree_shapes.h"
#include "algorithms/spanning_trees/tree_algo.h"

#include <string.h>

enum { TAG_GATHER = CS_TAG_ALGO_BASE, TAG_SCATTER };

void centralized_run(cs_proc *p, const cs_tree_ctx *ctx, cs_tree_node *out);
uint64_t centralized_messages(const cs_tree_shape *s);

/* The count at the top of this file. */
uint64_t centralized_messages(const cs_tree_shape *s)
{
  int64_t m = 0;
  for (int c = 0; c < s->colors; c++)
    m += s->m_color[c];
  if (m == 0)
    return (uint64_t)s->n - 1;
  return (uint64_t)s->n - 1 + (s->color[0] < 0) + (uint64_t)(m - 1);
}

/* Upward gatherv; returns the ids of the subtree's members (count in *len). */
static int32_t *gather_up(cs_proc *p, const cs_tree_ctx *ctx, int64_t *len)
{
  int r = cs_rank(p);
  int nchildren = kary_nchildren(r, ctx->k, ctx->n);
  int64_t first = kary_first_child(r, ctx->k);
  int32_t *ids = cs_alloc(p, sizeof(int32_t));
  int64_t count = 0;
  if (ctx->is_member)
    ids[count++] = r;
  for (int i = 0; i < nchildren; i++) {
    cs_msg *m = cs_recv(p, (int)(first + i), TAG_GATHER);
    int64_t got = (int64_t)(m->bytes / sizeof(int32_t));
    if (got > 0) {
      ids = cs_realloc(p, ids, sizeof(int32_t) * (size_t)(count + got));
      memcpy(ids + count, m->data, m->bytes);
      count += got;
    }
    cs_msg_free(p, m);
  }
  if (r != 0)
    cs_send(p, kary_parent(r, ctx->k), TAG_GATHER, ids, sizeof(int32_t) * (size_t)count);
  *len = count;
  return ids;
}

/* Send to each child its heap subtree: [my id, ids in breadth-first order]. */
static void scatter_down(cs_proc *p, const cs_tree_ctx *ctx, const int32_t *list, int64_t len, cs_tree_node *out)
{
  int k = ctx->k;
  out->nchildren = kary_nchildren(0, k, len);
  out->children = cs_alloc(p, sizeof(int) * (size_t)out->nchildren);
  for (int c = 0; c < out->nchildren; c++) {
    int64_t child = 1 + c, size = kary_subtree_size(child, k, len);
    int32_t *msg = cs_alloc(p, sizeof(int32_t) * (size_t)(size + 1));
    msg[0] = cs_rank(p);
    int64_t at = 1;
    for (int64_t lo = child, width = 1; lo < len; lo = lo * k + 1, width *= k)
      for (int64_t i = lo; i < lo + width && i < len; i++)
        msg[at++] = list[i];
    out->children[c] = list[child];
    cs_send(p, list[child], TAG_SCATTER, msg, sizeof(int32_t) * (size_t)at);
    cs_free(p, msg);
  }
}

void centralized_run(cs_proc *p, const cs_tree_ctx *ctx, cs_tree_node *out)
{
  int r = cs_rank(p);
  int64_t len = 0;
  int32_t *ids = gather_up(p, ctx, &len);
  if (r == 0 && len > 0 && ids[0] != r) {
    /* Hand the whole list to the new root, marked as having no parent. */
    int32_t *msg = cs_alloc(p, sizeof(int32_t) * (size_t)(len + 1));
    msg[0] = -1;
    memcpy(msg + 1, ids, sizeof(int32_t) * (size_t)len);
    cs_send(p, ids[0], TAG_SCATTER, msg, sizeof(int32_t) * (size_t)(len + 1));
    cs_free(p, msg);
  }
  int root_here = r == 0 && len > 0 && ids[0] == r;
  if (!ctx->is_member) {
    cs_free(p, ids);
    return;
  }
  out->member = 1;
  out->color = 0;
  if (root_here) {
    out->parent = -1;
    scatter_down(p, ctx, ids, len, out);
    cs_free(p, ids);
    return;
  }
  cs_free(p, ids);
  cs_msg *m = cs_recv(p, CS_ANY, TAG_SCATTER);
  const int32_t *body = m->data;
  out->parent = body[0];
  scatter_down(p, ctx, body + 1, (int64_t)(m->bytes / sizeof(int32_t)) - 1, out);
  cs_msg_free(p, m);
}

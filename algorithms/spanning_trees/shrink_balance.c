/* Shrink-and-Balance (seed 000, Section 4): shrink the parent tree into a
 * members-only tree on the way up, then balance it to minimal height on the
 * way down, over the new tree.
 *
 * Terms.  A *position* is a vertex q of the parent tree (the k-ary heap over
 * ranks 0..n-1, depth d_q = kary_depth(q), eq. (1)); its *occupant* is the
 * member standing there in the shrunk tree.  A non-member position is a *hole*.
 *
 * UPWARD PASS (one TAG_UP message per parent-tree edge, n - 1 in all).  Every
 * position q receives from each parent-tree child c a summary of the shrunk
 * tree T_c built in c's subtree: its size s_c, the occupant of its root, the
 * root's *structure position* (the position whose children record describes
 * the root's children; see FILL) and a *candidate list* L_c.  L_c is a peeling
 * order of T_c (each entry is a leaf once the entries before it are gone) of
 * length min(s_c, d_c) -- the paper's "min(subtree(v), d_v) leaves", one per
 * ancestor that may be a hole.  An entry is (id, current structure position).
 *   - member q: occupies q; its children are the roots of the nonempty T_c;
 *     L_q = round-robin merge of the children's lists, then q itself when the
 *     merge covers all of them, truncated to d_q.
 *   - hole with no nonempty child: T_q empty.
 *   - hole with one nonempty child: *spliced* -- T_q = T_c passed up unchanged
 *     (list truncated to d_q).  This is the paper's "immediate child as filler"
 *     in the only case where it keeps degree <= k, and it costs no message.
 *   - hole with >= 2 nonempty children: filled with a member LEAF (Fig. 1): the
 *     first entry x of the list of the largest child.  q sends x one TAG_FILL
 *     message holding the children record of position q (x's new children)
 *     and x's previous position, and forwards root = x upward.  L_q = merge of
 *     the lists without x, then x when everything is covered.
 * Who learns that a leaf left?  Nobody, during the upward pass: ancestors only
 * ever take entries from the FRONT of the lists they receive, and every list is
 * a deterministic merge of its children's lists, so "the first t entries of L_q
 * were taken above" (one integer t carried down with the position) lets the
 * holder of position q recompute how many entries each child lost: the child's
 * t, hence its remaining size, and whether it vanished (t = size).  A vertex
 * taken as filler several times (possible only when it is alone in the tree
 * at its hole) receives several FILLs; each names the previous position, so
 * the final one (named in the placement below) leads through the whole chain
 * and every FILL is received.  Memory: the k child summaries (O(k log n)
 * words, transient) and the children record of the own position (5k int32).
 * Non-members return right after the upward pass (after their FILL, if any).
 *
 * DOWNWARD PASS (over the new tree).  Rank 0 knows m = s_0 and the target
 * height h = kary_min_height(m, k) (the paper's h = d_{m-1,k} + 1 levels) and
 * places the root.  The unit of work is an *item*: a subtree still hanging
 * together, named by (root id, size, structure position, t).  A vertex V with
 * budget H (its subtree may be H high, i.e. hold at most cap(H) =
 * (k^{H+1}-1)/(k-1) vertices, eq. (2)) receives a TAG_BAL PLACE message from
 * its new parent: parent id, H, its own (position, t), and a list of *adopted*
 * items.  Invariant: V's own remaining subtree plus the adopted items total at
 * most cap(H) vertices.  V's pool = its remaining children (from its children
 * record and t) plus the adopted items; each must end below one of at most k
 * children, in a child subtree of at most cap(H-1) vertices:
 *   1. suppliers: an item bigger than cap(H-1) is asked to shed (TAG_BAL SPLIT
 *      to its root, TAG_DETACHED reply): the root detaches whole child subtrees
 *      (the smallest one that removes the whole excess, else the largest, and
 *      repeat) until it fits; the detached subtrees join V's pool as items.
 *      Only the root is involved: moving a subtree costs no message per vertex.
 *   2. if at most k items remain, each becomes a child of V (nothing moves:
 *      this is where "stop striving" happens -- a subtree whose size fits its
 *      capacity is not touched at this level, and a subtree too high for its
 *      budget is necessarily too big one level further down, where it sheds);
 *   3. else matchmaking: the k largest items become V's children (they fill
 *      V's missing children first); every other item, largest first, is
 *      assigned to the child with the most room left (the consumers) as an
 *      adopted item; an item that fits nowhere sheds down to that room first.
 *   Then V sends one PLACE to each child, which recurses.  Since the pool
 *   totals at most cap(H) - 1 = k cap(H-1), the packing always succeeds
 *   (a lone root has size 1 and some room is >= 1), and at budget 0 the pool
 *   is empty: the new tree has height <= h, i.e. minimal height.
 * A SPLIT reaches a vertex only before its PLACE (only the holder of its item
 * sends either, and the holder that places it is the last holder), and a
 * vertex answers SPLITs while waiting, so there is no deadlock; every member
 * receives exactly one PLACE.  Holes never wait for anything.
 *
 * Messages: (n - 1) UP + F FILL (F = holes with >= 2 nonempty children) +
 * (m - 1) PLACE (+1 when the new root is not rank 0) + 2 per SPLIT; n - 1 when
 * m = 0.  Measured when written (k = 3, seed 1), against n + m: n = 32768,
 * f = 0.1: 39414 vs 35926; f = 0.6: 58540 vs 52332; f = 0.99: 65293 vs 65189
 * (Rank-and-Hash's n + 4m + m/k: 46452, 117545, 173259).  Memory: O(k log n)
 * words in the upward pass; the downward pass holds a pool of 16-byte items,
 * measured at most 11 items; peak per process 114 words at n = 32768, k = 3
 * (170 at k = 8).  Everything is deterministic: ties break on the lowest
 * child index / id.
 *
 * Choices the paper leaves open, made here: splicing of one-child holes; the
 * filler is the first candidate of the largest child; candidate lists merged
 * round-robin; removals communicated lazily through the count t; balancing
 * moves whole subtrees (not single leaves) and pairs suppliers with consumers
 * by worst-fit in decreasing size; the height test is the size test above.
 * Most SPLITs shed the holder's own children; sending each child's children
 * record up with its summary would let the holder do those locally (about 2-3%
 * fewer messages) for O(k^2) words per vertex -- not done, to stay lean.
 */
#include "algorithms/shapes/tree_shapes.h"
#include "algorithms/spanning_trees/tree_algo.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void shrink_balance_run(cs_proc *p, const cs_tree_ctx *ctx, cs_tree_node *out);

enum {
  TAG_UP = CS_TAG_ALGO_BASE, /* subtree summary: parent-tree child -> parent */
  TAG_FILL,                  /* hole -> its filler: the children it now heads */
  TAG_BAL,                   /* PLACE or SPLIT, to the root of an item */
  TAG_DETACHED               /* answer to a SPLIT */
};
enum { KIND_PLACE = 1, KIND_SPLIT = 2 };

/* Message layouts, in int32 words:
 *   UP:       [size, root, pos, len, (id, cur) x len]   ([0] when empty)
 *   FILL:     [prev, nslots, sb_slot x nslots]
 *   PLACE:    [KIND_PLACE, parent, budget, pos, t, nadopt, sb_item x nadopt]
 *   SPLIT:    [KIND_SPLIT, pos, t, target]
 *   DETACHED: [newsize, ndet, sb_item x ndet]                                */
enum { UP_HDR = 4, FILL_HDR = 2, PLACE_HDR = 6, DET_HDR = 2 };

/* A child of a position, as its summary arrived in the upward pass. */
typedef struct {
  int32_t root, size, pos;
  int32_t len;    /* length of the candidate list it sent */
  int32_t base_t; /* entries taken at this position (1 for the filler's source) */
} sb_slot;

/* A subtree that hangs together during the downward pass. */
typedef struct {
  int32_t root, size, pos, t;
} sb_item;

/* What the upward pass leaves behind at the parent-tree root. */
typedef struct {
  int32_t size, root, pos;
} sb_summary;

typedef struct {
  cs_proc *p;
  int rank, n, k;
  int nown;      /* children record of its own position (member) */
  sb_slot *own;
  int resolved;  /* children items derived (first PLACE or SPLIT) */
  int nkids;
  sb_item *kids; /* current children, capacity k */
} sb_proc;

/* A growable set of items with a bin per item (downward pass). */
typedef struct {
  sb_item *items;
  int *bin;
  int n, cap;
} sb_pool;

#define SB_CAP_LIMIT ((int64_t)INT32_MAX)

/* ------------------------------------------------------------------------ */
/* small helpers                                                            */

static int32_t *words_of_msg(const cs_msg *m) { return (int32_t *)m->data; }

static void send_words(sb_proc *s, int dst, int tag, const int32_t *w, int count)
{
  cs_send(s->p, dst, tag, w, sizeof(int32_t) * (size_t)count);
}

/* Vertices of a complete k-ary tree of the given height, eq. (2), saturated. */
static int64_t capacity(int height, int k)
{
  int64_t total = 0, width = 1;
  for (int level = 0; level <= height; level++) {
    total += width;
    if (total >= SB_CAP_LIMIT)
      return SB_CAP_LIMIT;
    width *= k;
  }
  return total;
}

/* Field access on a received UP message. */
static int32_t up_size(const cs_msg *m) { return words_of_msg(m)[0]; }
static int32_t up_root(const cs_msg *m) { return words_of_msg(m)[1]; }
static int32_t up_pos(const cs_msg *m) { return words_of_msg(m)[2]; }
static int32_t up_len(const cs_msg *m) { return words_of_msg(m)[3]; }
static const int32_t *up_entry(const cs_msg *m, int i) { return words_of_msg(m) + UP_HDR + 2 * i; }

/* ------------------------------------------------------------------------ */
/* candidate lists: one merge order shared by the upward and downward pass  */

/* Round-robin merge of the lists of the j nonempty children (rounds, then
 * child index), skipping skip[i] leading entries of child i; writes at most
 * `limit` entries (id, cur) into dst and returns how many. */
static int merge_candidates(cs_msg *const *kid, const int *skip, int j, int limit, int32_t *dst)
{
  int written = 0;
  for (int round = 0; written < limit; round++) {
    int any = 0;
    for (int i = 0; i < j && written < limit; i++) {
      int idx = skip[i] + round;
      if (idx < up_len(kid[i])) {
        memcpy(dst + 2 * written, up_entry(kid[i], idx), 2 * sizeof(int32_t));
        written++;
        any = 1;
      }
    }
    if (!any)
      break;
  }
  return written;
}

/* How many of the first t merged entries came from each child (same order as
 * merge_candidates, over lists of remaining lengths lens[i]). */
static void count_taken_per_child(const int *lens, int j, int t, int *counts)
{
  int taken = 0;
  for (int i = 0; i < j; i++)
    counts[i] = 0;
  for (int round = 0; taken < t; round++) {
    int any = 0;
    for (int i = 0; i < j && taken < t; i++)
      if (round < lens[i]) {
        counts[i]++;
        taken++;
        any = 1;
      }
    if (!any)
      abort(); /* more taken than the list held: a protocol bug */
  }
}

/* ------------------------------------------------------------------------ */
/* upward pass                                                              */

/* Receives the summaries of all parent-tree children; keeps the nonempty
 * ones (in child order) in kid[], frees the others; returns their number. */
static int receive_child_summaries(sb_proc *s, cs_msg **kid)
{
  int nchild = kary_nchildren(s->rank, s->k, s->n);
  int64_t first = kary_first_child(s->rank, s->k);
  int j = 0;
  for (int i = 0; i < nchild; i++) {
    cs_msg *m = cs_recv(s->p, (int)(first + i), TAG_UP);
    if (up_size(m) > 0)
      kid[j++] = m;
    else
      cs_msg_free(s->p, m);
  }
  return j;
}

static void fill_slots(cs_msg *const *kid, int j, int source, sb_slot *slots)
{
  for (int i = 0; i < j; i++) {
    slots[i].root = up_root(kid[i]);
    slots[i].size = up_size(kid[i]);
    slots[i].pos = up_pos(kid[i]);
    slots[i].len = up_len(kid[i]);
    slots[i].base_t = i == source ? 1 : 0;
  }
}

/* Child with the largest shrunk tree (lowest index on ties): filler source. */
static int largest_child(cs_msg *const *kid, int j)
{
  int best = 0;
  for (int i = 1; i < j; i++)
    if (up_size(kid[i]) > up_size(kid[best]))
      best = i;
  return best;
}

/* Merged list of this position into up (after the header); the root (id, cur)
 * is appended when the children lists cover their whole trees. */
static int build_candidate_list(cs_msg *const *kid, const int *skip, int j, int limit, int32_t root, int32_t cur,
                                int32_t *entries)
{
  int64_t listed = 0, below = 0;
  for (int i = 0; i < j; i++) {
    listed += up_len(kid[i]) - skip[i];
    below += up_size(kid[i]) - skip[i];
  }
  int written = merge_candidates(kid, skip, j, limit, entries);
  if (listed == below && written < limit) {
    entries[2 * written] = root;
    entries[2 * written + 1] = cur;
    written++;
  }
  return written;
}

/* Hole with >= 2 nonempty children: take a leaf filler, tell it what it heads. */
static void fill_hole(sb_proc *s, cs_msg *const *kid, int j, int *skip, int32_t *up)
{
  int source = largest_child(kid, j);
  const int32_t *x = up_entry(kid[source], 0); /* (id, current position) */
  int32_t filler = x[0], prev = x[1];
  int32_t *fill = cs_alloc(s->p, sizeof(int32_t) * (size_t)(FILL_HDR + 5 * j));
  fill[0] = prev;
  fill[1] = j;
  fill_slots(kid, j, source, (sb_slot *)(fill + FILL_HDR));
  send_words(s, filler, TAG_FILL, fill, FILL_HDR + 5 * j);
  cs_free(s->p, fill);
  skip[source] = 1;
  int64_t size = 0;
  for (int i = 0; i < j; i++)
    size += up_size(kid[i]);
  up[0] = (int32_t)size;
  up[1] = filler;
  up[2] = s->rank;
  up[3] = build_candidate_list(kid, skip, j, kary_depth(s->rank, s->k), filler, s->rank, up + UP_HDR);
}

/* Member: occupies its own position, children = roots of the nonempty trees. */
static void occupy_own_position(sb_proc *s, cs_msg *const *kid, int j, const int *skip, int32_t *up)
{
  s->nown = j;
  s->own = cs_alloc(s->p, sizeof(sb_slot) * (size_t)(j > 0 ? j : 1));
  fill_slots(kid, j, -1, s->own);
  int64_t size = 1;
  for (int i = 0; i < j; i++)
    size += up_size(kid[i]);
  up[0] = (int32_t)size;
  up[1] = s->rank;
  up[2] = s->rank;
  up[3] = build_candidate_list(kid, skip, j, kary_depth(s->rank, s->k), s->rank, s->rank, up + UP_HDR);
}

/* Hole with one nonempty child: the child's tree goes up unchanged. */
static void splice_hole(sb_proc *s, const cs_msg *only, int32_t *up)
{
  int limit = kary_depth(s->rank, s->k);
  int len = up_len(only) < limit ? up_len(only) : limit;
  memcpy(up, words_of_msg(only), sizeof(int32_t) * (size_t)(UP_HDR + 2 * len));
  up[3] = len;
}

/* Builds this position's shrunk tree from its children's; sends it up. */
static sb_summary upward_pass(sb_proc *s, int is_member)
{
  int nchild = kary_nchildren(s->rank, s->k, s->n);
  cs_msg **kid = cs_alloc(s->p, sizeof(cs_msg *) * (size_t)(nchild > 0 ? nchild : 1));
  int *skip = cs_alloc(s->p, sizeof(int) * (size_t)(nchild > 0 ? nchild : 1));
  int depth = kary_depth(s->rank, s->k);
  int32_t *up = cs_alloc(s->p, sizeof(int32_t) * (size_t)(UP_HDR + 2 * (depth + 1)));
  int j = receive_child_summaries(s, kid);
  memset(up, 0, sizeof(int32_t) * UP_HDR);
  if (is_member)
    occupy_own_position(s, kid, j, skip, up);
  else if (j == 1)
    splice_hole(s, kid[0], up);
  else if (j >= 2)
    fill_hole(s, kid, j, skip, up);
  if (s->rank != 0)
    send_words(s, kary_parent(s->rank, s->k), TAG_UP, up, up[0] > 0 ? UP_HDR + 2 * up[3] : 1);
  sb_summary sum = {up[0], up[1], up[2]};
  for (int i = 0; i < j; i++)
    cs_msg_free(s->p, kid[i]);
  cs_free(s->p, up);
  cs_free(s->p, skip);
  cs_free(s->p, kid);
  return sum;
}

/* ------------------------------------------------------------------------ */
/* children of a vertex at the start of the downward pass                    */

/* The FILL naming position pos, after receiving (and dropping) the earlier
 * FILLs of the chain back to the own position. */
static cs_msg *receive_fill_chain(sb_proc *s, int pos)
{
  cs_msg *last = cs_recv(s->p, pos, TAG_FILL);
  int prev = words_of_msg(last)[0];
  while (prev != s->rank) {
    cs_msg *m = cs_recv(s->p, prev, TAG_FILL);
    prev = words_of_msg(m)[0];
    cs_msg_free(s->p, m);
  }
  return last;
}

/* Children items of a record whose merged list lost its first t entries. */
static void derive_children(sb_proc *s, const sb_slot *slots, int nslots, int t)
{
  int *lens = cs_alloc(s->p, sizeof(int) * (size_t)(2 * (nslots > 0 ? nslots : 1)));
  int *counts = lens + nslots;
  for (int i = 0; i < nslots; i++)
    lens[i] = slots[i].len - slots[i].base_t;
  count_taken_per_child(lens, nslots, t, counts);
  s->nkids = 0;
  for (int i = 0; i < nslots; i++) {
    int32_t taken = slots[i].base_t + counts[i];
    if (slots[i].size - taken > 0)
      s->kids[s->nkids++] = (sb_item){slots[i].root, slots[i].size - taken, slots[i].pos, taken};
  }
  cs_free(s->p, lens);
}

/* First PLACE or SPLIT: learn the children of the final position. */
static void resolve_children(sb_proc *s, int pos, int t)
{
  if (s->resolved)
    return;
  s->resolved = 1;
  s->kids = cs_alloc(s->p, sizeof(sb_item) * (size_t)s->k);
  if (pos == s->rank) {
    derive_children(s, s->own, s->nown, t);
    return;
  }
  cs_msg *fill = receive_fill_chain(s, pos);
  const int32_t *w = words_of_msg(fill);
  derive_children(s, (const sb_slot *)(w + FILL_HDR), w[1], t);
  cs_msg_free(s->p, fill);
}

/* ------------------------------------------------------------------------ */
/* shedding (the supplier side of a SPLIT)                                  */

/* Child to detach when `excess` vertices must go: the smallest one that is
 * enough on its own, else the largest. */
static int child_to_detach(const sb_proc *s, int64_t excess)
{
  int enough = -1, largest = 0;
  for (int i = 0; i < s->nkids; i++) {
    if (s->kids[i].size >= excess && (enough < 0 || s->kids[i].size < s->kids[enough].size))
      enough = i;
    if (s->kids[i].size > s->kids[largest].size)
      largest = i;
  }
  return enough >= 0 ? enough : largest;
}

static int64_t own_subtree_size(const sb_proc *s)
{
  int64_t size = 1;
  for (int i = 0; i < s->nkids; i++)
    size += s->kids[i].size;
  return size;
}

/* Detach whole child subtrees until the subtree fits `target`; answer. */
static void serve_split(sb_proc *s, const cs_msg *req)
{
  const int32_t *w = words_of_msg(req);
  resolve_children(s, w[1], w[2]);
  int64_t target = w[3], size = own_subtree_size(s);
  int32_t *ans = cs_alloc(s->p, sizeof(int32_t) * (size_t)(DET_HDR + 4 * s->k));
  sb_item *det = (sb_item *)(ans + DET_HDR);
  int ndet = 0;
  while (size > target && s->nkids > 0) {
    int c = child_to_detach(s, size - target);
    det[ndet++] = s->kids[c];
    size -= s->kids[c].size;
    s->kids[c] = s->kids[--s->nkids];
  }
  ans[0] = (int32_t)size;
  ans[1] = ndet;
  send_words(s, req->src, TAG_DETACHED, ans, DET_HDR + 4 * ndet);
  cs_free(s->p, ans);
}

/* Wait for the PLACE message, answering SPLIT requests meanwhile. */
static cs_msg *await_placement(sb_proc *s)
{
  for (;;) {
    cs_msg *m = cs_recv(s->p, CS_ANY, TAG_BAL);
    if (words_of_msg(m)[0] == KIND_PLACE)
      return m;
    serve_split(s, m);
    cs_msg_free(s->p, m);
  }
}

/* ------------------------------------------------------------------------ */
/* balancing (the matchmaking of one vertex)                                 */

static void pool_push(sb_proc *s, sb_pool *pool, sb_item it)
{
  if (pool->n == pool->cap) {
    pool->cap = pool->cap ? 2 * pool->cap : 2 * s->k;
    pool->items = cs_realloc(s->p, pool->items, sizeof(sb_item) * (size_t)pool->cap);
    pool->bin = cs_realloc(s->p, pool->bin, sizeof(int) * (size_t)pool->cap);
  }
  pool->bin[pool->n] = -1;
  pool->items[pool->n++] = it;
}

/* Ask the root of item i to shed down to `target`; its detached subtrees
 * join the pool. */
static void request_split(sb_proc *s, sb_pool *pool, int i, int64_t target)
{
  sb_item it = pool->items[i];
  int32_t req[4] = {KIND_SPLIT, it.pos, it.t, (int32_t)target};
  send_words(s, it.root, TAG_BAL, req, 4);
  cs_msg *ans = cs_recv(s->p, it.root, TAG_DETACHED);
  const int32_t *w = words_of_msg(ans);
  pool->items[i].size = w[0];
  const sb_item *det = (const sb_item *)(w + DET_HDR);
  for (int d = 0; d < w[1]; d++)
    pool_push(s, pool, det[d]);
  cs_msg_free(s->p, ans);
}

/* Suppliers shed: no item may exceed the capacity of a child subtree. */
static void shed_oversized(sb_proc *s, sb_pool *pool, int64_t child_cap)
{
  for (int i = 0; i < pool->n; i++)
    if (pool->items[i].size > child_cap)
      request_split(s, pool, i, child_cap);
}

static int bigger_first(const sb_item *a, const sb_item *b)
{
  return a->size > b->size || (a->size == b->size && a->root < b->root);
}

/* Insertion sort of items [from, n) in decreasing size (pools are small). */
static void sort_decreasing(sb_pool *pool, int from)
{
  for (int i = from + 1; i < pool->n; i++) {
    sb_item it = pool->items[i];
    int j = i;
    while (j > from && bigger_first(&it, &pool->items[j - 1])) {
      pool->items[j] = pool->items[j - 1];
      j--;
    }
    pool->items[j] = it;
  }
}

static int roomiest(const int64_t *room, int k)
{
  int best = 0;
  for (int b = 1; b < k; b++)
    if (room[b] > room[best])
      best = b;
  return best;
}

/* More items than child slots: the k largest become children, the others go
 * (largest first) to the child with the most room, shedding if needed. */
static void match_consumers(sb_proc *s, sb_pool *pool, int64_t child_cap)
{
  int k = s->k;
  int64_t *room = cs_alloc(s->p, sizeof(int64_t) * (size_t)k);
  sort_decreasing(pool, 0);
  for (int b = 0; b < k; b++) {
    pool->bin[b] = b;
    room[b] = child_cap - pool->items[b].size;
  }
  for (int i = k; i < pool->n; i++) {
    int b = roomiest(room, k);
    if (pool->items[i].size > room[b]) {
      if (room[b] < 1)
        abort(); /* cannot happen: the pool fits k child subtrees */
      request_split(s, pool, i, room[b]);
      sort_decreasing(pool, i + 1);
    }
    pool->bin[i] = b;
    room[b] -= pool->items[i].size;
  }
  cs_free(s->p, room);
}

/* One PLACE per child: its budget, its item, the items it adopts. */
static void place_children(sb_proc *s, const sb_pool *pool, int nheads, int budget, cs_tree_node *out)
{
  int32_t *msg = cs_alloc(s->p, sizeof(int32_t) * (size_t)(PLACE_HDR + 4 * pool->n));
  out->nchildren = nheads;
  out->children = cs_alloc(s->p, sizeof(int) * (size_t)(nheads > 0 ? nheads : 1));
  for (int b = 0; b < nheads; b++) {
    const sb_item *head = &pool->items[b];
    int nadopt = 0;
    sb_item *adopt = (sb_item *)(msg + PLACE_HDR);
    for (int i = nheads; i < pool->n; i++)
      if (pool->bin[i] == b)
        adopt[nadopt++] = pool->items[i];
    msg[0] = KIND_PLACE;
    msg[1] = s->rank;
    msg[2] = budget - 1;
    msg[3] = head->pos;
    msg[4] = head->t;
    msg[5] = nadopt;
    send_words(s, head->root, TAG_BAL, msg, PLACE_HDR + 4 * nadopt);
    out->children[b] = head->root;
  }
  cs_free(s->p, msg);
}

/* The balancing step of a placed vertex with the given budget. */
static void balance(sb_proc *s, int budget, const sb_item *adopted, int nadopt, cs_tree_node *out)
{
  sb_pool pool = {0};
  for (int i = 0; i < s->nkids; i++)
    pool_push(s, &pool, s->kids[i]);
  for (int i = 0; i < nadopt; i++)
    pool_push(s, &pool, adopted[i]);
  int nheads = pool.n;
  if (pool.n > 0) {
    if (budget <= 0)
      abort(); /* the invariant guarantees an empty pool at budget 0 */
    int64_t child_cap = capacity(budget - 1, s->k);
    shed_oversized(s, &pool, child_cap);
    nheads = pool.n;
    if (pool.n > s->k) {
      match_consumers(s, &pool, child_cap);
      nheads = s->k;
    }
  }
  place_children(s, &pool, nheads, budget, out);
  cs_free(s->p, pool.items);
  cs_free(s->p, pool.bin);
}

/* ------------------------------------------------------------------------ */

/* Rank 0 after the upward pass: hand the root position to its occupant. */
static void place_root(sb_proc *s, const sb_summary *sum)
{
  if (sum->size == 0 || sum->root == s->rank)
    return;
  int32_t msg[PLACE_HDR] = {KIND_PLACE, -1, kary_min_height(sum->size, s->k), sum->pos, 0, 0};
  send_words(s, sum->root, TAG_BAL, msg, PLACE_HDR);
}

static void release(sb_proc *s)
{
  cs_free(s->p, s->own);
  cs_free(s->p, s->kids);
  cs_free(s->p, s);
}

void shrink_balance_run(cs_proc *p, const cs_tree_ctx *ctx, cs_tree_node *out)
{
  sb_proc *s = cs_alloc(p, sizeof *s);
  s->p = p;
  s->rank = cs_rank(p);
  s->n = ctx->n;
  s->k = ctx->k;
  sb_summary sum = upward_pass(s, ctx->is_member);
  if (s->rank == 0)
    place_root(s, &sum);
  if (!ctx->is_member) {
    out->member = 0;
    release(s);
    return;
  }
  out->member = 1;
  out->color = 0;
  if (s->rank == 0) { /* a member rank 0 is the new root, at its own position */
    out->parent = -1;
    resolve_children(s, s->rank, 0);
    balance(s, kary_min_height(sum.size, s->k), NULL, 0, out);
    release(s);
    return;
  }
  cs_msg *place = await_placement(s);
  const int32_t *w = words_of_msg(place);
  out->parent = w[1];
  resolve_children(s, w[3], w[4]);
  balance(s, w[2], (const sb_item *)(w + PLACE_HDR), w[5], out);
  cs_msg_free(p, place);
  release(s);
}

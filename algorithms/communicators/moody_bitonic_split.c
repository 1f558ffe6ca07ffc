/* Moody, Ahn and de Supinski, "Exascale Algorithms for Generalized
 * MPI_Comm_split" (EuroMPI 2011): the bitonic-sort split, as LLNL's lwgrp
 * 1.0.6 implements it (src/lwgrp_comm_split.c, lwgrp_comm_split; read, not
 * copied).  Every proclet keeps O(1) state; the new group is a chain: each
 * member knows its left and right neighbours, its rank and the size.
 *
 *  1. every proclet contributes the item (colour, key, rank) and the items
 *     are bitonic-sorted over the parent's ranks (lwgrp's recursion for any
 *     n: sort the lower half descending, the upper ascending, then merge
 *     with the partner at the largest power of two below the range; an
 *     exchange is a pair of 12-byte messages);
 *  2. the holder of every sorted item exchanges it with its left and right
 *     neighbours (12 bytes each way): equal colours on the left or right
 *     mean the same group, and the neighbours' originating ranks are the
 *     item's left and right members;
 *  3. a double segmented scan by pointer doubling (16-byte messages to the
 *     partners at distance 1, 2, 4, ... < n on each side) counts the members
 *     left and right of the item in its group and the groups left and
 *     right: rank, size, group id and group count;
 *  4. the holder sends the item's 7-int result (28 bytes) back to the rank
 *     that contributed it (lwgrp's LWGRP_USE_ANYSOURCE variant: a receive
 *     from any source; the other variant sorts the results back, a second
 *     bitonic sort);
 *  5. a proclet of the undefined colour drops its chain (lwgrp sorts it
 *     with the others: MPI_UNDEFINED is a colour of its own there).
 *
 * The communicator.  lwgrp's groups keep no map and send on the parent
 * communicator with the member's world rank from the chain, or along
 * log-chains.  collsim's communicator layer translates group ranks through
 * a map, so the protocol ends by giving the member the map of its group
 * built in the simulator without messages (cs_comm_copy_memo_map: charged
 * to the member, CPU and memory, as every protocol's map): it stands for
 * the map an application would build lazily when it first needs random
 * access.  The split itself holds O(1) memory per proclet; peak memory
 * minus the member's map bytes shows it (tests/unit/comm_split_schemes.c).
 * The context id is a label, not an agreement: lwgrp's groups have none
 * (they use the parent's context and tags); here 1 + seq (n + 1) + the
 * group id from the scan, the same on every member and unique in the world
 * (choice).
 *
 * Messages for n proclets: B(n) + 2 (n - 1) + sum over d = 1, 2, 4, ...
 * < n of 2 (n - d) + n, where B is the bitonic sort's count: B(1) = 0,
 * B(n) = B(floor(n/2)) + B(ceil(n/2)) + M(n), M(1) = 0, M(n) = 2 (n - q) +
 * M(q) + M(n - q) with q the largest power of two below n.  For n = 2^k,
 * B(n) = n k (k + 1) / 2 and M(n) = n k.  The neighbour and scan terms
 * count every item, including those of the undefined colour.
 */
#include "algorithms/communicators/split_oracle.h"

#include <string.h>

typedef struct item {
  int32_t color, key, rank;
} item;

static int item_cmp(const item *a, const item *b)
{
  if (a->color != b->color)
    return a->color < b->color ? -1 : 1;
  if (a->key != b->key)
    return a->key < b->key ? -1 : 1;
  return (a->rank > b->rank) - (a->rank < b->rank);
}

typedef struct sorter {
  cs_proc *p;
  cs_comm *c;
  item v;
} sorter;

static item exchange(sorter *s, int partner, int tag)
{
  cs_comm_send(s->p, s->c, partner, tag, &s->v, sizeof s->v, sizeof s->v);
  cs_msg *m = cs_comm_recv(s->p, s->c, partner, tag);
  item got;
  memcpy(&got, m->data, sizeof got);
  cs_msg_free(s->p, m);
  return got;
}

static int sort_tag(int depth, int mdepth) { return CS_TAG_SPLIT_SORT + (depth * 32 + mdepth) % CS_SPLIT_SORT_TAGS; }

static void bitonic_merge(sorter *s, int start, int num, bool up, int depth, int mdepth)
{
  if (num <= 1)
    return;
  int q = 1;
  while (q * 2 < num)
    q *= 2;
  int me = s->c->rank;
  bool lower = me < start + q;
  int partner = lower ? me + q : me - q;
  if (lower ? partner < start + num : partner >= start) {
    item got = exchange(s, partner, sort_tag(depth, mdepth));
    int cmp = item_cmp(&got, &s->v);
    bool take = lower ? (up ? cmp < 0 : cmp > 0) : (up ? cmp > 0 : cmp < 0);
    if (take)
      s->v = got;
  }
  if (lower)
    bitonic_merge(s, start, q, up, depth, mdepth + 1);
  else
    bitonic_merge(s, start + q, num - q, up, depth, mdepth + 1);
}

static void bitonic_sort(sorter *s, int start, int num, bool up, int depth)
{
  if (num <= 1)
    return;
  int mid = num / 2;
  if (s->c->rank < start + mid)
    bitonic_sort(s, start, mid, !up, depth + 1);
  else
    bitonic_sort(s, start + mid, num - mid, up, depth + 1);
  bitonic_merge(s, start, num, up, depth, 0);
}

/* The result of step 3 for one item (lwgrp's 7 ints). */
typedef struct chain_result {
  int32_t src, left, right, rank, size, id, count;
} chain_result;

typedef struct scan_msg {
  int32_t groups, stop, count, next;
} scan_msg;

enum { NONE = -1 };

static item neighbour_item(cs_proc *p, cs_comm *c, int peer)
{
  cs_msg *m = cs_comm_recv(p, c, peer, CS_TAG_SPLIT_NEIGH);
  item got;
  memcpy(&got, m->data, sizeof got);
  cs_msg_free(p, m);
  return got;
}

/* Whether neighbour peer (NONE: none) holds an item of v's colour; if so
 * its original rank goes to *rank. */
static bool same_group(cs_proc *p, cs_comm *c, int peer, const item *v, int32_t *rank)
{
  if (peer == NONE)
    return false;
  item got = neighbour_item(p, c, peer);
  if (got.color != v->color)
    return false;
  *rank = got.rank;
  return true;
}

/* Step 2: group boundaries from the neighbours' items. */
static void find_boundaries(cs_proc *p, cs_comm *c, const item *v, chain_result *r, bool *first, bool *last)
{
  int left = c->rank > 0 ? c->rank - 1 : NONE, right = c->rank + 1 < c->size ? c->rank + 1 : NONE;
  if (left != NONE)
    cs_comm_send(p, c, left, CS_TAG_SPLIT_NEIGH, v, sizeof *v, sizeof *v);
  if (right != NONE)
    cs_comm_send(p, c, right, CS_TAG_SPLIT_NEIGH, v, sizeof *v, sizeof *v);
  r->left = r->right = NONE;
  *first = !same_group(p, c, left, v, &r->left);
  *last = !same_group(p, c, right, v, &r->right);
}

static void scan_absorb(scan_msg *out, const scan_msg *in)
{
  out->groups += in->groups;
  if (!out->stop) {
    out->stop = in->stop;
    out->count += in->count;
  }
}

/* One round's message from peer (none when peer is NONE), absorbed into
 * the partial sum sent the other way; returns the peer of the next round
 * (the peer's own peer on that side: pointer doubling). */
static int absorb_from(cs_proc *p, cs_comm *c, int peer, int tag, scan_msg *onward)
{
  if (peer == NONE)
    return NONE;
  scan_msg in;
  cs_msg *m = cs_comm_recv(p, c, peer, tag);
  memcpy(&in, m->data, sizeof in);
  cs_msg_free(p, m);
  scan_absorb(onward, &in);
  return in.next;
}

/* Step 3: lwgrp's double segmented scan by pointer doubling. */
static void double_scan(cs_proc *p, cs_comm *c, bool first, bool last, chain_result *r)
{
  int left = c->rank > 0 ? c->rank - 1 : NONE, right = c->rank + 1 < c->size ? c->rank + 1 : NONE;
  scan_msg to_left = {last, last, 1, NONE}, to_right = {first, first, 1, NONE};
  for (int round = 0; left != NONE || right != NONE; round++) {
    int tag = CS_TAG_SPLIT_SCAN + round;
    to_left.next = right;
    to_right.next = left;
    if (left != NONE)
      cs_comm_send(p, c, left, tag, &to_left, sizeof to_left, sizeof to_left);
    if (right != NONE)
      cs_comm_send(p, c, right, tag, &to_right, sizeof to_right, sizeof to_right);
    left = absorb_from(p, c, left, tag, &to_right); /* what comes from the left goes on rightwards */
    right = absorb_from(p, c, right, tag, &to_left);
  }
  r->rank = to_right.count - 1;
  r->size = to_right.count + to_left.count - 1;
  r->id = to_right.groups - 1;
  r->count = to_right.groups + to_left.groups - 1;
}

/* Steps 2-4 on the sorted item this proclet holds; returns its own result. */
chain_result cs_chain_split_sorted(cs_proc *p, cs_comm *c, const item *v);
chain_result cs_chain_split_sorted(cs_proc *p, cs_comm *c, const item *v)
{
  chain_result r = {.src = v->rank};
  bool first, last;
  find_boundaries(p, c, v, &r, &first, &last);
  double_scan(p, c, first, last, &r);
  cs_comm_send(p, c, r.src, CS_TAG_SPLIT_RESULT, &r, sizeof r, sizeof r);
  cs_msg *m = cs_comm_recv(p, c, CS_ANY, CS_TAG_SPLIT_RESULT);
  chain_result mine;
  memcpy(&mine, m->data, sizeof mine);
  cs_msg_free(p, m);
  return mine;
}

cs_create_status cs_chain_to_comm(cs_proc *p, cs_comm *outer, const cs_comm_request *rq, const chain_result *r,
                                  cs_comm **out);
cs_create_status cs_chain_to_comm(cs_proc *p, cs_comm *outer, const cs_comm_request *rq, const chain_result *r,
                                  cs_comm **out)
{
  *out = NULL;
  if (rq->color[outer->rank] == CS_COLOR_UNDEFINED)
    return CS_CREATE_OK;
  const cs_split_oracle *o = cs_split_oracle_get(outer, rq);
  uint32_t ctx = 1u + rq->seq * (uint32_t)(outer->size + 1) + (uint32_t)r->id;
  return cs_split_new_comm(p, outer, rq, o, ctx, r->rank, r->size, out);
}

cs_create_status cs_moody_bitonic_split(cs_proc *p, cs_comm *outer, const cs_comm_request *rq, cs_comm **out)
{
  sorter s = {p, outer, {rq->color[outer->rank], rq->key[outer->rank], outer->rank}};
  bitonic_sort(&s, 0, outer->size, true, 0);
  chain_result r = cs_chain_split_sorted(p, outer, &s.v);
  return cs_chain_to_comm(p, outer, rq, &r, out);
}

/* ---- messages ---- */

static uint64_t merge_messages(int64_t n)
{
  if (n <= 1)
    return 0;
  int64_t q = 1;
  while (q * 2 < n)
    q *= 2;
  uint64_t lg = (uint64_t)cs_ceil_lg(q);
  return 2 * (uint64_t)(n - q) + (uint64_t)q * lg + merge_messages(n - q);
}

/* (B(k), B(k + 1)), each from the pair of half its size. */
static void sort_pair(int64_t k, uint64_t *bk, uint64_t *bk1)
{
  if (k <= 1) {
    *bk = 0;
    *bk1 = k == 0 ? 0 : merge_messages(2);
    return;
  }
  uint64_t sj, sj1;
  sort_pair(k / 2, &sj, &sj1);
  int64_t j = k / 2;
  uint64_t even = 2 * sj + merge_messages(2 * j), odd = sj + sj1 + merge_messages(2 * j + 1),
           next_even = 2 * sj1 + merge_messages(2 * j + 2);
  if (k % 2 == 0) {
    *bk = even;
    *bk1 = odd;
  } else {
    *bk = odd;
    *bk1 = next_even;
  }
}

uint64_t cs_bitonic_sort_messages(int64_t n);
uint64_t cs_bitonic_sort_messages(int64_t n)
{
  uint64_t b, b1;
  sort_pair(n, &b, &b1);
  return b;
}

uint64_t cs_chain_scan_messages(int64_t n);
uint64_t cs_chain_scan_messages(int64_t n)
{
  uint64_t total = n > 1 ? 2 * (uint64_t)(n - 1) : 0;
  for (int64_t d = 1; d < n; d *= 2)
    total += 2 * (uint64_t)(n - d);
  return total + (uint64_t)n;
}

uint64_t cs_moody_bitonic_split_messages(int64_t n, const int64_t *group_size, int ngroups)
{
  (void)group_size;
  (void)ngroups;
  return cs_bitonic_sort_messages(n) + cs_chain_scan_messages(n);
}

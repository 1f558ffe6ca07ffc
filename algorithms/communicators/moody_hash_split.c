/* Moody, Ahn and de Supinski, "Exascale Algorithms for Generalized
 * MPI_Comm_split" (EuroMPI 2011): the hash-based split over groups kept as
 * chains.  lwgrp (LLNL, 1.0.6) implements the chains and the bitonic split
 * but not the hash split, and the paper's text was not at hand: this is our
 * reading of "hash-based" on lwgrp's chains, and every step is a choice:
 *
 *  1. every proclet of a defined colour sends (colour, rank), 8 bytes, to
 *     the colour's owner, rank mix64(colour) mod n; the owner answers at
 *     once from a message handler (it may be busy elsewhere): the previous
 *     requester of that colour (or none) and the requester's arrival index,
 *     8 bytes, and keeps (colour, last requester, count) per colour it owns:
 *     the members of a colour become a chain in arrival order;
 *  2. a barrier over the parent (recursive doubling, zero bytes): after it
 *     every request was answered, so the owners know the final counts;
 *  3. each owner sends each of its colours' last requester the size (8
 *     bytes); every other member tells its predecessor that it is its
 *     successor (8 bytes): each member gets exactly one of the two;
 *  4. lwgrp's log-chain by pointer doubling along the chain (16 bytes to
 *     the partners at distance 1, 2, 4, ... < m on each side), which also
 *     spreads the size leftwards from the last member: O(log m) ranks per
 *     member;
 *  5. a bitonic sort of (key, rank) over the chain's positions, partners
 *     from the log-chain (12-byte exchanges, the recursion of
 *     moody_bitonic_split.c);
 *  6. the holder of the item at position i sends its neighbours the item
 *     (12 bytes each way) and the item's owner its (left, right, rank =
 *     i, size), 16 bytes: the new group, a chain in (key, rank) order.
 *
 * Memory per proclet: the log-chain (O(log m)) and, at an owner, one entry
 * per colour hashed to it (expected O(1) for c <= n colours).  The
 * communicator: as in moody_bitonic_split.c, the member's map is built in
 * the simulator without messages at the end (charged); memory beyond it is
 * the split's own.  Context id: a label 1 + seq (n + 1) + colour, the same
 * on every member (the runs' colours are 0 .. c - 1 < n + 1; lwgrp's groups
 * have no ids).  The owners' handler is installed once per proclet and
 * serves every creation of the run (keyed by creation number).
 *
 * Messages for n proclets, M members in groups of m_i: 3 M + (2 rem + pof2
 * lg pof2) + sum over groups of [L(m_i) + B(m_i) + 2 (m_i - 1) + m_i], L(m)
 * = sum over d = 1, 2, 4, ... < m of 2 (m - d), B the bitonic sort's count
 * (moody_bitonic_split.c).
 */
#include "algorithms/communicators/split_oracle.h"
#include "sim/contracts/prng.h"

#include <string.h>

enum { NONE = -1 };

uint64_t cs_bitonic_sort_messages(int64_t n); /* moody_bitonic_split.c */

/* ---- the owners' table, served by a handler ---- */

typedef struct owned {
  uint32_t seq;
  int32_t color, last, count;
} owned;

typedef struct owner_table {
  owned *e; /* cs_alloc'd */
  int len, cap;
} owner_table;

static owned *owned_find(cs_proc *p, owner_table *t, uint32_t seq, int32_t color)
{
  for (int i = 0; i < t->len; i++)
    if (t->e[i].seq == seq && t->e[i].color == color)
      return &t->e[i];
  if (t->len == t->cap) {
    t->cap = t->cap ? 2 * t->cap : 2;
    t->e = cs_realloc(p, t->e, sizeof(owned) * (size_t)t->cap);
  }
  t->e[t->len] = (owned){seq, color, NONE, 0};
  return &t->e[t->len++];
}

static void on_request(cs_proc *p, cs_msg *m, void *user)
{
  const int32_t *rq = m->data; /* seq, colour, rank */
  owned *o = owned_find(p, user, (uint32_t)rq[0], rq[1]);
  int32_t reply[2] = {o->last, o->count};
  o->last = rq[2];
  o->count++;
  cs_send(p, rq[2], CS_TAG_SPLIT_REPLY, reply, sizeof reply);
  cs_msg_free(p, m);
}

static owner_table *owner_table_of(cs_proc *p, cs_world *w)
{
  uint64_t key = cs_memo_key(0xFFFFFFF0u, (uint64_t)cs_rank(p));
  owner_table *t = cs_world_oracle(w, key);
  if (!t) { /* the proclet's own state; the layer frees it at the end */
    t = cs_alloc(p, sizeof *t);
    *t = (owner_table){0};
    cs_set_handler_owned(p, CS_TAG_SPLIT_HASH, CS_TAG_SPLIT_HASH, on_request, t);
    cs_world_oracle_put(w, key, t, NULL);
  }
  return t;
}

/* Step 3 at an owner: the size to every colour's last requester. */
static void tell_tails(cs_proc *p, owner_table *t, uint32_t seq)
{
  int kept = 0;
  for (int i = 0; i < t->len; i++) {
    if (t->e[i].seq != seq) {
      t->e[kept++] = t->e[i];
      continue;
    }
    int32_t msg[2] = {NONE, t->e[i].count};
    cs_send(p, t->e[i].last, CS_TAG_SPLIT_NEXT, msg, sizeof msg);
  }
  t->len = kept;
}

/* ---- the chain and its log-chain ---- */

typedef struct chain {
  int pos, size;
  int32_t left[32], right[32]; /* world ranks at distance 2^k, NONE */
  int levels;
} chain;

static int32_t *recv_ints(cs_proc *p, int src, int tag, int32_t *out, size_t count)
{
  cs_msg *m = cs_recv(p, src, tag);
  memcpy(out, m->data, sizeof(int32_t) * count);
  cs_msg_free(p, m);
  return out;
}

/* Step 4: lwgrp's pointer doubling; the size travels leftwards. */
static void build_logchain(cs_proc *p, chain *c)
{
  int k = 0;
  for (; c->left[k] != NONE || c->right[k] != NONE; k++) {
    int tag = CS_TAG_SPLIT_SCAN + k;
    int32_t to_left[2] = {c->right[k], c->size}, to_right[2] = {c->left[k], NONE}, got[2];
    if (c->left[k] != NONE)
      cs_send(p, c->left[k], tag, to_left, sizeof to_left);
    if (c->right[k] != NONE)
      cs_send(p, c->right[k], tag, to_right, sizeof to_right);
    c->left[k + 1] = c->right[k + 1] = NONE;
    if (c->left[k] != NONE)
      c->left[k + 1] = recv_ints(p, c->left[k], tag, got, 2)[0];
    if (c->right[k] != NONE) {
      recv_ints(p, c->right[k], tag, got, 2);
      c->right[k + 1] = got[0];
      if (got[1] > 0)
        c->size = got[1];
    }
  }
  c->levels = k;
}

/* ---- step 5: bitonic sort over the chain's positions ---- */

typedef struct sitem {
  int32_t key, rank;
} sitem;

static int sitem_cmp(const sitem *a, const sitem *b)
{
  if (a->key != b->key)
    return a->key < b->key ? -1 : 1;
  return (a->rank > b->rank) - (a->rank < b->rank);
}

static int lg_of(int q)
{
  int k = 0;
  while ((1 << k) < q)
    k++;
  return k;
}

static void merge_chain(cs_proc *p, const chain *c, sitem *v, int start, int num, bool up, int tagstep)
{
  if (num <= 1)
    return;
  int q = 1;
  while (q * 2 < num)
    q *= 2;
  bool lower = c->pos < start + q;
  int other = lower ? c->pos + q : c->pos - q;
  if (lower ? other < start + num : other >= start) {
    int32_t partner = lower ? c->right[lg_of(q)] : c->left[lg_of(q)];
    int tag = CS_TAG_SPLIT_SORT + tagstep % CS_SPLIT_SORT_TAGS;
    cs_send(p, partner, tag, v, sizeof *v);
    sitem got;
    cs_msg *m = cs_recv(p, partner, tag);
    memcpy(&got, m->data, sizeof got);
    cs_msg_free(p, m);
    int cmp = sitem_cmp(&got, v);
    if (lower ? (up ? cmp < 0 : cmp > 0) : (up ? cmp > 0 : cmp < 0))
      *v = got;
  }
  if (lower)
    merge_chain(p, c, v, start, q, up, tagstep + 1);
  else
    merge_chain(p, c, v, start + q, num - q, up, tagstep + 1);
}

static void sort_chain(cs_proc *p, const chain *c, sitem *v, int start, int num, bool up, int depth)
{
  if (num <= 1)
    return;
  int mid = num / 2;
  if (c->pos < start + mid)
    sort_chain(p, c, v, start, mid, !up, depth + 1);
  else
    sort_chain(p, c, v, start + mid, num - mid, up, depth + 1);
  merge_chain(p, c, v, start, num, up, depth * 32);
}

/* Step 6: neighbours' items, then the result to the item's owner. */
static void send_result(cs_proc *p, const chain *c, const sitem *v)
{
  if (c->left[0] != NONE)
    cs_send(p, c->left[0], CS_TAG_SPLIT_NEIGH, v, sizeof *v);
  if (c->right[0] != NONE)
    cs_send(p, c->right[0], CS_TAG_SPLIT_NEIGH, v, sizeof *v);
  int32_t out[4] = {NONE, NONE, c->pos, c->size}, got[2];
  if (c->left[0] != NONE)
    out[0] = recv_ints(p, c->left[0], CS_TAG_SPLIT_NEIGH, got, 2)[1];
  if (c->right[0] != NONE)
    out[1] = recv_ints(p, c->right[0], CS_TAG_SPLIT_NEIGH, got, 2)[1];
  cs_send(p, v->rank, CS_TAG_SPLIT_RESULT, out, sizeof out);
}

/* Steps 1-3 for a member: its chain in arrival order. */
static void join_chain(cs_proc *p, int n, const cs_comm_request *rq, int me, chain *c)
{
  int32_t color = rq->color[me];
  int owner = (int)(cs_mix64((uint64_t)(uint32_t)color) % (uint64_t)n);
  int32_t req[3] = {(int32_t)rq->seq, color, me}, reply[2];
  cs_send(p, owner, CS_TAG_SPLIT_HASH, req, sizeof req);
  recv_ints(p, owner, CS_TAG_SPLIT_REPLY, reply, 2);
  *c = (chain){.pos = reply[1], .size = 0};
  c->left[0] = reply[0];
  c->right[0] = NONE;
}

cs_create_status cs_moody_hash_split(cs_proc *p, cs_comm *outer, const cs_comm_request *rq, cs_comm **out)
{
  *out = NULL;
  g_assert(outer->map == NULL); /* the parent is COMM_WORLD: ranks are world ranks */
  int n = outer->size, me = outer->rank;
  owner_table *t = owner_table_of(p, outer->world);
  bool member = rq->color[me] != CS_COLOR_UNDEFINED;
  chain *c = cs_alloc(p, sizeof *c);
  if (member)
    join_chain(p, n, rq, me, c);
  cs_comm_barrier(p, outer);
  tell_tails(p, t, rq->seq);
  if (!member) {
    cs_free(p, c);
    return CS_CREATE_OK;
  }
  if (c->left[0] != NONE) {
    int32_t succ[2] = {me, 0};
    cs_send(p, c->left[0], CS_TAG_SPLIT_NEXT, succ, sizeof succ);
  }
  int32_t next[2];
  recv_ints(p, CS_ANY, CS_TAG_SPLIT_NEXT, next, 2);
  c->right[0] = next[0];
  c->size = next[0] == NONE ? next[1] : 0;
  build_logchain(p, c);
  sitem v = {rq->key[me], me};
  sort_chain(p, c, &v, 0, c->size, true, 0);
  send_result(p, c, &v);
  cs_free(p, c);
  int32_t res[4];
  recv_ints(p, CS_ANY, CS_TAG_SPLIT_RESULT, res, 4);
  const cs_split_oracle *o = cs_split_oracle_get(outer, rq);
  uint32_t ctx = 1u + rq->seq * (uint32_t)(n + 1) + (uint32_t)rq->color[me];
  return cs_split_new_comm(p, outer, rq, o, ctx, res[2], res[3], out);
}

uint64_t cs_moody_hash_split_messages(int64_t n, const int64_t *group_size, int ngroups)
{
  uint64_t total = cs_allreduce_messages(n);
  for (int g = 0; g < ngroups; g++) {
    int64_t m = group_size[g];
    total += 3 * (uint64_t)m + cs_bitonic_sort_messages(m) + 2 * (uint64_t)(m - 1) + (uint64_t)m;
    for (int64_t d = 1; d < m; d *= 2)
      total += 2 * (uint64_t)(m - d);
  }
  return total;
}

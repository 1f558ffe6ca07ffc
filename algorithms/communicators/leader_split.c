/* Procedure 1 of seed 003 (Section 4): leader-based MPI_Comm_split with
 * <LID, LBI> context ids and group maps shared per OS process.
 *
 *  1. gather (colour, key, LBI bitmap) of every proclet to outer rank 0, the
 *     root (binomial gather, 8 + 2^k / 8 bytes each);
 *  2. the root sorts by colour, key and rank (charged as n lg n compares);
 *     per colour it picks the member whose bitmap has the fewest bits set
 *     (ties: the first in sorted order), LBI = its first free bit, LID = its
 *     world rank, and per OS process the first member in group order as
 *     local leader;
 *  3. scatter of {context id, group rank, group size, leader flag} (16 bytes
 *     each; binomial scatter);
 *  4. the root sends the group's world ranks (4 bytes each) to each local
 *     leader; the leader builds the map (the world's strategy, charged) and
 *     publishes it under the context id; the other collocated members yield
 *     until it is there (a wake-up inside the OS process each);
 *  5. the proclet whose world rank is the LID marks LBI used.
 *
 * Messages for n proclets, g groups with l(i) local leaders and m(i)
 * members each: (n - 1) gather + (n - 1) scatter + sum l(i) membership +
 * sum (m(i) - l(i)) wake-ups.  With share off (--no-share) the root sends
 * the membership to every member instead (sum m(i), no wake-ups), and
 * every member builds its own copy.  Membership messages have the list's
 * size and a virtual payload (see send_memberships).
 *
 * Choices the paper left open: the gather and scatter algorithms (MPICH's
 * binomial), the sizes of the records, the tie-break of line 9, the local
 * leader (first member of the OS process in group order), the root as
 * outer rank 0, and how a colour without a free id is reported (its
 * members get no communicator and CS_CREATE_NO_CONTEXT_ID).
 */
#include "algorithms/communicators/protocol.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { CID_LEADER = 1, CID_NO_ID = 2 };

typedef struct cid_rec {
  uint32_t ctx;
  int32_t grank, gsize, flags;
} cid_rec;

typedef struct sort_view {
  const char *rec; /* gathered records */
  size_t block;
} sort_view;

static int32_t rec_color(const sort_view *v, int i) { return ((const int32_t *)(v->rec + (size_t)i * v->block))[0]; }
static int32_t rec_key(const sort_view *v, int i) { return ((const int32_t *)(v->rec + (size_t)i * v->block))[1]; }
static const uint64_t *rec_bits(const sort_view *v, int i)
{
  return (const uint64_t *)(v->rec + (size_t)i * v->block + 8);
}

static int by_color_key_rank(const void *a, const void *b, void *user)
{
  const sort_view *v = user;
  int x = *(const int *)a, y = *(const int *)b;
  int32_t cx = rec_color(v, x), cy = rec_color(v, y), kx = rec_key(v, x), ky = rec_key(v, y);
  if (cx != cy)
    return cx < cy ? -1 : 1;
  if (kx != ky)
    return kx < ky ? -1 : 1;
  return (x > y) - (x < y);
}

/* The root's plan: the sorted members, class boundaries and records. */
typedef struct plan {
  int *order;      /* outer ranks of the members, sorted */
  int members;
  cs_wid *wr;      /* world rank of every outer rank */
  cid_rec *cid;    /* per outer rank */
  int64_t *seen;   /* per OS process: last class that chose a leader there */
} plan;

static int64_t least_used(const cs_ctxids *ids, const sort_view *v, const int *order, int a, int b)
{
  int64_t best = -1;
  int best_used = (1 << ids->lbi_bits);
  for (int j = a; j < b; j++) {
    int used = cs_lbi_used(ids, rec_bits(v, order[j]));
    if (used < best_used) {
      best = j;
      best_used = used;
    }
  }
  return best;
}

static void plan_class(cs_comm *outer, const cs_comm_request *rq, const sort_view *v, plan *pl, int a, int b)
{
  int64_t k = least_used(rq->ids, v, pl->order, a, b);
  uint32_t ctx = 0;
  int flags = CID_NO_ID;
  if (k >= 0) {
    int lbi = cs_lbi_first_free(rq->ids, rec_bits(v, pl->order[k]));
    ctx = cs_lidlbi_encode(rq->ids, pl->wr[pl->order[k]], lbi);
    flags = 0;
  }
  for (int j = a; j < b; j++) {
    int64_t process = cs_world_process_of(outer->world, pl->wr[pl->order[j]]);
    bool leader = flags == 0 && pl->seen[process] != a;
    if (leader)
      pl->seen[process] = a;
    pl->cid[pl->order[j]] = (cid_rec){ctx, j - a, b - a, flags | (leader ? CID_LEADER : 0)};
  }
}

static void plan_make(cs_proc *p, cs_comm *outer, const cs_comm_request *rq, const char *gathered, size_t block,
                      plan *pl)
{
  int n = outer->size;
  sort_view v = {gathered, block};
  pl->order = cs_alloc(p, sizeof(int) * (size_t)n);
  pl->members = 0;
  for (int i = 0; i < n; i++)
    if (rec_color(&v, i) != CS_COLOR_UNDEFINED)
      pl->order[pl->members++] = i;
  g_qsort_with_data(pl->order, pl->members, sizeof(int), by_color_key_rank, &v);
  double lg = pl->members > 1 ? log2((double)pl->members) : 1;
  cs_compute(p, cs_world_cpu_seconds(outer->world, cs_world_cfg(outer->world)->sort_ns_per_compare * pl->members * lg));
  pl->wr = cs_alloc(p, sizeof(cs_wid) * (size_t)n);
  cs_comm_world_ranks(p, outer, pl->wr);
  pl->cid = cs_alloc(p, sizeof(cid_rec) * (size_t)n);
  for (int i = 0; i < n; i++)
    pl->cid[i] = (cid_rec){0, -1, 0, 0};
  int64_t procs = cs_world_processes(outer->world);
  pl->seen = cs_alloc(p, sizeof(int64_t) * (size_t)procs);
  for (int64_t i = 0; i < procs; i++)
    pl->seen[i] = -1;
  for (int a = 0, b; a < pl->members; a = b) {
    for (b = a + 1; b < pl->members && rec_color(&v, pl->order[b]) == rec_color(&v, pl->order[a]); b++)
      ;
    plan_class(outer, rq, &v, pl, a, b);
  }
}

/* Line 21: the membership of every class to its local leaders (or, with
 * share off, to every member).  The message has the list's size; its
 * content is deposited once in the simulator's memo, where the receivers
 * take it (a virtual payload): a real copy per leader would hold 4 n^2 / c
 * bytes at the root at once (16 GB at 65,536 ranks with c = 1). */
static void send_memberships(cs_proc *p, cs_comm *outer, const cs_comm_request *rq, plan *pl)
{
  cs_world *w = outer->world;
  bool share = cs_world_cfg(w)->share;
  cs_wid *list = cs_alloc(p, sizeof(cs_wid) * (size_t)(pl->members ? pl->members : 1));
  for (int a = 0, b; a < pl->members; a = b) {
    const cid_rec *head = &pl->cid[pl->order[a]];
    b = a + head->gsize;
    if (head->flags & CID_NO_ID)
      continue;
    int m = b - a;
    for (int j = a; j < b; j++)
      list[j - a] = pl->wr[pl->order[j]];
    GError *e = NULL;
    if (!cs_comm_memo_deposit(w, cs_memo_key(rq->seq, head->ctx), list, m, &e))
      g_error_free(e); /* receivers will find no map and report it */
    size_t bytes = sizeof(cs_wid) * (size_t)m;
    for (int j = a; j < b; j++)
      if (!share || (pl->cid[pl->order[j]].flags & CID_LEADER))
        cs_comm_send(p, outer, pl->order[j], CS_TAG_MEMBERS, NULL, 0, bytes);
  }
  cs_free(p, list);
}

static void plan_free(cs_proc *p, plan *pl)
{
  cs_free(p, pl->order);
  cs_free(p, pl->wr);
  cs_free(p, pl->cid);
  cs_free(p, pl->seen);
}

/* Lines 22-26 on one proclet. */
static cs_create_status join(cs_proc *p, cs_comm *outer, const cs_comm_request *rq, const cid_rec *mine,
                             cs_comm **out)
{
  cs_world *w = outer->world;
  cs_shared_map *map = NULL;
  bool share = cs_world_cfg(w)->share;
  if (!share || (mine->flags & CID_LEADER)) {
    cs_msg_free(p, cs_comm_recv(p, outer, 0, CS_TAG_MEMBERS));
    map = cs_comm_copy_memo_map(p, w, cs_memo_key(rq->seq, mine->ctx));
    if (map && share)
      cs_comm_publish_map(p, w, mine->ctx, map);
  } else
    map = cs_comm_wait_map(p, w, mine->ctx);
  if (!map)
    return CS_CREATE_MAP_FAILED;
  *out = cs_comm_new(p, w, mine->ctx, mine->grank, mine->gsize, map);
  return CS_CREATE_OK;
}

static void mark_if_leader(cs_proc *p, const cs_comm_request *rq, uint32_t ctx)
{
  int64_t lid;
  int lbi;
  cs_lidlbi_decode(rq->ids, ctx, &lid, &lbi);
  if (lid == cs_rank(p))
    cs_lbi_take(rq->ids, cs_lbi_bitmap(rq->ids, cs_rank(p)), lbi);
}

/* The count at the top of the file when every member is its own OS
 * process's local leader (C = 1, or --no-share): (n - 1) gather + (n - 1)
 * scatter + one membership message per member (the sum of the group sizes;
 * the root's to itself included).  With proclets sharing maps the
 * membership messages are sum l(i), which the groups' sizes alone do not
 * give: callers use this count only when C = 1. */
uint64_t cs_leader_split_messages(int64_t n, const int64_t *group_size, int ngroups)
{
  uint64_t members = 0;
  for (int i = 0; i < ngroups; i++)
    members += (uint64_t)group_size[i];
  return n > 0 ? 2 * (uint64_t)(n - 1) + members : 0;
}

cs_create_status cs_leader_split(cs_proc *p, cs_comm *outer, const cs_comm_request *rq, cs_comm **out)
{
  *out = NULL;
  size_t block = 8 + sizeof(uint64_t) * (size_t)rq->ids->lbi_words;
  char *rec = cs_alloc(p, block);
  ((int32_t *)rec)[0] = rq->color[outer->rank];
  ((int32_t *)rec)[1] = rq->key[outer->rank];
  memcpy(rec + 8, cs_lbi_bitmap(rq->ids, cs_rank(p)), block - 8);
  bool root = outer->rank == 0;
  char *all = root ? cs_alloc(p, block * (size_t)outer->size) : NULL;
  cs_comm_gather(p, outer, 0, rec, block, all);
  cs_free(p, rec);
  plan pl = {0};
  if (root) {
    plan_make(p, outer, rq, all, block, &pl);
    cs_free(p, all);
  }
  cid_rec mine;
  cs_comm_scatter(p, outer, 0, root ? pl.cid : NULL, sizeof(cid_rec), &mine);
  if (root) {
    send_memberships(p, outer, rq, &pl);
    plan_free(p, &pl);
  }
  if (mine.grank < 0)
    return CS_CREATE_OK;
  if (mine.flags & CID_NO_ID)
    return CS_CREATE_NO_CONTEXT_ID;
  mark_if_leader(p, rq, mine.ctx);
  return join(p, outer, rq, &mine, out);
}

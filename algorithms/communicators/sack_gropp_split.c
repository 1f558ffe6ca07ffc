/* Sack and Gropp, "A Scalable MPI_Comm_split Algorithm for Exascale
 * Computing" (EuroMPI 2010): the colour/key table built by merging up a
 * tree instead of sorted at the end, sorted in parallel by p sorters, and
 * kept as a distributed table (each sorter holds a slice; O(n/p) memory per
 * process during the split, O(1) per member after it).
 *
 * The paper is not in the repository and its text was not found; only the
 * abstract was.  Every step below that the abstract leaves open is our
 * choice:
 *  - p = floor(cbrt(n)) sorters, the first rank of each of p contiguous
 *    blocks of the parent's ranks (block b: ranks floor(b n / p) ..): with
 *    p - 1 regular samples from each sorter, sorter 0 holds p (p - 1) <
 *    n / p samples, and sorting by regular sampling bounds every bucket by
 *    2 n / p, so no proclet holds more than O(n / p) records (with p =
 *    sqrt(n) the samples alone would be O(n) at sorter 0);
 *  - 1, the tree: a binomial gather inside each block to its sorter of the
 *    (colour, key, rank) records, 12 bytes each; every parent merges the
 *    sorted list of each child into its own (charged as compares, one per
 *    record merged); records of the undefined colour are dropped at their
 *    own rank (the message is still sent, maybe empty);
 *  - 2, the parallel sort: sorting by regular sampling among the sorters:
 *    each sends p - 1 regular samples of its sorted list to sorter 0, which
 *    merges them and sends the p - 1 splitters back to every sorter; every
 *    sorter sends every other sorter the records of its bucket (a message
 *    per pair, maybe empty) and merges the p runs it holds;
 *  - a forward and a backward scan along the sorters (one message to the
 *    next, one to the previous) carry the colour of the boundary record,
 *    how many records of it lie beyond, and the number of colours before:
 *    every sorter then knows each record's group rank, group size and
 *    colour class;
 *  - 3, the distributed table: the sorter sends every record's owner its
 *    (group rank, size, class), 12 bytes, and keeps its slice of the sorted
 *    table; lookups of other members would ask the sorter holding them.
 *  - The communicator: collsim's layer translates ranks through a map, so,
 *    as in moody_bitonic_split.c, each member ends by taking its group's
 *    map built in the simulator without messages (charged to the member):
 *    it stands for the distributed table's lookups.  Memory beyond the map
 *    is the split's own (tests/unit/comm_split_schemes.c bounds it by
 *    O(n/p + p)).
 *  - Context id: a label 1 + seq (n + 1) + class, the same on every member;
 *    the agreement of the paper's MPICH (an allreduce of the id mask, 2 rem
 *    + pof2 lg pof2 messages) is not modelled.
 *
 * Messages for n proclets, p sorters and M members (sum of the group
 * sizes): (n - p) + 2 (p - 1) + p (p - 1) + 2 (p - 1) + M.
 */
#include "algorithms/communicators/split_oracle.h"

#include <math.h>
#include <string.h>

typedef struct rec {
  int32_t color, key, rank;
} rec;

static int rec_cmp(const rec *a, const rec *b)
{
  if (a->color != b->color)
    return a->color < b->color ? -1 : 1;
  if (a->key != b->key)
    return a->key < b->key ? -1 : 1;
  return (a->rank > b->rank) - (a->rank < b->rank);
}

/* A sorted run of records held by a proclet (cs_alloc'd). */
typedef struct run {
  rec *r;
  int64_t len;
} run;

static int sorters_of(int64_t n)
{
  int p = (int)floor(cbrt((double)n));
  while ((int64_t)(p + 1) * (p + 1) * (p + 1) <= n)
    p++;
  while (p > 1 && (int64_t)p * p * p > n)
    p--;
  return p < 1 ? 1 : p;
}

static int block_start(int b, int p, int n) { return (int)((int64_t)b * n / p); }

static int block_of(int r, int p, int n)
{
  int b = (int)((int64_t)r * p / n);
  while (b + 1 < p && block_start(b + 1, p, n) <= r)
    b++;
  while (block_start(b, p, n) > r)
    b--;
  return b;
}

/* Merge b into a (both sorted): a new run; charged len compares. */
static run merge_runs(cs_proc *p, cs_world *w, run a, const rec *b, int64_t blen)
{
  run out = {cs_alloc(p, sizeof(rec) * (size_t)(a.len + blen + 1)), a.len + blen};
  int64_t i = 0, j = 0, k = 0;
  while (i < a.len && j < blen)
    out.r[k++] = rec_cmp(&a.r[i], &b[j]) <= 0 ? a.r[i++] : b[j++];
  while (i < a.len)
    out.r[k++] = a.r[i++];
  while (j < blen)
    out.r[k++] = b[j++];
  cs_free(p, a.r);
  cs_split_charge_compares(p, w, (double)out.len);
  return out;
}

static void send_run(cs_proc *p, cs_comm *c, int dst, int tag, const rec *r, int64_t len)
{
  size_t bytes = sizeof(rec) * (size_t)len;
  cs_comm_send(p, c, dst, tag, r, bytes, bytes);
}

static run recv_merge(cs_proc *p, cs_comm *c, int src, int tag, run mine)
{
  cs_msg *m = cs_comm_recv(p, c, src, tag);
  run out = merge_runs(p, c->world, mine, m->data, (int64_t)(m->bytes / sizeof(rec)));
  cs_msg_free(p, m);
  return out;
}

/* Step 1: the binomial merge-gather inside this rank's block; the sorter
 * returns the block's sorted records, the others an empty run. */
static run tree_merge(cs_proc *p, cs_comm *c, const cs_comm_request *rq, int np)
{
  int n = c->size, b = block_of(c->rank, np, n);
  int start = block_start(b, np, n), size = block_start(b + 1, np, n) - start, v = c->rank - start;
  run mine = {cs_alloc(p, sizeof(rec)), 0};
  rec self = {rq->color[c->rank], rq->key[c->rank], c->rank};
  if (self.color != CS_COLOR_UNDEFINED)
    mine.r[mine.len++] = self;
  for (int mask = 1; mask < size; mask <<= 1) {
    if (v & mask) {
      send_run(p, c, start + v - mask, CS_TAG_SPLIT_GATHER, mine.r, mine.len);
      mine.len = 0;
      break;
    }
    if (v + mask < size)
      mine = recv_merge(p, c, start + v + mask, CS_TAG_SPLIT_GATHER, mine);
  }
  return mine;
}

/* Regular samples: p - 1 records at positions (i + 1) len / p (the last
 * record repeated, or a sentinel, when the run is short). */
static void regular_samples(const run *mine, int np, rec *out)
{
  rec sentinel = {INT32_MAX, INT32_MAX, INT32_MAX};
  for (int i = 0; i < np - 1; i++) {
    int64_t at = (int64_t)(i + 1) * mine->len / np;
    out[i] = mine->len == 0 ? sentinel : mine->r[at < mine->len ? at : mine->len - 1];
  }
}

/* Sorter 0 merges the samples, picks the splitters and sends them back. */
static void choose_splitters(cs_proc *p, cs_comm *c, int np, const rec *my_samples, rec *splitters)
{
  int n = c->size;
  size_t bytes = sizeof(rec) * (size_t)(np - 1);
  if (c->rank != 0) {
    send_run(p, c, 0, CS_TAG_SPLIT_SAMPLE, my_samples, np - 1);
    cs_msg *m = cs_comm_recv(p, c, 0, CS_TAG_SPLIT_SPLITTER);
    memcpy(splitters, m->data, bytes);
    cs_msg_free(p, m);
    return;
  }
  run all = {cs_alloc(p, bytes + sizeof(rec)), np - 1};
  memcpy(all.r, my_samples, bytes);
  for (int s = 1; s < np; s++)
    all = recv_merge(p, c, block_start(s, np, n), CS_TAG_SPLIT_SAMPLE, all);
  for (int i = 0; i < np - 1; i++)
    splitters[i] = all.r[(int64_t)(i + 1) * (np - 1)];
  cs_free(p, all.r);
  for (int s = 1; s < np; s++)
    send_run(p, c, block_start(s, np, n), CS_TAG_SPLIT_SPLITTER, splitters, np - 1);
}

/* Bucket j of a sorted run: the records in [splitter j-1, splitter j). */
static int64_t bucket_end(const run *mine, const rec *splitters, int np, int j, int64_t from)
{
  if (j == np - 1)
    return mine->len;
  int64_t e = from;
  while (e < mine->len && rec_cmp(&mine->r[e], &splitters[j]) < 0)
    e++;
  return e;
}

/* Step 2's exchange: every sorter sends every other its bucket, merges. */
static run exchange_buckets(cs_proc *p, cs_comm *c, int np, run mine, const rec *splitters)
{
  int n = c->size, me = block_of(c->rank, np, n);
  run kept = {cs_alloc(p, sizeof(rec)), 0};
  for (int j = 0, from = 0; j < np; j++) {
    int64_t to = bucket_end(&mine, splitters, np, j, from);
    if (j == me)
      kept = merge_runs(p, c->world, kept, mine.r + from, to - from);
    else
      send_run(p, c, block_start(j, np, n), CS_TAG_SPLIT_BUCKET, mine.r + from, to - from);
    from = (int)to;
  }
  cs_free(p, mine.r);
  for (int j = 0; j < np; j++)
    if (j != me)
      kept = recv_merge(p, c, block_start(j, np, n), CS_TAG_SPLIT_BUCKET, kept);
  return kept;
}

/* What a scan carries across a sorter boundary. */
typedef struct boundary {
  int32_t color;   /* colour of the boundary record (INT32_MIN: none yet) */
  int32_t count;   /* records of that colour beyond the boundary */
  int32_t classes; /* forward: colours before the boundary */
} boundary;

typedef struct sorted_slice {
  run s;
  boundary before, after; /* from the previous sorter, from the next */
} sorted_slice;

static boundary scan_step(cs_proc *p, cs_comm *c, int np, int from_sorter, int to_sorter, int tag, boundary b,
                          boundary (*fold)(const run *, boundary), const run *s)
{
  int n = c->size;
  if (from_sorter >= 0 && from_sorter < np) {
    cs_msg *m = cs_comm_recv(p, c, block_start(from_sorter, np, n), tag);
    memcpy(&b, m->data, sizeof b);
    cs_msg_free(p, m);
  }
  if (to_sorter >= 0 && to_sorter < np) {
    boundary out = fold(s, b);
    cs_comm_send(p, c, block_start(to_sorter, np, n), tag, &out, sizeof out, sizeof out);
  }
  return b;
}

static boundary fold_forward(const run *s, boundary b)
{
  for (int64_t i = 0; i < s->len; i++) {
    if (s->r[i].color != b.color) {
      b.classes += b.color != INT32_MIN;
      b.color = s->r[i].color;
      b.count = 0;
    }
    b.count++;
  }
  return b;
}

static boundary fold_backward(const run *s, boundary b)
{
  for (int64_t i = s->len - 1; i >= 0; i--) {
    if (s->r[i].color != b.color) {
      b.color = s->r[i].color;
      b.count = 0;
    }
    b.count++;
  }
  return b;
}

/* Step 3: group rank, size and class of every record of the slice, sent to
 * its owner. */
static void send_results(cs_proc *p, cs_comm *c, const sorted_slice *sl)
{
  const run *s = &sl->s;
  boundary f = sl->before;
  int64_t a = 0;
  while (a < s->len) {
    int64_t b = a + 1;
    while (b < s->len && s->r[b].color == s->r[a].color)
      b++;
    bool continues = f.color == s->r[a].color;
    int32_t before = continues ? f.count : 0;
    int32_t cls = continues ? f.classes : f.classes + (f.color != INT32_MIN);
    int32_t after = b == s->len && sl->after.color == s->r[a].color ? sl->after.count : 0;
    int32_t size = before + (int32_t)(b - a) + after;
    for (int64_t i = a; i < b; i++) {
      int32_t out[3] = {before + (int32_t)(i - a), size, cls};
      cs_comm_send(p, c, s->r[i].rank, CS_TAG_SPLIT_RESULT, out, sizeof out, sizeof out);
    }
    f = (boundary){s->r[a].color, before + (int32_t)(b - a), cls};
    a = b;
  }
}

static void sorter_part(cs_proc *p, cs_comm *c, const cs_comm_request *rq, int np, run mine)
{
  int me = block_of(c->rank, np, c->size);
  rec *samples = cs_alloc(p, sizeof(rec) * (size_t)np), *splitters = cs_alloc(p, sizeof(rec) * (size_t)np);
  regular_samples(&mine, np, samples);
  if (np > 1)
    choose_splitters(p, c, np, samples, splitters);
  sorted_slice sl = {.s = np > 1 ? exchange_buckets(p, c, np, mine, splitters) : mine};
  cs_free(p, samples);
  cs_free(p, splitters);
  boundary none = {INT32_MIN, 0, 0};
  sl.before = scan_step(p, c, np, me - 1, me + 1, CS_TAG_SPLIT_FSCAN, none, fold_forward, &sl.s);
  sl.after = scan_step(p, c, np, me + 1, me - 1, CS_TAG_SPLIT_BSCAN, none, fold_backward, &sl.s);
  send_results(p, c, &sl);
  cs_free(p, sl.s.r);
  (void)rq;
}

cs_create_status cs_sack_gropp_split(cs_proc *p, cs_comm *outer, const cs_comm_request *rq, cs_comm **out)
{
  *out = NULL;
  int n = outer->size, np = sorters_of(n);
  run mine = tree_merge(p, outer, rq, np);
  if (block_start(block_of(outer->rank, np, n), np, n) == outer->rank)
    sorter_part(p, outer, rq, np, mine);
  else
    cs_free(p, mine.r);
  if (rq->color[outer->rank] == CS_COLOR_UNDEFINED)
    return CS_CREATE_OK;
  cs_msg *m = cs_comm_recv(p, outer, CS_ANY, CS_TAG_SPLIT_RESULT);
  int32_t res[3];
  memcpy(res, m->data, sizeof res);
  cs_msg_free(p, m);
  const cs_split_oracle *o = cs_split_oracle_get(outer, rq);
  uint32_t ctx = 1u + rq->seq * (uint32_t)(n + 1) + (uint32_t)res[2];
  return cs_split_new_comm(p, outer, rq, o, ctx, res[0], res[1], out);
}

int cs_sack_gropp_sorters(int64_t n);
int cs_sack_gropp_sorters(int64_t n) { return sorters_of(n); }

uint64_t cs_sack_gropp_split_messages(int64_t n, const int64_t *group_size, int ngroups)
{
  uint64_t members = 0;
  for (int g = 0; g < ngroups; g++)
    members += (uint64_t)group_size[g];
  uint64_t p = (uint64_t)sorters_of(n);
  return ((uint64_t)n - p) + 4 * (p - 1) + p * (p - 1) + members;
}

/* The communicator layer in process (sim/contracts/comm.h, comm_coll.h,
 * algorithms/comm_collectives/, algorithms/communicators/context_id*.c).
 * Check forks every test, so each test that simulates initialises SimGrid
 * once: it writes a cpm platform, runs the proclets with cs_engine_run and,
 * after the run, asserts on what the proclets recorded.
 *  - Collectives with real data on MPI_COMM_WORLD, N = 1, 2, 3, 5, 7, 12
 *    (powers of two and not; all proclets in one OS process, one per OS
 *    process, and mixed): gather, scatter, bcast and reduce (a sum that
 *    would show a contribution counted twice or lost) from every root,
 *    allreduce with the bitwise AND (cs_reduce_band) and with a sum that
 *    would show a contribution counted twice or lost, allgather of 8- and
 *    3-byte blocks, barrier; every rank ends holding exactly what it should.
 *    Messages summed over the proclets: gather, scatter, bcast, reduce
 *    n - 1 each;
 *    allreduce 2 rem + pof2 lg pof2; allgather n ceil(lg n), n (n - 1)
 *    blocks; the same with virtual (NULL) payloads.
 *  - The same collectives on a communicator of some world ranks in a
 *    permuted order (a group map: group ranks translate to world ranks).
 *  - The executor (sim/contracts/comm_schedule.c) runs other schedules
 *    with real data on COMM_WORLD: the ring allgather (a loop), the
 *    pairwise reduce-scatter (a loop of combining receives), and Bruck's
 *    allgather in place on a buffer in rank order (messages whose blocks
 *    wrap past the last rank: two stretches packed into one message).
 *  - Point to point: messages on two communicators with different context
 *    ids (and COMM_WORLD) never match each other's receives; order within
 *    one context is kept.
 *  - The engine under cpm's costs: a small message sent after a large one
 *    between the same two OS processes arrives after it (one channel per
 *    pair); a collocated message takes exactly o_msg + bytes / proc_bw +
 *    proc_lat + o_msg.  A BWT map's SELECT is charged as a hit in the block
 *    its copy decompressed last: shared, the OS process's copy; not shared,
 *    the proclet's own.
 *  - Context ids without SimGrid: <LID, LBI> encode/decode, COMM_WORLD's
 *    <0, 0>, first free bit, least used (ties: the first), and MPICH2's
 *    mask: 3 reserved ids, the pick (first non-zero word, its highest set
 *    bit), AND of masks, 2,045 picks exhaust it. */
#include "algorithms/collectives/oblivious.h"
#include "algorithms/comm_collectives/generators.h"
#include "algorithms/communicators/context_id.h"
#include "platforms/platform.h"
#include "sim/contracts/comm_coll.h"
#include "sim/contracts/groupmap_strategy.h"
#include "sim/contracts/transport.h"
#include "sim/engine/sg_engine.h"
#include "tests/lib/comm_formulas.h"
#include "tests/lib/rank_failures.h"

#include <check.h>
#include <glib/gstdio.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* ------------------------------------------------------------- a run ---- */

enum { K_GATHER, K_SCATTER, K_BCAST, K_REDUCE, K_ALLREDUCE, K_ALLGATHER, K_BARRIER, K_KINDS };
static const char *const kind_name[] = {"gather", "scatter", "bcast", "reduce", "allreduce", "allgather", "barrier"};

/* What the proclets record (they share the address space of this forked
 * test; SimGrid runs them one at a time). */
static struct {
  cs_world *world;
  int n;
  GPtrArray *failures;           /* first few, as text */
  int failed;                    /* all of them */
  uint64_t msgs[K_KINDS], bytes[K_KINDS];
  int calls[K_KINDS];            /* collective calls per proclet (counted on rank 0) */
  int finished;                  /* proclets that reached the end of their checks */
} L;

/* The world's map and sharing for the next run (run_world's defaults:
 * the world_config's map, share off). */
static struct {
  const char *map;
  bool share;
  int64_t bwt_block;
} W;

/* The sub-communicator of collectives_on_subgroup (set before the run). */
static const cs_wid *sub;
static int sub_size;

#define fail_at(rank, ...) rank_failure(L.failures, &L.failed, rank, __VA_ARGS__)

/* Fails the test with the recorded failures, if any. */
static void assert_no_failures(const char *spec)
{
  if (L.failed == 0)
    return;
  char *kept = rank_failures_text(L.failures);
  ck_abort_msg("%s: %d failures:%s", spec, L.failed, kept);
}

/* Simulate spec's cpm platform with one proclet per slot running fn. */
static void run_world(const char *spec, cs_proc_main_fn fn)
{
  memset(&L, 0, sizeof L);
  L.failures = g_ptr_array_new_with_free_func(g_free);
  GError *err = NULL;
  cs_platform *p = cs_platform_parse(spec, &err);
  ck_assert_msg(p && cs_platform_resolve(p, 0, &err), "%s: %s", spec, err ? err->message : "?");
  char *dir = g_dir_make_tmp("check-comm-layer-XXXXXX", NULL);
  ck_assert_ptr_nonnull(dir);
  char *path = g_build_filename(dir, "platform.xml", NULL);
  ck_assert_msg(cs_platform_write_file(p, path, &err), "%s", err ? err->message : "?");
  int64_t n = cs_platform_slots(p);
  L.n = (int)n;

  cs_world_config wc;
  cs_world_config_defaults(&wc);
  wc.n = n;
  wc.per_process = p->cores;
  wc.per_machine = p->nodes_per_machine > 0 ? p->nodes_per_machine : 1;
  wc.share = W.share; /* off: every member holds its own map (sub-communicator test) */
  if (W.map)
    wc.map = W.map;
  if (W.bwt_block)
    wc.limits.bwt_block_wids = W.bwt_block;
  L.world = cs_world_new(&wc);

  cs_engine_config ec;
  cs_engine_config_defaults(&ec);
  ec.platform_file = path;
  ec.n = (int)n;
  ec.cores = p->cores;
  ec.shared_cpu = 1;
  ec.quiet = 1;
  if (p->model)
    ec.model = p->model;
  if (!isnan(p->o_send))
    ec.o_send = ec.o_recv = p->o_send;
  ec.local_copy_bw = p->local_copy_bw;
  ec.host_channels = p->host_channels;
  cs_proc *procs = g_new0(cs_proc, (gsize)n);
  ck_assert_msg(cs_engine_run(&ec, procs, fn, NULL, &err), "%s: %s", spec, err ? err->message : "?");
  ck_assert_msg(cs_engine_retired() == n, "%s: %d of %lld proclets finished (deadlock)", spec, cs_engine_retired(),
                (long long)n);
  ck_assert_msg(L.finished == n, "%s: %d of %lld proclets reached the end", spec, L.finished, (long long)n);
  assert_no_failures(spec);
  for (int64_t r = 0; r < n; r++)
    cs_proc_release(&procs[r]);
  g_free(procs);
  g_unlink(path);
  g_rmdir(dir);
  g_free(path);
  g_free(dir);
  cs_platform_free(p);
}

static void run_done(void)
{
  memset(&W, 0, sizeof W);
  cs_world_free(L.world);
  L.world = NULL;
  g_ptr_array_free(L.failures, TRUE);
  L.failures = NULL;
}

/* ---------------------------------------------------------- counting ---- */

typedef struct mark {
  uint64_t msgs, bytes;
} mark;

static mark mark_now(cs_proc *p)
{
  const cs_counters *c = cs_proc_counters(p, CS_PHASE_ALGO);
  return (mark){c->messages, c->bytes};
}

static void mark_add(cs_proc *p, int kind, mark before)
{
  mark now = mark_now(p);
  L.msgs[kind] += now.msgs - before.msgs;
  L.bytes[kind] += now.bytes - before.bytes;
  if (cs_rank(p) == 0)
    L.calls[kind]++;
}

/* ------------------------------------------------- the collectives ---- */

/* A rank's data, a function of (who, root, i). */
static int32_t val(int who, int root, int i) { return who * 1000 + root * 37 + i * 7 + 1; }

#define BLK 3 /* int32 per block */

/* The mask rank i contributes to the AND, and the AND of all. */
#define MASK_WORDS 4
static void mask_of(int i, int n, uint32_t m[MASK_WORDS])
{
  m[0] = ~(UINT32_C(1) << (i % 32));
  m[1] = ~(UINT32_C(1) << ((i * 7 + 3) % 32));
  m[2] = i == n - 1 ? UINT32_C(0x12345678) : UINT32_C(0xFFFFFFFF); /* the last rank alone decides */
  m[3] = i == 0 ? UINT32_C(0x0000FFFF) : UINT32_C(0xFFFF00FF);     /* rank 0 is folded in when n is odd */
}

static void sum_i64(void *inout, const void *in, size_t bytes)
{
  int64_t *a = inout;
  const int64_t *b = in;
  for (size_t i = 0; i < bytes / sizeof(int64_t); i++)
    a[i] += b[i];
}

/* Every collective of comm_coll.h on c, with real data, then the same with
 * virtual payloads.  `wr` maps c's group ranks to world ranks (the data of
 * group rank g names wr(g), so a wrong translation shows). */
static void all_collectives(cs_proc *p, cs_comm *c, const cs_wid *wr)
{
  int n = c->size, r = c->rank, me = cs_rank(p);
#define WR(g) ((int)(wr ? wr[g] : (cs_wid)(g)))
  if (WR(r) != me)
    fail_at(me, "group rank %d of %d is world rank %d, not %d", r, n, WR(r), me);
  int32_t *all = g_new(int32_t, (size_t)n * BLK);
  int32_t mine[BLK];
  for (int root = 0; root < n; root++) {
    /* gather: the root gets every rank's block in rank order */
    for (int i = 0; i < BLK; i++)
      mine[i] = val(WR(r), root, i);
    for (int i = 0; i < n * BLK; i++)
      all[i] = -1;
    mark m = mark_now(p);
    cs_comm_gather(p, c, root, mine, sizeof mine, r == root ? all : NULL);
    mark_add(p, K_GATHER, m);
    for (int g = 0; r == root && g < n; g++)
      for (int i = 0; i < BLK; i++)
        if (all[g * BLK + i] != val(WR(g), root, i))
          fail_at(me, "gather to %d: block %d word %d is %d, expected %d", root, g, i, all[g * BLK + i],
                  val(WR(g), root, i));

    /* scatter: every rank gets its block of the root's buffer */
    for (int g = 0; r == root && g < n; g++)
      for (int i = 0; i < BLK; i++)
        all[g * BLK + i] = val(WR(g), root + 100, i);
    for (int i = 0; i < BLK; i++)
      mine[i] = -1;
    m = mark_now(p);
    cs_comm_scatter(p, c, root, r == root ? all : NULL, sizeof mine, mine);
    mark_add(p, K_SCATTER, m);
    for (int i = 0; i < BLK; i++)
      if (mine[i] != val(WR(r), root + 100, i))
        fail_at(me, "scatter from %d: word %d is %d, expected %d", root, i, mine[i], val(WR(r), root + 100, i));

    /* bcast: everyone gets the root's 5 words */
    int32_t buf[5];
    for (int i = 0; i < 5; i++)
      buf[i] = r == root ? val(WR(root), root + 200, i) : -1;
    m = mark_now(p);
    cs_comm_bcast(p, c, root, buf, sizeof buf);
    mark_add(p, K_BCAST, m);
    for (int i = 0; i < 5; i++)
      if (buf[i] != val(WR(root), root + 200, i))
        fail_at(me, "bcast from %d: word %d is %d, expected %d", root, i, buf[i], val(WR(root), root + 200, i));

    /* reduce: the root gets each contribution exactly once */
    int64_t sum[3] = {WR(r) + root, INT64_C(1) << r, 1};
    int64_t want[3] = {(int64_t)n * root, (INT64_C(1) << n) - 1, n};
    for (int g = 0; g < n; g++)
      want[0] += WR(g);
    m = mark_now(p);
    cs_comm_reduce(p, c, root, sum, sizeof sum, sum_i64);
    mark_add(p, K_REDUCE, m);
    for (int i = 0; r == root && i < 3; i++)
      if (sum[i] != want[i])
        fail_at(me, "reduce to %d: word %d is %lld, expected %lld", root, i, (long long)sum[i], (long long)want[i]);
  }

  /* allreduce, AND of per-rank masks */
  uint32_t mask[MASK_WORDS], want[MASK_WORDS], x[MASK_WORDS];
  mask_of(r, n, mask);
  for (int w = 0; w < MASK_WORDS; w++)
    want[w] = UINT32_C(0xFFFFFFFF);
  for (int g = 0; g < n; g++) {
    mask_of(g, n, x);
    for (int w = 0; w < MASK_WORDS; w++)
      want[w] &= x[w];
  }
  mark m = mark_now(p);
  cs_comm_allreduce(p, c, mask, sizeof mask, cs_reduce_band);
  mark_add(p, K_ALLREDUCE, m);
  for (int w = 0; w < MASK_WORDS; w++)
    if (mask[w] != want[w])
      fail_at(me, "allreduce AND: word %d is %08x, expected %08x", w, mask[w], want[w]);

  /* allreduce, sums: each contribution exactly once */
  int64_t s[3] = {WR(r) + 1, INT64_C(1) << r, 1};
  int64_t want_s[3] = {0, (INT64_C(1) << n) - 1, n};
  for (int g = 0; g < n; g++)
    want_s[0] += WR(g) + 1;
  m = mark_now(p);
  cs_comm_allreduce(p, c, s, sizeof s, sum_i64);
  mark_add(p, K_ALLREDUCE, m);
  for (int i = 0; i < 3; i++)
    if (s[i] != want_s[i])
      fail_at(me, "allreduce sum: word %d is %lld, expected %lld", i, (long long)s[i], (long long)want_s[i]);

  /* allgather of 8-byte blocks */
  int32_t pair[2] = {WR(r), val(WR(r), 300, 0)};
  int32_t *got = g_new(int32_t, (size_t)n * 2);
  for (int i = 0; i < 2 * n; i++)
    got[i] = -1;
  m = mark_now(p);
  cs_comm_allgather(p, c, pair, sizeof pair, got);
  mark_add(p, K_ALLGATHER, m);
  for (int g = 0; g < n; g++)
    if (got[2 * g] != WR(g) || got[2 * g + 1] != val(WR(g), 300, 0))
      fail_at(me, "allgather: block %d is (%d, %d), expected (%d, %d)", g, got[2 * g], got[2 * g + 1], WR(g),
              val(WR(g), 300, 0));
  g_free(got);

  /* allgather of 3-byte blocks (offsets not word aligned) */
  unsigned char tri[3] = {(unsigned char)WR(r), (unsigned char)(WR(r) * 3 + 1), 0x5A};
  unsigned char *gt = g_malloc0((size_t)n * 3);
  m = mark_now(p);
  cs_comm_allgather(p, c, tri, 3, gt);
  mark_add(p, K_ALLGATHER, m);
  for (int g = 0; g < n; g++)
    if (gt[3 * g] != (unsigned char)WR(g) || gt[3 * g + 1] != (unsigned char)(WR(g) * 3 + 1) || gt[3 * g + 2] != 0x5A)
      fail_at(me, "allgather of 3 bytes: block %d is %02x %02x %02x", g, gt[3 * g], gt[3 * g + 1], gt[3 * g + 2]);
  g_free(gt);

  m = mark_now(p);
  cs_comm_barrier(p, c);
  mark_add(p, K_BARRIER, m);

  /* virtual payloads: same messages, nothing carried */
  for (int root = 0; root < n; root += n > 1 ? n - 1 : 1) { /* roots 0 and n - 1 */
    m = mark_now(p);
    cs_comm_gather(p, c, root, NULL, 12, NULL);
    mark_add(p, K_GATHER, m);
    m = mark_now(p);
    cs_comm_scatter(p, c, root, NULL, 12, NULL);
    mark_add(p, K_SCATTER, m);
    m = mark_now(p);
    cs_comm_bcast(p, c, root, NULL, 20);
    mark_add(p, K_BCAST, m);
    m = mark_now(p);
    cs_comm_reduce(p, c, root, NULL, 24, sum_i64);
    mark_add(p, K_REDUCE, m);
  }
  m = mark_now(p);
  cs_comm_allreduce(p, c, NULL, 16, cs_reduce_band);
  mark_add(p, K_ALLREDUCE, m);
  m = mark_now(p);
  cs_comm_allgather(p, c, NULL, 8, NULL);
  mark_add(p, K_ALLGATHER, m);
  g_free(all);
#undef WR
}

static void world_main(cs_proc *p, void *user)
{
  (void)user;
  cs_comm *w = cs_comm_world(p, L.world);
  if (w->size != L.n || w->rank != cs_rank(p) || w->ctx != CS_CTX_WORLD)
    fail_at(cs_rank(p), "COMM_WORLD is rank %d of %d, ctx %u", w->rank, w->size, w->ctx);
  all_collectives(p, w, NULL);
  cs_comm_free(p, w);
  L.finished++;
  cs_serve(p);
}

/* Messages (and some bytes) of the collectives, summed over the proclets:
 * per call, gather / scatter / bcast / reduce n - 1, allreduce and barrier
 * 2 rem + pof2 lg pof2, allgather n ceil(lg n) carrying n (n - 1) blocks. */
static void assert_counts(const char *spec, int n)
{
  const int64_t per_call[K_KINDS] = {n - 1, n - 1, n - 1, n - 1, allreduce_msgs(n), n * ceil_lg(n), allreduce_msgs(n)};
  for (int k = 0; k < K_KINDS; k++)
    ck_assert_msg(L.msgs[k] == (uint64_t)(per_call[k] * L.calls[k]), "%s: %s sent %llu messages in %d calls, "
                  "expected %lld each", spec, kind_name[k], (unsigned long long)L.msgs[k], L.calls[k],
                  (long long)per_call[k]);
  /* real bcasts of 20 bytes from each root, then virtual ones of 20 */
  ck_assert_msg(L.bytes[K_BCAST] == (uint64_t)(20 * (n - 1) * L.calls[K_BCAST]), "%s: bcast bytes %llu", spec,
                (unsigned long long)L.bytes[K_BCAST]);
  /* reduces of 24 bytes, real and virtual */
  ck_assert_msg(L.bytes[K_REDUCE] == (uint64_t)(24 * (n - 1) * L.calls[K_REDUCE]), "%s: reduce bytes %llu", spec,
                (unsigned long long)L.bytes[K_REDUCE]);
  /* allgathers of 8, 3 and 8 (virtual) bytes per block */
  ck_assert_msg(L.bytes[K_ALLGATHER] == (uint64_t)n * (uint64_t)(n - 1) * (8 + 3 + 8), "%s: allgather bytes %llu",
                spec, (unsigned long long)L.bytes[K_ALLGATHER]);
  /* allreduces of 16, 24 and 16 (virtual) bytes; the barrier's are 0 */
  ck_assert_msg(L.bytes[K_ALLREDUCE] == (uint64_t)allreduce_msgs(n) * (16 + 24 + 16), "%s: allreduce bytes %llu",
                spec, (unsigned long long)L.bytes[K_ALLREDUCE]);
  ck_assert_int_eq(L.bytes[K_BARRIER], 0);
}

static const char *const world_specs[] = {
    "cpm:1,1,1", /* N = 1 */
    "cpm:1,2,1", /* N = 2, two OS processes */
    "cpm:3,1,1", /* N = 3 in one OS process */
    "cpm:5,1,1", /* N = 5 in one OS process */
    "cpm:1,1,5", /* N = 5 on five machines */
    "cpm:1,7,1", /* N = 7 */
    "cpm:3,2,2", /* N = 12 */
    "cpm:2,3,2", /* N = 12 */
    "cpm:4,2,2", /* N = 16 */
};

START_TEST(collectives_on_world)
{
  const char *spec = world_specs[_i];
  run_world(spec, world_main);
  assert_counts(spec, L.n);
  ck_assert_int_eq(L.calls[K_GATHER], L.n + (L.n > 1 ? 2 : 1)); /* every root, then 0 and n - 1 virtual */
  run_done();
}
END_TEST

/* ------------------------------------------- a sub-communicator ---- */

static void sub_main(cs_proc *p, void *user)
{
  (void)user;
  int me = cs_rank(p), g = -1;
  for (int i = 0; i < sub_size; i++)
    if ((int)sub[i] == me)
      g = i;
  if (g >= 0) {
    GError *e = NULL;
    cs_shared_map *map = cs_comm_build_map(p, L.world, 0, sub, sub_size, &e);
    if (!map) {
      fail_at(me, "no map: %s", e ? e->message : "?");
      g_clear_error(&e);
    } else {
      cs_comm *c = cs_comm_new(p, L.world, 77, g, sub_size, map);
      for (int i = 0; i < sub_size; i++)
        if (cs_comm_world_rank(p, c, i) != (int)sub[i] || cs_comm_group_rank(p, c, (int)sub[i]) != i)
          fail_at(me, "group rank %d <-> world rank %u does not translate", i, sub[i]);
      all_collectives(p, c, sub);
      cs_comm_free(p, c);
    }
  }
  L.finished++;
  cs_serve(p);
}

/* World ranks of the sub-communicators, in group order (permutations of
 * subsets, across OS processes and machines). */
static const cs_wid sub_12[] = {11, 3, 7, 0, 5};
static const cs_wid sub_16[] = {15, 14, 2, 9, 0, 4, 13};

START_TEST(collectives_on_subgroup)
{
  const char *spec = _i == 0 ? "cpm:3,2,2" : "cpm:4,2,2";
  sub = _i == 0 ? sub_12 : sub_16;
  sub_size = _i == 0 ? (int)G_N_ELEMENTS(sub_12) : (int)G_N_ELEMENTS(sub_16);
  run_world(spec, sub_main);
  assert_counts(spec, sub_size);
  run_done();
}
END_TEST

/* ------------------------------------- other schedules, same executor ---- */

/* Runs gen in place on `buf` (n blocks of `block` bytes in rank order) over
 * c as collective coll, combining with op. */
static void run_in_place(cs_proc *p, cs_comm *c, cs_coll coll, cs_sched_ops_fn gen, void *buf, size_t block,
                         cs_reduce_op op)
{
  cs_sched_params prm;
  cs_comm_sched_params(&prm, coll, c->size, 0, block);
  cs_comm_sched_io io = cs_comm_in_place(cs_units_all(&prm), buf);
  cs_comm_run_generated(p, c, &prm, gen, &io, op);
}

static void ring_allgather_ops(const cs_sched_params *prm, int64_t rank, cs_oplist *out)
{
  cs_obl_ring_allgather(prm, rank, 0, out);
}

static void pairwise_ops(const cs_sched_params *prm, int64_t rank, cs_oplist *out)
{
  cs_obl_pairwise_reduce_scatter(prm, rank, 0, out);
}

/* An allgather by gen of 3-byte blocks in rank order: every rank ends with
 * every block. */
static void check_allgather(cs_proc *p, cs_comm *c, cs_sched_ops_fn gen, const char *what)
{
  int n = c->size, r = c->rank;
  unsigned char *all = g_malloc((size_t)n * 3);
  memset(all, 0xEE, (size_t)n * 3);
  for (int i = 0; i < 3; i++)
    all[3 * r + i] = (unsigned char)(r * 3 + i + 1);
  run_in_place(p, c, CS_COLL_ALLGATHER, gen, all, 3, NULL);
  for (int g = 0; g < n * 3; g++)
    if (all[g] != (unsigned char)(g + 1))
      fail_at(r, "%s: byte %d is %d, expected %d", what, g, all[g], (unsigned char)(g + 1));
  g_free(all);
}

static void schedules_main(cs_proc *p, void *user)
{
  (void)user;
  cs_comm *w = cs_comm_world(p, L.world);
  int n = w->size, r = w->rank;
  check_allgather(p, w, ring_allgather_ops, "ring allgather (a loop)");
  check_allgather(p, w, cs_comm_allgather_ops, "Bruck's allgather in rank order");
  /* reduce-scatter: rank r contributes (1 << r) + 1000 g to block g */
  int64_t *blocks = g_new(int64_t, (size_t)n);
  for (int g = 0; g < n; g++)
    blocks[g] = (INT64_C(1) << r) + 1000 * g;
  run_in_place(p, w, CS_COLL_REDUCE_SCATTER, pairwise_ops, blocks, sizeof *blocks, sum_i64);
  int64_t want = (INT64_C(1) << n) - 1 + 1000 * (int64_t)n * r;
  if (blocks[r] != want)
    fail_at(r, "pairwise reduce-scatter: my block is %lld, expected %lld", (long long)blocks[r], (long long)want);
  g_free(blocks);
  cs_comm_free(p, w);
  L.finished++;
  cs_serve(p);
}

START_TEST(executor_runs_other_schedules)
{
  const char *spec = world_specs[_i];
  run_world(spec, schedules_main);
  run_done();
}
END_TEST

/* ------------------------------------------- context ids in matching ---- */

/* Proclet 0 sends tag 3 on A (ctx 5), on B (ctx 9) and on COMM_WORLD, then
 * twice more on A; proclet 1 receives B first, then COMM_WORLD, then A
 * (from any source) three times: each gets its own payload, A's in order. */
static void ctx_main(cs_proc *p, void *user)
{
  (void)user;
  int me = cs_rank(p);
  cs_comm *w = cs_comm_world(p, L.world);
  cs_comm *a = cs_comm_new(p, L.world, 5, me, L.n, NULL);
  cs_comm *b = cs_comm_new(p, L.world, 9, me, L.n, NULL);
  if (me == 0) {
    cs_comm_send(p, a, 1, 3, "A1", 3, 3);
    cs_comm_send(p, b, 1, 3, "B1", 3, 3);
    cs_comm_send(p, w, 1, 3, "W1", 3, 3);
    cs_comm_send(p, a, 1, 3, "A2", 3, 3);
    cs_comm_send(p, a, 1, 3, "A3", 3, 3);
  } else if (me == 1) {
    const struct {
      cs_comm *c;
      int src;
      const char *want;
      uint32_t ctx;
    } steps[] = {{b, 0, "B1", 9}, {w, 0, "W1", 0}, {a, CS_ANY, "A1", 5}, {a, 0, "A2", 5}, {a, CS_ANY, "A3", 5}};
    for (size_t i = 0; i < G_N_ELEMENTS(steps); i++) {
      cs_msg *m = cs_comm_recv(p, steps[i].c, steps[i].src, 3);
      if (!m->data || strcmp(m->data, steps[i].want) != 0 || m->ctx != steps[i].ctx || m->src != 0)
        fail_at(me, "receive %zu: got '%s' (ctx %u, src %d), expected '%s' (ctx %u)", i,
                m->data ? (const char *)m->data : "(none)", m->ctx, m->src, steps[i].want, steps[i].ctx);
      cs_msg_free(p, m);
    }
  }
  cs_comm_free(p, a);
  cs_comm_free(p, b);
  cs_comm_free(p, w);
  L.finished++;
  cs_serve(p);
}

START_TEST(contexts_do_not_cross)
{
  const char *spec = _i == 0 ? "cpm:1,2,1" : "cpm:2,1,1"; /* two OS processes, or collocated */
  run_world(spec, ctx_main);
  run_done();
}
END_TEST

/* ------------------------------------ the engine under cpm's costs ---- */

/* Arrival times (after the receive) per rank. */
static double arrival[4];

/* cpm:2,2,1: ranks 0, 1 on OS process 0, ranks 2, 3 on OS process 1.  Rank
 * 0 sends 1 MiB to rank 2, then rank 1 sends 8 bytes to rank 3: one channel
 * joins the two OS processes, so the small message waits for the large one
 * (as concurrent flows, it would arrive some 700 us earlier). */
static void channel_main(cs_proc *p, void *user)
{
  (void)user;
  int me = cs_rank(p);
  if (me == 0)
    cs_send(p, 2, 1, NULL, 1 << 20);
  else if (me == 1)
    cs_send(p, 3, 1, NULL, 8); /* after rank 0's send: FIFO on the shared CPU */
  else {
    cs_msg *m = cs_recv(p, CS_ANY, 1);
    arrival[me] = cs_now(p);
    cs_msg_free(p, m);
  }
  L.finished++;
  cs_serve(p);
}

START_TEST(one_channel_per_os_process_pair)
{
  run_world("cpm:2,2,1", channel_main);
  double large = 1e-6 + 0.4e-6 + (double)(1 << 20) / 1.5e9; /* o_msg + shm_lat + bytes / shm_bw */
  ck_assert_msg(arrival[2] > large && arrival[2] < large + 1e-5, "1 MiB arrived at %g s, expected about %g s",
                arrival[2], large);
  ck_assert_msg(arrival[3] > arrival[2], "8 bytes arrived at %g s, before the 1 MiB sent earlier (%g s)",
                arrival[3], arrival[2]);
  run_done();
}
END_TEST

/* cpm:2,1,1: a collocated message is a copy by the OS process's CPU. */
static void copy_main(cs_proc *p, void *user)
{
  (void)user;
  if (cs_rank(p) == 0)
    cs_send(p, 1, 1, NULL, 1 << 20);
  else {
    cs_msg *m = cs_recv(p, 0, 1);
    arrival[1] = cs_now(p);
    cs_msg_free(p, m);
  }
  L.finished++;
  cs_serve(p);
}

START_TEST(collocated_message_is_a_cpu_copy)
{
  run_world("cpm:2,1,1", copy_main);
  /* o_msg + bytes / proc_bw on the sender's CPU, proc_lat, o_msg on the receiver's */
  double want = 1e-6 + (double)(1 << 20) / 4e9 + 0.5e-6 + 1e-6;
  ck_assert_msg(fabs(arrival[1] - want) < 1e-9, "1 MiB between collocated proclets took %.9g s, expected %.9g s",
                arrival[1], want);
  run_done();
}
END_TEST

/* A BWT map keeps its last decompressed block: a SELECT in that block is
 * charged as a hit.  cpm:2,2,1, group {3, 1, 2, 0} in blocks of 2 gids.
 * Each OS process's leader selects gids 0 (miss) and 1 (hit), then hands
 * over to its collocated proclet, which selects 1, 2, 3: with the map
 * shared, its first SELECT hits the block the leader left in the process's
 * copy; with --no-share its own copy starts empty (a miss).  Each OS
 * process has its own cache. */
static const cs_wid bwt_group[] = {3, 1, 2, 0};
static double select_s[4][3];

static double timed_select(cs_proc *p, const cs_comm *c, int g)
{
  double t0 = cs_now(p);
  if (cs_comm_world_rank(p, c, g) != (int)bwt_group[g])
    fail_at(cs_rank(p), "SELECT(%d) is not %u", g, bwt_group[g]);
  return cs_now(p) - t0;
}

static void bwt_cache_main(cs_proc *p, void *user)
{
  (void)user;
  int me = cs_rank(p), g = 0;
  bool leader = me % 2 == 0;
  while (bwt_group[g] != (cs_wid)me)
    g++;
  GError *e = NULL;
  cs_shared_map *map = NULL;
  if (!W.share || leader)
    map = cs_comm_build_map(p, L.world, 0, bwt_group, 4, &e);
  if (W.share && leader && map)
    cs_comm_publish_map(p, L.world, 77, map);
  if (W.share && !leader)
    map = cs_comm_wait_map(p, L.world, 77);
  if (!map) {
    fail_at(me, "no map: %s", e ? e->message : "?");
    g_clear_error(&e);
  } else {
    cs_comm *c = cs_comm_new(p, L.world, 77, g, 4, map);
    /* the follower is ready (its map built or found): the CPU is the leader's alone */
    if (leader)
      cs_msg_free(p, cs_recv(p, me + 1, 4));
    else
      cs_send(p, me - 1, 4, NULL, 0);
    if (leader) {
      select_s[me][0] = timed_select(p, c, 0);
      select_s[me][1] = timed_select(p, c, 1);
      cs_send(p, me + 1, 5, NULL, 0);
    } else {
      cs_msg_free(p, cs_recv(p, me - 1, 5));
      for (int i = 0; i < 3; i++)
        select_s[me][i] = timed_select(p, c, i + 1);
    }
    cs_comm_free(p, c);
  }
  L.finished++;
  cs_serve(p);
}

START_TEST(bwt_select_cache_per_copy)
{
  W.map = "bwt";
  W.share = _i == 0;
  W.bwt_block = 2;
  bool shared = W.share;
  memset(select_s, 0, sizeof select_s);
  run_world("cpm:2,2,1", bwt_cache_main);
  cs_gm_limits lim = cs_gm_limits_default();
  lim.bwt_block_wids = 2;
  GError *e = NULL;
  cs_groupmap *gm = cs_gm_create("bwt", bwt_group, 4, 4, &lim, &e);
  ck_assert_msg(gm != NULL, "%s", e ? e->message : "?");
  double miss = cs_gm_select_cost_ns(gm) * 1e-9;
  /* a hit (5 ns) is below SimGrid's shortest sleep: kept on the host's clock, it delays the next
   * piece of work instead (hence 2e-8 s of slack) */
  ck_assert(miss > 1e-6 && cs_gm_cached_select_ns(gm) * 1e-9 < 1e-8);
  cs_gm_free(gm);
  for (int leader = 0; leader < 4; leader += 2) {
    const double *l = select_s[leader], *f = select_s[leader + 1];
    double want_f0 = shared ? 0 : miss;
    ck_assert_msg(fabs(l[0] - miss) < 2e-8 && l[1] < 1e-8, "OS process %d, leader: %g %g s", leader / 2, l[0], l[1]);
    ck_assert_msg(fabs(f[0] - want_f0) < 2e-8 && fabs(f[1] - miss) < 2e-8 && f[2] < 1e-8,
                  "OS process %d, %s: SELECT 1, 2, 3 took %g %g %g s (miss %g s)", leader / 2,
                  shared ? "shared" : "not shared", f[0], f[1], f[2], miss);
  }
  run_done();
}
END_TEST

/* ------------------------------------------------- context ids, units ---- */

START_TEST(lidlbi_encode_decode)
{
  const int widths[][2] = {{21, 6}, {20, 12}, {31, 1}, {4, 2}};
  for (size_t w = 0; w < G_N_ELEMENTS(widths); w++) {
    int lb = widths[w][0], kb = widths[w][1];
    cs_ctxids *ids = cs_ctxids_new(CS_CTXID_LIDLBI, 4, lb, kb);
    const int64_t lids[] = {0, 1, 5, (INT64_C(1) << lb) - 1};
    const int lbis[] = {0, 1, (1 << kb) - 1};
    for (size_t i = 0; i < G_N_ELEMENTS(lids); i++)
      for (size_t j = 0; j < G_N_ELEMENTS(lbis); j++) {
        uint32_t ctx = cs_lidlbi_encode(ids, lids[i], lbis[j]);
        ck_assert_uint_eq(ctx, (uint32_t)lids[i] << kb | (uint32_t)lbis[j]); /* LID high, LBI low */
        int64_t lid;
        int lbi;
        cs_lidlbi_decode(ids, ctx, &lid, &lbi);
        ck_assert_msg(lid == lids[i] && lbi == lbis[j], "L=%d k=%d: <%lld,%d> -> %u -> <%lld,%d>", lb, kb,
                      (long long)lids[i], lbis[j], ctx, (long long)lid, lbi);
      }
    /* only <0, 0> is COMM_WORLD's context id */
    ck_assert_uint_eq(cs_lidlbi_encode(ids, 0, 0), CS_CTX_WORLD);
    ck_assert_uint_ne(cs_lidlbi_encode(ids, 0, 1), CS_CTX_WORLD);
    ck_assert_uint_ne(cs_lidlbi_encode(ids, 1, 0), CS_CTX_WORLD);
    cs_ctxids_free(ids);
  }
  ck_assert_str_eq(cs_ctxid_scheme_name(CS_CTXID_LIDLBI), "lidlbi");
  ck_assert_str_eq(cs_ctxid_scheme_name(CS_CTXID_MASK), "mask");
}
END_TEST

START_TEST(lidlbi_bitmaps)
{
  cs_ctxids *ids = cs_ctxids_new(CS_CTXID_LIDLBI, 3, 21, 6);
  /* COMM_WORLD = <0, 0>: proclet 0 starts with bit 0 used, the others with none */
  ck_assert_int_eq(cs_lbi_used(ids, cs_lbi_bitmap(ids, 0)), 1);
  ck_assert_int_eq(cs_lbi_first_free(ids, cs_lbi_bitmap(ids, 0)), 1);
  ck_assert_int_eq(cs_lbi_used(ids, cs_lbi_bitmap(ids, 1)), 0);
  ck_assert_int_eq(cs_lbi_first_free(ids, cs_lbi_bitmap(ids, 1)), 0);
  /* first free is the lowest clear bit */
  uint64_t *b = cs_lbi_bitmap(ids, 2);
  cs_lbi_take(ids, b, 0);
  cs_lbi_take(ids, b, 1);
  cs_lbi_take(ids, b, 3);
  ck_assert_int_eq(cs_lbi_first_free(ids, b), 2);
  ck_assert_int_eq(cs_lbi_used(ids, b), 3);
  cs_lbi_take(ids, b, 3); /* again: no change */
  ck_assert_int_eq(cs_lbi_used(ids, b), 3);
  for (int i = 0; i < 64; i++)
    cs_lbi_take(ids, b, i);
  ck_assert_int_eq(cs_lbi_first_free(ids, b), -1);
  ck_assert_int_eq(cs_lbi_used(ids, b), 64);
  /* the others' bitmaps are untouched */
  ck_assert_int_eq(cs_lbi_used(ids, cs_lbi_bitmap(ids, 1)), 0);
  cs_ctxids_free(ids);

  /* k = 7: two words; the first free bit after a full first word is 64 */
  ids = cs_ctxids_new(CS_CTXID_LIDLBI, 2, 21, 7);
  ck_assert_int_eq(ids->lbi_words, 2);
  b = cs_lbi_bitmap(ids, 1);
  for (int i = 0; i < 64; i++)
    cs_lbi_take(ids, b, i);
  ck_assert_int_eq(cs_lbi_first_free(ids, b), 64);
  cs_lbi_take(ids, b, 127);
  ck_assert_int_eq(cs_lbi_used(ids, b), 65);
  ck_assert_int_eq(cs_lbi_first_free(ids, b), 64);
  ck_assert_int_eq(cs_lbi_used(ids, cs_lbi_bitmap(ids, 0)), 1);
  cs_ctxids_free(ids);

  /* k = 1: two ids per leader */
  ids = cs_ctxids_new(CS_CTXID_LIDLBI, 2, 21, 1);
  b = cs_lbi_bitmap(ids, 0);
  ck_assert_int_eq(cs_lbi_first_free(ids, b), 1);
  cs_lbi_take(ids, b, 1);
  ck_assert_int_eq(cs_lbi_first_free(ids, b), -1);
  cs_ctxids_free(ids);
}
END_TEST

START_TEST(lidlbi_least_used)
{
  cs_ctxids *ids = cs_ctxids_new(CS_CTXID_LIDLBI, 1, 21, 3); /* 8 bits */
  /* bits used: 3, 1, 2, 1 -> the first of the two with 1 */
  uint64_t b[5] = {0x7, 0x10, 0x3, 0x80, 0};
  ck_assert_int_eq(cs_lbi_least_used(ids, b, 4), 1);
  /* an empty bitmap wins wherever it is */
  ck_assert_int_eq(cs_lbi_least_used(ids, b, 5), 4);
  /* ties among all: the first */
  uint64_t t[3] = {0x1, 0x2, 0x4};
  ck_assert_int_eq(cs_lbi_least_used(ids, t, 3), 0);
  /* full bitmaps are never chosen; all full: -1 */
  uint64_t f[3] = {0xFF, 0xFE, 0xFF};
  ck_assert_int_eq(cs_lbi_least_used(ids, f, 3), 1);
  f[1] = 0xFF;
  ck_assert_int_eq(cs_lbi_least_used(ids, f, 3), -1);
  ck_assert_int_eq(cs_lbi_least_used(ids, f, 0), -1);
  cs_ctxids_free(ids);

  /* two words per bitmap (k = 7): counts across both words */
  ids = cs_ctxids_new(CS_CTXID_LIDLBI, 1, 21, 7);
  uint64_t w[6] = {0x1, 0x1, /* 2 */ 0x0, 0x7, /* 3 */ 0x3, 0x0 /* 2 */};
  ck_assert_int_eq(cs_lbi_least_used(ids, w, 3), 0);
  w[1] = 0x3; /* 3, 3, 2 */
  ck_assert_int_eq(cs_lbi_least_used(ids, w, 3), 2);
  cs_ctxids_free(ids);
}
END_TEST

START_TEST(mask_rules)
{
  cs_ctxids *ids = cs_ctxids_new(CS_CTXID_MASK, 3, 21, 6);
  for (int r = 0; r < 3; r++) {
    uint32_t *m = cs_mask_of(ids, r);
    /* 3 reserved ids (COMM_WORLD, COMM_SELF, the internal copy) */
    ck_assert_uint_eq(m[0], 0xFFFFFFF8u);
    for (int w = 1; w < CS_MASK_WORDS; w++)
      ck_assert_uint_eq(m[w], 0xFFFFFFFFu);
  }
  ck_assert_int_eq(CS_MASK_BITS, 2048);
  /* MPICH2 1.3/1.4: the first non-zero word, its highest set bit */
  uint32_t *m = cs_mask_of(ids, 0);
  ck_assert_int_eq(cs_mask_pick(m), 31);
  cs_mask_take(m, 31);
  ck_assert_uint_eq(m[0], 0x7FFFFFF8u);
  ck_assert_int_eq(cs_mask_pick(m), 30);
  uint32_t x[CS_MASK_WORDS] = {0};
  x[5] = 0x00010100u;
  ck_assert_int_eq(cs_mask_pick(x), 5 * 32 + 16);
  x[2] = 0x1u;
  ck_assert_int_eq(cs_mask_pick(x), 2 * 32);
  memset(x, 0, sizeof x);
  ck_assert_int_eq(cs_mask_pick(x), -1);
  x[CS_MASK_WORDS - 1] = 0x80000000u;
  ck_assert_int_eq(cs_mask_pick(x), CS_MASK_BITS - 1);
  /* the AND of two masks: a common free id */
  uint32_t *a = cs_mask_of(ids, 1), *b = cs_mask_of(ids, 2);
  cs_mask_take(b, 31);
  cs_mask_take(b, 30);
  cs_mask_take(a, 29);
  uint32_t and[CS_MASK_WORDS];
  memcpy(and, a, sizeof and);
  cs_reduce_band(and, b, sizeof and);
  ck_assert_int_eq(cs_mask_pick(and), 28);
  ck_assert_uint_eq(cs_mask_ctx(28), 28u);
  cs_ctxids_free(ids);
}
END_TEST

/* 2,045 picks from a fresh mask: ids 31..3 of word 0, then every word from
 * its highest bit down; all distinct, never a reserved one; then none. */
START_TEST(mask_exhausts_after_2045)
{
  cs_ctxids *ids = cs_ctxids_new(CS_CTXID_MASK, 1, 21, 6);
  uint32_t *m = cs_mask_of(ids, 0);
  int expected = 31, picks = 0;
  for (int id; (id = cs_mask_pick(m)) >= 0; picks++) {
    ck_assert_msg(id == expected, "pick %d is %d, expected %d", picks, id, expected);
    ck_assert_int_ge(id, CS_MASK_RESERVED);
    ck_assert_uint_ne(cs_mask_ctx(id), CS_CTX_WORLD);
    cs_mask_take(m, id);
    expected = id % 32 == (id < 32 ? CS_MASK_RESERVED : 0) ? (id / 32 + 1) * 32 + 31 : id - 1;
    ck_assert_int_le(picks, CS_MASK_BITS);
  }
  ck_assert_int_eq(picks, 2045);
  ck_assert_int_eq(picks, CS_MASK_BITS - CS_MASK_RESERVED);
  for (int w = 0; w < CS_MASK_WORDS; w++)
    ck_assert_uint_eq(m[w], 0);
  cs_ctxids_free(ids);
}
END_TEST

int main(void)
{
  Suite *s = suite_create("comm_layer");
  TCase *tc = tcase_create("collectives");
  tcase_set_timeout(tc, 120);
  tcase_add_loop_test(tc, collectives_on_world, 0, (int)G_N_ELEMENTS(world_specs));
  tcase_add_loop_test(tc, collectives_on_subgroup, 0, 2);
  tcase_add_loop_test(tc, executor_runs_other_schedules, 0, (int)G_N_ELEMENTS(world_specs));
  tcase_add_loop_test(tc, contexts_do_not_cross, 0, 2);
  tcase_add_test(tc, one_channel_per_os_process_pair);
  tcase_add_test(tc, collocated_message_is_a_cpu_copy);
  tcase_add_loop_test(tc, bwt_select_cache_per_copy, 0, 2);
  suite_add_tcase(s, tc);
  tc = tcase_create("context_ids");
  tcase_add_test(tc, lidlbi_encode_decode);
  tcase_add_test(tc, lidlbi_bitmaps);
  tcase_add_test(tc, lidlbi_least_used);
  tcase_add_test(tc, mask_rules);
  tcase_add_test(tc, mask_exhausts_after_2045);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}

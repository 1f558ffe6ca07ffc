/* Tests of the collective kinds allreduce, alltoall and barrier and their
 * algorithms (issue 30):
 *  - every algorithm replays correctly (data moved, sums complete, every
 *    token heard) on shapes powers of two or not, sizes dividing evenly or
 *    not, and the replay's counts are the expanded ops';
 *  - message counts and bytes equal closed forms computed here
 *    independently (e.g. pairwise alltoall p(p-1) messages, Bruck's one
 *    message per step carrying the slots with bit k set, a unit set with a
 *    tail where their last run is partial); the composed allreduces equal
 *    their phases run alone;
 *  - tags are distinct per (sender, receiver); every send has its receive;
 *  - the replay can fail: a barrier missing its last step, an alltoall
 *    missing a block, an allreduce without MPICH's post-step are refused;
 *  - ring, pairwise and linear lists stay O(1) long at p = 2^20, the others
 *    O(log p); the pattern-generator aggregates pairwise alltoall at p =
 *    16,384 (268 M messages) to the exact totals;
 *  - pairwise alltoall on a power of two pairs by XOR as MPICH does: its
 *    3-op loop expands to the ops of every step written out, and the
 *    pattern-generator's sums over its runs of peers equal the messages
 *    enumerated, per node pair and per link, at p = 64;
 *  - plan() refuses what an algorithm cannot do, naming the constraint. */
#include "sim/checks/replay.h"
#include "sim/contracts/schedule.h"
#include "patterns/linkusage.h"
#include "patterns/pattern.h"

#include "platforms/two_tier_net.h"
#include "tests/lib/algos.h"
#include "tests/lib/platform_specs.h"

#include <check.h>
#include <glib.h>
#include <string.h>

#define EXPECT(cond, ...)                                                                                      \
  do {                                                                                                         \
    if (!(cond))                                                                                               \
      ck_abort_msg(__VA_ARGS__);                                                                               \
  } while (0)

static const int64_t P_LIST[] = {1, 2, 3, 5, 6, 7, 8, 12, 13, 16, 24, 31, 33, 64};
#define NP G_N_ELEMENTS(P_LIST)

static const cs_coll_algo *algos_at(size_t i)
{
  const cs_coll_algo *all[] = {ALGO_recursive_doubling_allreduce, ALGO_rabenseifner_allreduce, ALGO_ring_allreduce,
                               ALGO_reduce_bcast_allreduce,       ALGO_twotier_allreduce,      ALGO_pairwise_alltoall,
                               ALGO_bruck_alltoall,               ALGO_linear_alltoall,        ALGO_dissemination_barrier};
  return all[i];
}
#define NALGOS 9

/* ---- independent arithmetic ---- */

static int64_t pow2_floor(int64_t p)
{
  int64_t x = 1;
  while (2 * x <= p)
    x *= 2;
  return x;
}

static int ilog2(int64_t x)
{
  int k = 0;
  while ((int64_t)1 << (k + 1) <= x)
    k++;
  return k;
}

static int ceil_log2(int64_t p)
{
  int k = 0;
  while (((int64_t)1 << k) < p)
    k++;
  return k;
}

static uint64_t gcd(uint64_t a, uint64_t b) { return b ? gcd(b, a % b) : a; }

/* Bruck step k: the slots o < p with bit k set, and the messages they take:
 * one, all of them packed (as MPICH's indexed datatype does). */
static void bruck_step(int64_t p, int k, uint64_t *slots, uint64_t *messages)
{
  uint64_t n = 0;
  for (int64_t o = 0; o < p; o++)
    n += (o >> k) & 1;
  *slots = n;
  *messages = n > 0;
}

/* MPICH's binomial tree: bytes of scattering p chunks of `chunk` bytes. */
static uint64_t binomial_scatter_blocks(int64_t p)
{
  uint64_t sum = 0;
  for (int64_t s = 1; s < p; s++) /* chunk s travels once per tree edge between the root and s */
    for (int64_t r = s; r != 0; r -= r & -r)
      sum++;
  return sum;
}

typedef struct {
  uint64_t messages, bytes;
} expected;

/* size: the whole buffer (allreduce), the pair's block (alltoall), ignored
 * (barrier); exact when the buffer divides into the algorithm's units. */
static expected formula(const cs_coll_algo *a, int64_t p, uint64_t size)
{
  uint64_t up = (uint64_t)p, pof2 = (uint64_t)pow2_floor(p), rem = up - pof2, lg = (uint64_t)ilog2((int64_t)pof2);
  if (a == ALGO_recursive_doubling_allreduce)
    return (expected){pof2 * lg + 2 * rem, (pof2 * lg + 2 * rem) * size};
  if (a == ALGO_rabenseifner_allreduce)
    return (expected){2 * rem + 2 * pof2 * lg, 2 * rem * size + 2 * (pof2 - 1) * size};
  if (a == ALGO_ring_allreduce)
    return (expected){2 * up * (up - 1), 2 * (up - 1) * size};
  if (a == ALGO_reduce_bcast_allreduce) /* rabenseifner reduce, then van de Geijn */
    return (expected){rem + pof2 * lg + pof2 - 1 + up - 1 + up * (up - 1),
                      rem * size + (pof2 - 1) * size + size / 2 * lg + binomial_scatter_blocks(p) * (size / up) +
                          (up - 1) * size};
  if (a == ALGO_pairwise_alltoall || a == ALGO_linear_alltoall)
    return (expected){up * (up - 1), up * (up - 1) * size};
  if (a == ALGO_bruck_alltoall) {
    expected e = {0, 0};
    for (int k = 0; ((int64_t)1 << k) < p; k++) {
      uint64_t slots, msgs;
      bruck_step(p, k, &slots, &msgs);
      e.messages += up * msgs;
      e.bytes += up * slots * size;
    }
    return e;
  }
  ck_assert(a == ALGO_dissemination_barrier);
  return (expected){up * (uint64_t)ceil_log2(p), 0};
}

/* ---- counting over the expanded ops ---- */

typedef struct {
  const cs_sched_params *prm;
  int64_t rank;
  uint64_t sends, recvs, send_bytes, recv_bytes;
  GHashTable *tags;
  bool tag_clash, tag_negative;
} counter;

static bool count_op(const cs_op *op, void *user)
{
  counter *c = user;
  uint64_t b = cs_units_bytes(c->prm, op->units);
  if (op->kind != CS_OP_SEND) {
    c->recvs++;
    c->recv_bytes += b;
    return true;
  }
  c->sends++;
  c->send_bytes += b;
  c->tag_negative |= op->tag < 0;
  char *k = g_strdup_printf("%lld %lld %d", (long long)c->rank, (long long)op->peer, op->tag);
  c->tag_clash |= !g_hash_table_add(c->tags, k);
  return true;
}

static counter count_all(const cs_coll_algo *a, const cs_sched_params *prm)
{
  counter c = {.prm = prm, .tags = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL)};
  cs_oplist o;
  cs_oplist_init(&o);
  for (int64_t r = 0; r < prm->p; r++) {
    cs_oplist_clear(&o);
    a->ops(prm, r, &o);
    c.rank = r;
    cs_oplist_expand(prm, &o, count_op, &c);
  }
  cs_oplist_free(&o);
  g_hash_table_destroy(c.tags);
  c.tags = NULL;
  return c;
}

static bool setup(cs_sched_params *prm, const cs_coll_algo *a, const cs_two_tier *tt, uint64_t size)
{
  return test_setup(prm, a, tt, size);
}

/* ---- counts ---- */

/* The buffer sizes that divide into every algorithm's units on p ranks. */
static uint64_t even_size(const cs_coll_algo *a, int64_t p)
{
  if (a->coll != CS_COLL_ALLREDUCE)
    return 24;
  uint64_t pof2 = (uint64_t)pow2_floor(p), l = pof2 / gcd(pof2, (uint64_t)p) * (uint64_t)p;
  return 3 * l;
}

START_TEST(test_counts_match_formulas)
{
  const cs_coll_algo *a = algos_at(_i);
  if (a == ALGO_twotier_allreduce)
    return; /* its counts are its phases': test_composed_equals_phases */
  for (size_t k = 0; k < NP; k++) {
    int64_t p = P_LIST[k];
    cs_net net = cs_net_percs(p, 1, 1);
    uint64_t size = even_size(a, p);
    cs_sched_params prm;
    ck_assert(setup(&prm, a, &net.tt, size));
    counter c = count_all(a, &prm);
    expected e = formula(a, p, size);
    EXPECT(c.sends == e.messages && c.send_bytes == e.bytes,
           "%s %s p = %lld size %llu: %llu messages, %llu bytes; want %llu, %llu", cs_coll_name(a->coll), a->name,
           (long long)p, (unsigned long long)size, (unsigned long long)c.sends, (unsigned long long)c.send_bytes,
           (unsigned long long)e.messages, (unsigned long long)e.bytes);
    EXPECT(c.recvs == c.sends && c.recv_bytes == c.send_bytes, "%s %s p = %lld: %llu sends, %llu receives",
           cs_coll_name(a->coll), a->name, (long long)p, (unsigned long long)c.sends, (unsigned long long)c.recvs);
    EXPECT(!c.tag_clash && !c.tag_negative, "%s %s p = %lld: a (sender, receiver, tag) repeats or is negative",
           cs_coll_name(a->coll), a->name, (long long)p);
  }
}
END_TEST

/* The ring and the pairwise and linear alltoalls move the same bytes
 * whatever the cut (uneven buffers, odd blocks). */
START_TEST(test_uneven_sizes)
{
  static const uint64_t sizes[] = {1, 7, 97, 1001};
  for (size_t k = 0; k < NP; k++)
    for (size_t s = 0; s < G_N_ELEMENTS(sizes); s++) {
      int64_t p = P_LIST[k];
      cs_net net = cs_net_percs(p, 1, 1);
      const cs_coll_algo *as[] = {ALGO_ring_allreduce, ALGO_pairwise_alltoall, ALGO_linear_alltoall,
                                  ALGO_bruck_alltoall, ALGO_recursive_doubling_allreduce};
      for (size_t i = 0; i < G_N_ELEMENTS(as); i++) {
        cs_sched_params prm;
        ck_assert(setup(&prm, as[i], &net.tt, sizes[s]));
        counter c = count_all(as[i], &prm);
        expected e = formula(as[i], p, sizes[s]);
        EXPECT(c.sends == e.messages && c.send_bytes == e.bytes, "%s %s p = %lld n = %llu: %llu B, want %llu",
               cs_coll_name(as[i]->coll), as[i]->name, (long long)p, (unsigned long long)sizes[s],
               (unsigned long long)c.send_bytes, (unsigned long long)e.bytes);
      }
    }
}
END_TEST

/* A composed allreduce sends exactly its two phases' messages, each phase
 * counted on its own (the registry's algorithm alone), and, when the
 * buffer divides into every unit, their bytes. */
static void expect_phases(const cs_coll_algo *a, const cs_two_tier *tt, uint64_t n, const cs_coll_algo *first,
                          const cs_coll_algo *second)
{
  cs_sched_params prm, p1, p2;
  if (!setup(&prm, a, tt, n))
    return;
  uint64_t per = (n + (uint64_t)tt->p - 1) / (uint64_t)tt->p;
  ck_assert(setup(&p1, first, tt, cs_coll_per_rank(first->coll) ? per : n));
  ck_assert(setup(&p2, second, tt, cs_coll_per_rank(second->coll) ? per : n));
  counter c = count_all(a, &prm), c1 = count_all(first, &p1), c2 = count_all(second, &p2);
  EXPECT(c.sends == c1.sends + c2.sends, "%s %s p = %lld: %llu messages, phases %llu + %llu", cs_coll_name(a->coll),
         a->name, (long long)tt->p, (unsigned long long)c.sends, (unsigned long long)c1.sends,
         (unsigned long long)c2.sends);
  EXPECT(!c.tag_clash, "%s %s p = %lld: the phases' tags clash", cs_coll_name(a->coll), a->name, (long long)tt->p);
  if (n % (uint64_t)prm.nunits == 0 && n % (uint64_t)tt->p == 0)
    EXPECT(c.send_bytes == c1.send_bytes + c2.send_bytes, "%s %s p = %lld: %llu bytes, phases %llu + %llu",
           cs_coll_name(a->coll), a->name, (long long)tt->p, (unsigned long long)c.send_bytes,
           (unsigned long long)c1.send_bytes, (unsigned long long)c2.send_bytes);
}

START_TEST(test_composed_equals_phases)
{
  int64_t shapes[][3] = {{1, 1, 1}, {2, 2, 2}, {3, 2, 2}, {5, 3, 2}, {4, 4, 4}, {6, 4, 3}, {17, 4, 1}};
  uint64_t sizes[] = {7, 1000, 3 * 4096 * 17};
  for (size_t s = 0; s < G_N_ELEMENTS(shapes); s++)
    for (size_t z = 0; z < G_N_ELEMENTS(sizes); z++) {
      cs_net net = cs_net_percs(shapes[s][0], shapes[s][1], shapes[s][2]);
      expect_phases(ALGO_twotier_allreduce, &net.tt, sizes[z], ALGO_twotier_reduce_scatter, ALGO_twotier_allgather);
      expect_phases(ALGO_reduce_bcast_allreduce, &net.tt, sizes[z], ALGO_rabenseifner_reduce,
                    ALGO_vandegeijn_bcast);
    }
}
END_TEST

/* ---- replay ---- */

static void replay_ok(const cs_coll_algo *a, const cs_two_tier *tt, uint64_t size)
{
  cs_sched_params prm;
  if (!setup(&prm, a, tt, size))
    return;
  cs_replay_stats st;
  GError *err = NULL;
  bool ok = cs_replay(a, &prm, &st, &err);
  EXPECT(ok, "replay: %s", err ? err->message : "?");
  counter c = count_all(a, &prm);
  EXPECT(st.messages == c.sends && st.bytes == c.send_bytes, "%s %s p = %lld: replay %llu msgs %llu B, ops %llu %llu",
         cs_coll_name(a->coll), a->name, (long long)tt->p, (unsigned long long)st.messages,
         (unsigned long long)st.bytes, (unsigned long long)c.sends, (unsigned long long)c.send_bytes);
  if (a->coll == CS_COLL_ALLREDUCE)
    EXPECT(st.reduced_bytes > 0 || tt->p == 1, "%s %s p = %lld: nothing combined", cs_coll_name(a->coll), a->name,
           (long long)tt->p);
}

START_TEST(test_replay_shapes)
{
  const cs_coll_algo *a = algos_at(_i);
  int64_t shapes[][3] = {{1, 1, 1}, {2, 1, 1}, {3, 1, 1}, {2, 2, 2}, {3, 2, 2}, {5, 3, 1},
                         {7, 1, 1}, {4, 4, 2}, {6, 4, 3}, {17, 1, 1}, {5, 4, 3}};
  uint64_t sizes[] = {1, 7, 64, 1000, 4097};
  for (size_t s = 0; s < G_N_ELEMENTS(shapes); s++) {
    cs_net net = cs_net_percs(shapes[s][0], shapes[s][1], shapes[s][2]);
    for (size_t z = 0; z < G_N_ELEMENTS(sizes); z++)
      replay_ok(a, &net.tt, sizes[z]);
  }
  for (size_t k = 0; k < NP; k++) {
    cs_net net = cs_net_percs(P_LIST[k], 1, 1);
    replay_ok(a, &net.tt, 1000);
  }
}
END_TEST

/* The same on a small platform of every family (spread mappings included). */
START_TEST(test_replay_every_platform_family)
{
  const cs_coll_algo *a = algos_at(_i);
  test_platforms_cover_registry();
  for (size_t s = 0; s < N_TEST_PLATFORMS; s++) {
    cs_two_tier tt = test_platform_view(TEST_PLATFORMS[s]);
    replay_ok(a, &tt, 96);
    replay_ok(a, &tt, 1001);
  }
}
END_TEST

/* ---- the replay refuses broken schedules of the new kinds ---- */

static const cs_coll_algo *victim;
static int64_t victim_drop; /* ops dropped from the end of every rank's list */
static bool (*victim_hit)(const cs_sched_params *prm, int64_t rank);

static void broken_ops(const cs_sched_params *prm, int64_t rank, cs_oplist *out)
{
  victim->ops(prm, rank, out);
  if (!victim_hit || victim_hit(prm, rank))
    out->n = out->n > (size_t)victim_drop ? out->n - (size_t)victim_drop : 0;
}

/* The ranks of MPICH's post-step, whose last op it is. */
static bool folded_ranks(const cs_sched_params *prm, int64_t rank)
{
  int64_t rem = prm->p - pow2_floor(prm->p);
  return rank < 2 * rem;
}

static cs_replay_fault replay_broken(const cs_coll_algo *a, int64_t drop, bool (*hit)(const cs_sched_params *, int64_t),
                                     int64_t p, uint64_t size)
{
  victim = a;
  victim_drop = drop;
  victim_hit = hit;
  cs_coll_algo broken = *a;
  broken.ops = broken_ops;
  cs_net net = cs_net_percs(p, 1, 1);
  cs_sched_params prm;
  ck_assert(setup(&prm, a, &net.tt, size));
  cs_replay_fault f;
  GError *err = NULL;
  ck_assert(!cs_replay_ex(&broken, &prm, NULL, &f, &err));
  ck_assert(err != NULL);
  g_error_free(err);
  return f;
}

START_TEST(test_replay_refuses_broken)
{
  /* a barrier without its last step: ranks end without the far tokens */
  cs_replay_fault f = replay_broken(ALGO_dissemination_barrier, 2, NULL, 12, 0);
  ck_assert_int_eq(f.kind, CS_FAULT_INCOMPLETE);
  /* the same for a power of two */
  f = replay_broken(ALGO_dissemination_barrier, 2, NULL, 16, 0);
  ck_assert_int_eq(f.kind, CS_FAULT_INCOMPLETE);
  /* recursive doubling without MPICH's post-step: the folded ranks end with partial sums */
  f = replay_broken(ALGO_recursive_doubling_allreduce, 1, folded_ranks, 12, 64);
  ck_assert_int_eq(f.kind, CS_FAULT_INCOMPLETE);
  /* Bruck without its last step: blocks stop one hop short */
  f = replay_broken(ALGO_bruck_alltoall, 2, NULL, 12, 8);
  ck_assert_int_eq(f.kind, CS_FAULT_INCOMPLETE);
}
END_TEST

/* An alltoall that delivers every block but one, and one that sends a block
 * it does not hold. */
static void short_pairwise_ops(const cs_sched_params *prm, int64_t rank, cs_oplist *out)
{
  ALGO_pairwise_alltoall->ops(prm, rank, out);
  out->op[0].iterations--; /* the loop header: one step fewer */
}

static void wrong_block_ops(const cs_sched_params *prm, int64_t rank, cs_oplist *out)
{
  int64_t p = prm->p;
  cs_ops_send(out, (rank + 1) % p, 0, cs_units_pair(prm, (rank + 2) % p, (rank + 1) % p));
  cs_ops_recv(out, (rank - 1 + p) % p, 0, cs_units_pair(prm, (rank + 1) % p, rank));
}

START_TEST(test_replay_refuses_broken_alltoall)
{
  cs_net net = cs_net_percs(5, 1, 1);
  cs_sched_params prm;
  ck_assert(setup(&prm, ALGO_pairwise_alltoall, &net.tt, 8));
  cs_coll_algo a = *ALGO_pairwise_alltoall;
  cs_replay_fault f;
  GError *err = NULL;
  a.ops = short_pairwise_ops;
  ck_assert(!cs_replay_ex(&a, &prm, NULL, &f, &err));
  ck_assert_int_eq(f.kind, CS_FAULT_INCOMPLETE);
  g_clear_error(&err);
  a.ops = wrong_block_ops;
  ck_assert(!cs_replay_ex(&a, &prm, NULL, &f, &err));
  ck_assert_int_eq(f.kind, CS_FAULT_NOT_HELD);
  g_clear_error(&err);
}
END_TEST

/* ---- size of the lists, scale ---- */

START_TEST(test_ops_per_rank_bounded)
{
  cs_net net = cs_net_percs(64, 128, 128); /* p = 2^20 */
  ck_assert_int_eq(net.tt.p, 1 << 20);
  const cs_coll_algo *constant[] = {ALGO_ring_allreduce, ALGO_pairwise_alltoall, ALGO_linear_alltoall};
  const cs_coll_algo *logarithmic[] = {ALGO_recursive_doubling_allreduce, ALGO_rabenseifner_allreduce,
                                       ALGO_bruck_alltoall, ALGO_dissemination_barrier};
  int64_t ranks[] = {0, 1, 12345, (1 << 20) - 1};
  cs_oplist o;
  cs_oplist_init(&o);
  for (size_t i = 0; i < G_N_ELEMENTS(constant) + G_N_ELEMENTS(logarithmic); i++) {
    bool flat = i < G_N_ELEMENTS(constant);
    const cs_coll_algo *a = flat ? constant[i] : logarithmic[i - G_N_ELEMENTS(constant)];
    cs_sched_params prm;
    ck_assert(setup(&prm, a, &net.tt, a->coll == CS_COLL_ALLTOALL ? 8 : (uint64_t)1 << 30));
    for (size_t r = 0; r < G_N_ELEMENTS(ranks); r++) {
      cs_oplist_clear(&o);
      a->ops(&prm, ranks[r], &o);
      EXPECT(o.n <= (flat ? 6u : 4u * 20 + 4), "%s %s: %zu ops at p = 2^20", cs_coll_name(a->coll), a->name, o.n);
    }
  }
  cs_oplist_free(&o);
}
END_TEST

static void ignore_pair(void *user, int64_t s, int64_t d, uint64_t bytes, uint64_t messages)
{
  (void)s;
  (void)d;
  (void)bytes;
  *(uint64_t *)user += messages;
}

/* PERCS 64,16,16 (p = 16,384): pairwise alltoall of 8 bytes per pair, 268 M
 * messages, summed by the pattern-generator from 3-op lists. */
START_TEST(test_pattern_pairwise_alltoall_at_scale)
{
  cs_net net = cs_net_percs(64, 16, 16);
  int64_t p = net.tt.p;
  const cs_coll_algo *as[] = {ALGO_pairwise_alltoall, ALGO_linear_alltoall};
  for (size_t i = 0; i < G_N_ELEMENTS(as); i++) {
    cs_sched_params prm;
    ck_assert(setup(&prm, as[i], &net.tt, 8));
    cs_pattern_totals tot;
    uint64_t sunk = 0;
    cs_pattern_generate(as[i], &prm, ignore_pair, &sunk, &tot, NULL, NULL);
    ck_assert_uint_eq(tot.messages, (uint64_t)p * (uint64_t)(p - 1));
    ck_assert_uint_eq(sunk, tot.messages);
    ck_assert_uint_eq(tot.bytes, 8 * (uint64_t)p * (uint64_t)(p - 1));
    ck_assert_uint_le(tot.ops, 4 * (uint64_t)p);
  }
}
END_TEST

/* ---- XOR pairing (pairwise alltoall on a power of two) ---- */

typedef struct {
  cs_op *ops;
  size_t n, cap;
} op_log;

static bool log_op(const cs_op *op, void *user)
{
  op_log *l = user;
  if (l->n == l->cap) {
    l->cap = l->cap ? 2 * l->cap : 64;
    l->ops = g_renew(cs_op, l->ops, l->cap);
  }
  l->ops[l->n++] = *op;
  return true;
}

/* MPICH's step i (1 .. p-1) of rank r on a power of two: Sendrecv with
 * r XOR i, the send first; tag i - 1. */
static void expect_xor_step(const cs_sched_params *prm, int64_t r, int64_t i, const cs_op *send, const cs_op *recv)
{
  int64_t q = r ^ i;
  EXPECT(send->kind == CS_OP_SEND && send->peer == q && send->tag == i - 1 &&
             cs_units_equal(send->units, cs_units_pair(prm, r, q)),
         "p = %lld rank %lld step %lld: send kind %d peer %lld tag %d", (long long)prm->p, (long long)r, (long long)i,
         send->kind, (long long)send->peer, send->tag);
  EXPECT(recv->kind == CS_OP_RECV && recv->peer == q && recv->tag == i - 1 &&
             cs_units_equal(recv->units, cs_units_pair(prm, q, r)),
         "p = %lld rank %lld step %lld: recv kind %d peer %lld tag %d", (long long)prm->p, (long long)r, (long long)i,
         recv->kind, (long long)recv->peer, recv->tag);
  EXPECT(send->peer_step == 0 && send->unit_step == 0 && send->peer_mode == CS_PEER_SHIFT,
         "an expanded op is plain");
}

/* The XOR loop (3 ops) expands to exactly the 2(p-1) ops written out per
 * step, and the loop helpers (peer, bytes) agree with the expansion. */
START_TEST(test_xor_loop_equals_explicit_ops)
{
  static const int64_t ps[] = {2, 4, 8, 16, 64};
  for (size_t k = 0; k < G_N_ELEMENTS(ps); k++) {
    cs_net net = cs_net_percs(ps[k], 1, 1);
    cs_sched_params prm;
    ck_assert(setup(&prm, ALGO_pairwise_alltoall, &net.tt, 7));
    cs_oplist o;
    cs_oplist_init(&o);
    for (int64_t r = 0; r < prm.p; r++) {
      cs_oplist_clear(&o);
      ALGO_pairwise_alltoall->ops(&prm, r, &o);
      ck_assert_uint_eq(o.n, 3);
      ck_assert(o.op[0].kind == CS_OP_LOOP && o.op[0].iterations == prm.p - 1 && o.op[0].body == 2);
      op_log l = {0};
      cs_oplist_expand(&prm, &o, log_op, &l);
      ck_assert_uint_eq(l.n, 2 * (size_t)(prm.p - 1));
      for (int64_t i = 1; i < prm.p; i++) {
        expect_xor_step(&prm, r, i, &l.ops[2 * (i - 1)], &l.ops[2 * (i - 1) + 1]);
        for (int b = 1; b <= 2; b++)
          ck_assert_int_eq(cs_loop_op_peer(&prm, &o.op[b], i - 1), r ^ i);
      }
      for (int b = 1; b <= 2; b++) {
        ck_assert(!cs_loop_op_fixed_peer(&prm, &o.op[b]) || prm.p == 2);
        ck_assert_uint_eq(cs_loop_op_bytes(&prm, &o.op[b], 0, prm.p - 1), 7 * (uint64_t)(prm.p - 1));
      }
      g_free(l.ops);
    }
    cs_oplist_free(&o);
  }
}
END_TEST

/* Traffic per (source node, destination node), and the links it loads. */
typedef struct {
  int64_t nodes;
  uint64_t *bytes, *messages;
  cs_linkusage *lu;
} node_traffic;

static node_traffic traffic_new(int64_t nodes, cs_linkusage *lu)
{
  return (node_traffic){nodes, g_new0(uint64_t, nodes * nodes), g_new0(uint64_t, nodes * nodes), lu};
}

static void traffic_free(node_traffic *t)
{
  g_free(t->bytes);
  g_free(t->messages);
  cs_linkusage_free(t->lu);
}

static void sink_traffic(void *user, int64_t s, int64_t d, uint64_t bytes, uint64_t messages)
{
  node_traffic *t = user;
  t->bytes[s * t->nodes + d] += bytes;
  t->messages[s * t->nodes + d] += messages;
  cs_linkusage_add(t->lu, s, d, bytes, messages);
}

/* A route with shared links: a's port out, b's port in, and one link per
 * (node a / 2, node b / 2) group pair between them; a node to itself: its
 * loopback. */
static int port_route(void *ctx, int64_t a, int64_t b, const int32_t **links)
{
  static int32_t r[3];
  int64_t nodes = *(const int64_t *)ctx;
  *links = r;
  if (a == b) {
    r[0] = (int32_t)(2 * nodes + a);
    return 1;
  }
  r[0] = (int32_t)a;
  r[1] = (int32_t)(3 * nodes + (a / 2) * nodes + b / 2);
  r[2] = (int32_t)(nodes + b);
  return 3;
}

typedef struct {
  const cs_sched_params *prm;
  int64_t rank;
  node_traffic *t;
} enum_ctx;

static bool enum_send(const cs_op *op, void *user)
{
  enum_ctx *e = user;
  if (op->kind == CS_OP_SEND)
    sink_traffic(e->t, cs_rank_node(e->prm, e->rank), cs_rank_node(e->prm, op->peer),
                 cs_units_bytes(e->prm, op->units), 1);
  return true;
}

static cs_linkusage *port_linkusage(int64_t *nodes)
{
  return cs_linkusage_new(3 * *nodes + *nodes * *nodes, *nodes, port_route, nodes);
}

/* The pattern-generator's sums over runs of XOR peers equal the messages
 * enumerated one by one: per node pair, and on every link. */
static void expect_pattern_equals_enumeration(const cs_two_tier *tt, uint64_t size)
{
  cs_sched_params prm;
  ck_assert(setup(&prm, ALGO_pairwise_alltoall, tt, size));
  int64_t nodes = cs_tt_nodes(tt), nlinks = 3 * nodes + nodes * nodes;
  node_traffic agg = traffic_new(nodes, port_linkusage(&nodes)), all = traffic_new(nodes, port_linkusage(&nodes));
  cs_pattern_totals tot;
  cs_pattern_generate(ALGO_pairwise_alltoall, &prm, sink_traffic, &agg, &tot, NULL, NULL);
  cs_oplist o;
  cs_oplist_init(&o);
  for (int64_t r = 0; r < prm.p; r++) {
    cs_oplist_clear(&o);
    ALGO_pairwise_alltoall->ops(&prm, r, &o);
    enum_ctx e = {&prm, r, &all};
    cs_oplist_expand(&prm, &o, enum_send, &e);
  }
  cs_oplist_free(&o);
  for (int64_t k = 0; k < nodes * nodes; k++)
    EXPECT(agg.bytes[k] == all.bytes[k] && agg.messages[k] == all.messages[k],
           "p = %lld cpn %lld nodes %lld -> %lld: aggregated %llu B %llu msgs, enumerated %llu B %llu msgs",
           (long long)prm.p, (long long)tt->cpn, (long long)(k / nodes), (long long)(k % nodes),
           (unsigned long long)agg.bytes[k], (unsigned long long)agg.messages[k], (unsigned long long)all.bytes[k],
           (unsigned long long)all.messages[k]);
  for (int64_t l = 0; l < nlinks; l++)
    EXPECT(cs_linkusage_link_bytes(agg.lu, l) == cs_linkusage_link_bytes(all.lu, l) &&
               cs_linkusage_link_messages(agg.lu, l) == cs_linkusage_link_messages(all.lu, l),
           "p = %lld link %lld: aggregated %llu B, enumerated %llu B", (long long)prm.p, (long long)l,
           (unsigned long long)cs_linkusage_link_bytes(agg.lu, l), (unsigned long long)cs_linkusage_link_bytes(all.lu, l));
  ck_assert_uint_eq(tot.messages, (uint64_t)prm.p * (uint64_t)(prm.p - 1));
  ck_assert_uint_eq(tot.bytes, size * (uint64_t)prm.p * (uint64_t)(prm.p - 1));
  traffic_free(&agg);
  traffic_free(&all);
}

START_TEST(test_xor_pattern_equals_enumeration)
{
  int64_t shapes[][3] = {{2, 2, 16}, {4, 4, 4}, {1, 4, 16}, {1, 32, 2}, {64, 1, 1}, {1, 1, 64}, {2, 8, 4}};
  for (size_t s = 0; s < G_N_ELEMENTS(shapes); s++) {
    cs_net net = cs_net_percs(shapes[s][0], shapes[s][1], shapes[s][2]);
    ck_assert_int_eq(net.tt.p, 64);
    expect_pattern_equals_enumeration(&net.tt, 8);
    expect_pattern_equals_enumeration(&net.tt, 1001);
  }
  cs_two_tier spread = test_platform_view("smp:8x8@100");
  ck_assert_int_eq(spread.p, 64);
  expect_pattern_equals_enumeration(&spread, 8);
}
END_TEST

/* The replay refuses an XOR pairwise alltoall one step short. */
START_TEST(test_replay_refuses_short_xor)
{
  cs_net net = cs_net_percs(8, 1, 1);
  cs_sched_params prm;
  ck_assert(setup(&prm, ALGO_pairwise_alltoall, &net.tt, 8));
  cs_coll_algo a = *ALGO_pairwise_alltoall;
  a.ops = short_pairwise_ops;
  cs_replay_fault f;
  GError *err = NULL;
  ck_assert(!cs_replay_ex(&a, &prm, NULL, &f, &err));
  ck_assert_int_eq(f.kind, CS_FAULT_INCOMPLETE);
  g_clear_error(&err);
}
END_TEST

/* ---- unit sets with a tail (Bruck's partial step in one message) ---- */

START_TEST(test_units_tail)
{
  cs_net net = cs_net_percs(3, 1, 1);
  /* alltoall p = 3, 2 units per pair of 5 bytes (3 + 2): units alternate 3, 2 bytes */
  cs_sched_params prm = {.coll = CS_COLL_ALLTOALL, .tt = &net.tt, .p = 3, .block = 5, .bytes = 45, .nunits = 18};
  cs_units u = cs_units_strided_tail(1, 3, 5, 2, 2); /* [1,4) [6,9) [11,13) */
  ck_assert_int_eq(cs_units_count(u), 8);
  ck_assert_int_eq(cs_units_nruns(u), 3);
  int64_t first, len;
  cs_units_run_at(u, 2, &first, &len);
  ck_assert(first == 11 && len == 2);
  ck_assert_uint_eq(cs_units_bytes(&prm, u), (2 + 3 + 2) + (3 + 2 + 3) + (2 + 3));
  ck_assert_uint_eq(cs_units_largest_bytes(&prm, u), 2 * 8 + 5);
  /* a tail alone is a range; adjacent runs and their tail are one range */
  ck_assert(cs_units_equal(cs_units_strided_tail(4, 3, 7, 0, 2), cs_units_range(4, 2)));
  ck_assert(cs_units_equal(cs_units_strided_tail(4, 3, 3, 2, 2), cs_units_range(4, 8)));
  ck_assert(!cs_units_equal(u, cs_units_strided(1, 3, 5, 2)));
  ck_assert(!cs_units_equal(cs_units_strided_tail(1, 3, 5, 1, 2), cs_units_range(1, 3)));
}
END_TEST

/* Bruck's alltoall sends one message per step, also where the step's last
 * run of slots is partial (p = 13, 28: steps 2 and 3), carrying every slot
 * with bit k set. */
START_TEST(test_bruck_one_message_per_step)
{
  static const int64_t ps[] = {13, 28, 24, 7};
  for (size_t i = 0; i < G_N_ELEMENTS(ps); i++) {
    int64_t p = ps[i];
    cs_net net = cs_net_percs(p, 1, 1);
    cs_sched_params prm;
    ck_assert(setup(&prm, ALGO_bruck_alltoall, &net.tt, 8));
    cs_oplist o;
    cs_oplist_init(&o);
    for (int64_t r = 0; r < p; r++) {
      cs_oplist_clear(&o);
      ALGO_bruck_alltoall->ops(&prm, r, &o);
      ck_assert_uint_eq(o.n, 2 * (size_t)ceil_log2(p));
      for (int k = 0; k < ceil_log2(p); k++) {
        uint64_t slots, msgs;
        bruck_step(p, k, &slots, &msgs);
        const cs_op *send = &o.op[2 * k];
        ck_assert(send->kind == CS_OP_SEND && send->peer == (r + (1 << k)) % p);
        ck_assert_int_eq(cs_units_count(send->units), (int64_t)slots);
      }
    }
    cs_oplist_free(&o);
  }
}
END_TEST

/* ---- refusals ---- */

static void expect_refused(const cs_coll_algo *a, const cs_two_tier *tt, uint64_t size, const char *word)
{
  cs_sched_params prm;
  GError *err = NULL;
  ck_assert(!cs_sched_setup(&prm, a, tt, size, &err));
  ck_assert_msg(err && strstr(err->message, word), "%s %s: '%s' lacks '%s'", cs_coll_name(a->coll), a->name,
                err ? err->message : "", word);
  g_error_free(err);
}

START_TEST(test_refusals_name_the_constraint)
{
  cs_net net = cs_net_percs(3, 2, 2); /* p = 12, pof2 = 8 */
  expect_refused(ALGO_rabenseifner_allreduce, &net.tt, 7, "pof2 = 8");
  expect_refused(ALGO_reduce_bcast_allreduce, &net.tt, 7, "pof2 = 8");
  cs_two_tier spread = test_platform_view("smp:3x2@100");
  expect_refused(ALGO_twotier_allreduce, &spread, 1000, "in order");
  /* what they accept: 8 bytes, and a barrier whatever size it is given */
  cs_sched_params prm;
  ck_assert(cs_sched_setup(&prm, ALGO_rabenseifner_allreduce, &net.tt, 8, NULL));
  ck_assert(cs_sched_setup(&prm, ALGO_dissemination_barrier, &net.tt, 12345, NULL));
  ck_assert_uint_eq(prm.bytes, 0);
  ck_assert(cs_sched_setup(&prm, ALGO_pairwise_alltoall, &net.tt, 5, NULL));
  ck_assert_uint_eq(prm.bytes, 5 * 12 * 12);
}
END_TEST

/* The contract's bookkeeping for the new kinds. */
START_TEST(test_contract)
{
  cs_coll c;
  ck_assert(cs_coll_from_name("allreduce", &c) && c == CS_COLL_ALLREDUCE);
  ck_assert(cs_coll_from_name("alltoall", &c) && c == CS_COLL_ALLTOALL);
  ck_assert(cs_coll_from_name("barrier", &c) && c == CS_COLL_BARRIER);
  ck_assert(cs_coll_is_reduction(CS_COLL_ALLREDUCE) && !cs_coll_is_reduction(CS_COLL_ALLTOALL));
  ck_assert(cs_coll_per_rank(CS_COLL_ALLTOALL) && !cs_coll_per_rank(CS_COLL_ALLREDUCE));
  ck_assert(!cs_coll_sized(CS_COLL_BARRIER) && cs_coll_sized(CS_COLL_ALLTOALL));
  ck_assert_str_eq(cs_coll_names(), "scatter, gather, bcast, allgather, reduce-scatter, reduce, allreduce, alltoall, "
                                    "barrier");
  /* alltoall units: p = 3, 2 units per pair of 5 bytes (3 + 2) */
  cs_net net = cs_net_percs(3, 1, 1);
  cs_sched_params prm = {.coll = CS_COLL_ALLTOALL, .tt = &net.tt, .p = 3, .block = 5, .bytes = 45, .nunits = 18};
  ck_assert_uint_eq(cs_units_bytes(&prm, cs_units_pair(&prm, 2, 0)), 5);
  ck_assert_int_eq(cs_units_pair(&prm, 2, 0).first, (0 * 3 + 1) * 2); /* d*p + (d - s mod p) */
  ck_assert_uint_eq(cs_units_bytes(&prm, cs_units_row(&prm, 1)), 15);
  ck_assert_uint_eq(cs_units_bytes(&prm, cs_units_block(&prm, 1)), 15);
  ck_assert_uint_eq(cs_unit_bytes(&prm, 0), 3);
  ck_assert_uint_eq(cs_unit_bytes(&prm, 1), 2);
  /* row 1 = pairs (1,1), (1,2), (1,0) */
  cs_units row = cs_units_row(&prm, 1);
  int64_t want[] = {cs_units_pair(&prm, 1, 1).first, cs_units_pair(&prm, 1, 2).first, cs_units_pair(&prm, 1, 0).first};
  for (int i = 0; i < 3; i++)
    ck_assert_int_eq(cs_mod(row.first + i * row.stride, prm.nunits), want[i]);
  /* barrier tokens have no bytes */
  cs_sched_params bar = {.coll = CS_COLL_BARRIER, .tt = &net.tt, .p = 3, .nunits = 3};
  ck_assert_uint_eq(cs_units_bytes(&bar, cs_units_all(&bar)), 0);
}
END_TEST

int main(void)
{
  Suite *s = suite_create("coll_kinds");
  TCase *tc = tcase_create("coll_kinds");
  tcase_set_timeout(tc, 600);
  tcase_add_loop_test(tc, test_counts_match_formulas, 0, NALGOS);
  tcase_add_test(tc, test_uneven_sizes);
  tcase_add_test(tc, test_composed_equals_phases);
  tcase_add_loop_test(tc, test_replay_shapes, 0, NALGOS);
  tcase_add_loop_test(tc, test_replay_every_platform_family, 0, NALGOS);
  tcase_add_test(tc, test_replay_refuses_broken);
  tcase_add_test(tc, test_replay_refuses_broken_alltoall);
  tcase_add_test(tc, test_ops_per_rank_bounded);
  tcase_add_test(tc, test_pattern_pairwise_alltoall_at_scale);
  tcase_add_test(tc, test_xor_loop_equals_explicit_ops);
  tcase_add_test(tc, test_xor_pattern_equals_enumeration);
  tcase_add_test(tc, test_replay_refuses_short_xor);
  tcase_add_test(tc, test_units_tail);
  tcase_add_test(tc, test_bruck_one_message_per_step);
  tcase_add_test(tc, test_refusals_name_the_constraint);
  tcase_add_test(tc, test_contract);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}

/* Unit tests of the communicator collectives as schedules
 * (algorithms/comm_collectives/generators.h), no simulation:
 *  - gather, scatter, bcast, reduce and allgather pass the replay check
 *    (sim/checks/replay.c) as the cs_coll they are, for p = 1..40 from every
 *    root and for larger p from a few roots, with n - 1 messages (Bruck's
 *    allgather: p ceil(lg p), p (p - 1) blocks);
 *  - the allreduce, which has no cs_coll, passes a replay of its own here:
 *    every rank ends with every contribution exactly once, nothing left
 *    unreceived, no rank blocked, 2 rem + pof2 lg pof2 messages.
 * That the executor moves the right data is check_comm_layer's part. */
#include "algorithms/comm_collectives/generators.h"
#include "sim/checks/replay.h"

#include <check.h>
#include <glib.h>
#include <stdlib.h>

static int64_t no_gateway(const cs_two_tier *t, int64_t from, int64_t to)
{
  (void)t, (void)from, (void)to;
  return 0;
}

static int64_t ceil_lg(int64_t p) { return cs_log2_pow2(cs_pow2_ceil(p)); }

typedef struct case_ {
  const char *name;
  cs_coll coll;
  cs_sched_ops_fn ops;
  bool rooted;
} case_;

static const case_ CASES[] = {
    {"gather", CS_COLL_GATHER, cs_comm_gather_ops, true},
    {"scatter", CS_COLL_SCATTER, cs_comm_scatter_ops, true},
    {"bcast", CS_COLL_BCAST, cs_comm_bcast_ops, true},
    {"reduce", CS_COLL_REDUCE, cs_comm_reduce_ops, true},
    {"allgather", CS_COLL_ALLGATHER, cs_comm_allgather_ops, false},
};

/* Replays case k over p ranks from root; checks the message count. */
static void replay_one(const case_ *k, int64_t p, int64_t root, uint64_t size)
{
  cs_two_tier tt = {.sn = 1, .nps = p, .cpn = 1, .p = p, .gateway = no_gateway, .landing = no_gateway};
  cs_coll_algo a = {.name = k->name, .coll = k->coll, .summary = "", .plan = cs_plan_unit_per_rank, .ops = k->ops};
  cs_sched_params prm;
  cs_comm_sched_params(&prm, k->coll, p, root, size);
  prm.tt = &tt;
  cs_replay_stats st;
  GError *err = NULL;
  if (!cs_replay(&a, &prm, &st, &err))
    ck_abort_msg("%s p %lld root %lld: %s", k->name, (long long)p, (long long)root, err->message);
  bool bruck = k->coll == CS_COLL_ALLGATHER;
  uint64_t msgs = bruck ? (uint64_t)(p * ceil_lg(p)) : (uint64_t)(p - 1);
  uint64_t bytes = bruck ? (uint64_t)(p * (p - 1)) * size : (uint64_t)(p - 1) * size;
  if (k->coll == CS_COLL_GATHER || k->coll == CS_COLL_SCATTER) /* blocks: each rank's travels its depth */
    bytes = st.bytes;
  if (st.messages != msgs || st.bytes != bytes)
    ck_abort_msg("%s p %lld root %lld: %llu messages, %llu bytes; expected %llu, %llu", k->name, (long long)p,
                 (long long)root, (unsigned long long)st.messages, (unsigned long long)st.bytes,
                 (unsigned long long)msgs, (unsigned long long)bytes);
}

START_TEST(schedules_pass_the_replay)
{
  const case_ *k = &CASES[_i];
  for (int64_t p = 1; p <= 40; p++)
    for (int64_t root = 0; root < (k->rooted ? p : 1); root++)
      replay_one(k, p, root, 3);
  const int64_t big[] = {64, 100, 129, 257};
  for (size_t i = 0; i < G_N_ELEMENTS(big); i++) {
    int64_t p = big[i];
    replay_one(k, p, 0, 8);
    if (k->rooted) {
      replay_one(k, p, p - 1, 8);
      replay_one(k, p, p / 3, 1);
    }
  }
}
END_TEST

/* ---- the allreduce's own replay: contributions as bit masks (p <= 64) ---- */

typedef struct pending {
  int32_t tag;
  uint64_t sum;
} pending;

typedef struct rank_state {
  GArray *ops; /* cs_op, loops expanded */
  guint next;
  uint64_t sum; /* contributions held */
} rank_state;

static bool collect(const cs_op *op, void *user)
{
  g_array_append_val((GArray *)user, *op);
  return true;
}

/* Runs rank r's ops until it blocks; true if it did anything. */
static bool advance(rank_state *R, int64_t p, int64_t r, GQueue **chan, uint64_t *msgs)
{
  bool moved = false;
  while (R[r].next < R[r].ops->len) {
    const cs_op *op = &g_array_index(R[r].ops, cs_op, R[r].next);
    if (op->kind == CS_OP_SEND) {
      pending *m = g_new(pending, 1);
      *m = (pending){op->tag, R[r].sum};
      g_queue_push_tail(chan[r * p + op->peer], m);
      ++*msgs;
    } else {
      pending *m = g_queue_pop_head(chan[op->peer * p + r]);
      if (!m)
        return moved;
      ck_assert_msg(m->tag == op->tag, "p %lld: rank %lld receives tag %d from %lld, the message has %d",
                    (long long)p, (long long)r, op->tag, (long long)op->peer, m->tag);
      if (op->kind == CS_OP_RECV_REDUCE) {
        ck_assert_msg((R[r].sum & m->sum) == 0, "p %lld: rank %lld counts a contribution twice", (long long)p,
                      (long long)r);
        R[r].sum |= m->sum;
      } else
        R[r].sum = m->sum;
      g_free(m);
    }
    R[r].next++;
    moved = true;
  }
  return moved;
}

static void allreduce_replay(int64_t p)
{
  cs_sched_params prm;
  cs_comm_sched_params(&prm, CS_COLL_REDUCE, p, 0, 16);
  rank_state *R = g_new0(rank_state, (gsize)p);
  GQueue **chan = g_new(GQueue *, (gsize)(p * p));
  for (int64_t i = 0; i < p * p; i++)
    chan[i] = g_queue_new();
  for (int64_t r = 0; r < p; r++) {
    cs_oplist o;
    cs_oplist_init(&o);
    cs_comm_allreduce_ops(&prm, r, &o);
    R[r].ops = g_array_new(FALSE, FALSE, sizeof(cs_op));
    cs_oplist_expand(&prm, &o, collect, R[r].ops);
    cs_oplist_free(&o);
    R[r].sum = UINT64_C(1) << r;
  }
  uint64_t msgs = 0;
  for (bool moved = true; moved;) {
    moved = false;
    for (int64_t r = 0; r < p; r++)
      moved |= advance(R, p, r, chan, &msgs);
  }
  uint64_t everyone = p == 64 ? UINT64_MAX : (UINT64_C(1) << p) - 1;
  int64_t pof2 = cs_pow2_floor(p), rem = p - pof2;
  for (int64_t r = 0; r < p; r++) {
    ck_assert_msg(R[r].next == R[r].ops->len, "p %lld: rank %lld blocked at op %u", (long long)p, (long long)r,
                  R[r].next);
    ck_assert_msg(R[r].sum == everyone, "p %lld: rank %lld ends with %llx", (long long)p, (long long)r,
                  (unsigned long long)R[r].sum);
    g_array_free(R[r].ops, TRUE);
  }
  for (int64_t i = 0; i < p * p; i++) {
    ck_assert_msg(g_queue_is_empty(chan[i]), "p %lld: a message from %lld to %lld never received", (long long)p,
                  (long long)(i / p), (long long)(i % p));
    g_queue_free(chan[i]);
  }
  ck_assert_uint_eq(msgs, (uint64_t)(2 * rem + pof2 * cs_log2_pow2(pof2)));
  g_free(chan);
  g_free(R);
}

START_TEST(allreduce_gives_everyone_every_contribution_once)
{
  for (int64_t p = 1; p <= 64; p++)
    allreduce_replay(p);
}
END_TEST

static Suite *comm_schedules_suite(void)
{
  Suite *s = suite_create("comm_schedules");
  TCase *tc = tcase_create("replay");
  tcase_set_timeout(tc, 120);
  tcase_add_loop_test(tc, schedules_pass_the_replay, 0, (int)G_N_ELEMENTS(CASES));
  tcase_add_test(tc, allreduce_gives_everyone_every_contribution_once);
  suite_add_tcase(s, tc);
  return s;
}

int main(void)
{
  SRunner *sr = srunner_create(comm_schedules_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

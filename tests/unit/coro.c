/* Unit tests of the native engine's coroutines (sim/engine/native/coro.c)
 * and of its process engine (proc_engine.c).
 * Covered:
 *  - coroutines: control alternates between the scheduler and coroutines
 *    exactly at yields; locals (callee-saved registers included) survive
 *    switches; a recursion of some depth runs on the small stack; 10,000
 *    coroutines interleave; a finished coroutine says so;
 *  - the engine's LogGP timing in closed form: a ping of s bytes takes
 *    2o + L + (s-1)G; back-to-back sends are spaced by the gap g; a
 *    computation advances the clock; with shared_cpu two ranks of a host
 *    take turns on its processor;
 *  - ties: two messages arriving at once are taken in rank order;
 *  - the end: quiescence with serving processes (retired, no deadlock), a
 *    deadlock naming each stuck rank and what it waits for. */
#include "sim/engine/native/coro.h"
#include "sim/engine/native/proc_engine.h"

#include <check.h>
#include <stdlib.h>

/* ---- coroutines ---- */

static cs_coro_stacks stacks;
static cs_coro coros[2];
static int trail[16], ntrail;

static void note(int v) { trail[ntrail++] = v; }

static void stepper(void *arg)
{
  int id = *(int *)arg;
  volatile double keep = 1.5 * id; /* lives across the switches */
  long a = id * 7, b = id * 11, c = id * 13;
  for (int i = 0; i < 3; i++) {
    note(id * 10 + i);
    cs_coro_yield(&coros[id]);
    a += 1, b += 2, c += 3;
  }
  ck_assert_int_eq(a, id * 7 + 3);
  ck_assert_int_eq(b, id * 11 + 6);
  ck_assert_int_eq(c, id * 13 + 9);
  ck_assert(keep == 1.5 * id);
}

START_TEST(coroutines_alternate_at_yields)
{
  static int ids[2] = {0, 1};
  ck_assert(cs_coro_stacks_init(&stacks, 2, 64 * 1024));
  for (int i = 0; i < 2; i++)
    cs_coro_init(&coros[i], &stacks, (size_t)i, stepper, &ids[i]);
  ntrail = 0;
  for (int round = 0; round < 4; round++)
    for (int i = 0; i < 2; i++) {
      ck_assert(!coros[i].done);
      cs_coro_resume(&coros[i]);
    }
  ck_assert(coros[0].done && coros[1].done);
  int want[] = {0, 10, 1, 11, 2, 12};
  ck_assert_int_eq(ntrail, 6);
  for (int i = 0; i < 6; i++)
    ck_assert_int_eq(trail[i], want[i]);
  cs_coro_forget(&coros[0]);
  cs_coro_forget(&coros[1]);
  cs_coro_stacks_free(&stacks);
}
END_TEST

static int depth_sum(int d)
{
  volatile char pad[64];
  pad[0] = (char)d;
  return d == 0 ? 0 : d + depth_sum(d - 1) + pad[0] - d;
}

static void deep(void *arg)
{
  int *out = arg;
  *out = depth_sum(100);
  cs_coro_yield(&coros[0]);
  *out += 1;
}

START_TEST(recursion_runs_on_the_small_stack)
{
  int out = 0;
  ck_assert(cs_coro_stacks_init(&stacks, 1, 64 * 1024));
  cs_coro_init(&coros[0], &stacks, 0, deep, &out);
  cs_coro_resume(&coros[0]);
  ck_assert_int_eq(out, 5050);
  ck_assert(!coros[0].done);
  cs_coro_resume(&coros[0]);
  ck_assert_int_eq(out, 5051);
  ck_assert(coros[0].done);
  cs_coro_forget(&coros[0]);
  cs_coro_stacks_free(&stacks);
}
END_TEST

#define MANY 10000
static cs_coro *many;
static long total;

static void counter(void *arg)
{
  size_t i = (size_t)(uintptr_t)arg;
  for (int k = 0; k < 3; k++) {
    total += (long)i;
    cs_coro_yield(&many[i]);
  }
}

START_TEST(ten_thousand_coroutines_interleave)
{
  many = calloc(MANY, sizeof *many);
  ck_assert(cs_coro_stacks_init(&stacks, MANY, 64 * 1024));
  for (size_t i = 0; i < MANY; i++)
    cs_coro_init(&many[i], &stacks, i, counter, (void *)(uintptr_t)i);
  total = 0;
  for (int round = 0; round < 4; round++)
    for (size_t i = 0; i < MANY; i++)
      if (!many[i].done)
        cs_coro_resume(&many[i]);
  for (size_t i = 0; i < MANY; i++) {
    ck_assert(many[i].done);
    cs_coro_forget(&many[i]);
  }
  ck_assert_int_eq(total, 3L * MANY * (MANY - 1) / 2);
  cs_coro_stacks_free(&stacks);
  free(many);
}
END_TEST

/* ---- the process engine ---- */

typedef struct probe {
  double t[4];     /* times each rank noted */
  int order[4];    /* sources in the order rank 2 took them */
  size_t bytes;
} probe;

static cs_pe_config config(int n)
{
  cs_pe_config c = {.n = n, .stack_bytes = 256 * 1024, .cores = 1};
  c.loggops = (cs_loggops_params){.L = 2500, .o = 1500, .g = 1000, .G = 6, .S = 65535};
  return c;
}

static bool run(cs_pe_config *c, void (*fn)(cs_proc *, void *), probe *pr, cs_pe_outcome *out)
{
  cs_proc *procs = calloc((size_t)c->n, sizeof *procs);
  GError *e = NULL;
  bool ok = cs_pe_run(c, procs, fn, pr, out, &e);
  ck_assert_msg(ok, "%s", e ? e->message : "?");
  for (int r = 0; r < c->n; r++)
    cs_proc_release(&procs[r]);
  free(procs);
  return ok;
}

static void ping(cs_proc *p, void *user)
{
  probe *pr = user;
  if (cs_rank(p) == 0)
    cs_send(p, 1, 7, NULL, pr->bytes);
  else
    cs_msg_free(p, cs_recv(p, 0, 7));
  pr->t[cs_rank(p)] = cs_now(p);
  cs_serve(p);
}

START_TEST(ping_takes_two_o_plus_L_plus_s_minus_one_G)
{
  cs_pe_config c = config(2);
  probe pr = {.bytes = 1000};
  cs_pe_outcome out;
  run(&c, ping, &pr, &out);
  ck_assert(!out.deadlocked);
  ck_assert_int_eq(out.retired, 2);
  ck_assert_double_eq_tol(pr.t[1], (2 * 1500 + 2500 + 999 * 6) * 1e-9, 1e-15);
  ck_assert_double_eq_tol(pr.t[0], 1500e-9, 1e-15); /* the sender paid o */
  ck_assert_double_eq_tol(out.clock_s, pr.t[1], 1e-15);
  g_free(out.stuck);
}
END_TEST

static void three_sends(cs_proc *p, void *user)
{
  probe *pr = user;
  if (cs_rank(p) == 0)
    for (int i = 0; i < 3; i++)
      cs_send(p, 1, 7, NULL, 1);
  else
    for (int i = 0; i < 3; i++)
      cs_msg_free(p, cs_recv(p, 0, 7));
  cs_compute(p, 1e-6);
  pr->t[cs_rank(p)] = cs_now(p);
  cs_serve(p);
}

START_TEST(sends_are_spaced_by_the_gap)
{
  cs_pe_config c = config(2);
  c.loggops = (cs_loggops_params){.L = 100, .o = 10, .g = 1000, .S = 65535};
  probe pr = {0};
  cs_pe_outcome out;
  run(&c, three_sends, &pr, &out);
  /* sends start at 0, g, 2g; the last arrives at 2g + o + L and is taken
   * by o; then 1 us of computation on each */
  ck_assert_double_eq_tol(pr.t[1], (2 * 1000 + 10 + 100 + 10 + 1000) * 1e-9, 1e-15);
  ck_assert_double_eq_tol(pr.t[0], (2 * 1000 + 10 + 1000) * 1e-9, 1e-15);
  g_free(out.stuck);
}
END_TEST

static void two_to_one(cs_proc *p, void *user)
{
  probe *pr = user;
  if (cs_rank(p) < 2) {
    cs_send(p, 2, 7, NULL, 8);
  } else {
    for (int i = 0; i < 2; i++) {
      cs_msg *m = cs_recv(p, CS_ANY, 7);
      pr->order[i] = m->src;
      cs_msg_free(p, m);
    }
  }
  cs_serve(p);
}

START_TEST(ties_go_in_rank_order)
{
  cs_pe_config c = config(3);
  probe pr = {0};
  cs_pe_outcome out;
  run(&c, two_to_one, &pr, &out);
  ck_assert_int_eq(pr.order[0], 0);
  ck_assert_int_eq(pr.order[1], 1);
  g_free(out.stuck);
}
END_TEST

static void compute_one_us(cs_proc *p, void *user)
{
  probe *pr = user;
  cs_compute(p, 1e-6);
  pr->t[cs_rank(p)] = cs_now(p);
  cs_serve(p);
}

START_TEST(shared_cpu_takes_turns)
{
  cs_pe_config c = config(2);
  probe pr = {0};
  cs_pe_outcome out;
  run(&c, compute_one_us, &pr, &out);
  ck_assert_double_eq_tol(pr.t[0], 1e-6, 1e-15);
  ck_assert_double_eq_tol(pr.t[1], 1e-6, 1e-15); /* a processor each */
  c.shared_cpu = true;
  c.cores = 2;
  run(&c, compute_one_us, &pr, &out);
  ck_assert_double_eq_tol(pr.t[0], 1e-6, 1e-15);
  ck_assert_double_eq_tol(pr.t[1], 2e-6, 1e-15); /* one processor, first come first served */
  g_free(out.stuck);
}
END_TEST

static void wait_for_each_other(cs_proc *p, void *user)
{
  (void)user;
  if (cs_rank(p) < 2)
    cs_msg_free(p, cs_recv(p, 1 - cs_rank(p), 5 + cs_rank(p)));
  cs_serve(p);
}

START_TEST(deadlock_names_the_stuck_ranks)
{
  cs_pe_config c = config(3);
  cs_pe_outcome out;
  run(&c, wait_for_each_other, NULL, &out);
  ck_assert(out.deadlocked);
  ck_assert_int_eq(out.retired, 1);
  ck_assert_int_eq(out.nstuck, 2);
  ck_assert_int_eq(out.stuck[0].rank, 0);
  ck_assert_int_eq(out.stuck[0].src, 1);
  ck_assert_int_eq(out.stuck[0].tag, 5);
  ck_assert_int_eq(out.stuck[1].rank, 1);
  ck_assert_int_eq(out.stuck[1].src, 0);
  ck_assert_int_eq(out.stuck[1].tag, 6);
  g_free(out.stuck);
}
END_TEST

static void count_it(cs_proc *p, cs_msg *m, void *user)
{
  (*(int *)user)++;
  cs_msg_free(p, m);
}

static void serve_requests(cs_proc *p, void *user)
{
  (void)user;
  static int handled;
  if (cs_rank(p) == 1)
    cs_set_handler(p, 100, 100, count_it, &handled);
  if (cs_rank(p) == 0)
    for (int i = 0; i < 5; i++)
      cs_send(p, 1, 100, NULL, 8);
  cs_serve(p);
  if (cs_rank(p) == 1)
    ck_assert_int_eq(handled, 5);
}

START_TEST(serving_processes_end_at_quiescence)
{
  cs_pe_config c = config(2);
  cs_pe_outcome out;
  run(&c, serve_requests, NULL, &out);
  ck_assert(!out.deadlocked);
  ck_assert_int_eq(out.retired, 2);
  ck_assert_int_eq(out.nstuck, 0);
  ck_assert_int_eq(out.messages, 5);
  g_free(out.stuck);
}
END_TEST

static Suite *coro_suite(void)
{
  Suite *s = suite_create("coro");
  TCase *tc = tcase_create("coroutines");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, coroutines_alternate_at_yields);
  tcase_add_test(tc, recursion_runs_on_the_small_stack);
  tcase_add_test(tc, ten_thousand_coroutines_interleave);
  suite_add_tcase(s, tc);
  tc = tcase_create("engine");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, ping_takes_two_o_plus_L_plus_s_minus_one_G);
  tcase_add_test(tc, sends_are_spaced_by_the_gap);
  tcase_add_test(tc, ties_go_in_rank_order);
  tcase_add_test(tc, shared_cpu_takes_turns);
  tcase_add_test(tc, deadlock_names_the_stuck_ranks);
  tcase_add_test(tc, serving_processes_end_at_quiescence);
  suite_add_tcase(s, tc);
  return s;
}

int main(void)
{
  SRunner *sr = srunner_create(coro_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

/* Unit tests of the backend-independent messaging layer (sim/contracts/msg.c), run over
 * an in-test fake transport: single-threaded, one GQueue per process, and
 * `next` pops the receiver's queue (each test sends what a process will
 * receive before it receives, so an empty queue is a test failure).
 * Covered:
 *  - counters per phase: messages, bytes, largest message, with sends to
 *    oneself, zero-byte and virtual (NULL data) payloads; payloads are copied;
 *  - cs_recv matching by tag and by source: messages that do not match are
 *    kept in arrival order and returned by later receives;
 *  - memory in 8-byte words with a peak: cs_alloc / cs_realloc / cs_free,
 *    cs_mem_hold, received-but-unfreed and queued messages; a pool over
 *    several processes keeps the peak of their sum;
 *  - handlers: messages in the range go to the handler inside cs_recv and are
 *    never queued, its sends count in the phase current at installation,
 *    already queued messages are dispatched at installation, removal, cs_serve;
 *    cs_serve returns when the transport says the run is over (NULL);
 *  - the send observer sees every (src, dst, bytes, phase);
 *  - cs_compute / cs_now reach the transport. */
#include "sim/contracts/transport.h"
#include "sim/engine/sg_engine.h"

#include <check.h>
#include <glib/gstdio.h>
#include <math.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ------------------------------------------------------ fake transport ---- */

#define NPROC 3

static struct {
  cs_proc proc[NPROC];
  GQueue inbox[NPROC];
  double clock;
  double computed;     /* sum of the seconds passed to compute */
  int compute_calls;
  int retired;
  jmp_buf *serve_exit; /* when set, `next` on an empty inbox jumps here */
  bool run_over;       /* when set, `next` on an empty inbox returns NULL: the run is over */
  int polls;           /* calls of `poll` */
  int failed_rank;     /* the fake failure detector reports this rank (-1: none) */
  int waits;           /* calls of `next` */
  struct cs_proc_wait wait_seen; /* p->wait during the last `next` */
} net;

static void fake_send(cs_proc *p, int dst, cs_msg *m)
{
  (void)p;
  g_queue_push_tail(&net.inbox[dst], m);
}

static cs_msg *fake_next(cs_proc *p)
{
  net.waits++;
  net.wait_seen = p->wait;
  GQueue *q = &net.inbox[p->rank];
  if (g_queue_is_empty(q) && net.serve_exit)
    longjmp(*net.serve_exit, 1);
  if (g_queue_is_empty(q) && net.run_over)
    return NULL;
  ck_assert_msg(!g_queue_is_empty(q), "rank %d would block: nothing was sent to it", p->rank);
  return g_queue_pop_head(q);
}

static void fake_compute(cs_proc *p, double seconds)
{
  (void)p;
  net.clock += seconds;
  net.computed += seconds;
  net.compute_calls++;
}

static double fake_now(const cs_proc *p)
{
  (void)p;
  return net.clock;
}

static void fake_retire(cs_proc *p)
{
  (void)p;
  net.retired++;
}

/* What has "arrived": the inbox, never blocking. */
static cs_msg *fake_poll(cs_proc *p)
{
  net.polls++;
  return g_queue_pop_head(&net.inbox[p->rank]);
}

static bool fake_failed(const cs_proc *p, int rank)
{
  (void)p;
  return rank == net.failed_rank;
}

static const cs_transport fake = {.send = fake_send,
                                  .next = fake_next,
                                  .compute = fake_compute,
                                  .now = fake_now,
                                  .retire = fake_retire,
                                  .poll = fake_poll,
                                  .failed = fake_failed};

static void setup(void)
{
  memset(&net, 0, sizeof net);
  net.failed_rank = -1;
  for (int r = 0; r < NPROC; r++) {
    g_queue_init(&net.inbox[r]);
    cs_proc_init(&net.proc[r], r, NPROC, &fake, NULL);
  }
}

static void teardown(void)
{
  for (int r = 0; r < NPROC; r++) {
    cs_msg *m;
    while ((m = g_queue_pop_head(&net.inbox[r])) != NULL) {
      free(m->data);
      free(m);
    }
    cs_proc_release(&net.proc[r]);
  }
}

static cs_proc *P(int r) { return &net.proc[r]; }

static void send_int(int src, int dst, int tag, int value) { cs_send(P(src), dst, tag, &value, sizeof value); }

/* Receive (src, tag) on rank r and return the int payload, freeing the message. */
static int recv_int(int r, int src, int tag)
{
  cs_msg *m = cs_recv(P(r), src, tag);
  ck_assert_ptr_nonnull(m);
  ck_assert_int_eq(m->tag, tag);
  if (src != CS_ANY)
    ck_assert_int_eq(m->src, src);
  ck_assert_uint_eq(m->bytes, sizeof(int));
  ck_assert_ptr_nonnull(m->data);
  int v;
  memcpy(&v, m->data, sizeof v);
  cs_msg_free(P(r), m);
  return v;
}

static void assert_counters(int r, cs_phase ph, uint64_t messages, uint64_t bytes, uint64_t max_bytes)
{
  const cs_counters *c = cs_proc_counters(P(r), ph);
  ck_assert_msg(c->messages == messages && c->bytes == bytes && c->max_message_bytes == max_bytes,
                "rank %d phase %d: messages %llu bytes %llu max %llu, expected %llu %llu %llu", r, (int)ph,
                (unsigned long long)c->messages, (unsigned long long)c->bytes,
                (unsigned long long)c->max_message_bytes, (unsigned long long)messages,
                (unsigned long long)bytes, (unsigned long long)max_bytes);
}

/* ------------------------------------------------------------ identity ---- */

START_TEST(test_rank_and_size)
{
  for (int r = 0; r < NPROC; r++) {
    ck_assert_int_eq(cs_rank(P(r)), r);
    ck_assert_int_eq(cs_size(P(r)), NPROC);
  }
}
END_TEST

/* ------------------------------------------------------------ counters ---- */

START_TEST(test_counters_start_at_zero)
{
  for (int r = 0; r < NPROC; r++)
    for (int ph = 0; ph < CS_NPHASES; ph++)
      assert_counters(r, (cs_phase)ph, 0, 0, 0);
}
END_TEST

START_TEST(test_counters_split_by_phase)
{
  char buf[100] = {0};
  cs_send(P(0), 1, 20, buf, 10);
  cs_send(P(0), 2, 20, buf, 100);
  cs_send(P(0), 1, 21, buf, 30);
  cs_set_phase(P(0), CS_PHASE_BRACKET);
  cs_send(P(0), 1, 1, buf, 8);
  cs_send(P(0), 2, 1, buf, 40);
  cs_set_phase(P(0), CS_PHASE_ALGO);
  cs_send(P(0), 2, 22, buf, 1);
  assert_counters(0, CS_PHASE_ALGO, 4, 141, 100);
  assert_counters(0, CS_PHASE_BRACKET, 2, 48, 40);
}
END_TEST

START_TEST(test_receiving_counts_nothing)
{
  send_int(0, 1, 5, 42);
  ck_assert_int_eq(recv_int(1, 0, 5), 42);
  assert_counters(1, CS_PHASE_ALGO, 0, 0, 0);
  assert_counters(1, CS_PHASE_BRACKET, 0, 0, 0);
  assert_counters(0, CS_PHASE_ALGO, 1, sizeof(int), sizeof(int));
}
END_TEST

START_TEST(test_send_to_self_is_counted_and_received)
{
  send_int(1, 1, 7, 99);
  assert_counters(1, CS_PHASE_ALGO, 1, sizeof(int), sizeof(int));
  cs_msg *m = cs_recv(P(1), 1, 7);
  ck_assert_int_eq(m->src, 1);
  ck_assert_int_eq(*(int *)m->data, 99);
  cs_msg_free(P(1), m);
}
END_TEST

START_TEST(test_zero_byte_message)
{
  int x = 5;
  cs_send(P(0), 1, 3, &x, 0);
  assert_counters(0, CS_PHASE_ALGO, 1, 0, 0);
  cs_msg *m = cs_recv(P(1), 0, 3);
  ck_assert_uint_eq(m->bytes, 0);
  ck_assert_ptr_null(m->data);
  ck_assert_int_eq(cs_proc_mem_words(P(1)), 0);
  cs_msg_free(P(1), m);
  ck_assert_int_eq(cs_proc_mem_words(P(1)), 0);
}
END_TEST

START_TEST(test_virtual_payload_counts_its_size)
{
  cs_send(P(0), 2, 4, NULL, 1000);
  assert_counters(0, CS_PHASE_ALGO, 1, 1000, 1000);
  cs_msg *m = cs_recv(P(2), 0, 4);
  ck_assert_uint_eq(m->bytes, 1000);
  ck_assert_ptr_null(m->data);
  ck_assert_int_eq(cs_proc_mem_words(P(2)), 125); /* held like a real one */
  cs_msg_free(P(2), m);
  ck_assert_int_eq(cs_proc_mem_words(P(2)), 0);
  ck_assert_int_eq(cs_proc_mem_peak_words(P(2)), 125);
}
END_TEST

START_TEST(test_payload_is_copied_at_send)
{
  int v[3] = {1, 2, 3};
  cs_send(P(0), 1, 9, v, sizeof v);
  v[0] = v[1] = v[2] = -1;
  cs_msg *m = cs_recv(P(1), 0, 9);
  ck_assert_ptr_ne(m->data, v);
  ck_assert_int_eq(((int *)m->data)[0], 1);
  ck_assert_int_eq(((int *)m->data)[2], 3);
  cs_msg_free(P(1), m);
}
END_TEST

/* ------------------------------------------------------------ matching ---- */

START_TEST(test_recv_by_tag_keeps_others_in_order)
{
  send_int(0, 1, 5, 1);
  send_int(0, 1, 6, 2);
  send_int(0, 1, 5, 3);
  send_int(0, 1, 7, 4);
  ck_assert_int_eq(recv_int(1, CS_ANY, 7), 4);
  ck_assert_int_eq(g_queue_get_length(&P(1)->pending), 3);
  /* Everything is now pending: these must not ask the transport (whose inbox
   * is empty: fake_next would fail the test). */
  ck_assert_int_eq(recv_int(1, CS_ANY, 5), 1);
  ck_assert_int_eq(recv_int(1, CS_ANY, 5), 3);
  ck_assert_int_eq(recv_int(1, CS_ANY, 6), 2);
  ck_assert_int_eq(g_queue_get_length(&P(1)->pending), 0);
}
END_TEST

START_TEST(test_recv_by_source_keeps_others_in_order)
{
  send_int(2, 1, 3, 20);
  send_int(0, 1, 3, 10);
  send_int(2, 1, 3, 21);
  ck_assert_int_eq(recv_int(1, 0, 3), 10);
  ck_assert_int_eq(recv_int(1, 2, 3), 20);
  ck_assert_int_eq(recv_int(1, CS_ANY, 3), 21);
}
END_TEST

START_TEST(test_recv_needs_both_source_and_tag)
{
  send_int(0, 1, 4, 1); /* right source, wrong tag */
  send_int(2, 1, 3, 2); /* right tag, wrong source */
  send_int(0, 1, 3, 3);
  ck_assert_int_eq(recv_int(1, 0, 3), 3);
  ck_assert_int_eq(recv_int(1, CS_ANY, 3), 2);
  ck_assert_int_eq(recv_int(1, 0, 4), 1);
}
END_TEST

START_TEST(test_recv_any_takes_first_arrival)
{
  send_int(2, 0, 8, 200);
  send_int(1, 0, 8, 100);
  ck_assert_int_eq(recv_int(0, CS_ANY, 8), 200);
  ck_assert_int_eq(recv_int(0, CS_ANY, 8), 100);
}
END_TEST

START_TEST(test_pending_match_is_returned_before_new_arrivals)
{
  send_int(0, 1, 5, 1);
  send_int(0, 1, 6, 2);
  ck_assert_int_eq(recv_int(1, 0, 6), 2); /* queues the tag-5 message */
  send_int(0, 1, 5, 3);
  ck_assert_int_eq(recv_int(1, 0, 5), 1);
  ck_assert_int_eq(recv_int(1, 0, 5), 3);
}
END_TEST

/* -------------------------------------------------------------- memory ---- */

START_TEST(test_alloc_rounds_up_to_words)
{
  static const struct { size_t bytes; int64_t words; } cases[] = {
    {0, 0}, {1, 1}, {7, 1}, {8, 1}, {9, 2}, {16, 2}, {17, 3}, {1000, 125}, {1001, 126},
  };
  for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
    cs_proc *p = P(0);
    int64_t before = cs_proc_mem_words(p);
    void *x = cs_alloc(p, cases[i].bytes);
    ck_assert_ptr_nonnull(x);
    ck_assert_msg(cs_proc_mem_words(p) - before == cases[i].words, "cs_alloc(%zu) holds %lld words, want %lld",
                  cases[i].bytes, (long long)(cs_proc_mem_words(p) - before), (long long)cases[i].words);
    cs_free(p, x);
    ck_assert_int_eq(cs_proc_mem_words(p), before);
  }
}
END_TEST

START_TEST(test_alloc_memory_is_usable_and_zeroed)
{
  unsigned char *x = cs_alloc(P(0), 33);
  for (int i = 0; i < 33; i++)
    ck_assert_int_eq(x[i], 0);
  memset(x, 0xab, 33);
  cs_free(P(0), x);
}
END_TEST

START_TEST(test_peak_is_the_high_water_mark)
{
  cs_proc *p = P(0);
  void *a = cs_alloc(p, 80); /* 10 */
  void *b = cs_alloc(p, 24); /* 3 */
  ck_assert_int_eq(cs_proc_mem_words(p), 13);
  cs_free(p, a);
  void *c = cs_alloc(p, 32); /* 4 */
  ck_assert_int_eq(cs_proc_mem_words(p), 7);
  ck_assert_int_eq(cs_proc_mem_peak_words(p), 13);
  cs_free(p, b);
  cs_free(p, c);
  ck_assert_int_eq(cs_proc_mem_words(p), 0);
  ck_assert_int_eq(cs_proc_mem_peak_words(p), 13);
}
END_TEST

START_TEST(test_realloc_replaces_the_old_size)
{
  cs_proc *p = P(0);
  int *x = cs_realloc(p, NULL, 9); /* like cs_alloc: 2 words */
  ck_assert_int_eq(cs_proc_mem_words(p), 2);
  x[0] = 17;
  x[1] = 18;
  x = cs_realloc(p, x, 100); /* 13 words */
  ck_assert_int_eq(cs_proc_mem_words(p), 13);
  ck_assert_int_eq(x[0], 17);
  ck_assert_int_eq(x[1], 18);
  x = cs_realloc(p, x, 8); /* 1 word */
  ck_assert_int_eq(cs_proc_mem_words(p), 1);
  ck_assert_int_eq(x[0], 17);
  ck_assert_int_eq(cs_proc_mem_peak_words(p), 13);
  cs_free(p, x);
  ck_assert_int_eq(cs_proc_mem_words(p), 0);
}
END_TEST

START_TEST(test_free_null_is_harmless)
{
  cs_free(P(0), NULL);
  cs_msg_free(P(0), NULL);
  ck_assert_int_eq(cs_proc_mem_words(P(0)), 0);
}
END_TEST

START_TEST(test_mem_hold_adds_and_releases)
{
  cs_proc *p = P(1);
  cs_mem_hold(p, 50);
  cs_mem_hold(p, -20);
  ck_assert_int_eq(cs_proc_mem_words(p), 30);
  cs_mem_hold(p, 5);
  ck_assert_int_eq(cs_proc_mem_words(p), 35);
  ck_assert_int_eq(cs_proc_mem_peak_words(p), 50);
}
END_TEST

START_TEST(test_memory_is_per_process)
{
  void *x = cs_alloc(P(0), 64);
  ck_assert_int_eq(cs_proc_mem_words(P(0)), 8);
  ck_assert_int_eq(cs_proc_mem_words(P(1)), 0);
  ck_assert_int_eq(cs_proc_mem_peak_words(P(1)), 0);
  cs_free(P(0), x);
}
END_TEST

/* A pool sums its members' memory with a peak of its own: the peak of the
 * sum (here 12 words: P(0)'s 8 had gone when P(1) took 10, plus the pool's
 * own 2), not the sum of the peaks (18 + 2). */
START_TEST(test_pool_peak_is_the_peak_of_the_sum)
{
  cs_mem_pool pool = {0};
  void *early = cs_alloc(P(0), 16); /* 2 words, before joining: counted at the join */
  cs_proc_join_mem_pool(P(0), &pool);
  cs_proc_join_mem_pool(P(1), &pool);
  ck_assert_int_eq(pool.words, 2);
  void *x = cs_alloc(P(0), 48); /* 6 */
  cs_free(P(0), x);
  cs_free(P(0), early);
  ck_assert_int_eq(pool.words, 0);
  cs_mem_hold(P(1), 10);
  cs_mem_pool_hold_bytes(&pool, 9); /* 2 words */
  ck_assert_int_eq(pool.words, 12);
  cs_mem_hold(P(1), -10);
  cs_mem_pool_hold_bytes(&pool, -9);
  ck_assert_int_eq(pool.words, 0);
  ck_assert_int_eq(pool.peak, 12);
  ck_assert_int_eq(cs_proc_mem_peak_words(P(0)) + cs_proc_mem_peak_words(P(1)), 18);
  char buf[20] = {0};
  cs_send(P(0), 1, 2, buf, sizeof buf); /* 3 words, in P(1)'s hands once received */
  cs_msg_free(P(1), cs_recv(P(1), 0, 2));
  ck_assert_int_eq(pool.words, 0);
}
END_TEST

START_TEST(test_received_message_is_held_until_freed)
{
  char buf[20] = {0};
  cs_send(P(0), 1, 2, buf, sizeof buf); /* 3 words */
  ck_assert_int_eq(cs_proc_mem_words(P(0)), 0); /* the sender does not hold it */
  cs_msg *m = cs_recv(P(1), 0, 2);
  ck_assert_int_eq(cs_proc_mem_words(P(1)), 3);
  cs_msg_free(P(1), m);
  ck_assert_int_eq(cs_proc_mem_words(P(1)), 0);
  ck_assert_int_eq(cs_proc_mem_peak_words(P(1)), 3);
}
END_TEST

START_TEST(test_queued_messages_are_held)
{
  char buf[100] = {0};
  cs_send(P(0), 1, 1, buf, 100); /* 13 words, will be queued */
  cs_send(P(0), 1, 1, buf, 16);  /* 2 words, queued */
  cs_send(P(0), 1, 2, buf, 8);   /* 1 word */
  cs_msg *m2 = cs_recv(P(1), 0, 2);
  ck_assert_int_eq(cs_proc_mem_words(P(1)), 16);
  ck_assert_int_eq(cs_proc_mem_peak_words(P(1)), 16);
  cs_msg_free(P(1), m2);
  ck_assert_int_eq(cs_proc_mem_words(P(1)), 15);
  cs_msg *m1 = cs_recv(P(1), 0, 1); /* from the queue: not counted twice */
  ck_assert_uint_eq(m1->bytes, 100);
  ck_assert_int_eq(cs_proc_mem_words(P(1)), 15);
  cs_msg_free(P(1), m1);
  ck_assert_int_eq(cs_proc_mem_words(P(1)), 2);
  cs_msg_free(P(1), cs_recv(P(1), 0, 1));
  ck_assert_int_eq(cs_proc_mem_words(P(1)), 0);
  ck_assert_int_eq(cs_proc_mem_peak_words(P(1)), 16);
}
END_TEST

START_TEST(test_messages_and_allocations_add_up)
{
  char buf[24] = {0};
  void *x = cs_alloc(P(1), 40); /* 5 */
  cs_send(P(0), 1, 6, buf, 24);  /* 3, queued */
  cs_send(P(0), 1, 7, NULL, 80); /* 10 */
  cs_msg *m = cs_recv(P(1), 0, 7);
  ck_assert_int_eq(cs_proc_mem_words(P(1)), 18);
  cs_free(P(1), x);
  cs_msg_free(P(1), m);
  ck_assert_int_eq(cs_proc_mem_words(P(1)), 3);
  ck_assert_int_eq(cs_proc_mem_peak_words(P(1)), 18);
}
END_TEST

/* ------------------------------------------------------------ handlers ---- */

#define MAXSEEN 16

typedef struct seen {
  int count;
  int src[MAXSEEN], tag[MAXSEEN], value[MAXSEEN];
  cs_phase phase_inside[MAXSEEN];
  int64_t mem_inside[MAXSEEN]; /* words held while the handler runs */
  int reply_to_src;            /* when set, answer every message with tag 99 */
} seen;

static void record_handler(cs_proc *p, cs_msg *m, void *user)
{
  seen *s = user;
  ck_assert_int_lt(s->count, MAXSEEN);
  int i = s->count++;
  s->src[i] = m->src;
  s->tag[i] = m->tag;
  s->value[i] = m->data && m->bytes >= sizeof(int) ? *(int *)m->data : -1;
  s->phase_inside[i] = p->phase;
  s->mem_inside[i] = cs_proc_mem_words(p);
  int src = m->src;
  cs_msg_free(p, m);
  if (s->reply_to_src)
    send_int(cs_rank(p), src, 99, 1000 + i);
}

START_TEST(test_handler_gets_its_range_during_recv)
{
  seen s = {0};
  cs_set_handler(P(1), 10, 19, record_handler, &s);
  send_int(0, 1, 10, 1);
  send_int(0, 1, 3, 2);
  send_int(0, 1, 19, 3);
  send_int(2, 1, 20, 4); /* just outside the range */
  send_int(0, 1, 4, 5);
  ck_assert_int_eq(recv_int(1, CS_ANY, 3), 2);
  ck_assert_int_eq(s.count, 1);
  ck_assert_int_eq(s.tag[0], 10);
  ck_assert_int_eq(recv_int(1, 0, 4), 5);
  ck_assert_int_eq(s.count, 2);
  ck_assert_int_eq(s.tag[1], 19);
  ck_assert_int_eq(s.value[1], 3);
  /* only the tag-20 message was queued; handled ones never are */
  ck_assert_int_eq(g_queue_get_length(&P(1)->pending), 1);
  ck_assert_int_eq(recv_int(1, 2, 20), 4);
  ck_assert_int_eq(s.count, 2);
}
END_TEST

START_TEST(test_handled_message_is_held_only_inside_the_handler)
{
  seen s = {0};
  cs_set_handler(P(1), 10, 10, record_handler, &s);
  cs_send(P(0), 1, 10, NULL, 800); /* 100 words */
  send_int(0, 1, 3, 0);
  ck_assert_int_eq(recv_int(1, 0, 3), 0);
  ck_assert_int_eq(s.count, 1);
  ck_assert_int_eq(s.mem_inside[0], 100);
  ck_assert_int_eq(cs_proc_mem_words(P(1)), 0);
  ck_assert_int_eq(cs_proc_mem_peak_words(P(1)), 100);
}
END_TEST

START_TEST(test_handler_sends_count_in_installation_phase)
{
  seen s = {.reply_to_src = 1};
  cs_set_handler(P(1), 10, 19, record_handler, &s); /* installed in ALGO */
  cs_set_phase(P(1), CS_PHASE_BRACKET);
  send_int(0, 1, 11, 7);
  send_int(0, 1, 3, 8);
  ck_assert_int_eq(recv_int(1, 0, 3), 8);
  ck_assert_int_eq(s.count, 1);
  ck_assert_int_eq(s.phase_inside[0], CS_PHASE_ALGO);
  assert_counters(1, CS_PHASE_ALGO, 1, sizeof(int), sizeof(int));
  assert_counters(1, CS_PHASE_BRACKET, 0, 0, 0);
  /* the process's own phase is back after the handler */
  ck_assert_int_eq(P(1)->phase, CS_PHASE_BRACKET);
  send_int(1, 2, 5, 0);
  assert_counters(1, CS_PHASE_BRACKET, 1, sizeof(int), sizeof(int));
  ck_assert_int_eq(recv_int(0, 1, 99), 1000);
}
END_TEST

START_TEST(test_handler_installed_in_bracket_counts_there)
{
  seen s = {.reply_to_src = 1};
  cs_set_phase(P(2), CS_PHASE_BRACKET);
  cs_set_handler(P(2), 30, 30, record_handler, &s);
  cs_set_phase(P(2), CS_PHASE_ALGO);
  send_int(0, 2, 30, 1);
  send_int(0, 2, 3, 2);
  ck_assert_int_eq(recv_int(2, 0, 3), 2);
  assert_counters(2, CS_PHASE_BRACKET, 1, sizeof(int), sizeof(int));
  assert_counters(2, CS_PHASE_ALGO, 0, 0, 0);
}
END_TEST

START_TEST(test_handler_dispatches_already_queued)
{
  seen s = {0};
  send_int(0, 1, 12, 1);
  send_int(0, 1, 3, 2);
  send_int(2, 1, 13, 3);
  send_int(0, 1, 4, 4);
  ck_assert_int_eq(recv_int(1, 0, 4), 4); /* queues 12, 3, 13 */
  ck_assert_int_eq(g_queue_get_length(&P(1)->pending), 3);
  ck_assert_int_eq(cs_proc_mem_words(P(1)), 3);
  cs_set_handler(P(1), 10, 19, record_handler, &s);
  ck_assert_int_eq(s.count, 2);
  ck_assert_int_eq(s.value[0], 1);
  ck_assert_int_eq(s.value[1], 3);
  ck_assert_int_eq(s.src[1], 2);
  ck_assert_int_eq(g_queue_get_length(&P(1)->pending), 1);
  ck_assert_int_eq(cs_proc_mem_words(P(1)), 1); /* only the tag-3 message */
  ck_assert_int_eq(recv_int(1, 0, 3), 2);
  ck_assert_int_eq(cs_proc_mem_words(P(1)), 0);
}
END_TEST

START_TEST(test_removed_handler_lets_messages_queue)
{
  seen s = {0};
  cs_set_handler(P(1), 10, 19, record_handler, &s);
  cs_set_handler(P(1), 0, 0, NULL, NULL);
  send_int(0, 1, 15, 1);
  send_int(0, 1, 3, 2);
  ck_assert_int_eq(recv_int(1, 0, 3), 2);
  ck_assert_int_eq(s.count, 0);
  ck_assert_int_eq(recv_int(1, 0, 15), 1);
}
END_TEST

START_TEST(test_serve_retires_and_dispatches)
{
  static seen s; /* static: read after the longjmp */
  memset(&s, 0, sizeof s);
  cs_set_handler(P(2), 10, 19, record_handler, &s);
  send_int(0, 2, 10, 1);
  send_int(1, 2, 50, 2); /* nobody wants it: kept */
  send_int(0, 2, 11, 3);
  jmp_buf out;
  net.serve_exit = &out;
  if (setjmp(out) == 0)
    cs_serve(P(2)); /* never returns: fake_next jumps out once the inbox is empty */
  net.serve_exit = NULL;
  ck_assert_int_eq(net.retired, 1);
  ck_assert_int_eq(s.count, 2);
  ck_assert_int_eq(s.value[0], 1);
  ck_assert_int_eq(s.value[1], 3);
  ck_assert_int_eq(g_queue_get_length(&P(2)->pending), 1);
}
END_TEST

/* The transport ends a serving process by giving NULL (the timed backend
 * does so under MPI semantics, sg_engine.c's end_processes): cs_serve
 * dispatches what came before, then returns. */
START_TEST(test_serve_returns_when_the_run_is_over)
{
  seen s;
  memset(&s, 0, sizeof s);
  cs_set_handler(P(2), 10, 19, record_handler, &s);
  send_int(0, 2, 10, 1);
  send_int(1, 2, 50, 2); /* nobody wants it: kept */
  net.run_over = true;
  cs_serve(P(2));
  ck_assert_int_eq(net.retired, 1);
  ck_assert_int_eq(s.count, 1);
  ck_assert_int_eq(s.value[0], 1);
  ck_assert_int_eq(g_queue_get_length(&P(2)->pending), 1);
}
END_TEST

/* ------------------------------------------------------------ observer ---- */

typedef struct obs_log {
  int count;
  int src[MAXSEEN], dst[MAXSEEN];
  size_t bytes[MAXSEEN];
  cs_phase phase[MAXSEEN];
} obs_log;

static void observe(int src, int dst, size_t bytes, cs_phase phase, void *user)
{
  obs_log *o = user;
  ck_assert_int_lt(o->count, MAXSEEN);
  o->src[o->count] = src;
  o->dst[o->count] = dst;
  o->bytes[o->count] = bytes;
  o->phase[o->count] = phase;
  o->count++;
}

static void assert_observed(const obs_log *o, int i, int src, int dst, size_t bytes, cs_phase phase)
{
  ck_assert_msg(o->src[i] == src && o->dst[i] == dst && o->bytes[i] == bytes && o->phase[i] == phase,
                "send %d observed as (%d, %d, %zu, %d), expected (%d, %d, %zu, %d)", i, o->src[i], o->dst[i],
                o->bytes[i], (int)o->phase[i], src, dst, bytes, (int)phase);
}

START_TEST(test_observer_sees_every_send)
{
  obs_log o = {0};
  for (int r = 0; r < NPROC; r++) {
    P(r)->observer = observe;
    P(r)->observer_user = &o;
  }
  seen s = {.reply_to_src = 1};
  cs_set_handler(P(1), 10, 10, record_handler, &s);
  char buf[64] = {0};
  cs_send(P(0), 1, 2, buf, 64);
  cs_send(P(0), 0, 2, buf, 0);
  cs_set_phase(P(2), CS_PHASE_BRACKET);
  cs_send(P(2), 1, 10, NULL, 500);
  cs_send(P(2), 1, 3, buf, 1);
  cs_msg_free(P(1), cs_recv(P(1), 2, 3)); /* runs the handler, which replies */
  ck_assert_int_eq(o.count, 5);
  assert_observed(&o, 0, 0, 1, 64, CS_PHASE_ALGO);
  assert_observed(&o, 1, 0, 0, 0, CS_PHASE_ALGO);
  assert_observed(&o, 2, 2, 1, 500, CS_PHASE_BRACKET);
  assert_observed(&o, 3, 2, 1, 1, CS_PHASE_BRACKET);
  assert_observed(&o, 4, 1, 2, sizeof(int), CS_PHASE_ALGO);
}
END_TEST

/* ------------------------------------------------------- time, compute ---- */

START_TEST(test_compute_and_now_reach_the_transport)
{
  cs_compute(P(0), 0.5);
  cs_compute(P(0), 0.0);  /* nothing to charge */
  cs_compute(P(0), -1.0); /* nor for a negative amount */
  ck_assert_int_eq(net.compute_calls, 1);
  ck_assert(net.computed == 0.5);
  ck_assert(cs_now(P(0)) == 0.5);
}
END_TEST

/* ------------------------------------------------------------- polling ---- */

START_TEST(test_recv_try_returns_null_when_nothing_arrived)
{
  ck_assert_ptr_null(cs_recv_try(P(1), CS_ANY, 5));
  ck_assert_int_eq(net.polls, 1);
  ck_assert_int_eq(net.waits, 0);
  ck_assert(net.clock == 0);
  ck_assert_uint_eq(cs_proc_received(P(1)), 0);
}
END_TEST

START_TEST(test_recv_try_queues_what_does_not_match)
{
  send_int(0, 1, 9, 1);
  send_int(2, 1, 5, 2); /* right tag, wrong source */
  send_int(0, 1, 5, 3);
  send_int(0, 1, 5, 4);
  cs_msg *m = cs_recv_try(P(1), 0, 5);
  ck_assert_ptr_nonnull(m);
  ck_assert_int_eq(*(int *)m->data, 3);
  cs_msg_free(P(1), m);
  /* it stopped at the first match: the fourth message is still in the network */
  ck_assert_int_eq(g_queue_get_length(&net.inbox[1]), 1);
  ck_assert_int_eq(g_queue_get_length(&P(1)->pending), 2);
  ck_assert_int_eq(cs_proc_mem_words(P(1)), 2); /* the queued ones are held */
  int polls = net.polls;
  m = cs_recv_try(P(1), 0, 9); /* from the queue, without polling */
  ck_assert_ptr_nonnull(m);
  ck_assert_int_eq(*(int *)m->data, 1);
  ck_assert_int_eq(net.polls, polls);
  cs_msg_free(P(1), m);
  ck_assert_int_eq(recv_int(1, 2, 5), 2); /* a later cs_recv finds it queued */
  ck_assert_int_eq(net.waits, 0);
  ck_assert_int_eq(recv_int(1, 0, 5), 4);
  ck_assert_uint_eq(cs_proc_received(P(1)), 4);
  ck_assert_int_eq(cs_proc_mem_words(P(1)), 0);
}
END_TEST

START_TEST(test_recv_try_dispatches_handler_messages)
{
  seen s = {0};
  cs_set_handler(P(1), 10, 19, record_handler, &s);
  send_int(0, 1, 10, 1);
  send_int(0, 1, 11, 2);
  ck_assert_ptr_null(cs_recv_try(P(1), 0, 5));
  ck_assert_int_eq(s.count, 2);
  ck_assert_int_eq(s.value[1], 2);
  ck_assert_int_eq(g_queue_get_length(&P(1)->pending), 0);
  ck_assert_uint_eq(cs_proc_received(P(1)), 2);
}
END_TEST

START_TEST(test_recv_try_without_poll_sees_the_queue_only)
{
  static const cs_transport no_poll = {.send = fake_send, .next = fake_next, .compute = fake_compute,
                                       .now = fake_now, .retire = fake_retire};
  P(1)->transport = &no_poll;
  send_int(0, 1, 5, 1);
  send_int(0, 1, 6, 2);
  ck_assert_int_eq(recv_int(1, 0, 6), 2); /* queues tag 5 */
  send_int(0, 1, 7, 3);
  ck_assert_ptr_null(cs_recv_try(P(1), 0, 7)); /* arrived, but this backend cannot poll */
  cs_msg *m = cs_recv_try(P(1), 0, 5);
  ck_assert_ptr_nonnull(m);
  ck_assert_int_eq(*(int *)m->data, 1);
  cs_msg_free(P(1), m);
  ck_assert(!cs_proc_failed(P(1), 0)); /* no detector: nobody fails */
  ck_assert_int_eq(net.polls, 0);
}
END_TEST

START_TEST(test_recv_records_what_it_waits_for)
{
  send_int(2, 1, 9, 0); /* taken (and queued) while waiting */
  cs_send_ctx(P(0), 1, 7, 5, NULL, 0, 8);
  ck_assert(!P(1)->wait.active);
  cs_msg *m = cs_recv_ctx(P(1), 0, 7, 5);
  ck_assert_int_eq(net.waits, 2);
  ck_assert(net.wait_seen.active);
  ck_assert_int_eq(net.wait_seen.src, 0);
  ck_assert_uint_eq(net.wait_seen.ctx, 7);
  ck_assert_int_eq(net.wait_seen.tag, 5);
  ck_assert(!P(1)->wait.active);
  cs_msg_free(P(1), m);
  /* cs_serve waits without a record */
  jmp_buf out;
  net.serve_exit = &out;
  if (setjmp(out) == 0)
    cs_serve(P(1));
  net.serve_exit = NULL;
  ck_assert(!net.wait_seen.active);
}
END_TEST

START_TEST(test_send_to_failed_rank_is_dropped)
{
  obs_log o = {0};
  P(0)->observer = observe;
  P(0)->observer_user = &o;
  net.failed_rank = 2;
  ck_assert(cs_proc_failed(P(0), 2));
  ck_assert(!cs_proc_failed(P(0), 1));
  send_int(0, 2, 5, 1);
  cs_send(P(0), 2, 5, NULL, 100);
  cs_send_ctx(P(0), 2, 3, 5, NULL, 0, 8);
  send_int(0, 1, 5, 2);
  ck_assert_uint_eq(cs_proc_dropped_sends(P(0)), 3);
  ck_assert_uint_eq(cs_proc_dropped_sends(P(1)), 0);
  assert_counters(0, CS_PHASE_ALGO, 1, sizeof(int), sizeof(int));
  ck_assert_int_eq(o.count, 1);
  ck_assert(g_queue_is_empty(&net.inbox[2]));
  ck_assert_int_eq(recv_int(1, 0, 5), 2);
}
END_TEST

/* ------------------------------------------------ timed runs (SimGrid) ---- */

/* Check forks every test, so each test below initialises SimGrid once: it
 * writes a 4-host cluster (one rank per host, LV08), runs the ranks with
 * cs_engine_run and asserts on what they recorded (they share this forked
 * process's memory; SimGrid runs them one at a time). */

#define O_MSG 1e-6                /* o_send = o_recv */
#define FAIL_AT 0.0078125         /* 2^-7: sums of the computes below reach it exactly */

static const char cluster_xml[] =
  "<?xml version='1.0'?>\n"
  "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
  "<platform version=\"4.1\">\n"
  "  <cluster id=\"c\" prefix=\"h\" suffix=\"\" radical=\"0-3\" speed=\"1Gf\" bw=\"1GBps\" lat=\"5us\"/>\n"
  "</platform>\n";

/* What the ranks record. */
static struct {
  int variant;
  /* polling */
  double sent_at, ref_at, poll_at, got_at, last_empty_at, queued_at, queued_done_at, sent3_at, got3_at;
  int got_tag, queued_tag, polls;
  bool early3_null;
  /* failure */
  bool returned[4];                 /* got past the point it should never pass */
  bool failed_before, failed_then, failed_seen_by_2;
  double seen_at, after_drop_at;
} T;

/* The run's outcome. */
typedef struct outcome {
  double clock;
  int retired;
  uint64_t received[4], dropped[4], sent[4];
  char *err; /* what was printed on stderr during the run */
} outcome;

static bool show_progress; /* timed_run without quiet: the progress line goes to o.err */

static outcome timed_run(int n, cs_proc_main_fn fn, int window, int fail_rank, double fail_at)
{
  char *dir = g_dir_make_tmp("check-msg-XXXXXX", NULL);
  ck_assert_ptr_nonnull(dir);
  char *path = g_build_filename(dir, "cluster.xml", NULL);
  ck_assert(g_file_set_contents(path, cluster_xml, -1, NULL));
  cs_engine_config ec;
  cs_engine_config_defaults(&ec);
  ck_assert_int_eq(ec.fail_rank, -1);
  ec.platform_file = path;
  ec.n = n;
  ec.cores = 1;
  ec.o_send = ec.o_recv = O_MSG;
  ec.recv_window = window;
  ec.quiet = !show_progress;
  ec.fail_rank = fail_rank;
  ec.fail_at = fail_at;
  cs_proc *procs = g_new0(cs_proc, n);
  FILE *cap = tmpfile(); /* SimGrid's messages, e.g. its deadlock report */
  ck_assert_ptr_nonnull(cap);
  fflush(stderr);
  int saved = dup(STDERR_FILENO);
  dup2(fileno(cap), STDERR_FILENO);
  GError *err = NULL;
  gboolean ok = cs_engine_run(&ec, procs, fn, NULL, &err);
  fflush(stderr);
  dup2(saved, STDERR_FILENO);
  close(saved);
  ck_assert_msg(ok, "cs_engine_run: %s", err ? err->message : "?");
  outcome o = {.clock = cs_engine_clock(), .retired = cs_engine_retired()};
  for (int r = 0; r < n; r++) {
    o.received[r] = cs_proc_received(&procs[r]);
    o.dropped[r] = cs_proc_dropped_sends(&procs[r]);
    o.sent[r] = cs_proc_counters(&procs[r], CS_PHASE_ALGO)->messages;
    cs_proc_release(&procs[r]);
  }
  rewind(cap);
  GString *text = g_string_new(NULL);
  char buf[512];
  size_t got;
  while ((got = fread(buf, 1, sizeof buf, cap)) > 0)
    g_string_append_len(text, buf, (gssize)got);
  fclose(cap);
  o.err = g_string_free(text, FALSE);
  g_free(procs);
  g_unlink(path);
  g_rmdir(dir);
  g_free(path);
  g_free(dir);
  return o;
}

static void assert_no_deadlock(const outcome *o, int n)
{
  ck_assert_msg(!cs_engine_deadlocked(), "deadlock reported (%d stuck)", cs_engine_stuck_count());
  ck_assert_int_eq(cs_engine_stuck_count(), 0);
  ck_assert_msg(strstr(o->err, "eadlock") == NULL, "SimGrid printed: %s", o->err);
  ck_assert_int_eq(o->retired, n);
}

#define ck_assert_time(x, want) \
  ck_assert_msg(fabs((x) - (want)) < 1e-12, "%s = %.12g s, expected %.12g s", #x, (double)(x), (double)(want))

/* (a) Rank 0 sends, at T0, tag 9 then tag 5 to rank 1 (zero bytes) and tag
 * 5 to rank 2, which receives it blocking: that gives the latency L.  Rank
 * 1 polls for tag 5 every 100 us, computing in between: the first poll
 * after the arrival (T0 + 2 o_send + L) takes tag 9 (queued) and tag 5,
 * paying two receive overheads; a later cs_recv finds tag 9 queued at no
 * cost.  Then rank 1 polls for tag 3 before it is sent (NULL: a receive
 * stays posted) and blocks on it: it gets it at its arrival + o_recv. */
#define T0 1.05e-3
#define POLL_EVERY 1e-4
#define T3 3e-3

static void poll_main(cs_proc *p, void *user)
{
  (void)user;
  int me = cs_rank(p);
  if (me == 0) {
    cs_compute(p, T0);
    T.sent_at = cs_now(p);
    cs_send(p, 1, 9, NULL, 0);
    cs_send(p, 1, 5, NULL, 0);
    cs_send(p, 2, 5, NULL, 0);
    cs_compute(p, T3 - cs_now(p));
    T.sent3_at = cs_now(p);
    cs_send(p, 1, 3, NULL, 0);
  } else if (me == 2) {
    cs_msg_free(p, cs_recv(p, 0, 5));
    T.ref_at = cs_now(p);
  } else if (me == 1) {
    cs_msg *m;
    for (;;) {
      double t = cs_now(p);
      if ((m = cs_recv_try(p, 0, 5)) != NULL) {
        T.poll_at = t;
        T.got_at = cs_now(p);
        break;
      }
      T.last_empty_at = t;
      T.polls++;
      cs_compute(p, POLL_EVERY);
    }
    T.got_tag = m->tag;
    cs_msg_free(p, m);
    T.queued_at = cs_now(p);
    m = cs_recv(p, 0, 9);
    T.queued_done_at = cs_now(p);
    T.queued_tag = m->tag;
    cs_msg_free(p, m);
    T.early3_null = cs_recv_try(p, 0, 3) == NULL;
    cs_msg_free(p, cs_recv(p, 0, 3));
    T.got3_at = cs_now(p);
  }
  cs_serve(p);
}

/* Variant 0: a receive window of 1, no failure; variant 1: a window of 4,
 * and rank 2 to fail at 10 s, long after the run's end: it must change
 * nothing (the run ends at quiescence, the failure never happens). */
START_TEST(poll_gets_message_at_first_poll_after_arrival)
{
  int window = _i == 0 ? 1 : 4;
  outcome o = timed_run(3, poll_main, window, _i == 0 ? -1 : 2, 10.0);
  assert_no_deadlock(&o, 3);
  ck_assert_int_eq(cs_engine_failed_rank(), -1);
  ck_assert(cs_engine_fail_time() < 0);
  ck_assert(o.clock == T.got3_at); /* the last message taken: quiescence */
  double L = T.ref_at - (T.sent_at + 3 * O_MSG) - O_MSG; /* rank 2: sent third, then o_recv */
  ck_assert_msg(L > 0 && L < 1e-3, "latency %g s", L);
  double arrival9 = T.sent_at + O_MSG + L, arrival5 = arrival9 + O_MSG;
  /* the test's premise: both arrive between two polls */
  ck_assert_msg(T.last_empty_at < arrival9 && T.polls > 5, "last empty poll at %.9g s, tag 9 arrived at %.9g s",
                T.last_empty_at, arrival9);
  ck_assert_msg(T.poll_at >= arrival5 - 1e-12 && T.poll_at - POLL_EVERY < arrival5,
                "taken at the poll of %.9g s, arrival at %.9g s", T.poll_at, arrival5);
  ck_assert_int_eq(T.got_tag, 5);
  ck_assert_time(T.got_at, T.poll_at + 2 * O_MSG); /* tags 9 and 5 out of the network */
  ck_assert_int_eq(T.queued_tag, 9);
  ck_assert(T.queued_done_at == T.queued_at); /* from the queue: no time */
  ck_assert(T.early3_null);
  ck_assert_time(T.got3_at, T.sent3_at + O_MSG + L + O_MSG);
  ck_assert_uint_eq(o.received[1], 3);
  g_free(o.err);
}
END_TEST

/* (b) Rank 0 fails at FAIL_AT while computing (variant 0), blocked in a
 * receive (1) or polling with computation in between (2); variants 3-5: the
 * same with a receive window of 4.  Rank 1 asks the detector just before
 * and at FAIL_AT, then sends to rank 0 twice (dropped, at no cost).  Rank 2
 * sends 1 MiB to rank 0 just before FAIL_AT (in flight at the failure,
 * discarded on arrival, which ends the run) and once after (dropped). */
static void victim_main(cs_proc *p, void *user)
{
  (void)user;
  int me = cs_rank(p);
  if (me == 0) {
    switch (T.variant % 3) {
    case 0:
      cs_compute(p, 1.0);
      break;
    case 1:
      cs_msg_free(p, cs_recv(p, CS_ANY, 77));
      break;
    default:
      while (cs_recv_try(p, CS_ANY, 77) == NULL)
        cs_compute(p, 1e-3);
    }
    T.returned[0] = true;
  } else if (me == 1) {
    cs_compute(p, FAIL_AT - 0.0009765625);
    T.failed_before = cs_proc_failed(p, 0);
    cs_compute(p, 0.0009765625);
    T.failed_then = cs_proc_failed(p, 0);
    T.seen_at = cs_now(p);
    cs_send(p, 0, 5, NULL, 8);
    int x = 1;
    cs_send(p, 0, 6, &x, sizeof x);
    T.after_drop_at = cs_now(p);
  } else {
    cs_compute(p, FAIL_AT - 2 * O_MSG);
    cs_send(p, 0, 1, NULL, 1 << 20);
    cs_compute(p, 0.0009765625);
    T.failed_seen_by_2 = cs_proc_failed(p, 0);
    cs_send(p, 0, 2, NULL, 8);
  }
  cs_serve(p);
}

START_TEST(failed_process_stops_and_is_detected)
{
  T.variant = _i;
  outcome o = timed_run(3, victim_main, _i < 3 ? 1 : 4, 0, FAIL_AT);
  ck_assert_msg(!T.returned[0], "variant %d: the failed process returned to the algorithm", _i);
  ck_assert_int_eq(cs_engine_failed_rank(), 0);
  ck_assert(cs_engine_fail_time() == FAIL_AT);
  ck_assert(!T.failed_before);
  ck_assert(T.failed_then);
  ck_assert(T.seen_at == FAIL_AT);
  ck_assert(T.failed_seen_by_2);
  ck_assert(T.after_drop_at == T.seen_at); /* dropped sends cost nothing */
  ck_assert_uint_eq(o.dropped[0], 0);
  ck_assert_uint_eq(o.dropped[1], 2);
  ck_assert_uint_eq(o.dropped[2], 1);
  ck_assert_uint_eq(o.sent[1], 0); /* dropped sends are not counted as messages */
  ck_assert_uint_eq(o.sent[2], 1);
  ck_assert_uint_eq(o.received[0], 0); /* it discards what reaches it */
  /* the others finished; the run ended when the 1 MiB message reached the
   * failed process (after the failure) and was discarded: well before the
   * 1 s the computing variant asked for */
  ck_assert_int_eq(o.retired, 2);
  ck_assert(!cs_engine_deadlocked());
  ck_assert_msg(o.clock > FAIL_AT + 5e-4 && o.clock < 0.1, "variant %d: the run ended at %g s", _i, o.clock);
  ck_assert_msg(strstr(o.err, "eadlock") == NULL, "SimGrid printed: %s", o.err);
  g_free(o.err);
}
END_TEST

/* (c) Ranks 1 and 2 wait for messages rank 0 would send after computing,
 * but rank 0 fails first; rank 3 serves.  The engine finds the deadlock at
 * FAIL_AT and lists 1 and 2 with what they wait for (variant 1: window 4). */
static void orphan_main(cs_proc *p, void *user)
{
  (void)user;
  int me = cs_rank(p);
  if (me == 0) {
    cs_compute(p, 0.5);
    cs_send(p, 1, 11, NULL, 8);
    cs_send_ctx(p, 2, 5, 12, NULL, 0, 8);
  } else if (me == 1) {
    cs_msg_free(p, cs_recv(p, 0, 11));
  } else if (me == 2) {
    cs_msg_free(p, cs_recv_ctx(p, 0, 5, 12));
  }
  if (me != 3)
    T.returned[me] = true;
  cs_serve(p);
}

static void assert_stuck(int i, int rank, int src, uint32_t ctx, int tag)
{
  int count = -1;
  const cs_stuck *s = cs_engine_stuck(&count);
  ck_assert_int_gt(count, i);
  ck_assert_msg(s[i].rank == rank && s[i].src == src && s[i].ctx == ctx && s[i].tag == tag,
                "stuck[%d] = rank %d waiting for (src %d, ctx %u, tag %d), expected rank %d (%d, %u, %d)", i,
                s[i].rank, s[i].src, s[i].ctx, s[i].tag, rank, src, ctx, tag);
}

START_TEST(deadlock_after_failure_is_reported)
{
  outcome o = timed_run(4, orphan_main, _i == 0 ? 1 : 4, 0, FAIL_AT);
  ck_assert(cs_engine_deadlocked());
  ck_assert_int_eq(cs_engine_failed_rank(), 0);
  ck_assert_time(o.clock, FAIL_AT);
  ck_assert_int_eq(cs_engine_stuck_count(), 2);
  assert_stuck(0, 1, 0, 0, 11);
  assert_stuck(1, 2, 0, 5, 12);
  ck_assert(!T.returned[0] && !T.returned[1] && !T.returned[2]);
  ck_assert_int_eq(o.retired, 1);
  ck_assert_msg(strstr(o.err, "eadlock") == NULL, "SimGrid printed its report: %s", o.err);
  g_free(o.err);
}
END_TEST

/* Without a failure: 0 and 1 wait for each other, 2 serves; found at once. */
static void cross_main(cs_proc *p, void *user)
{
  (void)user;
  int me = cs_rank(p);
  if (me == 0)
    cs_msg_free(p, cs_recv(p, 1, 1));
  else if (me == 1) {
    cs_compute(p, 1e-3);
    cs_msg_free(p, cs_recv(p, CS_ANY, 2));
  }
  cs_serve(p);
}

START_TEST(deadlock_without_failure_is_reported)
{
  outcome o = timed_run(3, cross_main, 1, -1, 0);
  ck_assert(cs_engine_deadlocked());
  ck_assert_int_eq(cs_engine_failed_rank(), -1);
  ck_assert_time(o.clock, 1e-3);
  ck_assert_int_eq(cs_engine_stuck_count(), 2);
  assert_stuck(0, 0, 1, 0, 1);
  assert_stuck(1, 1, CS_ANY, 0, 2);
  ck_assert_int_eq(o.retired, 1);
  ck_assert_msg(strstr(o.err, "eadlock") == NULL, "SimGrid printed its report: %s", o.err);
  g_free(o.err);
}
END_TEST

/* A failure of a rank that does not exist, or at no time, is bad input. */
/* Progress while the simulation is busy: rank 0 sends PROGRESS_MSGS
 * messages at once; rank 1 spends PROGRESS_WORK_US of wall time on each it
 * takes (a stand-in for a stretch of simulation that is slow to compute).
 * Without quiet, the engine's progress line appears during the run, from
 * its first second, counting the messages delivered so far: a line with
 * 1 <= done < PROGRESS_MSGS, not only the last one. */
#define PROGRESS_MSGS 12
#define PROGRESS_WORK_US 200000

static void slow_receiver_main(cs_proc *p, void *user)
{
  (void)user;
  for (int i = 0; i < PROGRESS_MSGS; i++) {
    if (cs_rank(p) == 0)
      cs_send(p, 1, 1, NULL, 0);
    else if (cs_rank(p) == 1) {
      cs_msg_free(p, cs_recv(p, 0, 1));
      g_usleep(PROGRESS_WORK_US);
    }
  }
  cs_serve(p);
}

START_TEST(progress_is_drawn_while_the_simulation_runs)
{
  show_progress = true;
  outcome o = timed_run(2, slow_receiver_main, 1, -1, 0);
  assert_no_deadlock(&o, 2);
  ck_assert_int_eq(o.received[1], PROGRESS_MSGS);
  int mid_run = 0, last = -1;
  for (const char *s = strstr(o.err, " done, elapsed"); s; s = strstr(s + 1, " done, elapsed")) {
    const char *number = s; /* "...: 5 done, elapsed 1s" */
    while (number > o.err && g_ascii_isdigit(number[-1]))
      number--;
    ck_assert_msg(number < s, "no count before 'done': %s", o.err);
    int done = atoi(number);
    mid_run += done >= 1 && done < PROGRESS_MSGS;
    last = done;
  }
  ck_assert_msg(mid_run >= 1, "no progress line during the run; stderr: %s", o.err);
  ck_assert_int_eq(last, PROGRESS_MSGS);
  g_free(o.err);
}
END_TEST

START_TEST(bad_failure_is_input_error)
{
  char *dir = g_dir_make_tmp("check-msg-XXXXXX", NULL);
  char *path = g_build_filename(dir, "cluster.xml", NULL);
  ck_assert(g_file_set_contents(path, cluster_xml, -1, NULL));
  cs_engine_config ec;
  cs_engine_config_defaults(&ec);
  ec.platform_file = path;
  ec.n = 2;
  ec.cores = 1;
  ec.quiet = 1;
  ec.fail_rank = _i == 0 ? 2 : 1;
  ec.fail_at = _i == 0 ? 1.0 : -1.0;
  cs_proc procs[2];
  GError *err = NULL;
  ck_assert(!cs_engine_run(&ec, procs, cross_main, NULL, &err));
  ck_assert(err != NULL && err->domain == CS_INPUT_ERROR);
  g_error_free(err);
  g_unlink(path);
  g_rmdir(dir);
  g_free(path);
  g_free(dir);
}
END_TEST

static Suite *msg_suite(void)
{
  Suite *s = suite_create("msg");
  struct { const char *name; const TTest *tests[16]; } cases[] = {
    {"counters", {test_rank_and_size, test_counters_start_at_zero, test_counters_split_by_phase,
                  test_receiving_counts_nothing, test_send_to_self_is_counted_and_received, test_zero_byte_message,
                  test_virtual_payload_counts_its_size, test_payload_is_copied_at_send}},
    {"matching", {test_recv_by_tag_keeps_others_in_order, test_recv_by_source_keeps_others_in_order,
                  test_recv_needs_both_source_and_tag, test_recv_any_takes_first_arrival,
                  test_pending_match_is_returned_before_new_arrivals}},
    {"memory", {test_alloc_rounds_up_to_words, test_alloc_memory_is_usable_and_zeroed,
                test_peak_is_the_high_water_mark, test_realloc_replaces_the_old_size, test_free_null_is_harmless,
                test_mem_hold_adds_and_releases, test_memory_is_per_process, test_received_message_is_held_until_freed,
                test_queued_messages_are_held, test_messages_and_allocations_add_up,
                test_pool_peak_is_the_peak_of_the_sum}},
    {"handlers", {test_handler_gets_its_range_during_recv, test_handled_message_is_held_only_inside_the_handler,
                  test_handler_sends_count_in_installation_phase, test_handler_installed_in_bracket_counts_there,
                  test_handler_dispatches_already_queued, test_removed_handler_lets_messages_queue,
                  test_serve_retires_and_dispatches, test_serve_returns_when_the_run_is_over}},
    {"observer", {test_observer_sees_every_send, test_compute_and_now_reach_the_transport}},
    {"polling", {test_recv_try_returns_null_when_nothing_arrived, test_recv_try_queues_what_does_not_match,
                 test_recv_try_dispatches_handler_messages, test_recv_try_without_poll_sees_the_queue_only,
                 test_recv_records_what_it_waits_for, test_send_to_failed_rank_is_dropped}},
  };
  for (size_t c = 0; c < G_N_ELEMENTS(cases); c++) {
    TCase *tc = tcase_create(cases[c].name);
    tcase_add_checked_fixture(tc, setup, teardown);
    for (int i = 0; cases[c].tests[i]; i++)
      tcase_add_test(tc, cases[c].tests[i]);
    suite_add_tcase(s, tc);
  }
  TCase *tc = tcase_create("timed");
  tcase_set_timeout(tc, 60);
  tcase_add_loop_test(tc, poll_gets_message_at_first_poll_after_arrival, 0, 2);
  tcase_add_loop_test(tc, failed_process_stops_and_is_detected, 0, 6);
  tcase_add_loop_test(tc, deadlock_after_failure_is_reported, 0, 2);
  tcase_add_test(tc, deadlock_without_failure_is_reported);
  tcase_add_test(tc, progress_is_drawn_while_the_simulation_runs);
  tcase_add_loop_test(tc, bad_failure_is_input_error, 0, 2);
  suite_add_tcase(s, tc);
  return s;
}

int main(void)
{
  SRunner *sr = srunner_create(msg_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

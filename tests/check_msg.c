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
 *  - the send observer sees every (src, dst, bytes, phase);
 *  - cs_compute / cs_now reach the transport. */
#include "sim/contracts/transport.h"

#include <check.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

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
} net;

static void fake_send(cs_proc *p, int dst, cs_msg *m)
{
  (void)p;
  g_queue_push_tail(&net.inbox[dst], m);
}

static cs_msg *fake_next(cs_proc *p)
{
  GQueue *q = &net.inbox[p->rank];
  if (g_queue_is_empty(q) && net.serve_exit)
    longjmp(*net.serve_exit, 1);
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

static const cs_transport fake = {fake_send, fake_next, fake_compute, fake_now, fake_retire};

static void setup(void)
{
  memset(&net, 0, sizeof net);
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
                  test_serve_retires_and_dispatches}},
    {"observer", {test_observer_sees_every_send, test_compute_and_now_reach_the_transport}},
  };
  for (size_t c = 0; c < G_N_ELEMENTS(cases); c++) {
    TCase *tc = tcase_create(cases[c].name);
    tcase_add_checked_fixture(tc, setup, teardown);
    for (int i = 0; cases[c].tests[i]; i++)
      tcase_add_test(tc, cases[c].tests[i]);
    suite_add_tcase(s, tc);
  }
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

/* Section 8's messaging workload (see comm_bench.h).  Choices the paper
 * left open: 4-byte messages and gather contributions; all sends of a
 * member first (eager), then its receives in list order; pairs uniform over
 * ordered pairs of distinct members. */
#include "sim/drivers/comm_bench.h"
#include "sim/contracts/prng.h"

#include <glib.h>

#define BENCH_TAG 7

struct cs_bench_plan {
  int64_t m, messages;
  int gathers;
  /* per group rank: its sends (destinations) and receives (sources), in list order */
  int64_t *send_start, *recv_start;
  int32_t *send_to, *recv_from;
};

static void count_into(int64_t *start, int64_t m, const int32_t *who, int64_t k)
{
  for (int64_t i = 0; i < k; i++)
    start[who[i] + 1]++;
  for (int64_t g = 0; g < m; g++)
    start[g + 1] += start[g];
}

cs_bench_plan *cs_bench_plan_new(int64_t m, int64_t messages, int gathers, uint64_t seed)
{
  cs_bench_plan *b = g_new0(cs_bench_plan, 1);
  b->m = m;
  b->messages = m > 1 ? messages : 0;
  b->gathers = gathers;
  int32_t *src = g_new(int32_t, (gsize)b->messages + 1), *dst = g_new(int32_t, (gsize)b->messages + 1);
  uint64_t state = seed ^ 0x5EC8u;
  for (int64_t i = 0; i < b->messages; i++) {
    src[i] = (int32_t)(cs_splitmix_next(&state) % (uint64_t)m);
    int32_t d = (int32_t)(cs_splitmix_next(&state) % (uint64_t)(m - 1));
    dst[i] = d >= src[i] ? d + 1 : d;
  }
  b->send_start = g_new0(int64_t, (gsize)m + 1);
  b->recv_start = g_new0(int64_t, (gsize)m + 1);
  count_into(b->send_start, m, src, b->messages);
  count_into(b->recv_start, m, dst, b->messages);
  b->send_to = g_new(int32_t, (gsize)b->messages + 1);
  b->recv_from = g_new(int32_t, (gsize)b->messages + 1);
  int64_t *s_at = g_memdup2(b->send_start, sizeof(int64_t) * (gsize)(m + 1));
  int64_t *r_at = g_memdup2(b->recv_start, sizeof(int64_t) * (gsize)(m + 1));
  for (int64_t i = 0; i < b->messages; i++) {
    b->send_to[s_at[src[i]]++] = dst[i];
    b->recv_from[r_at[dst[i]]++] = src[i];
  }
  g_free(s_at);
  g_free(r_at);
  g_free(src);
  g_free(dst);
  return b;
}

void cs_bench_plan_free(cs_bench_plan *b)
{
  if (!b)
    return;
  g_free(b->send_start);
  g_free(b->recv_start);
  g_free(b->send_to);
  g_free(b->recv_from);
  g_free(b);
}

void cs_bench_member(cs_proc *p, cs_comm *c, const cs_bench_plan *b, cs_bench_times *t)
{
  int32_t word = c->rank;
  int g = c->rank;
  for (int64_t i = b->send_start[g]; i < b->send_start[g + 1]; i++)
    cs_comm_send(p, c, b->send_to[i], BENCH_TAG, &word, sizeof word, sizeof word);
  for (int64_t i = b->recv_start[g]; i < b->recv_start[g + 1]; i++)
    cs_msg_free(p, cs_comm_recv(p, c, b->recv_from[i], BENCH_TAG));
  cs_comm_barrier(p, c);
  t->p2p_end = cs_now(p);
  int32_t *all = c->rank == 0 ? cs_alloc(p, sizeof(int32_t) * (size_t)c->size) : NULL;
  for (int i = 0; i < b->gathers; i++) {
    cs_comm_gather(p, c, 0, &word, sizeof word, all);
    for (int r = 0; all && r < c->size; r++)
      t->gather_wrong |= all[r] != r;
  }
  cs_free(p, all);
  t->gather_end = cs_now(p);
}

/* Traffic per destination node, one source node at a time (see node_tally.h). */
#include "patterns/node_tally.h"

#include <stdlib.h>

void cs_node_tally_init(cs_node_tally *t, int64_t nodes, cs_pair_sink sink, void *sink_user)
{
  *t = (cs_node_tally){.nodes = nodes, .sink = sink, .sink_user = sink_user};
  t->bytes = g_new0(uint64_t, nodes > 0 ? nodes : 1);
  t->messages = g_new0(uint64_t, nodes > 0 ? nodes : 1);
  t->touched = g_new(int64_t, nodes > 0 ? nodes : 1);
}

void cs_node_tally_free(cs_node_tally *t)
{
  g_free(t->bytes);
  g_free(t->messages);
  g_free(t->touched);
}

static int cmp_i64(const void *a, const void *b)
{
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

static void emit(cs_node_tally *t, int64_t d)
{
  if (t->sink)
    t->sink(t->sink_user, t->src, d, t->bytes[d], t->messages[d]);
  t->bytes[d] = t->messages[d] = 0;
}

/* Sorts the few destinations a source touched (a tree's or a
 * dissemination's: insertion sort; glibc's qsort costs thousands of
 * instructions on a dozen numbers); many go to qsort. */
static void sort_touched(int64_t *v, int64_t n)
{
  if (n > 32) {
    qsort(v, (size_t)n, sizeof *v, cmp_i64);
    return;
  }
  for (int64_t i = 1; i < n; i++) {
    int64_t x = v[i], j = i;
    for (; j > 0 && v[j - 1] > x; j--)
      v[j] = v[j - 1];
    v[j] = x;
  }
}

/* In increasing destination order: the touched destinations sorted, or,
 * when they are many (an alltoall's), a scan of every destination, which
 * costs less. */
void cs_node_tally_flush(cs_node_tally *t)
{
  if (t->ntouched * 16 >= t->nodes) {
    for (int64_t d = 0; d < t->nodes; d++)
      if (t->messages[d])
        emit(t, d);
  } else {
    sort_touched(t->touched, t->ntouched);
    for (int64_t i = 0; i < t->ntouched; i++)
      emit(t, t->touched[i]);
  }
  t->ntouched = 0;
}

void cs_node_tally_next_source(cs_node_tally *t, int64_t src)
{
  if (src == t->src)
    return;
  cs_node_tally_flush(t);
  t->src = src;
}

int64_t *cs_ranks_by_node(const cs_two_tier *tt, int64_t p)
{
  int64_t *order = g_new(int64_t, p > 0 ? p : 1);
  if (cs_tt_in_order(tt)) {
    for (int64_t r = 0; r < p; r++)
      order[r] = r;
    return order;
  }
  int64_t nodes = cs_tt_nodes(tt);
  int64_t *start = g_new0(int64_t, nodes + 1);
  for (int64_t r = 0; r < p; r++)
    start[cs_tt_node_of(tt, r) + 1]++;
  for (int64_t g = 0; g < nodes; g++)
    start[g + 1] += start[g];
  for (int64_t r = 0; r < p; r++)
    order[start[cs_tt_node_of(tt, r)]++] = r;
  g_free(start);
  return order;
}

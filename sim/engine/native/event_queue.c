/* The native engine's binary heap (see event_queue.h). */
#include "sim/engine/native/event_queue.h"

#include <glib.h>
#include <string.h>

static inline int before(const ng_event *a, const ng_event *b)
{
  return a->time < b->time || (a->time == b->time && a->ts < b->ts);
}

void ng_queue_init(ng_queue *q) { memset(q, 0, sizeof *q); }

void ng_queue_free(ng_queue *q)
{
  g_free(q->heap);
  ng_queue_init(q);
}

void ng_queue_push(ng_queue *q, const ng_event *e)
{
  if (q->n == q->cap) {
    q->cap = q->cap ? 2 * q->cap : 1024;
    q->heap = g_renew(ng_event, q->heap, q->cap);
  }
  size_t i = q->n++;
  while (i > 0) {
    size_t parent = (i - 1) / 2;
    if (!before(e, &q->heap[parent]))
      break;
    q->heap[i] = q->heap[parent];
    i = parent;
  }
  q->heap[i] = *e;
}

int ng_queue_pop(ng_queue *q, ng_event *out)
{
  if (q->n == 0)
    return 0;
  *out = q->heap[0];
  ng_event last = q->heap[--q->n];
  size_t i = 0, n = q->n;
  for (;;) {
    size_t c = 2 * i + 1;
    if (c >= n)
      break;
    if (c + 1 < n && before(&q->heap[c + 1], &q->heap[c]))
      c++;
    if (!before(&q->heap[c], &last))
      break;
    q->heap[i] = q->heap[c];
    i = c;
  }
  q->heap[i] = last;
  return 1;
}

/* The native engine's radix heap (see event_queue.h). */
#include "sim/engine/native/event_queue.h"

#include <glib.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static inline int before(const ng_key *a, const ng_key *b)
{
  return a->time < b->time || (a->time == b->time && a->ts < b->ts);
}

void ng_queue_init(ng_queue *q) { memset(q, 0, sizeof *q); }

void ng_queue_free(ng_queue *q)
{
  for (int b = 0; b < 65; b++)
    g_free(q->bucket[b].k);
  g_free(q->late.k);
  g_free(q->slab);
  g_free(q->free_slot);
  ng_queue_init(q);
}

static inline void keys_add(ng_keys *v, ng_key k)
{
  if (v->n == v->cap) {
    v->cap = v->cap ? 2 * v->cap : 64;
    v->k = g_renew(ng_key, v->k, v->cap);
  }
  v->k[v->n++] = k;
}

/* A free slot of the slab (growing it by doubling). */
static uint32_t take_slot(ng_queue *q)
{
  if (q->nfree == 0) {
    size_t old = q->slab_cap, cap = old ? 2 * old : 1024;
    g_assert(cap <= (size_t)UINT32_MAX + 1);
    q->slab = g_renew(ng_payload, q->slab, cap);
    q->free_slot = g_renew(uint32_t, q->free_slot, cap);
    q->slab_cap = cap;
    for (size_t i = cap; i > old; i--)
      q->free_slot[q->nfree++] = (uint32_t)(i - 1);
  }
  return q->free_slot[--q->nfree];
}

/* ---- the heap of late events ---- */

__attribute__((noinline)) static void late_push(ng_keys *h, ng_key k)
{
  keys_add(h, k);
  size_t i = h->n - 1;
  while (i > 0 && before(&k, &h->k[(i - 1) / 2])) {
    h->k[i] = h->k[(i - 1) / 2];
    i = (i - 1) / 2;
  }
  h->k[i] = k;
}

__attribute__((noinline)) static ng_key late_pop(ng_keys *h)
{
  ng_key top = h->k[0], last = h->k[--h->n];
  size_t i = 0;
  for (size_t c; (c = 2 * i + 1) < h->n; i = c) {
    if (c + 1 < h->n && before(&h->k[c + 1], &h->k[c]))
      c++;
    if (!before(&h->k[c], &last))
      break;
    h->k[i] = h->k[c];
  }
  h->k[i] = last;
  return top;
}

/* ---- the radix heap ---- */

static inline int bucket_of(uint64_t time, uint64_t last)
{
  return time == last ? 0 : 64 - __builtin_clzll(time ^ last);
}

/* Into bucket 0 in ts order: at its end unless an older event is there. */
__attribute__((noinline)) static void add_to_zero(ng_queue *q, ng_key k)
{
  ng_keys *z = &q->bucket[0];
  keys_add(z, k);
  size_t i = z->n - 1;
  while (i > q->head0 && z->k[i - 1].ts > k.ts) {
    z->k[i] = z->k[i - 1];
    i--;
  }
  z->k[i] = k;
}

static void radix_add(ng_queue *q, ng_key k)
{
  int b = bucket_of(k.time, q->last);
  if (b == 0)
    return add_to_zero(q, k);
  keys_add(&q->bucket[b], k);
  q->nonempty |= 1ull << (b - 1);
}

static int by_ts(const void *a, const void *b)
{
  uint64_t x = ((const ng_key *)a)->ts, y = ((const ng_key *)b)->ts;
  return (x > y) - (x < y);
}

/* Bucket 0 (from 0) in ts order: usually almost sorted already. */
static void sort_by_ts(ng_keys *z)
{
  if (z->n > 64) {
    qsort(z->k, z->n, sizeof *z->k, by_ts);
    return;
  }
  for (size_t i = 1; i < z->n; i++) {
    ng_key k = z->k[i];
    size_t j = i;
    for (; j > 0 && z->k[j - 1].ts > k.ts; j--)
      z->k[j] = z->k[j - 1];
    z->k[j] = k;
  }
}

/* Bucket 0 is empty: open the first bucket that is not into the lower
 * ones, `last` becoming its earliest time. */
__attribute__((noinline)) static void open_bucket(ng_queue *q)
{
  int b = __builtin_ctzll(q->nonempty) + 1;
  ng_keys *v = &q->bucket[b];
  uint64_t least = v->k[0].time;
  for (size_t i = 1; i < v->n; i++)
    if (v->k[i].time < least)
      least = v->k[i].time;
  q->last = least;
  q->bucket[0].n = q->head0 = 0;
  bool sorted = true;
  uint64_t prev_ts = 0;
  for (size_t i = 0; i < v->n; i++) {
    int to = bucket_of(v->k[i].time, least);
    keys_add(&q->bucket[to], v->k[i]);
    if (to)
      q->nonempty |= 1ull << (to - 1);
    else {
      sorted &= v->k[i].ts >= prev_ts;
      prev_ts = v->k[i].ts;
    }
  }
  v->n = 0;
  q->nonempty &= ~(1ull << (b - 1));
  if (!sorted)
    sort_by_ts(&q->bucket[0]);
}

void ng_queue_push(ng_queue *q, const ng_event *e)
{
  uint32_t slot = take_slot(q);
  q->slab[slot] = (ng_payload){.size = e->size, .op = e->op, .sent = e->sent, .host = e->host, .target = e->target,
                               .tag = e->tag, .type = e->type, .proc = e->proc, .nic = e->nic};
  ng_key k = {e->time, e->ts, slot};
  q->n++;
  if (e->time < q->last)
    late_push(&q->late, k);
  else
    radix_add(q, k);
}

static ng_key take_first(ng_queue *q)
{
  if (q->late.n)
    return late_pop(&q->late);
  if (q->head0 == q->bucket[0].n)
    open_bucket(q);
  return q->bucket[0].k[q->head0++];
}

int ng_queue_pop(ng_queue *q, ng_event *out)
{
  if (q->n == 0)
    return 0;
  q->n--;
  ng_key top = take_first(q);
  const ng_payload *p = &q->slab[top.slot];
  *out = (ng_event){.time = top.time, .ts = top.ts, .size = p->size, .op = p->op, .sent = p->sent, .host = p->host,
                    .target = p->target, .tag = p->tag, .type = p->type, .proc = p->proc, .nic = p->nic};
  q->free_slot[q->nfree++] = top.slot;
  return 1;
}

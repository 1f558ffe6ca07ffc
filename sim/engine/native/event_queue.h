/* The native engine's event queue, ordered by (time, ts) where ts is the
 * event's insertion number (LogGOPSim's STRICT_ORDER: events at the same
 * time leave in the order they were first queued; a re-queued event keeps
 * its ts).
 *
 * A radix heap on time: an event's bucket is the highest bit in which its
 * time differs from the time `last` of the latest bucket opened (bucket 0:
 * equal to it), so a pop is a bit scan and each event moves down a few
 * buckets in its life, instead of log n unpredictable comparisons.
 * Bucket 0 is kept in ts order: it is sorted when a bucket is opened into
 * it, and events pushed into it later are new (the largest ts) and go at
 * its end.  The rare event queued before `last` (a rank whose other CPU was
 * free earlier) waits in a small binary heap that is served first.
 * Only the keys (time, ts, slot) move; the event's other fields wait in a
 * slab of slots, so no event is ever malloc'd. */
#ifndef COLLSIM_NATIVE_EVENT_QUEUE_H
#define COLLSIM_NATIVE_EVENT_QUEUE_H

#include <stddef.h>
#include <stdint.h>

/* One event: an operation of `host` that may start at `time`, or a message
 * (NG_MSG) arriving at `host` from `target`. */
typedef struct ng_event {
  uint64_t time, ts;
  uint64_t size; /* bytes, or nanoseconds of a calc */
  uint64_t op;   /* the operation's id on its host (for a message: the send's id on the sender) */
  uint64_t sent; /* a message: the time its send started (for traces) */
  uint32_t host, target, tag;
  uint8_t type, proc, nic;
} ng_event;

/* What the slab keeps of an event (all but time and ts). */
typedef struct ng_payload {
  uint64_t size, op, sent;
  uint32_t host, target, tag;
  uint8_t type, proc, nic;
} ng_payload;

typedef struct ng_key {
  uint64_t time, ts;
  uint32_t slot;
} ng_key;

typedef struct ng_keys {
  ng_key *k;
  size_t n, cap;
} ng_keys;

typedef struct ng_queue {
  ng_keys bucket[65];
  size_t head0;      /* bucket 0 is served from here */
  uint64_t nonempty; /* bit b-1: bucket b (1..64) holds events */
  uint64_t last;
  ng_keys late;      /* a binary heap of events before `last` */
  size_t n;
  ng_payload *slab;
  uint32_t *free_slot; /* a stack of free slots */
  size_t nfree, slab_cap;
} ng_queue;

void ng_queue_init(ng_queue *q);
void ng_queue_free(ng_queue *q);
void ng_queue_push(ng_queue *q, const ng_event *e);
/* Removes the first event into *out; 0 when the queue is empty. */
int ng_queue_pop(ng_queue *q, ng_event *out);

#endif

/* The native engine's event queue: a binary min-heap of small event
 * records, ordered by (time, ts) where ts is the event's insertion number
 * (LogGOPSim's STRICT_ORDER: events at the same time leave in the order
 * they were first queued; a re-queued event keeps its ts). */
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
  uint32_t host, target, tag;
  uint8_t type, proc, nic;
} ng_event;

typedef struct ng_queue {
  ng_event *heap;
  size_t n, cap;
} ng_queue;

void ng_queue_init(ng_queue *q);
void ng_queue_free(ng_queue *q);
void ng_queue_push(ng_queue *q, const ng_event *e);
/* Removes the first event into *out; 0 when the queue is empty. */
int ng_queue_pop(ng_queue *q, ng_event *out);

#endif

/* What a transport backend provides to the messaging interface (sim/contracts/msg.c).
 * Algorithms never include this file. */
#ifndef COLLSIM_MSG_BACKEND_H
#define COLLSIM_MSG_BACKEND_H

#include "sim/contracts/msg.h"
#include <glib.h>

typedef struct cs_transport {
  /* Deliver m to dst; takes ownership of m. */
  void (*send)(cs_proc *p, int dst, cs_msg *m);
  /* Block until the next message addressed to p arrives; return it, or
   * NULL when the run is over (only to a process in cs_serve). */
  cs_msg *(*next)(cs_proc *p);
  void (*compute)(cs_proc *p, double seconds);
  double (*now)(const cs_proc *p);
  /* Called once by cs_serve before it loops: the process's own part is over. */
  void (*retire)(cs_proc *p);
  /* Optional (NULL: cs_recv_try sees queued messages only).  A message
   * addressed to p that has already arrived, or NULL, without blocking; like
   * `next`, no message may be lost or reordered between the two. */
  cs_msg *(*poll)(cs_proc *p);
  /* Optional (NULL: no process ever fails).  The failure detector behind
   * cs_proc_failed. */
  bool (*failed)(const cs_proc *p, int rank);
} cs_transport;

/* Observer of every send, e.g. to record the (src, dst, bytes) stream. */
typedef void (*cs_send_observer)(int src, int dst, size_t bytes, cs_phase phase, void *user);

struct cs_proc {
  int rank;
  int size;
  const cs_transport *transport;
  void *backend;                  /* backend's per-process state */
  GQueue pending;                 /* received, not yet matched (cs_msg *) */
  int64_t mem_words;
  int64_t mem_peak;
  cs_mem_pool *mem_pool;          /* or NULL (cs_proc_join_mem_pool) */
  cs_phase phase;
  cs_counters counters[CS_NPHASES];
  uint64_t received;              /* messages taken by cs_recv or a handler */
  int handler_lo, handler_hi;
  cs_handler_fn handler;
  cs_phase handler_phase;         /* sends of the handler count in this phase */
  void *handler_user;
  int handler_owns_user;          /* handler_user was cs_alloc'd for it: freed with it */
  cs_send_observer observer;
  void *observer_user;
  uint64_t dropped_sends;         /* sends to a failed rank, dropped by cs_send_ctx */
  /* While cs_recv_ctx waits in `next`: what it waits for (the timed backend
   * reports it when it finds a deadlock).  `active` is false otherwise, e.g.
   * while cs_serve waits. */
  struct cs_proc_wait {
    bool active;
    int src;
    uint32_t ctx;
    int tag;
  } wait;
};

void cs_proc_init(cs_proc *p, int rank, int size, const cs_transport *t, void *backend);
/* Release what is still queued (messages nobody received). */
void cs_proc_release(cs_proc *p);

#endif

/* The executor of schedules over a communicator: runs one rank's ops with
 * real (or virtual) data through cs_comm_send / cs_comm_recv.  See
 * comm_schedule.h. */
#include "sim/contracts/comm_schedule.h"

#include <string.h>

/* One rank's run. */
typedef struct sched_run {
  cs_proc *p;
  const cs_comm *c;
  const cs_sched_params *prm;
  int tag;
  cs_units window;
  char *base; /* the window's bytes; NULL: virtual */
  cs_reduce_op op;
} sched_run;

/* Calls fn on each stretch of units u that is contiguous in the window's
 * bytes, in the units' order (a run that passes the window's last unit of a
 * whole-ring window goes on at its first).  Units must lie in the window. */
typedef void (*stretch_fn)(char *at, size_t bytes, void *user);

static void each_stretch(const sched_run *R, cs_units u, stretch_fn fn, void *user)
{
  int64_t runs = cs_units_count(u) > 0 ? cs_units_nruns(u) : 0;
  for (int64_t i = 0, first, left; i < runs; i++)
    for (cs_units_run_at(u, i, &first, &left); left > 0;) {
      int64_t idx = cs_mod(first - R->window.first, R->prm->nunits), take = MIN(left, R->window.len - idx);
      g_assert(take > 0);
      fn(R->base + cs_units_bytes(R->prm, cs_units_range(R->window.first, idx)),
         (size_t)cs_units_bytes(R->prm, cs_units_range(first, take)), user);
      first += take;
      left -= take;
    }
}

/* A packed buffer walked stretch by stretch. */
typedef struct cursor {
  char *at;
  cs_reduce_op op;
  int stretches;
  char *first; /* the first stretch's place in the window */
} cursor;

static void pack(char *at, size_t n, void *user)
{
  cursor *k = user;
  memcpy(k->at, at, n);
  k->at += n;
}

static void unpack(char *at, size_t n, void *user)
{
  cursor *k = user;
  memcpy(at, k->at, n);
  k->at += n;
}

static void combine(char *at, size_t n, void *user)
{
  cursor *k = user;
  k->op(at, k->at, n);
  k->at += n;
}

static void count(char *at, size_t n, void *user)
{
  (void)n;
  cursor *k = user;
  if (k->stretches++ == 0)
    k->first = at;
}

static void send_units(const sched_run *R, const cs_op *op)
{
  size_t bytes = (size_t)cs_units_bytes(R->prm, op->units);
  if (!R->base) {
    cs_comm_send(R->p, R->c, (int)op->peer, R->tag, NULL, 0, bytes);
    return;
  }
  cursor k = {.first = R->base};
  each_stretch(R, op->units, count, &k);
  if (k.stretches <= 1) { /* contiguous: sent from the window */
    cs_comm_send(R->p, R->c, (int)op->peer, R->tag, k.first, bytes, bytes);
    return;
  }
  char *packed = g_malloc(bytes); /* the simulator's scratch, as an iovec would be */
  k.at = packed;
  each_stretch(R, op->units, pack, &k);
  cs_comm_send(R->p, R->c, (int)op->peer, R->tag, packed, bytes, bytes);
  g_free(packed);
}

static void recv_units(const sched_run *R, const cs_op *op)
{
  cs_msg *m = cs_comm_recv(R->p, R->c, (int)op->peer, R->tag);
  cursor k = {.at = m->data, .op = R->op};
  if (R->base && m->data && op->kind == CS_OP_RECV)
    each_stretch(R, op->units, unpack, &k);
  else if (R->base && m->data && R->op)
    each_stretch(R, op->units, combine, &k);
  cs_msg_free(R->p, m);
}

static bool run_op(const cs_op *op, void *user)
{
  if (op->kind == CS_OP_SEND)
    send_units(user, op);
  else
    recv_units(user, op);
  return true;
}

/* The staged buffer's copy in (before) or out (after the ops). */
static void stage_copy(const sched_run *R, const cs_comm_sched_io *io, bool in)
{
  cursor k = {.at = in ? (char *)io->in : io->out};
  if (in && io->in)
    each_stretch(R, io->in_units, unpack, &k);
  else if (!in && io->out)
    each_stretch(R, io->out_units, pack, &k);
}

void cs_comm_run_schedule(cs_proc *p, cs_comm *c, const cs_sched_params *prm, const cs_oplist *ops,
                          const cs_comm_sched_io *io, cs_reduce_op op)
{
  sched_run R = {p, c, prm, cs_comm_next_coll_tag(c), io->window, io->stage ? NULL : io->inplace, op};
  size_t staged = io->stage ? (size_t)cs_units_bytes(prm, io->window) : 0;
  if (io->stage && io->real) {
    R.base = cs_alloc(p, staged);
    stage_copy(&R, io, true);
  } else if (io->stage)
    cs_mem_hold_bytes(p, (int64_t)staged);
  cs_oplist_expand(prm, ops, run_op, &R);
  if (io->stage && io->real) {
    stage_copy(&R, io, false);
    cs_free(p, R.base);
  } else if (io->stage)
    cs_mem_hold_bytes(p, -(int64_t)staged);
}

void cs_comm_run_generated(cs_proc *p, cs_comm *c, const cs_sched_params *prm, cs_sched_ops_fn gen,
                           const cs_comm_sched_io *io, cs_reduce_op op)
{
  cs_oplist ops;
  cs_oplist_init(&ops);
  gen(prm, c->rank, &ops);
  cs_comm_run_schedule(p, c, prm, &ops, io, op);
  cs_oplist_free(&ops);
}

void cs_comm_sched_params(cs_sched_params *prm, cs_coll coll, int64_t p, int64_t root, uint64_t size)
{
  bool per_rank = cs_coll_per_rank(coll);
  *prm = (cs_sched_params){.coll = coll, .p = p, .root = root, .block = per_rank ? size : 0,
                           .bytes = per_rank ? size * (uint64_t)p : size, .nunits = per_rank ? p : 1};
}

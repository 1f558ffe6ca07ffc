/* Building blocks of schedules: collectives' names, unit sets and their
 * sizes, op lists and loop expansion.  See schedule.h for the semantics. */
#include "sim/contracts/schedule.h"

#include <string.h>

G_DEFINE_QUARK(collsim-schedule-error, cs_sched_error)

static const char *const coll_names[CS_NCOLLS] = {"scatter",   "gather",    "bcast",    "allgather", "reduce-scatter",
                                                  "reduce",    "allreduce", "alltoall", "barrier"};

const char *cs_coll_name(cs_coll c) { return (unsigned)c < CS_NCOLLS ? coll_names[c] : "?"; }

bool cs_coll_from_name(const char *name, cs_coll *out)
{
  for (int c = 0; c < CS_NCOLLS; c++)
    if (name && strcmp(name, coll_names[c]) == 0) {
      *out = (cs_coll)c;
      return true;
    }
  return false;
}

const char *cs_coll_names(void)
{
  static char *joined;
  if (!joined) {
    const char *names[CS_NCOLLS + 1] = {NULL};
    for (int c = 0; c < CS_NCOLLS; c++)
      names[c] = coll_names[c];
    joined = g_strjoinv(", ", (char **)names);
  }
  return joined;
}

bool cs_coll_is_reduction(cs_coll c)
{
  return c == CS_COLL_REDUCE_SCATTER || c == CS_COLL_REDUCE || c == CS_COLL_ALLREDUCE;
}

bool cs_coll_per_rank(cs_coll c)
{
  return c != CS_COLL_BCAST && c != CS_COLL_REDUCE && c != CS_COLL_ALLREDUCE && c != CS_COLL_BARRIER;
}

bool cs_coll_sized(cs_coll c) { return c != CS_COLL_BARRIER; }

/* Ranks whose data a unit index counts in: p for per-rank collectives,
 * p^2 (pairs) for alltoall. */
static int64_t unit_owners(const cs_sched_params *prm)
{
  return prm->coll == CS_COLL_ALLTOALL ? prm->p * prm->p : prm->p;
}

/* ---- unit sets ---- */

cs_units cs_units_strided(int64_t first, int64_t len, int64_t stride, int64_t runs)
{
  return (cs_units){first, len, stride, runs, 0};
}

cs_units cs_units_strided_tail(int64_t first, int64_t len, int64_t stride, int64_t runs, int64_t tail)
{
  g_assert(tail >= 0 && (tail == 0 || tail < len) && runs >= 0);
  return (cs_units){first, len, stride, runs, tail};
}

/* The whole runs of u (0 if it has none). */
static int64_t whole_runs(cs_units u) { return u.len > 0 && u.runs > 0 ? u.runs : 0; }

int64_t cs_units_nruns(cs_units u) { return whole_runs(u) + (u.tail > 0 ? 1 : 0); }

void cs_units_run_at(cs_units u, int64_t k, int64_t *first, int64_t *len)
{
  *first = u.first + k * u.stride;
  *len = k < whole_runs(u) ? u.len : u.tail;
}

cs_units cs_units_all(const cs_sched_params *prm) { return cs_units_range(0, prm->nunits); }

int64_t cs_pair_index(int64_t p, int64_t s, int64_t d) { return d * p + cs_mod(d - s, p); }

cs_units cs_units_pair(const cs_sched_params *prm, int64_t s, int64_t d)
{
  int64_t m = prm->nunits / (prm->p * prm->p);
  return cs_units_range(cs_pair_index(prm->p, s, d) * m, m);
}

/* Pair (s, s+o) has index (s+o mod p)*p + o = s*p + o*(p+1) mod p^2. */
cs_units cs_units_row(const cs_sched_params *prm, int64_t s)
{
  int64_t p = prm->p, m = prm->nunits / (p * p);
  return cs_units_strided(s * p * m, m, (p + 1) * m, p);
}

static cs_units normalise(cs_units u)
{
  if (cs_units_count(u) == 0)
    return (cs_units){0, 0, 0, 0, 0};
  if (whole_runs(u) == 0) /* the tail alone: one range */
    return cs_units_range(u.first, u.tail);
  if (u.runs > 1 && u.stride == u.len) { /* adjacent runs (and tail): one range */
    u.len = u.len * u.runs + u.tail;
    u.runs = 1;
    u.tail = 0;
  }
  if (u.runs == 1 && u.tail == 0)
    u.stride = 0;
  return u;
}

bool cs_units_equal(cs_units a, cs_units b)
{
  a = normalise(a);
  b = normalise(b);
  return a.first == b.first && a.len == b.len && a.stride == b.stride && a.runs == b.runs && a.tail == b.tail;
}

/* Sizes: `total` bytes over `count` units, the first total % count units one
 * byte larger.  A per-rank collective does this inside every block. */
static void spread(const cs_sched_params *prm, uint64_t *total, int64_t *count)
{
  if (cs_coll_per_rank(prm->coll)) {
    *total = prm->block;
    *count = prm->nunits / unit_owners(prm);
  } else {
    *total = prm->bytes;
    *count = prm->nunits;
  }
}

uint64_t cs_unit_bytes(const cs_sched_params *prm, int64_t u)
{
  uint64_t total;
  int64_t count;
  spread(prm, &total, &count);
  int64_t j = cs_mod(u, prm->nunits) % count;
  return total / (uint64_t)count + ((uint64_t)j < total % (uint64_t)count ? 1 : 0);
}

bool cs_units_uniform(const cs_sched_params *prm)
{
  uint64_t total;
  int64_t count;
  spread(prm, &total, &count);
  return total % (uint64_t)count == 0;
}

/* Bytes of units [0, n) of the whole buffer, 0 <= n <= nunits. */
static uint64_t prefix_bytes(const cs_sched_params *prm, int64_t n)
{
  uint64_t total;
  int64_t count;
  spread(prm, &total, &count);
  uint64_t q = total / (uint64_t)count, extra = total % (uint64_t)count;
  uint64_t whole = (uint64_t)(n / count), part = (uint64_t)(n % count);
  return whole * total + part * q + (part < extra ? part : extra);
}

/* Bytes of the run of `len` units starting at `first` (wrapping). */
static uint64_t run_bytes(const cs_sched_params *prm, int64_t first, int64_t len)
{
  int64_t n = prm->nunits;
  uint64_t all = prefix_bytes(prm, n), sum = 0;
  sum += (uint64_t)(len / n) * all;
  len %= n;
  first = cs_mod(first, n);
  if (first + len <= n)
    return sum + prefix_bytes(prm, first + len) - prefix_bytes(prm, first);
  return sum + all - prefix_bytes(prm, first) + prefix_bytes(prm, first + len - n);
}

uint64_t cs_units_bytes(const cs_sched_params *prm, cs_units u)
{
  if (cs_units_count(u) == 0)
    return 0;
  if (cs_units_uniform(prm))
    return (uint64_t)cs_units_count(u) * cs_unit_bytes(prm, 0);
  uint64_t sum = 0;
  for (int64_t k = 0, first, len; k < cs_units_nruns(u); k++) {
    cs_units_run_at(u, k, &first, &len);
    sum += run_bytes(prm, first, len);
  }
  return sum;
}

/* Bytes of units [0, y) of the unbounded line of units, y of any sign:
 * the buffer repeats every nunits units (B(y + nunits) = B(y) + all). */
static __int128 line_prefix_bytes(const cs_sched_params *prm, int64_t y)
{
  int64_t n = prm->nunits, whole = y / n, rest = y % n;
  if (rest < 0) {
    rest += n;
    whole--;
  }
  return (__int128)whole * prefix_bytes(prm, n) + prefix_bytes(prm, rest);
}

/* Sum of B(first + i*step) over i in [i0, i0 + count). */
static __int128 line_prefix_sum(const cs_sched_params *prm, int64_t first, int64_t step, int64_t i0, int64_t count)
{
  __int128 sum = 0;
  for (int64_t i = i0; i < i0 + count; i++)
    sum += line_prefix_bytes(prm, first + i * step);
  return sum;
}

/* Iterations [i0, i0+count) of a one-run op whose start moves by s units
 * and whose length L is a multiple k of |s|: window i ends where window
 * i+k (s > 0) or i-k (s < 0) starts, so the sum of B(end) - B(start)
 * telescopes to 2k prefix sums instead of `count` window sums. */
static uint64_t telescoped_bytes(const cs_sched_params *prm, int64_t a, int64_t s, int64_t k, int64_t i0,
                                 int64_t count)
{
  __int128 sum;
  if (s > 0)
    sum = line_prefix_sum(prm, a, s, i0 + count, k) - line_prefix_sum(prm, a, s, i0, k);
  else
    sum = line_prefix_sum(prm, a, s, i0 - k, k) - line_prefix_sum(prm, a, s, i0 + count - k, k);
  return (uint64_t)sum;
}

uint64_t cs_loop_op_bytes(const cs_sched_params *prm, const cs_op *op, int64_t i0, int64_t count)
{
  if (count <= 0 || cs_units_count(op->units) == 0)
    return 0;
  /* XOR pairing: every pair block holds one pair's bytes. */
  if (op->peer_mode == CS_PEER_XOR || op->unit_step == 0 || cs_units_uniform(prm))
    return (uint64_t)count * cs_units_bytes(prm, op->units);
  int64_t s = op->unit_step, len = op->units.len, as = s < 0 ? -s : s;
  if (op->units.runs == 1 && op->units.tail == 0 && len % as == 0 && len / as < count)
    return telescoped_bytes(prm, op->units.first, s, len / as, i0, count);
  uint64_t sum = 0;
  for (int64_t i = i0; i < i0 + count; i++)
    sum += cs_units_bytes(prm, cs_op_at_iteration(prm, op, i).units);
  return sum;
}

uint64_t cs_units_largest_bytes(const cs_sched_params *prm, cs_units u)
{
  /* The bigger units open each spread (cs_unit_bytes), so a run placed at
   * unit 0 holds the most bytes a run of its length can. */
  return (uint64_t)whole_runs(u) * cs_units_bytes(prm, cs_units_range(0, u.len)) +
         cs_units_bytes(prm, cs_units_range(0, u.tail));
}

/* ---- op lists ---- */

void cs_oplist_init(cs_oplist *o) { memset(o, 0, sizeof *o); }

void cs_oplist_clear(cs_oplist *o) { o->n = 0; }

void cs_oplist_free(cs_oplist *o)
{
  g_free(o->op);
  cs_oplist_init(o);
}

void cs_oplist_grow(cs_oplist *o)
{
  o->cap = o->cap ? 2 * o->cap : 16;
  o->op = g_renew(cs_op, o->op, o->cap);
}

static cs_op *push(cs_oplist *o, cs_op_kind kind)
{
  if (o->n == o->cap)
    cs_oplist_grow(o);
  cs_op *op = &o->op[o->n++];
  memset(op, 0, sizeof *op);
  op->kind = kind;
  return op;
}

void cs_ops_any_order(cs_oplist *o)
{
  g_assert(o->n > 0 && o->op[o->n - 1].kind != CS_OP_SEND && o->op[o->n - 1].kind != CS_OP_LOOP);
  o->op[o->n - 1].any_order = true;
}

void cs_ops_loop(cs_oplist *o, int64_t iterations, int64_t body)
{
  cs_op *op = push(o, CS_OP_LOOP);
  op->iterations = iterations;
  op->body = body;
}

void cs_ops_step(cs_oplist *o, int64_t peer_step, int64_t unit_step)
{
  g_assert(o->n > 0);
  o->op[o->n - 1].peer_step = peer_step;
  o->op[o->n - 1].unit_step = unit_step;
}

void cs_ops_step_xor(cs_oplist *o, int64_t rank, int64_t offset)
{
  g_assert(o->n > 0);
  cs_op *op = &o->op[o->n - 1];
  g_assert(offset >= 0 && op->peer == (rank ^ offset) && op->kind != CS_OP_LOOP);
  op->peer_mode = CS_PEER_XOR;
  op->peer_step = offset;
  op->unit_step = 0;
}

/* XOR pairing: the rank whose op it is. */
static int64_t xor_self(const cs_op *op) { return op->peer ^ op->peer_step; }

int64_t cs_loop_op_peer(const cs_sched_params *prm, const cs_op *op, int64_t i)
{
  if (op->peer_mode == CS_PEER_XOR)
    return xor_self(op) ^ (i + op->peer_step);
  return i == 0 ? op->peer : cs_mod(op->peer + i * op->peer_step, prm->p);
}

bool cs_loop_op_fixed_peer(const cs_sched_params *prm, const cs_op *op)
{
  return op->peer_mode == CS_PEER_SHIFT && cs_mod(op->peer_step, prm->p) == 0;
}

cs_op cs_op_at_iteration(const cs_sched_params *prm, const cs_op *op, int64_t i)
{
  cs_op e = *op;
  if (op->peer_mode == CS_PEER_XOR) {
    int64_t self = xor_self(op);
    e.peer = cs_loop_op_peer(prm, op, i);
    e.units = op->kind == CS_OP_SEND ? cs_units_pair(prm, self, e.peer) : cs_units_pair(prm, e.peer, self);
    e.tag = (int32_t)(op->tag + i);
  } else if (i != 0) {
    e.peer = cs_loop_op_peer(prm, op, i);
    e.units.first = cs_mod(op->units.first + i * op->unit_step, prm->nunits);
    e.tag = (int32_t)(op->tag + i);
  }
  e.peer_step = e.unit_step = 0;
  e.peer_mode = CS_PEER_SHIFT;
  return e;
}

/* A shift by `step` the short way round (same peers, longer runs). */
static int64_t short_step(int64_t step, int64_t p)
{
  step = cs_mod(step, p);
  return step > p / 2 ? step - p : step;
}

/* Shift pairing: iterations from peer on whose peers stay on its node. */
static int64_t shift_node_run(int64_t cpn, int64_t peer, int64_t step, int64_t left)
{
  int64_t lo = peer / cpn * cpn, run;
  if (step > 0)
    run = (lo + cpn - peer + step - 1) / step;
  else
    run = (peer - lo) / -step + 1;
  return run < left ? run : left;
}

/* XOR pairing: iterations j .. j+2^t-1 (j a multiple of 2^t) meet the
 * aligned block of 2^t ranks holding self XOR j.  When cpn is a power of
 * two (as it is when p is) such a block lies in one node exactly when it
 * holds at most cpn ranks: 2^t is the least of j's lowest set bit, cpn and
 * left rounded down to a power of two.  Otherwise one at a time. */
static int64_t xor_node_run(int64_t cpn, int64_t j, int64_t left)
{
  if ((cpn & (cpn - 1)) != 0 || j <= 0)
    return 1;
  int64_t run = j & -j, floor_left = (int64_t)1 << (63 - __builtin_clzll((unsigned long long)left));
  run = run < cpn ? run : cpn;
  return run < floor_left ? run : floor_left;
}

int64_t cs_loop_op_node_run(const cs_sched_params *prm, const cs_op *op, int64_t i, int64_t left)
{
  int64_t cpn = prm->tt->cpn;
  if (left <= 1 || !cs_tt_in_order(prm->tt))
    return left < 1 ? left : 1;
  if (op->peer_mode == CS_PEER_XOR)
    return xor_node_run(cpn, i + op->peer_step, left);
  int64_t step = short_step(op->peer_step, prm->p);
  if (step == 0)
    return left;
  if ((step < 0 ? -step : step) >= cpn)
    return 1;
  return shift_node_run(cpn, cs_loop_op_peer(prm, op, i), step, left);
}

bool cs_oplist_expand(const cs_sched_params *prm, const cs_oplist *o, cs_op_visit_fn fn, void *user)
{
  for (size_t k = 0; k < o->n; k++) {
    const cs_op *op = &o->op[k];
    if (op->kind != CS_OP_LOOP) {
      cs_op e = cs_op_at_iteration(prm, op, 0);
      if (!fn(&e, user))
        return false;
      continue;
    }
    size_t body = (size_t)op->body;
    g_assert(k + body < o->n || body == 0);
    for (int64_t i = 0; i < op->iterations; i++)
      for (size_t b = 1; b <= body; b++) {
        cs_op e = cs_op_at_iteration(prm, &o->op[k + b], i);
        if (!fn(&e, user))
          return false;
      }
    k += body;
  }
  return true;
}

bool cs_plan_unit_per_rank(cs_sched_params *prm, GError **err)
{
  (void)err;
  prm->nunits = prm->p;
  return true;
}

bool cs_plan_whole_buffer(cs_sched_params *prm, GError **err)
{
  (void)err;
  prm->nunits = 1;
  return true;
}

bool cs_sched_setup(cs_sched_params *prm, const cs_coll_algo *a, const cs_two_tier *tt, uint64_t size,
                    GError **err)
{
  return cs_sched_setup_script(prm, a, tt, size, NULL, err);
}

bool cs_sched_setup_script(cs_sched_params *prm, const cs_coll_algo *a, const cs_two_tier *tt, uint64_t size,
                           const struct cs_tree_script *script, GError **err)
{
  return cs_sched_setup_segment(prm, a, tt, size, script, 0, err);
}

bool cs_sched_setup_segment(cs_sched_params *prm, const cs_coll_algo *a, const cs_two_tier *tt, uint64_t size,
                            const struct cs_tree_script *script, uint64_t segment, GError **err)
{
  memset(prm, 0, sizeof *prm);
  prm->script = script;
  prm->segment = segment;
  prm->coll = a->coll;
  prm->tt = tt;
  prm->p = tt->p;
  prm->root = 0;
  if (a->needs_in_order && !cs_tt_in_order(tt)) {
    g_set_error(err, CS_SCHED_ERROR, 1, "%s %s assumes ranks mapped to nodes in order; this platform spreads them "
                "(use map=inorder)", cs_coll_name(a->coll), a->name);
    return false;
  }
  if (cs_coll_per_rank(a->coll)) {
    uint64_t owners = (uint64_t)unit_owners(prm); /* p^2 < 2^63: p is below 2^31 */
    if (size > UINT64_MAX / owners) {
      g_set_error(err, CS_SCHED_ERROR, 1, "%s: %llu bytes per %s x %llu exceeds 2^64-1 bytes", cs_coll_name(a->coll),
                  (unsigned long long)size, a->coll == CS_COLL_ALLTOALL ? "pair" : "rank",
                  (unsigned long long)owners);
      return false;
    }
    prm->block = size;
    prm->bytes = size * owners;
  } else if (cs_coll_sized(a->coll)) {
    prm->bytes = size;
  }
  if (!a->plan(prm, err))
    return false;
  if (prm->nunits < 1 || (cs_coll_per_rank(a->coll) && prm->nunits % unit_owners(prm) != 0)) {
    g_set_error(err, CS_SCHED_ERROR, 1, "%s %s: internal error: plan chose %lld units for p = %lld",
                cs_coll_name(a->coll), a->name, (long long)prm->nunits, (long long)prm->p);
    return false;
  }
  return true;
}

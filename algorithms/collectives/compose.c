/* Two schedules run one after the other as one; see compose.h. */
#include "algorithms/collectives/compose.h"

static int64_t gcd64(int64_t a, int64_t b)
{
  while (b) {
    int64_t t = a % b;
    a = b;
    b = t;
  }
  return a;
}

/* The phase's own parameters (before its plan). */
static cs_sched_params phase_params(const cs_sched_params *prm, cs_coll coll)
{
  cs_sched_params sub = {.coll = coll, .tt = prm->tt, .p = prm->p, .root = prm->root};
  if (cs_coll_per_rank(coll)) {
    sub.block = (prm->bytes + (uint64_t)prm->p - 1) / (uint64_t)prm->p;
    sub.bytes = sub.block * (uint64_t)prm->p;
  } else {
    sub.bytes = prm->bytes;
  }
  return sub;
}

static bool setup_phase(const cs_sched_params *prm, const cs_compose_phase *ph, cs_composition *C, int k,
                        GError **err)
{
  C->algo[k] = cs_coll_algo_find(ph->coll, ph->algo);
  g_assert(C->algo[k] != NULL);
  C->prm[k] = phase_params(prm, ph->coll);
  if (!C->algo[k]->plan(&C->prm[k], err)) {
    g_prefix_error(err, "%s phase (%s %s): ", k == 0 ? "first" : "second", cs_coll_name(ph->coll), ph->algo);
    return false;
  }
  return true;
}

bool cs_compose_setup(const cs_sched_params *prm, const cs_compose_phase phases[2], cs_composition *out,
                      GError **err)
{
  for (int k = 0; k < 2; k++)
    if (!setup_phase(prm, &phases[k], out, k, err))
      return false;
  int64_t n0 = out->prm[0].nunits, n1 = out->prm[1].nunits, g = gcd64(n0, n1);
  if (n0 / g > INT64_MAX / 4 / n1) {
    g_set_error(err, CS_SCHED_ERROR, 1, "the phases' units (%lld and %lld) have no common multiple below 2^61",
                (long long)n0, (long long)n1);
    return false;
  }
  out->nunits = n0 / g * n1;
  int64_t span0 = phases[0].tag_span(&out->prm[0]), span1 = phases[1].tag_span(&out->prm[1]);
  if (span0 > INT32_MAX - span1) {
    g_set_error(err, CS_SCHED_ERROR, 1, "the phases' tags (%lld + %lld) overflow 32 bits", (long long)span0,
                (long long)span1);
    return false;
  }
  for (int k = 0; k < 2; k++)
    out->scale[k] = out->nunits / out->prm[k].nunits;
  out->tag_offset[0] = 0;
  out->tag_offset[1] = (int32_t)span0;
  return true;
}

static cs_op rewrite(const cs_op *op, int64_t scale, int32_t tag_offset)
{
  cs_op e = *op;
  if (e.kind == CS_OP_LOOP)
    return e;
  e.units.first *= scale;
  e.units.len *= scale;
  e.units.stride *= scale;
  e.units.tail *= scale;
  e.unit_step *= scale;
  e.tag += tag_offset;
  return e;
}

void cs_compose_ops(const cs_composition *C, int64_t rank, cs_oplist *out)
{
  cs_oplist sub;
  cs_oplist_init(&sub);
  for (int k = 0; k < 2; k++) {
    cs_oplist_clear(&sub);
    C->algo[k]->ops(&C->prm[k], rank, &sub);
    for (size_t i = 0; i < sub.n; i++) {
      cs_op e = rewrite(&sub.op[i], C->scale[k], C->tag_offset[k]);
      if (e.kind == CS_OP_LOOP) {
        cs_ops_loop(out, e.iterations, e.body);
        continue;
      }
      if (e.kind == CS_OP_SEND)
        cs_ops_send(out, e.peer, e.tag, e.units);
      else if (e.kind == CS_OP_RECV)
        cs_ops_recv(out, e.peer, e.tag, e.units);
      else
        cs_ops_recv_reduce(out, e.peer, e.tag, e.units);
      cs_ops_step(out, e.peer_step, e.unit_step);
      if (e.any_order)
        cs_ops_any_order(out);
    }
  }
  cs_oplist_free(&sub);
}

double cs_compose_cost(const cs_composition *C, const cs_cost_params *c)
{
  double t = 0;
  for (int k = 0; k < 2; k++)
    if (C->algo[k]->cost)
      t += C->algo[k]->cost(&C->prm[k], c);
  return t;
}

bool cs_compose_plan(cs_sched_params *prm, const cs_compose_phase phases[2], const char *label, GError **err)
{
  cs_composition C;
  if (!cs_compose_setup(prm, phases, &C, err)) {
    g_prefix_error(err, "%s: ", label);
    return false;
  }
  prm->nunits = C.nunits;
  return true;
}

void cs_compose_rank_ops(const cs_sched_params *prm, const cs_compose_phase phases[2], int64_t rank,
                         cs_oplist *out)
{
  cs_composition C;
  bool ok = cs_compose_setup(prm, phases, &C, NULL);
  g_assert(ok); /* plan() accepted this shape */
  cs_compose_ops(&C, rank, out);
}

double cs_compose_total_cost(const cs_sched_params *prm, const cs_compose_phase phases[2], const cs_cost_params *c)
{
  cs_composition C;
  return cs_compose_setup(prm, phases, &C, NULL) ? cs_compose_cost(&C, c) : 0;
}

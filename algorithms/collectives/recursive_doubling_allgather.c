/* Recursive-doubling allgather (seed 001, Section 4, Table 1: "Allgather,
 * Recursive Doubling", cost (p-1)/p n beta; Section 6.3, Table 4), as MPICH's
 * MPIR_Allgather_intra_recursive_doubling.
 *
 * Convention: steps i = 0, 1, ... with mask = 2^i < p.  Before step i rank r
 * holds the blocks of its aligned group [root_i(r), root_i(r) + 2^i) cut at p,
 * root_i(r) = r with its low i bits cleared.  In step i, if dst = r XOR mask
 * exists (< p), r sends everything it holds to dst and receives dst's
 * group (MPIC_Sendrecv: the send is listed first).  Distance 1 first, so
 * the groups double 1, 2, 4, ...  Tags: step i has tag i.
 *
 * Non-powers of two: MPICH's fix-up.  MPICH itself never runs it (the
 * routine asserts a power-of-two p when error checking is on, marks the
 * fix-up experimental, and MPICH's selection uses Bruck or the ring for
 * other p), but the code is in the routine and we implement it as written.
 * When the partner group [root_i(dst), +mask) is cut by p, only the first
 * nc = p - root_i(r) - mask ranks of r's group got its nc blocks in the
 * exchange.  They pass them on inside r's group by recursive halving: for
 * tmp = mask/2, mask/4, ..., 1 (tree = r with its low log2(2 tmp) bits
 * cleared, the current sub-group of 2 tmp ranks) rank r sends the nc blocks
 * [root_i(r) + mask, p) to r + tmp if r < tree + nc <= r + tmp, and receives
 * them from r - tmp if r - tmp < tree + nc <= r.  Every missing rank
 * receives them exactly once.  Tags: 64 + 64 i + log2(tmp).
 * For a power-of-two p this is the plain recursive doubling, p log2 p
 * messages, (p-1) p blocks.
 *
 * Units: one unit per rank (nunits = p).  Works for any p >= 1.
 *
 * Cost (sim/contracts/cost.h; Table 1 gives (p-1)/p n beta, which assumes
 * the bytes spread over every link): log2 p exchanges one after another,
 * each with the loads of every rank sending its group (2^i blocks) at once,
 * so the ranks of a node (supernode) that exchange with one other node
 * (supernode) share its links; plus, for a non-power of two, the fix-up's
 * log2(mask) messages of nc blocks after the exchange it completes. */
#include "algorithms/collectives/oblivious.h"

enum { EXCHANGE_TAG = 0, FIXUP_TAG = 64, FIXUP_TAGS_PER_STEP = 64 };

/* The blocks of the aligned group of `mask` ranks starting at group_root,
 * cut at p. */
static cs_units group_blocks(const cs_sched_params *prm, int64_t group_root, int64_t mask)
{
  int64_t end = group_root + mask < prm->p ? group_root + mask : prm->p;
  return cs_units_blocks(prm, group_root, end - group_root);
}

/* MPICH's recursive-halving fix-up inside rank's group of `mask` ranks,
 * whose first nc ranks received the partner group's nc blocks
 * [group root + mask, p) in the exchange and the others did not. */
static void fixup(const cs_sched_params *prm, int64_t rank, int step, int64_t mask, int64_t nc, cs_oplist *out)
{
  int64_t my_root = rank & ~(mask - 1);
  cs_units missing = cs_units_blocks(prm, my_root + mask, nc);
  for (int64_t tmp = mask >> 1; tmp > 0; tmp >>= 1) {
    int64_t tree = rank & ~(2 * tmp - 1), have_end = tree + nc, peer = rank ^ tmp;
    int32_t tag = FIXUP_TAG + FIXUP_TAGS_PER_STEP * step + cs_log2_pow2(tmp);
    if (peer > rank && rank < have_end && peer >= have_end)
      cs_ops_send(out, peer, tag, missing);
    else if (peer < rank && peer < have_end && rank >= have_end)
      cs_ops_recv(out, peer, tag, missing);
  }
}

static void ops(const cs_sched_params *prm, int64_t rank, cs_oplist *out)
{
  int64_t p = prm->p;
  int step = 0;
  for (int64_t mask = 1; mask < p; mask <<= 1, step++) {
    int64_t dst = rank ^ mask;
    int64_t my_root = rank & ~(mask - 1), dst_root = dst & ~(mask - 1);
    if (dst < p) {
      cs_ops_send(out, dst, EXCHANGE_TAG + step, group_blocks(prm, my_root, mask));
      cs_ops_recv(out, dst, EXCHANGE_TAG + step, group_blocks(prm, dst_root, mask));
    }
    int64_t nc = p - my_root - mask;
    if (dst_root + mask > p && nc > 0)
      fixup(prm, rank, step, mask, nc, out);
  }
}

/* The fix-up of the exchange at distance mask, as its slowest group runs it. */
static double fixup_cost(const cs_sched_params *prm, const cs_cost_params *c, int64_t mask, double b)
{
  double worst = 0;
  for (int64_t root = 0; root < prm->p; root += mask) {
    int64_t nc = prm->p - root - mask;
    if (((root ^ mask) + mask <= prm->p) || nc <= 0)
      continue;
    double t = 0;
    for (int64_t tmp = mask >> 1; tmp > 0; tmp >>= 1) {
      cs_cost_step s = cs_cost_message(prm, root, root + tmp, (double)nc * b);
      t += cs_cost_step_time(c, &s);
    }
    worst = t > worst ? t : worst;
  }
  return worst;
}

static double cost(const cs_sched_params *prm, const cs_cost_params *c)
{
  double b = (double)prm->bytes / (double)prm->p, t = 0;
  for (int64_t mask = 1; mask < prm->p; mask <<= 1) {
    cs_cost_step s = cs_cost_pattern(prm, cs_obl_xor_partner, mask, (double)mask * b);
    t += cs_cost_step_time(c, &s) + fixup_cost(prm, c, mask, b);
  }
  return t;
}

const cs_coll_algo cs_algo_recursive_doubling_allgather = {
  "recursive-doubling", CS_COLL_ALLGATHER,
  "recursive doubling, distance 1 first; MPICH's halving fix-up for non-powers of two", cs_plan_unit_per_rank, ops,
  false, cost, "sum_i=0..L-1 [xor(2^i, 2^i*b) + fix-up_i], fix-up_i (p no power of two, a group whose partner group is cut "
        "at p, nc = its missing blocks): sum over halvings j < i of msg(2^j, nc*b)"};

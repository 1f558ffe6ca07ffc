/* Two registered schedules run one after the other as one algorithm (an
 * allreduce as a reduce then a bcast, or a reduce-scatter then an
 * allgather), over one unit space.
 *
 * Each phase keeps its own parameters (its collective, its nunits from its
 * own plan(), a block of ceil(n/p) bytes for a per-rank phase) and yields
 * its ops as usual; the composition rewrites them into the composite's
 * units and tags:
 *   units  nunits = lcm of the phases' nunits; unit u of a phase with
 *          nunits n_k is units [u*s_k, (u+1)*s_k) of the composite, s_k =
 *          nunits / n_k (first, len, stride and a loop's unit_step times
 *          s_k: the same sets, the same wrap-around);
 *   tags   the second phase's tags are shifted past the first's span.
 * Sizes are the composite's (cs_unit_bytes on its own nunits), so every
 * consumer counts the bytes of one unit space; when n is not a multiple of
 * nunits a unit may differ by a byte from the phase's own cut.
 * The phases' ops are their own: a reduce's RECV_REDUCE and a bcast's RECV
 * (which replaces partial sums by final ones) keep their meaning in the
 * composite reduction.  The cost is the phases' costs added. */
#ifndef COLLSIM_COMPOSE_H
#define COLLSIM_COMPOSE_H

#include "sim/contracts/schedule.h"

typedef struct cs_compose_phase {
  cs_coll coll;
  const char *algo; /* its registry name */
  /* every tag the phase uses on its own parameters is below this */
  int64_t (*tag_span)(const cs_sched_params *phase_prm);
} cs_compose_phase;

typedef struct cs_composition {
  const cs_coll_algo *algo[2];
  cs_sched_params prm[2];
  int64_t scale[2];
  int32_t tag_offset[2];
  int64_t nunits;
} cs_composition;

/* Set up both phases for the composite's prm (coll, tt, p, root, bytes
 * set): find them in the registry and run their plans.  False (err naming
 * the phase and its constraint) if one refuses the shape or the units or
 * tags overflow. */
bool cs_compose_setup(const cs_sched_params *prm, const cs_compose_phase phases[2], cs_composition *out,
                      GError **err);
/* Rank's ops: the first phase's, then the second's, rewritten. */
void cs_compose_ops(const cs_composition *C, int64_t rank, cs_oplist *out);
/* The phases' own costs, added. */
double cs_compose_cost(const cs_composition *C, const cs_cost_params *c);

/* A composite algorithm's three entry points, given its phases: plan (the
 * error prefixed with `label`, e.g. "allreduce two-tier"), ops and cost.
 * Its file then holds its phase table and three one-line wrappers. */
bool cs_compose_plan(cs_sched_params *prm, const cs_compose_phase phases[2], const char *label, GError **err);
void cs_compose_rank_ops(const cs_sched_params *prm, const cs_compose_phase phases[2], int64_t rank,
                         cs_oplist *out);
double cs_compose_total_cost(const cs_sched_params *prm, const cs_compose_phase phases[2], const cs_cost_params *c);

#endif

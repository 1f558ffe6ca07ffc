/* Helpers shared by the alltoall schedules: the units of pair blocks
 * (schedule.h: the block rank s sends rank d is pair index d*p + (d - s mod
 * p), m units each) and a plan with one unit per pair. */
#ifndef COLLSIM_ALLTOALL_H
#define COLLSIM_ALLTOALL_H

#include "sim/contracts/schedule.h"

/* nunits = p^2 (one unit per pair); any p. */
bool cs_a2a_plan(cs_sched_params *prm, GError **err);

/* Units per pair block. */
static inline int64_t cs_a2a_m(const cs_sched_params *prm) { return prm->nunits / (prm->p * prm->p); }

/* Bytes of one pair's block. */
static inline double cs_a2a_b(const cs_sched_params *prm) { return (double)prm->block; }

#endif

/* The bandwidth cost model of seed 001 (Section 3, Tables 1 and 2): time of a
 * large-message collective on n bytes, with beta seconds per byte on one link
 * and gamma seconds per byte of reduction; start-up and latency ignored.
 * n is the whole buffer: p blocks for scatter, gather, allgather and
 * reduce-scatter, the buffer for bcast and reduce. */
#ifndef COLLSIM_COST_MODEL_H
#define COLLSIM_COST_MODEL_H

#include "sim/contracts/schedule.h"

typedef enum { CS_COST_BASE, CS_COST_TWO_TIER } cs_cost_family;

/* Two-tier for algorithms named "two-tier..." , base (Table 1) otherwise. */
cs_cost_family cs_cost_family_of(const cs_coll_algo *a);
double cs_cost_model(cs_coll coll, cs_cost_family fam, const cs_two_tier *net, double n, double beta, double gamma);
/* The formula as text, e.g. "n*beta*(1/nps + 1/sn + 1/(sn*nps)) + 2*n*gamma". */
const char *cs_cost_formula(cs_coll coll, cs_cost_family fam);

#endif

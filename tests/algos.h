/* Collective algorithms as the tests name them: through the registry
 * (collective + name), never through their symbols, so a test sees exactly
 * what `collsim collective --list` offers. */
#ifndef COLLSIM_TEST_ALGOS_H
#define COLLSIM_TEST_ALGOS_H

#include "sim/contracts/schedule.h"

#include <check.h>

static inline const cs_coll_algo *test_algo(cs_coll c, const char *name)
{
  const cs_coll_algo *a = cs_coll_algo_find(c, name);
  ck_assert_msg(a != NULL, "no %s algorithm '%s' in the registry", cs_coll_name(c), name);
  return a;
}

#define ALGO_binomial_scatter test_algo(CS_COLL_SCATTER, "binomial")
#define ALGO_binomial_gather test_algo(CS_COLL_GATHER, "binomial")
#define ALGO_vandegeijn_bcast test_algo(CS_COLL_BCAST, "vandegeijn")
#define ALGO_ring_allgather test_algo(CS_COLL_ALLGATHER, "ring")
#define ALGO_recursive_doubling_allgather test_algo(CS_COLL_ALLGATHER, "recursive-doubling")
#define ALGO_pairwise_reduce_scatter test_algo(CS_COLL_REDUCE_SCATTER, "pairwise")
#define ALGO_rabenseifner_reduce test_algo(CS_COLL_REDUCE, "rabenseifner")
#define ALGO_twotier_scatter test_algo(CS_COLL_SCATTER, "two-tier")
#define ALGO_twotier_scatter_direct test_algo(CS_COLL_SCATTER, "two-tier-direct")
#define ALGO_twotier_gather test_algo(CS_COLL_GATHER, "two-tier")
#define ALGO_twotier_gather_direct test_algo(CS_COLL_GATHER, "two-tier-direct")
#define ALGO_twotier_bcast_base test_algo(CS_COLL_BCAST, "two-tier-base")
#define ALGO_twotier_bcast test_algo(CS_COLL_BCAST, "two-tier")
#define ALGO_twotier_bcast_every test_algo(CS_COLL_BCAST, "two-tier-every")
#define ALGO_twotier_bcast_missing test_algo(CS_COLL_BCAST, "two-tier-missing")
#define ALGO_twotier_allgather test_algo(CS_COLL_ALLGATHER, "two-tier")
#define ALGO_twotier_reduce_scatter test_algo(CS_COLL_REDUCE_SCATTER, "two-tier")
#define ALGO_twotier_reduce test_algo(CS_COLL_REDUCE, "two-tier")

#endif

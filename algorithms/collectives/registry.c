/* The collective-schedule family: one line per algorithm (Seed 001).  The
 * CLI lists and selects algorithms from this table (collsim collective --list):
 * a (collective, name) pair selects one entry.  Each entry is defined in the
 * file named after it. */
#include "sim/contracts/schedule.h"

#include <string.h>

extern const cs_coll_algo cs_algo_binomial_scatter;
extern const cs_coll_algo cs_algo_binomial_gather;
extern const cs_coll_algo cs_algo_vandegeijn_bcast;
extern const cs_coll_algo cs_algo_ring_allgather;
extern const cs_coll_algo cs_algo_recursive_doubling_allgather;
extern const cs_coll_algo cs_algo_pairwise_reduce_scatter;
extern const cs_coll_algo cs_algo_rabenseifner_reduce;
extern const cs_coll_algo cs_algo_rabenseifner_pairwise_reduce;
extern const cs_coll_algo cs_algo_twotier_scatter;
extern const cs_coll_algo cs_algo_twotier_gather;
extern const cs_coll_algo cs_algo_twotier_bcast;
extern const cs_coll_algo cs_algo_twotier_bcast_base;
extern const cs_coll_algo cs_algo_twotier_allgather;
extern const cs_coll_algo cs_algo_twotier_reduce_scatter;
extern const cs_coll_algo cs_algo_twotier_reduce;
extern const cs_coll_algo cs_algo_twotier_scatter_direct;
extern const cs_coll_algo cs_algo_twotier_gather_direct;
extern const cs_coll_algo cs_algo_twotier_bcast_every;
extern const cs_coll_algo cs_algo_twotier_bcast_missing;
extern const cs_coll_algo cs_algo_script_reduce;
extern const cs_coll_algo cs_algo_script_bcast;
extern const cs_coll_algo cs_algo_recursive_doubling_allreduce;
extern const cs_coll_algo cs_algo_rabenseifner_allreduce;
extern const cs_coll_algo cs_algo_ring_allreduce;
extern const cs_coll_algo cs_algo_reduce_bcast_allreduce;
extern const cs_coll_algo cs_algo_twotier_allreduce;
extern const cs_coll_algo cs_algo_pairwise_alltoall;
extern const cs_coll_algo cs_algo_bruck_alltoall;
extern const cs_coll_algo cs_algo_linear_alltoall;
extern const cs_coll_algo cs_algo_dissemination_barrier;
extern const cs_coll_algo cs_algo_binomial_bcast;
extern const cs_coll_algo cs_algo_scatter_rdb_bcast;
extern const cs_coll_algo cs_algo_ompi_pipeline_bcast;
extern const cs_coll_algo cs_algo_ompi_chain_bcast;
extern const cs_coll_algo cs_algo_ompi_bintree_bcast;
extern const cs_coll_algo cs_algo_binomial_reduce;
extern const cs_coll_algo cs_algo_bruck_allgather;
extern const cs_coll_algo cs_algo_linear_scatter;
extern const cs_coll_algo cs_algo_linear_gather;

static const cs_coll_algo *const algos[] = {
  &cs_algo_binomial_scatter,
  &cs_algo_binomial_gather,
  &cs_algo_vandegeijn_bcast,
  &cs_algo_ring_allgather,
  &cs_algo_recursive_doubling_allgather,
  &cs_algo_pairwise_reduce_scatter,
  &cs_algo_rabenseifner_reduce,
  &cs_algo_rabenseifner_pairwise_reduce,
  &cs_algo_twotier_scatter,
  &cs_algo_twotier_scatter_direct,
  &cs_algo_twotier_gather,
  &cs_algo_twotier_gather_direct,
  &cs_algo_twotier_bcast,
  &cs_algo_twotier_bcast_base,
  &cs_algo_twotier_bcast_every,
  &cs_algo_twotier_bcast_missing,
  &cs_algo_twotier_allgather,
  &cs_algo_twotier_reduce_scatter,
  &cs_algo_twotier_reduce,
  &cs_algo_script_bcast,
  &cs_algo_script_reduce,
  &cs_algo_recursive_doubling_allreduce,
  &cs_algo_rabenseifner_allreduce,
  &cs_algo_ring_allreduce,
  &cs_algo_reduce_bcast_allreduce,
  &cs_algo_twotier_allreduce,
  &cs_algo_pairwise_alltoall,
  &cs_algo_bruck_alltoall,
  &cs_algo_linear_alltoall,
  &cs_algo_dissemination_barrier,
  &cs_algo_binomial_bcast,
  &cs_algo_scatter_rdb_bcast,
  &cs_algo_ompi_pipeline_bcast,
  &cs_algo_ompi_chain_bcast,
  &cs_algo_ompi_bintree_bcast,
  &cs_algo_binomial_reduce,
  &cs_algo_bruck_allgather,
  &cs_algo_linear_scatter,
  &cs_algo_linear_gather,
};

size_t cs_coll_algo_count(void) { return sizeof algos / sizeof algos[0]; }

const cs_coll_algo *cs_coll_algo_at(size_t i) { return i < cs_coll_algo_count() ? algos[i] : NULL; }

const cs_coll_algo *cs_coll_algo_find(cs_coll c, const char *name)
{
  for (size_t i = 0; i < cs_coll_algo_count(); i++)
    if (algos[i]->coll == c && strcmp(algos[i]->name, name) == 0)
      return algos[i];
  return NULL;
}

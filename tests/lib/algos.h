/* Collective algorithms as the tests name them: through the registry
 * (collective + name), never through their symbols, so a test sees exactly
 * what `collsim collective --list` offers. */
#ifndef COLLSIM_TEST_ALGOS_H
#define COLLSIM_TEST_ALGOS_H

#include "algorithms/reduce_bcast_trees/tree_gen.h"
#include "sim/contracts/schedule.h"

#include <check.h>
#include <string.h>

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
#define ALGO_recursive_doubling_allreduce test_algo(CS_COLL_ALLREDUCE, "recursive-doubling")
#define ALGO_rabenseifner_allreduce test_algo(CS_COLL_ALLREDUCE, "rabenseifner")
#define ALGO_ring_allreduce test_algo(CS_COLL_ALLREDUCE, "ring")
#define ALGO_reduce_bcast_allreduce test_algo(CS_COLL_ALLREDUCE, "reduce-bcast")
#define ALGO_twotier_allreduce test_algo(CS_COLL_ALLREDUCE, "two-tier")
#define ALGO_pairwise_alltoall test_algo(CS_COLL_ALLTOALL, "pairwise")
#define ALGO_bruck_alltoall test_algo(CS_COLL_ALLTOALL, "bruck")
#define ALGO_linear_alltoall test_algo(CS_COLL_ALLTOALL, "linear")
#define ALGO_dissemination_barrier test_algo(CS_COLL_BARRIER, "dissemination")
#define ALGO_binomial_bcast test_algo(CS_COLL_BCAST, "binomial")
#define ALGO_scatter_rdb_bcast test_algo(CS_COLL_BCAST, "scatter-rdb")
#define ALGO_pipeline_bcast test_algo(CS_COLL_BCAST, "pipeline")
#define ALGO_chain_bcast test_algo(CS_COLL_BCAST, "chain")
#define ALGO_bintree_bcast test_algo(CS_COLL_BCAST, "bintree")
#define ALGO_binomial_reduce test_algo(CS_COLL_REDUCE, "binomial")
#define ALGO_bruck_allgather test_algo(CS_COLL_ALLGATHER, "bruck")
#define ALGO_linear_scatter test_algo(CS_COLL_SCATTER, "linear")
#define ALGO_linear_gather test_algo(CS_COLL_GATHER, "linear")

/* A LAM tree script for p ranks (one node per rank), for the "script"
 * algorithms; kept until the next call with another p. */
static inline const cs_tree_script *test_script(int64_t p)
{
  static cs_tree_script *s;
  if (s && s->n == p)
    return s;
  cs_ts_free(s);
  int *node_of = g_new(int, p);
  for (int64_t r = 0; r < p; r++)
    node_of[r] = (int)r;
  cs_tree_gen_params prm = {.n = (int)p, .nodes = (int)p, .cores = 1, .node_of = node_of, .groups_per_node = 1};
  s = cs_tree_gen_find("lam")->generate(&prm);
  g_free(node_of);
  return s;
}

/* cs_sched_setup, giving the "script" algorithms a script.  A refusal must
 * have one of the reasons an algorithm may give on a small shape: too few
 * bytes for Rabenseifner's pieces (its reduce and allreduce, and the
 * reduce-bcast allreduce built on its reduce), or a spread mapping for an
 * algorithm that needs the in-order one; anything else fails the test. */
static inline bool test_setup(cs_sched_params *prm, const cs_coll_algo *a, const cs_two_tier *tt, uint64_t size)
{
  GError *e = NULL;
  bool script = strcmp(a->name, "script") == 0;
  bool ok = script ? cs_sched_setup_script(prm, a, tt, size, test_script(tt->p), &e)
                   : cs_sched_setup(prm, a, tt, size, &e);
  if (!ok) {
    bool pieces = strstr(a->name, "rabenseifner") || strcmp(a->name, "reduce-bcast") == 0;
    bool allowed = (pieces && size < (uint64_t)tt->p) ||
                   (a->needs_in_order && !cs_tt_in_order(tt));
    ck_assert_msg(allowed, "%s %s refuses p = %lld, size %llu: %s", cs_coll_name(a->coll), a->name,
                  (long long)tt->p, (unsigned long long)size, e ? e->message : "?");
    g_clear_error(&e);
  }
  return ok;
}

#endif

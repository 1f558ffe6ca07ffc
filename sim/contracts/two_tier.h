/* The two-tier view of a machine, the only thing collective schedules know
 * of the network (seed 001, Section 3).
 *
 * sn "supernodes" (PERCS supernodes, Dragonfly groups; 1 on a platform
 * without a second tier) of nps nodes each, cpn cores per node, p = sn * nps
 * * cpn ranks.  Global node g is node g % nps of supernode g / nps.  A
 * platform fills this view (platforms/platform.h, cs_platform_two_tier);
 * algorithms read it through cs_sched_params.tt and the helpers below, and
 * never see the platform itself.  The view is a plain value (no pointer to
 * the platform): copy it freely.
 *
 * Mapping of ranks to nodes: in order (rank r on core r % cpn of node
 * r / cpn, the paper's mapping) unless node_of is set (e.g. LAM-MPI's even
 * spread on the SMP clusters of seed 002: rank r on node r mod nodes).
 * Topology-aware algorithms that assume the in-order mapping say so
 * (cs_coll_algo.needs_in_order) and are refused on other mappings.
 */
#ifndef COLLSIM_TWO_TIER_H
#define COLLSIM_TWO_TIER_H

#include <stdbool.h>
#include <stdint.h>

typedef struct cs_two_tier cs_two_tier;

struct cs_two_tier {
  int64_t sn, nps, cpn, p;
  /* Node (0 .. nps-1) of supernode `from` holding the second-tier link to
   * supernode `to` (from != to), and the node of `to` where it lands. */
  int64_t (*gateway)(const cs_two_tier *t, int64_t from, int64_t to);
  int64_t (*landing)(const cs_two_tier *t, int64_t from, int64_t to);
  /* Global node of a rank; NULL: in order, r / cpn. */
  int64_t (*node_of)(const cs_two_tier *t, int64_t rank);
  int64_t wiring[4]; /* the platform family's parameters for the functions above */
};

static inline int64_t cs_tt_gateway(const cs_two_tier *t, int64_t from, int64_t to)
{
  return t->gateway(t, from, to);
}

static inline int64_t cs_tt_landing(const cs_two_tier *t, int64_t from, int64_t to)
{
  return t->landing(t, from, to);
}

static inline bool cs_tt_in_order(const cs_two_tier *t) { return t->node_of == 0; }

static inline int64_t cs_tt_node_of(const cs_two_tier *t, int64_t rank)
{
  return t->node_of ? t->node_of(t, rank) : rank / t->cpn;
}

static inline int64_t cs_tt_nodes(const cs_two_tier *t) { return t->sn * t->nps; }

#endif

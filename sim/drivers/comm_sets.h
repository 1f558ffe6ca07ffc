/* The experiment sets of seed 003's Section 8.1 (Figure 5), one row each:
 * the [C,P,M] world and the group of the new communicator, in group order.
 * The paper gives the sizes and kinds of the groups, not their exact
 * members; the choices made here are in comm_sets.c. */
#ifndef COLLSIM_COMM_SETS_H
#define COLLSIM_COMM_SETS_H

#include "sim/contracts/groupmap.h"

typedef struct cs_bench_set {
  const char *name;        /* "A1" */
  const char *description; /* one line */
  int64_t cpm[3];          /* C, P, M of the world */
  int64_t m;               /* group size */
  const char *paper_map;   /* the representation the paper's framework chose */
  /* The members in group order (g_free it); n = C P M. */
  cs_wid *(*members)(const struct cs_bench_set *s, int64_t n, uint64_t seed);
} cs_bench_set;

size_t cs_bench_set_count(void);
const cs_bench_set *cs_bench_set_at(size_t i);
const cs_bench_set *cs_bench_set_find(const char *name); /* case-insensitive */

#endif

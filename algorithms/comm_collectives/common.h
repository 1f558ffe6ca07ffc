/* Shared by the collectives over a communicator (their tree arithmetic is
 * algorithms/shapes/tree_shapes.h's). */
#ifndef COLLSIM_COMM_COLL_COMMON_H
#define COLLSIM_COMM_COLL_COMMON_H

#include "algorithms/shapes/tree_shapes.h"
#include "sim/contracts/comm_coll.h"

static inline int cs_min_int(int a, int b) { return a < b ? a : b; }

#endif

/* The k-ary heap of seed 000 (kary_parent, kary_first_child, kary_nchildren,
 * kary_depth, kary_min_height, kary_subtree_size) lives with the other tree
 * shapes in algorithms/shapes/tree_shapes.h; this header remains for the
 * code that still includes it by this name (sim/drivers, tests). */
#ifndef COLLSIM_KARY_H
#define COLLSIM_KARY_H

#include "algorithms/shapes/tree_shapes.h"

#endif

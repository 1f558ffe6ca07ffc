/* Groups named on the command line (collsim comm create --group SPEC):
 *   stride:START,STRIDE,COUNT   START, START + STRIDE, ... (COUNT members;
 *                               a negative STRIDE gives a decreasing group)
 *   range:FIRST,LAST            FIRST .. LAST inclusive (LAST < FIRST: decreasing)
 *   ranks:R,R,...               an explicit list, in group order
 *   A+B                         the members of A, then those of B not in A
 *                               (MPI_Group_union's order)
 * Every rank must lie in [0, world); duplicates are refused. */
#ifndef COLLSIM_GROUP_SPEC_H
#define COLLSIM_GROUP_SPEC_H

#include "sim/contracts/groupmap.h"

#include <glib.h>

/* The group's world ranks in group order (g_free it), or NULL with err
 * (CS_INPUT_ERROR) naming the problem. */
cs_wid *cs_group_spec_parse(const char *spec, int64_t world, int64_t *m, GError **err);

#endif

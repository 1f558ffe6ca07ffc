/* The native engine's executor of GOAL graphs (sim/contracts/goal.h):
 * LogGOPSim's dependency rules on the compact graph, per operation a count
 * of the dependencies it still waits for. */
#ifndef COLLSIM_NATIVE_GOAL_SOURCE_H
#define COLLSIM_NATIVE_GOAL_SOURCE_H

#include "sim/engine/native/loggops.h"

bool cs_native_run_goal(const cs_goal_graph *g, const cs_loggops_params *m, cs_native_delivery on_delivery,
                        void *user, cs_native_result *out, GError **err);

#endif

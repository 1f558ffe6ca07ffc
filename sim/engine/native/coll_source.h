/* The native engine's executor of collsim's schedules: each rank's op list
 * (schedule.h), generated when the rank starts and kept packed, 16 bytes
 * an op (cs_lower_pack; loops stay loops), walked one step at a time by
 * the lowering of goal.h (the same rule --goal writes), freed when the
 * rank finishes. */
#ifndef COLLSIM_NATIVE_COLL_SOURCE_H
#define COLLSIM_NATIVE_COLL_SOURCE_H

#include "sim/engine/native/loggops.h"

/* Algorithm a on prm (after plan) under LogGOPS; gamma: seconds per byte
 * reduced (a calc after each reducing receive, goal.h). */
bool cs_native_run_coll(const cs_coll_algo *a, const cs_sched_params *prm, double gamma, const cs_loggops_params *m,
                        cs_native_delivery on_delivery, void *user, cs_native_result *out, GError **err);

#endif

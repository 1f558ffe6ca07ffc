/* An experiment's `expect:` (issue 32): after the sweep, every row of its
 * output is checked against the experiment's formulas, so `collsim sweep
 * grid.yaml` is a CI test of a message-count formula. */
#ifndef COLLSIM_SWEEP_EXPECT_H
#define COLLSIM_SWEEP_EXPECT_H

#include "sim/sweep/experiment.h"

/* 0 when the experiment expects nothing or every row of out_path meets
 * every formula; 1 after one line per mismatch on stderr (every row is
 * already written); 1 too, after one line, when out_path cannot be read
 * as the sweep's CSV. */
int cs_sweep_expect_check(const cs_experiment *e, const char *out_path);

#endif

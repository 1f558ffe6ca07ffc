/* The correction factors of SimGrid's network models (SimGrid 3.32), for
 * the cost models (sim/contracts/cost.h): a message of s bytes alone on a
 * route of latency L and bottleneck bandwidth W takes
 *   lat_factor(s) * L + s / (bw_factor(s) * W)
 * (measured: percs:1,2,1, one message of 8 B, 1 MiB, 1 GiB, under each model).
 *
 * Defaults, as SimGrid 3.32 sets them: LV08 13.01 and 0.97 (its
 * description: "slow-start modeled by multiplying latency by 13.01,
 * bandwidth by .97"), CM02 1 and 1, SMPI and IB the piecewise defaults of
 * smpi/lat-factor and smpi/bw-factor (IB's own penalties apply only to
 * concurrent flows).  A run's --cfg settings network/latency-factor,
 * network/bandwidth-factor (LV08, CM02) or smpi/lat-factor, smpi/bw-factor
 * (SMPI, IB) replace them, as they do in SimGrid.  No SimGrid call: the
 * values are SimGrid's documented defaults. */
#ifndef COLLSIM_MODEL_FACTORS_H
#define COLLSIM_MODEL_FACTORS_H

#include "sim/engine/sg_engine.h"

void cs_model_factors(const cs_engine_config *c, double bytes, double *lat_factor, double *bw_factor);

#endif

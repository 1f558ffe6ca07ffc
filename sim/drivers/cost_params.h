/* The cost parameters of a timed collective (seed 001, Section 3's alpha,
 * beta and gamma; sim/contracts/cost.h), read off the platform's own links and routes (its netmap, sim/contracts/netmap.h: no SimGrid), the engine's
 * overheads and the network model's factors (sim/engine/model_factors.h).
 *
 * From the two-tier view (sn supernodes of nps nodes; node g of the
 * platform is node g mod nps of supernode g / nps):
 *   a0, B0   the route from node 0 to itself (its loopback); B0 is
 *            1 / local_copy_bw on a platform that copies instead;
 *   a1, B1   the routes from a node of supernode 0 to every other node of
 *            supernode 0, the longest and the slowest;
 *   a2, B2   the same to every node of the other supernodes;
 *   ag, Bg   the routes from gateway(0, t) to landing(0, t) of t, t != 0;
 *   Bp       the slowest link on every route out of node 0, or on every
 *            route into it (0 if no link is on all of them);
 *   BL       the slowest link on every route between supernode 0 and
 *            supernode t, the slowest over t (0 if none);
 * latencies times the model's latency factor, seconds per byte 1 / (bandwidth
 * x the model's bandwidth factor), both at `message_bytes` (the run's mean
 * message).  Supernode 0 stands for every supernode (our choice); with more
 * than 64 nodes per supernode, 64 of them spread evenly are the sources. */
#ifndef COLLSIM_COST_PARAMS_H
#define COLLSIM_COST_PARAMS_H

#include "platforms/platform.h"
#include "sim/contracts/cost.h"
#include "sim/contracts/netmap.h"
#include "sim/engine/sg_engine.h"

void cs_cost_params_derive(cs_cost_params *out, const cs_netmap *map, const cs_two_tier *tt, const cs_engine_config *ec,
                           double gamma, double message_bytes);

#endif

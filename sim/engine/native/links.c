/* The model "loggops-links" (collsim collective --timed --engine native
 * --model loggops-links --platform ...): LogGOPS, exactly as loggops.c,
 * plus per-link serialisation along the platform's routes, so that the
 * tiers of a PERCS, Dragonfly, torus or fat tree (their link bandwidths)
 * and the sharing of links matter.
 *
 * PARAMETERS: L, o, g, G, S, O as --loggops (LogGOPSim's units and
 * defaults); per link l its bandwidth B_l (bytes/s, the platform's: e.g.
 * torus:...,bw=..,loopback=..; percs:.../l1=..,l2=..); the route of a
 * message is the platform's route from the sender's node to the
 * receiver's (the same links --links charges; two ranks of one node: the
 * node's loopback).  The links' latencies are not used: L is the network's
 * whole latency, as in LogGOPS.
 *
 * EQUATIONS.  A message of s bytes whose send starts at t (the send rule of
 * loggops.c) enters the network at t_0 = t + o.  Its route is links
 * l_1 .. l_k.  Each link keeps free[l], the time it is free (0 at the
 * start).  In route order, i = 1 .. k (store and forward):
 *     d_i     = round(s * (1e9 / B_l_i))          (ns; 0 for B not finite or <= 0)
 *     begin_i = max(t_{i-1}, free[l_i])
 *     t_i     = begin_i + d_i,   free[l_i] = t_i
 * and the message arrives at the receiver at t_k + L (plain LogGOPS:
 * t_0 + L).  Everything else - the CPU and NIC rules, eager and
 * rendezvous, matching - is loggops.c's.
 * FIFO PER LINK, IN THE ORDER SENDS START: a message reserves its whole
 * route when its send starts (events in LogGOPSim's order), so a message
 * whose send starts later never passes an earlier one on a link, even
 * where it would reach that link first.
 * PROPERTIES (tests/cli/native-links.sh): one message alone takes LogGOPS
 * plus sum_i d_i; two messages over one link serialise there; with links
 * of unbounded bandwidth every d_i is 0 and the model is LogGOPS. */
#include "sim/engine/native/links.h"

#include <glib.h>
#include <math.h>

struct cs_link_net {
  int64_t nlinks;
  double *ns_per_byte; /* 1e9 / B_l, 0 for a link that takes no time */
  uint64_t *free_at;
  cs_link_route_fn route;
  void *route_ctx;
};

cs_link_net *cs_link_net_new(int64_t nlinks, const double *bandwidth, cs_link_route_fn route, void *route_ctx)
{
  cs_link_net *n = g_new0(cs_link_net, 1);
  n->nlinks = nlinks;
  n->ns_per_byte = g_new0(double, nlinks > 0 ? nlinks : 1);
  n->free_at = g_new0(uint64_t, nlinks > 0 ? nlinks : 1);
  for (int64_t l = 0; l < nlinks; l++)
    n->ns_per_byte[l] = isfinite(bandwidth[l]) && bandwidth[l] > 0 ? 1e9 / bandwidth[l] : 0;
  n->route = route;
  n->route_ctx = route_ctx;
  return n;
}

void cs_link_net_free(cs_link_net *n)
{
  if (!n)
    return;
  g_free(n->ns_per_byte);
  g_free(n->free_at);
  g_free(n);
}

uint64_t cs_link_net_serialisation(const cs_link_net *n, int32_t l, uint64_t bytes)
{
  return (uint64_t)llround((double)bytes * n->ns_per_byte[l]);
}

uint64_t cs_link_net_transfer(cs_link_net *n, uint32_t src, uint32_t dst, uint64_t bytes, uint64_t inject)
{
  const int32_t *links = NULL;
  int k = n->route(n->route_ctx, src, dst, &links);
  uint64_t t = inject;
  for (int i = 0; i < k; i++) {
    int32_t l = links[i];
    uint64_t begin = t > n->free_at[l] ? t : n->free_at[l];
    t = begin + cs_link_net_serialisation(n, l, bytes);
    n->free_at[l] = t;
  }
  return t;
}

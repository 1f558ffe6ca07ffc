/* The models "loggops-links" and "loggops-cut-through" (collsim collective
 * --timed --engine native --model ... --platform ...): LogGOPS, exactly as
 * loggops.c, plus per-link serialisation along the platform's routes, so
 * that the tiers of a PERCS, Dragonfly, torus or fat tree (their link
 * bandwidths) and the sharing of links matter.
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
 * start).  In route order, i = 1 .. k, with h_0 = e_0 = t_0:
 *     d_i     = round(s * (1e9 / B_l_i))          (ns; 0 for B not finite or <= 0)
 *     b_i     = max(h_{i-1}, free[l_i])            (the head enters l_i)
 *     e_i     = max(b_i + d_i, e_{i-1}),  free[l_i] = e_i   (the tail leaves l_i)
 *     h_i     = e_i   store and forward (loggops-links): a link takes the
 *                     message once the previous one has passed it whole;
 *     h_i     = b_i   virtual cut-through (loggops-cut-through): the head
 *                     goes on at once (its per-hop latency is in L) and
 *                     the message is buffered whole only where a link is
 *                     busy, as BG/P's torus routers do;
 * and the message arrives at the receiver at e_k + L (plain LogGOPS:
 * t_0 + L).  Alone on a route of equal links, a message takes k d more
 * than LogGOPS with store and forward, d with cut-through (SimGrid's flow
 * model: one d at the bottleneck).  Everything else - the CPU and NIC
 * rules, eager and rendezvous, matching - is loggops.c's.
 * FIFO PER LINK, IN THE ORDER SENDS START: a message reserves its whole
 * route when its send starts (events in LogGOPSim's order), so a message
 * whose send starts later never passes an earlier one on a link, even
 * where it would reach that link first.  A link is held by one message at
 * a time: no sharing of bandwidth as in SimGrid's max-min flows.
 * PROPERTIES (tests/cli/native-links.sh): one message alone takes LogGOPS
 * plus sum_i d_i (store and forward) or max_i d_i (cut-through); two
 * messages over one link serialise there; with links of unbounded
 * bandwidth every d_i is 0 and both models are LogGOPS. */
#include "sim/engine/native/links.h"

#include <glib.h>
#include <math.h>
#include <stdbool.h>

struct cs_link_net {
  int64_t nlinks;
  double *ns_per_byte; /* 1e9 / B_l, 0 for a link that takes no time */
  uint64_t *free_at;
  cs_link_route_fn route;
  void *route_ctx;
  cs_link_switching switching;
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

void cs_link_net_set_switching(cs_link_net *n, cs_link_switching s) { n->switching = s; }

uint64_t cs_link_net_serialisation(const cs_link_net *n, int32_t l, uint64_t bytes)
{
  return (uint64_t)llround((double)bytes * n->ns_per_byte[l]);
}

uint64_t cs_link_net_transfer(cs_link_net *n, uint32_t src, uint32_t dst, uint64_t bytes, uint64_t inject)
{
  const int32_t *links = NULL;
  int k = n->route(n->route_ctx, src, dst, &links);
  bool cut_through = n->switching == CS_LINKS_CUT_THROUGH;
  uint64_t head = inject, tail = inject; /* when the message's head reaches link i, its tail left link i - 1 */
  for (int i = 0; i < k; i++) {
    int32_t l = links[i];
    uint64_t begin = head > n->free_at[l] ? head : n->free_at[l];
    uint64_t end = begin + cs_link_net_serialisation(n, l, bytes);
    if (end < tail)
      end = tail;
    n->free_at[l] = end;
    head = cut_through ? begin : end;
    tail = end;
  }
  return tail;
}

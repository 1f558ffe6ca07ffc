/* The native engine's model "loggops-links": LogGOPS (loggops.c) with
 * per-link serialisation along the platform's routes (equations at the top
 * of links.c).  The engine calls cs_link_net_transfer for each message
 * when its send starts; the routes come from the caller (a callback from
 * ranks to link ids), so the engine knows no platform. */
#ifndef COLLSIM_NATIVE_LINKS_H
#define COLLSIM_NATIVE_LINKS_H

#include <stdint.h>

/* The links of the route from rank src to rank dst, in route order, into
 * *links (valid until the next call); returns their number (0: none). */
typedef int (*cs_link_route_fn)(void *ctx, uint32_t src, uint32_t dst, const int32_t **links);

typedef struct cs_link_net cs_link_net;

/* How a message crosses its route (links.c, top): store and forward (the
 * model loggops-links; the default) or virtual cut-through (the model
 * loggops-cut-through). */
typedef enum { CS_LINKS_STORE_AND_FORWARD = 0, CS_LINKS_CUT_THROUGH = 1 } cs_link_switching;

/* nlinks links of bandwidth bandwidth[l] bytes/s (copied; not finite or
 * not positive: the link takes no time). */
cs_link_net *cs_link_net_new(int64_t nlinks, const double *bandwidth, cs_link_route_fn route, void *route_ctx);
void cs_link_net_free(cs_link_net *n);
void cs_link_net_set_switching(cs_link_net *n, cs_link_switching s);

/* A message of `bytes` from src to dst entering the network at `inject`
 * (ns): reserves each link of its route in turn and returns when it leaves
 * the last one (inject for an empty route). */
uint64_t cs_link_net_transfer(cs_link_net *n, uint32_t src, uint32_t dst, uint64_t bytes, uint64_t inject);

/* Nanoseconds a message of `bytes` occupies link l. */
uint64_t cs_link_net_serialisation(const cs_link_net *n, int32_t l, uint64_t bytes);

#endif

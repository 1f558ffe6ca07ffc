/* The links and routes of a machine as collsim knows them without SimGrid
 * (DESIGN.md, "three ways to run": the untimed path never loads SimGrid).
 *
 * A netmap is what linkUsage (patterns/linkusage.h) and the cost
 * parameters need: nodes 0 .. nodes-1 (the platform's hosts in its rank
 * order), links 0 .. nlinks-1 with SimGrid's own names for them (the
 * platform's XML as SimGrid loads it: a timed run maps SimGrid's links onto
 * these ids by name), a tier, endpoints, bandwidth and latency each, and a
 * route function: the links of the route from node a to node b in order,
 * the same links SimGrid's sg_host_get_route gives (a == b: the node's route
 * to itself, its loopback, which messages between two of its cores take).
 *
 * A platform family fills one from its own arithmetic (percs, dragonfly),
 * from an emulation of a SimGrid cluster zone (platforms/sg_cluster.h:
 * torus, SMP cluster, fat tree), or from collsim's own reader of an XML
 * file (platforms/xml_routes.h).  Link ids are the provider's own order;
 * reports that list links sort them by name (natural order).
 *
 * Tiers: ntiers names, in report order (top of the hierarchy first, the
 * intra-node tier last); "?" for links the platform says nothing about.
 */
#ifndef COLLSIM_NETMAP_H
#define COLLSIM_NETMAP_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#define CS_NETMAP_MAX_TIERS 32
#define CS_NETMAP_MAX_HOPS 4096 /* longest route a provider may return */

typedef struct cs_netmap cs_netmap;

typedef struct cs_netmap_ops {
  /* SimGrid's name of link id (appended to out). */
  void (*link_name)(const cs_netmap *m, int64_t id, GString *out);
  /* Index into m->tier_name. */
  int (*link_tier)(const cs_netmap *m, int64_t id);
  /* The netpoints (host, router) the link joins in its direction, by name
   * (appended); FALSE: unknown ("?" in reports). */
  bool (*link_ends)(const cs_netmap *m, int64_t id, GString *src, GString *dst);
  double (*link_bandwidth)(const cs_netmap *m, int64_t id); /* bytes/s */
  double (*link_latency)(const cs_netmap *m, int64_t id);   /* s */
  /* SimGrid's internal "__loopback__" (not a link of the file); NULL: none. */
  bool (*link_internal)(const cs_netmap *m, int64_t id);
  /* Route from node a to node b: writes up to cap link ids into links and
   * returns the route's length (call again with a larger buffer if it
   * exceeds cap); -1 if a or b is out of range or there is no route. */
  int (*route)(const cs_netmap *m, int64_t a, int64_t b, int32_t *links, int cap);
  void (*free_data)(void *data);
} cs_netmap_ops;

struct cs_netmap {
  const cs_netmap_ops *ops;
  void *data;
  int64_t nodes, nlinks;
  int ntiers;
  char *tier_name[CS_NETMAP_MAX_TIERS]; /* g_strdup'd, freed with the map */
  GHashTable *by_name;                  /* name -> id + 1, built by cs_netmap_link_id */
};

/* A netmap over ops and data (owned: freed by cs_netmap_free). */
cs_netmap *cs_netmap_new(const cs_netmap_ops *ops, void *data, int64_t nodes, int64_t nlinks);
void cs_netmap_free(cs_netmap *m);
/* The tier index of name, added if new (at most CS_NETMAP_MAX_TIERS; the
 * last one is "?" beyond that). */
int cs_netmap_tier(cs_netmap *m, const char *name);
/* A family's own name for a tier its provider named otherwise (no-op when
 * absent). */
void cs_netmap_rename_tier(cs_netmap *m, const char *from, const char *to);
/* The index of "?", added if new. */
int cs_netmap_tier_unknown(cs_netmap *m);

/* Conveniences over the ops. */
char *cs_netmap_link_name(const cs_netmap *m, int64_t id); /* g_free it */
const char *cs_netmap_link_tier(const cs_netmap *m, int64_t id);
bool cs_netmap_link_internal(const cs_netmap *m, int64_t id);

/* A reusable route buffer: cs_netmap_route returns the route's length and
 * points *links at it, valid until the next call with the same buffer. */
typedef struct cs_route_buf {
  int32_t *links;
  int cap;
} cs_route_buf;
int cs_netmap_route(const cs_netmap *m, cs_route_buf *buf, int64_t a, int64_t b, const int32_t **links);
void cs_route_buf_clear(cs_route_buf *buf);

/* Link ids sorted by natural order of their names (g_free it): the order in
 * which reports list links. */
int64_t *cs_netmap_links_by_name(const cs_netmap *m);
/* Id of the link named name, or -1 (builds a name index on first use; not
 * thread-safe). */
int64_t cs_netmap_link_id(cs_netmap *m, const char *name);

#endif

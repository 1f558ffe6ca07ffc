/* What collsim keeps of a user's SimGrid platform file once read
 * (xml_validate.c reads it; xml_validate.c checks its routes and
 * xml_routes.c routes it as SimGrid does).  Private to those two files.
 *
 * Netpoints are SimGrid's: hosts, routers and zones (a zone's netpoint lies
 * in its parent).  `local` is the netpoint's rank among its zone's
 * vertices, in creation order (SimGrid's NetPoint::id(), which its Floyd
 * and Dijkstra zones index by).  Zone 0 is a synthetic root that holds the
 * file's top zone.  Links: each <link> of the file, a SPLITDUPLEX one as
 * two links "<id>_UP" and "<id>_DOWN" (SimGrid's names).  Each route keeps
 * its <link_ctn> list as hops: the link taken in the declared direction
 * (fwd) and in the symmetrical route's (back: UP and DOWN swapped). */
#ifndef COLLSIM_XML_MODEL_H
#define COLLSIM_XML_MODEL_H

#include "platforms/xml_validate.h"

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

typedef enum { NP_HOST, NP_ROUTER, NP_ZONE } np_kind;
typedef enum { ROUTED_FULL, ROUTED_GRAPH, ROUTED_BUILT } zone_routing;

typedef struct netpoint {
  char *name;
  np_kind kind;
  int parent; /* zone holding it */
  int zone;   /* NP_ZONE: the zone it is */
  int local;  /* its rank among the parent's vertices */
} netpoint;

/* One <link_ctn>: link ids (-1: no such link; name says which). */
typedef struct route_hop {
  int32_t fwd, back;
  const char *name; /* as written, in the platform's strings */
  const char *direction;
} route_hop;

typedef struct route_decl {
  const char *src, *dst, *gw_src, *gw_dst; /* in the platform's strings */
  bool zone_route, symmetrical, bypass;
  int links;     /* <link_ctn> inside */
  int first_hop; /* its hops: x->hops[first_hop .. first_hop + links) */
} route_decl;

typedef struct xml_link {
  const char *name; /* SimGrid's ("<id>_UP" for half a split-duplex link) */
  double bandwidth, latency; /* bytes/s (the first of a WIFI list), s */
  const char *tier;          /* <prop id="tier" value=".."/>, or NULL */
  const char *policy;        /* as written (NULL: SHARED) */
  int zone;                  /* declared in */
} xml_link;

/* A <cluster> element's attributes as written (NULL: absent). */
typedef struct xml_cluster {
  int zone;
  const char *id, *prefix, *suffix, *topology, *topo_parameters, *sharing_policy, *bb_sharing_policy,
      *router_id;
  const char *bw, *lat, *bb_bw, *bb_lat, *loopback_bw, *loopback_lat, *limiter_link;
  GArray *radical; /* int64_t host numbers */
} xml_cluster;

/* How many of cluster c's radical hosts SimGrid makes hosts: a TORUS,
 * FAT_TREE or DRAGONFLY takes the first ones its topology has room for
 * and ignores the others; every one where the cluster is refused (the
 * router says why when it builds the routes).  In xml_routes.c, which
 * reads the topologies (sg_cluster.c). */
int64_t cs_xml_cluster_hosts(const cs_xml_platform *x, const xml_cluster *c);

typedef struct zone {
  int np;     /* its netpoint; -1 for the root */
  int parent; /* -1 for the root */
  int depth;
  zone_routing routing;
  const char *routing_name; /* as written, in the platform's strings */
  const char *element;      /* "zone" or "cluster" */
  GArray *children;         /* netpoint ids, in creation order */
  GArray *routes;           /* route_decl */
  GHashTable *table;        /* Full: (src, dst) -> route_decl*, built on demand */
  GHashTable *graph;        /* Floyd/Dijkstra: src -> GArray of dst, built on demand */
  int cluster;              /* <cluster>: index into x->clusters, else -1 */
  /* the check: */
  int64_t used_below;
  int rep; /* first used host below */
} zone;

struct cs_xml_platform {
  char *path; /* escaped for messages */
  GArray *np; /* netpoint */
  GArray *zones;
  GHashTable *points;   /* host and router names -> np + 1 */
  GHashTable *zone_ids; /* zone names -> np + 1 */
  GStringChunk *strings; /* names routes and zones refer to (never g_intern_string: a file's
                            strings would stay for the life of the process) */
  GArray *hosts;        /* host netpoints, sorted once read */
  GArray *links;        /* xml_link */
  GHashTable *link_ids; /* SimGrid link name -> id + 1 */
  GHashTable *split_ids; /* split-duplex <link> id -> id of its _UP half + 1 (_DOWN follows) */
  GArray *hops;         /* route_hop */
  GArray *clusters;     /* xml_cluster */
  bool has_include;
  /* parsing */
  int depth;
  int cur_zone;
  bool root_ok;
  int open_link;      /* the <link> being read (its first id), or -1 */
  int open_link_ids;  /* 2 for a split-duplex one */
  /* the check */
  GArray *open_route; /* the route element being read, or NULL */
  GHashTable *memo;   /* (x, y) -> found + 1 */
  GHashTable *reason; /* (x, y) -> why there is no route (found below R_LINKS) */
  /* xml_routes.c: the hierarchy's table of indices, built on demand */
  int32_t *hier_table;
};

static inline netpoint *xml_np(const cs_xml_platform *x, int id) { return &g_array_index(x->np, netpoint, id); }
static inline zone *xml_zone(const cs_xml_platform *x, int id) { return &g_array_index(x->zones, zone, id); }

/* Whether netpoint p lies in zone zi or below it. */
static inline bool xml_np_within(const cs_xml_platform *x, int p, int zi)
{
  for (int z = xml_np(x, p)->parent; z >= 0; z = xml_zone(x, z)->parent)
    if (z == zi)
      return true;
  return false;
}

#endif

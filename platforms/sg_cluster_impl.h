/* Internal interface between sg_cluster.c (the common part of collsim's
 * emulation of SimGrid 3.32's <cluster> zones, platforms/sg_cluster.h) and
 * the one file per topology: sg_cluster_flat.c, sg_cluster_torus.c,
 * sg_cluster_fattree.c, sg_cluster_dragonfly.c.  Not for other users.
 *
 * The common part owns the parsed attributes (struct cs_sg_cluster below)
 * and the "leaf" links every SimGrid cluster type gives its hosts through
 * ClusterBase::fill_leaf_from_cb or the flat cluster's loop: a loopback per
 * host (loopback_bw or loopback_lat > 0) and a limiter per host
 * (limiter_link > 0).  Link ids:
 *
 *   0 .. leaf_links-1        the leaf links, host by host: [loopback][limiter]
 *                            (cs_sgc_loopback_id, cs_sgc_limiter_id);
 *                            the common part answers for them.
 *   leaf_links .. nlinks-1   the topology's own links, in its own order;
 *                            the topology's ops answer for them (they get
 *                            the global id).
 *
 * A topology's build sets c->nlinks (leaf links included) and c->data;
 * tiers() lists its tiers in report order; cs_sgc_leaf_tiers appends
 * "limiter" (when there are limiters) and "intra" at the end, and every
 * topology calls it last.  link_tier returns an index into that list.
 *
 * SimGrid facts the helpers encode (3.32, src/surf/sg_platf.cpp):
 *   loopback: "<id>_link_<radical>_loopback", FATPIPE, loopback_bw/lat
 *             (0 when an attribute is absent), for every cluster type;
 *   limiter:  flat cluster "<id>_link_<radical>_limiter", the others
 *             "<id>_link_<n>_limiter" where n is the number SimGrid's
 *             callback receives (a host: its position, not its radical;
 *             fat-tree switches and dragonfly routers: their own numbers);
 *             bandwidth limiter_link, latency 0, SHARED;
 *   split-duplex links: "<name>_UP" and "<name>_DOWN", each with the full
 *             bandwidth; SHARED and FATPIPE: one link "<name>".
 *   router:   only the flat cluster has one (router_id, else
 *             "<prefix><id>_router<suffix>"); the others create none, and
 *             their get_local_route returns no link when either end is a
 *             router.
 */
#ifndef COLLSIM_SG_CLUSTER_IMPL_H
#define COLLSIM_SG_CLUSTER_IMPL_H

#include "platforms/sg_cluster.h"

typedef enum cs_sgc_policy { CS_SGC_SPLITDUPLEX, CS_SGC_SHARED, CS_SGC_FATPIPE } cs_sgc_policy;

typedef struct cs_sgc_topology {
  const char *name; /* as in the topology attribute: "FLAT", "TORUS", "FAT_TREE", "DRAGONFLY" */
  /* Parse topo_parameters (NULL when absent), check them against
   * c->nhosts, set c->data and c->nlinks.  FALSE with err (CS_INPUT_ERROR)
   * when SimGrid would refuse them. */
  bool (*build)(cs_sg_cluster *c, const char *topo_parameters, GError **err);
  /* Links leaf_links .. nlinks-1 (global ids). */
  void (*link_name)(const cs_sg_cluster *c, int64_t id, GString *out);
  int (*link_tier)(const cs_sg_cluster *c, int64_t id); /* index into c->tier_name */
  bool (*link_ends)(const cs_sg_cluster *c, int64_t id, GString *src, GString *dst);
  double (*link_bandwidth)(const cs_sg_cluster *c, int64_t id);
  double (*link_latency)(const cs_sg_cluster *c, int64_t id);
  /* SimGrid's route from a to b (0 .. nhosts-1, or CS_SGC_ROUTER), leaf
   * links included, as global ids: writes up to cap, returns the length.
   * a and b are checked by the caller. */
  int (*route)(const cs_sg_cluster *c, int64_t a, int64_t b, int32_t *links, int cap);
  /* Tiers in report order, ending with cs_sgc_leaf_tiers; returns their number. */
  int (*tiers)(const cs_sg_cluster *c, const char **names, int max);
  /* Hierarchy levels above "node" (cs_hier_push), then cs_hier_finish. */
  void (*hierarchy)(const cs_sg_cluster *c, int64_t cores, cs_hierarchy *out);
  void (*free_data)(void *data); /* c->data; NULL: g_free */
} cs_sgc_topology;

/* The topologies (one file each). */
extern const cs_sgc_topology cs_sgc_flat, cs_sgc_torus, cs_sgc_fat_tree, cs_sgc_dragonfly;

struct cs_sg_cluster {
  const cs_sgc_topology *topo;
  void *data; /* the topology's */
  char *id, *prefix, *suffix;
  char *router; /* NULL: the cluster has no router (all but flat) */
  int64_t *radical, nhosts;
  double bw, lat;
  cs_sgc_policy policy;    /* of the topology's links */
  bool has_loopback;       /* loopback_bw > 0 || loopback_lat > 0 */
  double loopback_bw, loopback_lat;
  bool has_limiter;        /* limiter_link > 0 */
  double limiter_bw;
  bool limiter_by_radical; /* flat: the host limiter's name uses the radical */
  bool has_backbone;       /* bb_bw > 0 || bb_lat > 0 (used by flat only) */
  double bb_bw, bb_lat;
  cs_sgc_policy bb_policy;
  int64_t leaf_links, nlinks;
  int ntiers;
  const char *tier_name[CS_NETMAP_MAX_TIERS]; /* static strings, from topo->tiers */
  int limiter_tier, intra_tier;               /* indices of "limiter" (-1 if none) and "intra" */
};

/* ---- helpers for the topology files (sg_cluster.c) ---- */

/* For a build whose topology holds fewer hosts than the radical lists
 * (SimGrid creates the first n and ignores the other radicals): keeps the
 * first n hosts and renumbers the leaf links.  Call it before using
 * c->leaf_links. */
void cs_sgc_set_hosts(cs_sg_cluster *c, int64_t n);

/* Leaf links of host h: the id of its loopback / limiter, -1 if none. */
int64_t cs_sgc_loopback_id(const cs_sg_cluster *c, int64_t h);
int64_t cs_sgc_limiter_id(const cs_sg_cluster *c, int64_t h);
/* Appends "limiter" (if c->has_limiter) and "intra" to names[n..]; returns the new count. */
int cs_sgc_leaf_tiers(const cs_sg_cluster *c, const char **names, int n, int max);

/* Names (appended to out). */
void cs_sgc_host_name(const cs_sg_cluster *c, int64_t h, GString *out);        /* prefix radical suffix */
void cs_sgc_limiter_name(const cs_sg_cluster *c, uint64_t n, GString *out);    /* <id>_link_<n>_limiter */
/* "_UP" (up true) or "_DOWN" when c->policy is SPLITDUPLEX, else nothing. */
void cs_sgc_direction_suffix(const cs_sg_cluster *c, bool up, GString *out);
/* Links per pair of directions: 2 for SPLITDUPLEX, else 1. */
int cs_sgc_links_per_duplex(const cs_sg_cluster *c);

/* Route building: append id to links (up to cap) and count it in *n. */
static inline void cs_sgc_push(int32_t *links, int cap, int *n, int64_t id)
{
  if (*n < cap)
    links[*n] = (int32_t)id;
  (*n)++;
}

/* Topology parameters: "a,b,c" -> values (each in 1 .. max), as SimGrid's
 * std::stoi-based parsers accept them (strict here: digits only).  FALSE
 * with err naming what and topo_parameters otherwise. */
bool cs_sgc_parse_counts(const char *what, const char *text, char sep, int64_t *values, int max_values,
                         int *nvalues, int64_t max, GError **err);

#endif

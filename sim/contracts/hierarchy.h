/* The hierarchy view of a machine (DESIGN.md, "one topology truth"): what
 * topology-aware algorithms know of the network, on every platform.
 *
 * An ordered list of levels, top first: one or more network levels
 * (PERCS supernode, Dragonfly group, fat-tree pod, torus dimension ...),
 * then "node" (a host of the platform), then "core" (the ranks of a node).
 * Each level has a count (its entities in the whole machine) and the tier
 * of the links that join two of its entities inside one entity of the level
 * above (PERCS: "L2" joins supernodes, "L1" joins the nodes of a supernode,
 * "intra" the cores of a node); "" when none joins them directly.
 *
 * Every node has an index at every level above it (cs_hier_node_index):
 * by default the levels nest regularly over the node numbers (node g lies
 * in entity g / (nodes / count) of a level), else the platform gives a
 * function or a table.  Ranks map to nodes in order (rank r on node r /
 * cores) or spread (rank r on node r mod nodes, LAM-MPI's placement).
 *
 * The link tier of each hop of a route is the netmap's (netmap.h): the
 * hierarchy says which tiers exist and at which level, the netmap which
 * links a route crosses.
 *
 * The two-tier view of seed 001 (two_tier.h) is a projection of this one:
 * the top network level as supernodes, every level below it down to the
 * node as "nodes of a supernode" (cs_hier_two_tier).  A platform with a
 * dedicated link between two top-level entities (PERCS, Dragonfly) names
 * the nodes it leaves from and lands on (gateway, landing); elsewhere the
 * projection uses PERCS's spread rule (see cs_hier_two_tier).
 *
 * The view is a plain value: copy it freely; the platform that filled it
 * outlives it (a table or the wiring points into the platform's data).
 */
#ifndef COLLSIM_HIERARCHY_H
#define COLLSIM_HIERARCHY_H

#include "sim/contracts/two_tier.h"

#include <stdbool.h>
#include <stdint.h>

#define CS_HIER_MAX_LEVELS 10

typedef struct cs_hier_level {
  char name[24]; /* "supernode", "group", "router", "pod", "Z", "node", "core" ... */
  char tier[24]; /* tier of the links joining its entities inside one of the level above ("" if none) */
  int64_t count; /* entities of this level in the machine */
} cs_hier_level;

typedef struct cs_hierarchy cs_hierarchy;

struct cs_hierarchy {
  int nlevels;    /* top first; level[nlevels - 1] is "core" */
  int node_level; /* level[node_level] is "node"; levels above it are network levels */
  cs_hier_level level[CS_HIER_MAX_LEVELS];
  int64_t nodes, cores; /* hosts, and ranks per host */
  bool spread;          /* rank r on node r mod nodes (else r / cores) */
  /* Index of node g at level l < node_level.  NULL: table if set, else
   * regular nesting (g / (nodes / level[l].count)). */
  int64_t (*node_index)(const cs_hierarchy *h, int64_t node, int level);
  const int32_t *table; /* [g * node_level + l] when node_index is NULL (owned by the platform) */
  /* Top-level gateways for the two-tier projection (NULL: the spread rule). */
  int64_t (*gateway)(const cs_two_tier *t, int64_t from, int64_t to);
  int64_t (*landing)(const cs_two_tier *t, int64_t from, int64_t to);
  int64_t wiring[4]; /* the family's parameters for gateway and landing (copied into the two-tier view) */
};

/* A flat hierarchy: one network level "node" joined by `tier`, then "core". */
void cs_hier_flat(cs_hierarchy *h, int64_t nodes, int64_t cores, const char *tier);
/* Append a level (top first); returns its index. */
int cs_hier_push(cs_hierarchy *h, const char *name, const char *tier, int64_t count);
/* Finish a hierarchy whose levels were pushed: the node and core levels are
 * appended (node joined by node_tier, cores by "intra"). */
void cs_hier_finish(cs_hierarchy *h, int64_t nodes, int64_t cores, const char *node_tier);

/* A family's own name for a tier (every level joined by `from`). */
void cs_hier_rename_tier(cs_hierarchy *h, const char *from, const char *to);

/* A family's own name for a tier (every level joined by `from`). */
void cs_hier_rename_tier(cs_hierarchy *h, const char *from, const char *to);

/* Index of node g at level l (l == node_level: g; l > node_level: 0). */
int64_t cs_hier_node_index(const cs_hierarchy *h, int64_t node, int level);
/* The node of rank r, and rank r's index at level l (core: its core on the node). */
int64_t cs_hier_node_of(const cs_hierarchy *h, int64_t rank);
int64_t cs_hier_rank_index(const cs_hierarchy *h, int64_t rank, int level);
/* Network levels (those above the node level, plus the node level itself). */
int cs_hier_network_levels(const cs_hierarchy *h);
/* Level by name, or -1. */
int cs_hier_level_named(const cs_hierarchy *h, const char *name);
/* TRUE when every entity of level l holds the same number of nodes and they
 * are consecutive node numbers (what the two-tier projection needs). */
bool cs_hier_level_regular(const cs_hierarchy *h, int level);

/* The two-tier view (seed 001): supernodes = the top network level when it
 * is not the node level and is regular (else one supernode of every node);
 * nps = nodes / supernodes; cpn = cores.  Gateways: the platform's, else the
 * spread rule: the link from supernode a to b leaves node (b mod nps) of a
 * and lands on node (a mod nps) of b, as on PERCS. */
void cs_hier_two_tier(const cs_hierarchy *h, cs_two_tier *out);

/* "supernode:64 > node:16 > core:16" (g_free it). */
char *cs_hier_describe(const cs_hierarchy *h);

#endif

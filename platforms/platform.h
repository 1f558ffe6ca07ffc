/* The platform interface: one description of the simulated machine for
 * every subcommand (the tree constructions of seed 000, the collectives of
 * seed 001, the Allreduce benchmark of seed 002, and what comes next).
 *
 * A platform is named by one spec string, `KIND:ARGS[/PARAMS]`, given as
 * `--platform SPEC` to every subcommand, to `collsim platform`, and in
 * experiment files:
 *   torus:8x8x16/4         BG/P torus X x Y x Z, 4 cores per node (torus:auto/4: sized from n)
 *   percs:64,16,16         PERCS: supernodes, nodes per supernode, cores per node
 *   dragonfly:9,4,2,2,4    Dragonfly: groups, routers, global links, nodes per router[, cores]
 *   smp:8x4@300, smp:4w    cluster of SMP nodes on Ethernet (seed 002)
 *   file:PATH or a path    any SimGrid XML file (hosts taken in natural order of their names)
 * PARAMS are `key=value` items separated by commas (link bandwidths and
 * latencies with units, cores, the rank mapping ...); each family lists its
 * own (collsim platform --list).  A spec reads back from its description:
 * cs_platform_describe gives the canonical spec, parameters at their
 * default left out.
 *
 * Adding a platform family: one file platforms/<family>.c defining a
 * `cs_platform_family`, one line in platforms/registry.c, one line in
 * Makefile.am, one test (tests/unit/platforms.c runs every registered
 * family through the same checks).
 *
 * Every generated link carries a tier (L1, L2, T on PERCS and Dragonfly; X, Y,
 * Z on the torus: the dimension; eth on the SMP clusters; intra: a node's
 * loopback, which carries the messages between its cores) and has known
 * endpoints, so per-link and per-tier traffic (--links) works on every
 * platform.
 */
#ifndef COLLSIM_PLATFORM_H
#define COLLSIM_PLATFORM_H

#include "sim/contracts/hierarchy.h"
#include "sim/contracts/netmap.h"
#include "sim/contracts/two_tier.h"
#include "sim/contracts/units.h"

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

typedef struct cs_platform cs_platform;

/* Rank to node: in order (rank r on node r / cores) or spread (rank r on
 * node r mod nodes, as LAM-MPI placed processes on the SMP clusters). */
typedef enum { CS_MAP_IN_ORDER, CS_MAP_SPREAD } cs_rank_mapping;

/* One family of platforms (a row of platforms/registry.c). */
typedef struct cs_platform_family {
  const char *kind;        /* "torus" */
  const char *synopsis;    /* "torus:XxYxZ|auto[/C][,bw=..,lat=..]" */
  const char *description; /* one line */
  const char *params;      /* the PARAMS it takes, one line */
  /* Small specs of it, NULL-terminated, chosen to cover its shapes (with a
   * second tier and without, ranks in order and spread): the registry-wide
   * tests run every algorithm on them (tests/lib/platform_specs.h).  NULL
   * for a family that builds no platform (file). */
  const char *const *examples;
  /* The --cores option sets its cores per node (the families whose spec
   * does not give them, or gives them as a default). */
  bool cores_option;
  /* A host is one OS process whose cores are its ranks (FG-MPI's proclets,
   * the [C,P,M] model of seed 003): ranks of a host share the process's
   * memory and maps, and the communicator layer defaults to the paper's
   * protocols there. */
  bool host_is_os_process;
  /* Parse ARGS (the text after "KIND:", parameters included) into p (whose
   * family and defaults are set).  FALSE with err (CS_INPUT_ERROR) naming
   * the problem. */
  bool (*parse)(cs_platform *p, const char *args, GError **err);
  /* Fix what depends on the run (torus:auto needs n); NULL if nothing. */
  bool (*resolve)(cs_platform *p, int64_t n, GError **err);
  /* Canonical spec (g_free it). */
  char *(*describe)(const cs_platform *p);
  /* Write the SimGrid XML (resolved platforms only).  Hosts are node-0 ..
   * node-<nodes-1>.  Returns FALSE on a write error (errno set). */
  bool (*write_xml)(const cs_platform *p, FILE *out);
  /* Estimated number of links and size of the XML, to refuse absurd
   * platforms before writing them. */
  void (*estimate)(const cs_platform *p, int64_t *links, int64_t *xml_bytes);
  /* The hierarchy view (sim/contracts/hierarchy.h) of a resolved platform:
   * its levels, top first, down to node and core; the mapping of ranks is
   * set by cs_platform_hierarchy.  NULL: flat (one level "node"). */
  void (*hierarchy)(const cs_platform *p, cs_hierarchy *out);
  /* The links and routes of a resolved platform without SimGrid
   * (sim/contracts/netmap.h): the same link names, and the same routes, as
   * SimGrid gives for the XML write_xml writes (tests/unit/netmap_vs_simgrid.c
   * checks every ordered pair of nodes of every example).  NULL with err
   * when it cannot be built. */
  cs_netmap *(*netmap)(const cs_platform *p, GError **err);
  void (*free_data)(void *data);
} cs_platform_family;

struct cs_platform {
  const cs_platform_family *family;
  int64_t nodes;           /* hosts node-0 .. node-<nodes-1> (0 until resolved for torus:auto) */
  int cores;               /* ranks per node */
  int64_t nodes_per_machine; /* nodes sharing one machine (cpm: OS processes per machine); 0: one per machine */
  cs_rank_mapping mapping;
  /* Per-message software overheads the platform implies (seconds; the SMP
   * clusters charge CPU cycles per message), or NAN: the subcommand's own
   * default applies. */
  double o_send, o_recv;
  const char *model;       /* SimGrid network model the platform is calibrated for, or NULL */
  double header_bytes;     /* bytes every message carries on the wire besides its payload (0: none modelled) */
  double link_bw;          /* bandwidth of the slowest network link, bytes/s (the cost models' 1/beta); NAN: unknown */
  /* > 0: a message between two ranks of one host is a copy made by that
   * host's processor at this rate (bytes/s), not a network flow: only its
   * latency crosses the host's loopback link (cpm: the proclets of one OS
   * process).  0: the loopback link carries the bytes too. */
  double local_copy_bw;
  /* Messages between two hosts travel one at a time, in the order sent,
   * through one channel per ordered pair of hosts (cpm: the socket or
   * shared-memory queue joining two OS processes), instead of as concurrent
   * flows. */
  bool host_channels;
  const char *cpu;         /* the processor, for reports */
  char *label;             /* short name for reports ("4w"); NULL: the description */
  bool user_file;          /* a user's XML file: validate it in a child before SimGrid loads it */
  char *xml_path;          /* file platforms: the file itself */
  void *data;              /* the family's parameters */
};

/* ---- the registry (platforms/registry.c) ---- */
size_t cs_platform_family_count(void);
const cs_platform_family *cs_platform_family_at(size_t i);
const cs_platform_family *cs_platform_family_find(const char *kind);

/* ---- platforms ---- */

/* Parse a spec: KIND:ARGS with a registered KIND, or a path to a SimGrid XML
 * file (file:PATH, or any spec that names an existing file or ends in .xml).
 * NULL with err (CS_INPUT_ERROR) naming the problem. */
cs_platform *cs_platform_parse(const char *spec, GError **err);
void cs_platform_free(cs_platform *p);

/* Fix the shape for n ranks (torus:auto) and check that n ranks fit. */
bool cs_platform_resolve(cs_platform *p, int64_t n, GError **err);
bool cs_platform_resolved(const cs_platform *p);

char *cs_platform_describe(const cs_platform *p);
/* The label if the family set one, else the description (g_free it). */
char *cs_platform_label(const cs_platform *p);
int64_t cs_platform_slots(const cs_platform *p); /* nodes x cores */

/* Node of rank r of n ranks, by the platform's mapping. */
int64_t cs_platform_node_of(const cs_platform *p, int64_t rank);
/* The name of node g's host: node-<g> on the families, the g-th host in
 * natural order of names on a file (g_free it). */
char *cs_platform_host_name(const cs_platform *p, int64_t g);
/* host_of[r] for r < n (g_free it). */
int *cs_platform_host_map(const cs_platform *p, int64_t n);

/* The two-tier view for p ranks = slots (schedules see every core): the
 * projection of the hierarchy (cs_hier_two_tier). */
void cs_platform_two_tier(const cs_platform *p, cs_two_tier *out);
/* The hierarchy view (the family's, with the platform's rank mapping). */
void cs_platform_hierarchy(const cs_platform *p, cs_hierarchy *out);
/* The SimGrid-free links and routes (g_free with cs_netmap_free). */
cs_netmap *cs_platform_netmap(const cs_platform *p, GError **err);

/* Refuse platforms whose XML would exceed a sane size (before any work). */
bool cs_platform_check_size(const cs_platform *p, GError **err);

/* The platform as SimGrid XML: into path atomically (temporary file + rename),
 * or into a new file of the run's private temporary folder (removed at exit,
 * on Ctrl-C and on SIGTERM; see sim/contracts/tempdir.h): *path_out. */
bool cs_platform_write_file(const cs_platform *p, const char *path, GError **err);
bool cs_platform_write_temp(const cs_platform *p, char **path_out, GError **err);
/* The XML file a run loads: the user's file, or a temporary copy written now. */
bool cs_platform_xml_for_run(const cs_platform *p, char **path_out, bool *is_temp, GError **err);

/* Helpers for the families' parsers: "KEY=VALUE,..." items. */
typedef struct cs_spec_item {
  char *key, *value; /* value NULL for a bare item (e.g. torus cores "4") */
} cs_spec_item;
/* Split PARAMS at commas; each item "key=value" or bare.  Duplicate keys are
 * an error.  NULL-terminated by key == NULL; free with cs_spec_items_free. */
cs_spec_item *cs_spec_items(const char *kind, const char *text, GError **err);
void cs_spec_items_free(cs_spec_item *items);
/* For describe: append "<*sep>key=value" (value in units of q) unless
 * value == def, and make *sep ',' after the first one appended. */
void cs_spec_append_param(GString *s, char *sep, const char *key, double value, double def, cs_quantity q);
/* Split "ARGS/PARAMS" at the first '/'. */
void cs_spec_split(const char *args, char **shape, char **params);
/* A family's "SHAPE[/PARAMS]": shape() reads SHAPE, param() each item of
 * PARAMS in order (both into p->data); FALSE at the first refusal. */
typedef bool (*cs_spec_shape_fn)(cs_platform *p, const char *shape, GError **err);
typedef bool (*cs_spec_param_fn)(cs_platform *p, const cs_spec_item *item, GError **err);
bool cs_spec_parse(cs_platform *p, const char *kind, const char *args, cs_spec_shape_fn shape, cs_spec_param_fn param,
                   GError **err);
/* Integer fields "a,b,c" or "AxBxC" (sep), min..max fields, each in [1, 2^31-1]. */
bool cs_spec_counts(const char *kind, const char *text, char sep, const char *const *names, int min, int max,
                    int64_t *v, GError **err);

#endif

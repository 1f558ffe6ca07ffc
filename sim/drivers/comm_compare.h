/* `collsim comm compare` (issue 31): one MPI_Comm_split, the same members,
 * colours, keys and seed, run through several schemes, one row each, with
 * each scheme's ratios to the first.
 *
 * The schemes are read from the two registries, so a row added to either
 * appears here without a change:
 *  - every communicator-creation protocol with a split
 *    (algorithms/communicators/registry.c, CS_COMM_SPLIT), run by
 *    sim/drivers/comm_run.c;
 *  - every multi-colour tree construction of seed 000
 *    (algorithms/spanning_trees/registry.c: comm-split, rank-hash-split),
 *    run by sim/drivers/spanning_tree_run.c without the bracketing
 *    broadcast and reduction (their sim_time_s is the algorithm alone, as a
 *    protocol's is).  These are system-ranked: they take the colours but
 *    order every group by rank, so they honour --key rank only.
 *
 * The same split on both: every rank joins (seed 000's f = 1); the colour
 * of rank r is r mod K (--layout cyclic: comm split's cyclic layout and
 * tree's --color-rule mod) or r K / n (--layout block: comm split's block
 * layout, given to the tree driver as its group); keys as comm split's
 * --key (rank, reverse, random from --seed).
 *
 * The same units on both: simulated seconds, messages and bytes of the
 * scheme alone, and memory in bytes (the tree driver counts 8-byte words:
 * converted here, x 8, as comm_run.c does).  Peak memory is per rank (a
 * proclet on cpm platforms).  Each scheme runs in a child process
 * (SimGrid starts once per process: sim/engine/forked.h), on SimGrid or,
 * with comm.procs.native, on the native engine (LogGOPS, no links: the
 * platform then places ranks on hosts only). */
#ifndef COLLSIM_COMM_COMPARE_H
#define COLLSIM_COMM_COMPARE_H

#include "algorithms/spanning_trees/tree_algo.h"
#include "sim/drivers/comm_run.h"

typedef enum { CS_SCHEME_PROTOCOL, CS_SCHEME_TREE } cs_scheme_family;

typedef struct cs_split_scheme {
  const char *name;                /* the protocol's impl or the tree algorithm's name */
  cs_scheme_family family;
  const cs_comm_protocol *proto;   /* CS_SCHEME_PROTOCOL */
  const cs_tree_algo *tree;        /* CS_SCHEME_TREE */
} cs_split_scheme;

/* The schemes: the split protocols in registry order, then the
 * multi-colour tree constructions. */
size_t cs_split_scheme_count(void);
cs_split_scheme cs_split_scheme_at(size_t i);
bool cs_split_scheme_find(const char *name, cs_split_scheme *out);
/* "leader, mpich, comm-split, ..." (g_free it). */
char *cs_split_scheme_names(void);

typedef struct cs_compare_params {
  /* The split and the machine, as comm split takes them (proto unused;
   * colors, layout, key_rule, n, seed, shape, map, engine, platform_desc). */
  cs_comm_params comm;
  int tree_k;                      /* degree of the seed 000 schemes' trees */
  const int *host_of;              /* rank r on host host_of[r], or NULL (in order) */
} cs_compare_params;

/* Why a scheme cannot run this split (a static sentence), or NULL. */
const char *cs_split_scheme_refusal(const cs_split_scheme *s, const cs_compare_params *prm);

typedef struct cs_compare_row {
  const char *scheme, *family, *method;
  bool verified;
  double sim_time_s, wall_s;
  uint64_t messages, bytes, max_message_bytes;
  int64_t peak_mem_bytes_max;
  double peak_mem_bytes_mean;
  bool has_expected;
  uint64_t messages_expected;
  const char *messages_formula;    /* static text, or NULL */
} cs_compare_row;

/* The scheme's share of comm compare's progress (progress.h's stages):
 * its messages where a closed form gives them before the run (the native
 * engine's time grows with them), else n. */
double cs_compare_weight(const cs_compare_params *prm, const cs_split_scheme *s);

/* One scheme, in a child process.  0, 1 (internal failure; a run that does
 * not verify is a row with verified false, not a failure) or 2 (bad input). */
int cs_compare_run_one(const cs_compare_params *prm, const cs_split_scheme *s, cs_compare_row *row, GError **err);

/* The comparison as one record: the split, then one row per scheme with
 * its ratios to the first row's. */
cs_record *cs_compare_record(const cs_compare_params *prm, const cs_compare_row *rows, size_t nrows);
extern const cs_record_kind cs_comm_compare_record_kind;

/* The split protocols' message counts where the registry has none yet
 * (leader, mpich: their files' formulas), with their text: NULL when the
 * scheme has no closed form. */
const char *cs_split_formula(const cs_split_scheme *s);

#endif

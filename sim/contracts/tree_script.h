/* Run-time configurable reduce and broadcast trees (seed 002, Section 4):
 * for each rank, the ordered list of commands it executes in a reduce
 * ("receive and combine from rank X", "send to rank Y") and in a broadcast
 * ("receive from X", "send to Y").  Scripts are loaded from YAML at run time
 * (no recompiling), checked before use, and written back by the generators
 * (collsim tree-script).
 *
 * YAML form (every rank listed, in any order; [] for a rank with nothing to
 * do):
 *   # comment
 *   name: lam
 *   n: 32
 *   root: 0
 *   receive_order: scripted      # or: arrival
 *   reduce:
 *     0: [recv 1, recv 2, recv 4, recv 8, recv 16]
 *     12: [recv 13, recv 14, send 8]
 *     ...
 *   bcast:
 *     0: [send 1, send 2, send 4, send 8, send 16]
 *     ...
 * receive_order: "scripted" receives from the children in the order listed
 * (LAM-MPI); "arrival" combines the children's partial sums in order of
 * arrival (PastSet/PATHS): the listed receives of a rank that are not
 * separated by a send may then complete in any order. */
#ifndef COLLSIM_TREE_SCRIPT_H
#define COLLSIM_TREE_SCRIPT_H

#include <glib.h>
#include <stdbool.h>

typedef enum { CS_TS_RECV, CS_TS_SEND } cs_ts_kind;

typedef struct cs_ts_cmd {
  cs_ts_kind kind;
  int peer;
} cs_ts_cmd;

typedef struct cs_ts_list {
  cs_ts_cmd *cmd;
  int n, cap;
} cs_ts_list;

typedef enum { CS_TS_SCRIPTED_ORDER, CS_TS_ARRIVAL_ORDER } cs_ts_order;

typedef enum { CS_TS_REDUCE = 0, CS_TS_BCAST = 1 } cs_ts_phase;

/* Where a script read from YAML came from (NULL for scripts built in C). */
typedef struct cs_ts_lines {
  char *origin;
  int *rank_line[2]; /* per phase: line of rank r's key */
  int *first[2];     /* per phase: index of rank r's first command in cmd_line */
  int *cmd_line[2];  /* per phase: line of every command, ranks in order */
} cs_ts_lines;

typedef struct cs_tree_script {
  char *name;
  int n;     /* processes */
  int root;  /* 0 in every generator */
  cs_ts_order order;
  cs_ts_list *phase[2]; /* [CS_TS_REDUCE], [CS_TS_BCAST]: n lists each */
  cs_ts_lines *lines;
} cs_tree_script;

#define CS_TS_ERROR (cs_ts_error_quark())
GQuark cs_ts_error_quark(void);
enum { CS_TS_ERR_SYNTAX = 1, CS_TS_ERR_IO = 2, CS_TS_ERR_INVALID = 3 };

cs_tree_script *cs_ts_new(int n, const char *name);
void cs_ts_free(cs_tree_script *s);
void cs_ts_add(cs_tree_script *s, cs_ts_phase ph, int rank, cs_ts_kind kind, int peer);

/* YAML in and out.  Reading checks the syntax and the structure (errors name
 * the line) but not whether the script can run: sim/checks/tree_script_check.h
 * (cs_ts_parse, cs_ts_load) adds that. */
cs_tree_script *cs_ts_read(const char *text, size_t len, const char *origin, GError **err);
cs_tree_script *cs_ts_read_file(const char *path, GError **err);
char *cs_ts_to_yaml(const cs_tree_script *s);
/* Written atomically (temporary file + rename). */
bool cs_ts_save(const cs_tree_script *s, const char *path, GError **err);

/* Line of command i (from 0) of rank's list in a phase; i < 0 or past the
 * end: the line of the rank's key; 0 when the script was built in C. */
int cs_ts_line(const cs_tree_script *s, cs_ts_phase ph, int rank, int i);
const char *cs_ts_origin(const cs_tree_script *s); /* NULL when built in C */
const char *cs_ts_phase_name(cs_ts_phase ph);       /* "reduce", "bcast" */
const char *cs_ts_kind_word(cs_ts_kind k);          /* "send", "recv" */

/* Messages of one reduce + broadcast, and how many cross nodes when rank r
 * runs on node node_of[r]. */
int cs_ts_messages(const cs_tree_script *s);
int cs_ts_internode_messages(const cs_tree_script *s, const int *node_of);

#endif

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

typedef struct cs_tree_script {
  char *name;
  int n;     /* processes */
  int root;  /* 0 in every generator */
  cs_ts_order order;
  cs_ts_list *phase[2]; /* [CS_TS_REDUCE], [CS_TS_BCAST]: n lists each */
} cs_tree_script;

#define CS_TS_ERROR (cs_ts_error_quark())
GQuark cs_ts_error_quark(void);

cs_tree_script *cs_ts_new(int n, const char *name);
void cs_ts_free(cs_tree_script *s);
void cs_ts_add(cs_tree_script *s, cs_ts_phase ph, int rank, cs_ts_kind kind, int peer);

/* The checks of Section 4's scripts, each failure naming the rank and the
 * command: every rank present and peers in range; in each phase every send
 * matched by exactly one receive of the peer and vice versa (in the order
 * both list them); no cycle and no deadlock (executing the scripts, with
 * blocking receives, terminates); reduce: the root ends with the sum of all
 * n contributions, each counted once, and every other rank sends exactly
 * once; bcast: every rank ends with the root's value. */
bool cs_ts_validate(const cs_tree_script *s, GError **err);

/* YAML in and out.  Loading checks the syntax (errors name the line) and
 * then calls cs_ts_validate. */
cs_tree_script *cs_ts_load(const char *path, GError **err);
cs_tree_script *cs_ts_parse(const char *text, size_t len, const char *origin, GError **err);
char *cs_ts_to_yaml(const cs_tree_script *s);
/* Written atomically (temporary file + rename). */
bool cs_ts_save(const cs_tree_script *s, const char *path, GError **err);

/* Messages of one reduce + broadcast, and how many cross nodes when rank r
 * runs on node node_of[r]. */
int cs_ts_messages(const cs_tree_script *s);
int cs_ts_internode_messages(const cs_tree_script *s, const int *node_of);

#endif

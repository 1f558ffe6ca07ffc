/* BDD sets: the group operations of seed 003 (Kamal, Mirtaheri, Wagner,
 * "Scalability of Communicators and Groups in MPI"), Section 7.2, on top of
 * BuDDy (the package the paper used, Section 5.2).  Implemented in
 * algorithms/groupmaps/bdd.c beside the "bdd" group-map representation.
 *
 * A cs_bdd_set is a set of world ranks of one world, held as one BDD root
 * (bdd_addref'd) in BuDDy's single process-wide node table, over
 * L = max(1, ceil(lg world)) variables, variable 0 = the most significant
 * bit of the wid.  Union, intersection and difference go through
 * bdd_apply, so the results share graph nodes with their operands and with
 * every other set alive (Section 7.2: "the underlying BDD operations share
 * the underlying BDD graph structure").  Two sets of the same world are
 * equal exactly when their roots are equal (BDDs are canonical).
 *
 * Choices the paper leaves open (all ours):
 *  - sets of different worlds never mix: an operation on them fails with
 *    CS_GM_ERROR_INPUT;
 *  - building a set from wids or a range is not limited (only the group-map
 *    creation is, by cs_gm_limits); a BuDDy error (out of memory, or the
 *    node table cap of cs_bdd_package_set_max_table_nodes) makes the call
 *    return NULL with CS_GM_ERROR_LIMIT and a message naming BuDDy's error,
 *    never an abort;
 *  - cs_bdd_set_to_rep_state applies the same limits as creating the "bdd"
 *    representation from wids (nodes of the set's BDD against
 *    bdd_max_nodes, paths against bdd_max_paths), so a group reaches the
 *    same stored form, or the same refusal, either way.
 *
 * Not thread-safe: BuDDy is one global package per process.
 */
#ifndef COLLSIM_BDD_SETS_H
#define COLLSIM_BDD_SETS_H

#include "sim/contracts/groupmap.h"

#include <stddef.h>

/* The representation "bdd" (a CS_GM_SET), defined in bdd.c. */
extern const cs_gm_rep cs_gm_rep_bdd;

typedef struct cs_bdd_set cs_bdd_set;

/* wids[0..m-1] strictly increasing, each < world; 1 <= world <= 2^31.
 * CS_GM_ERROR_INPUT on bad input. */
cs_bdd_set *cs_bdd_set_from_wids(const cs_wid *wids, int64_t m, int64_t world, GError **err);

/* The range [lo, hi] (both included) of a world; empty when lo > hi.
 * Needs 0 <= lo and hi < world when lo <= hi. */
cs_bdd_set *cs_bdd_set_range(int64_t lo, int64_t hi, int64_t world, GError **err);

/* a OR b, a AND b, a AND NOT b, through bdd_apply.  The operands must be of
 * the same world; they are not modified. */
cs_bdd_set *cs_bdd_set_union(const cs_bdd_set *a, const cs_bdd_set *b, GError **err);
cs_bdd_set *cs_bdd_set_intersection(const cs_bdd_set *a, const cs_bdd_set *b, GError **err);
cs_bdd_set *cs_bdd_set_difference(const cs_bdd_set *a, const cs_bdd_set *b, GError **err);

/* Members (bdd_satcount over the L variables of the world), exact. */
int64_t cs_bdd_set_count(const cs_bdd_set *s);
int64_t cs_bdd_set_world(const cs_bdd_set *s);
/* Same world and same members (same BDD root). */
bool cs_bdd_set_equal(const cs_bdd_set *a, const cs_bdd_set *b);

/* BuDDy nodes of one set (bdd_nodecount; the terminals are not counted),
 * and of several sets together with shared nodes counted once
 * (bdd_anodecount).  n may be 0. */
int64_t cs_bdd_set_nodes(const cs_bdd_set *s);
int64_t cs_bdd_sets_nodes(const cs_bdd_set *const *sets, size_t n);

/* The members in increasing order, newly allocated (g_free), count in *m.
 * For an empty set: *m = 0 and a non-NULL empty array. */
cs_wid *cs_bdd_set_to_wids(const cs_bdd_set *s, int64_t *m);

/* A state of cs_gm_rep_bdd for this set (its paths extracted; the set
 * itself stays alive and unchanged), to be used with cs_gm_rep_bdd's
 * select/rank/decode/size/destroy.  lim NULL means cs_gm_limits_default().
 * NULL with CS_GM_ERROR_LIMIT when a limit is exceeded. */
void *cs_bdd_set_to_rep_state(const cs_bdd_set *s, const cs_gm_limits *lim, GError **err);

void cs_bdd_set_free(cs_bdd_set *s);

/* ---- the shared BuDDy package ---- */

/* Nodes currently allocated in BuDDy's node table (live, dead and free). */
int64_t cs_bdd_package_table_nodes(void);
/* Cap BuDDy's node table at max_nodes nodes (bdd_setmaxnodenum), 0 = no
 * cap.  A cap must exceed the current table (CS_GM_ERROR_INPUT otherwise).
 * A BDD operation that needs more nodes than the cap fails with
 * CS_GM_ERROR_LIMIT naming BuDDy's error.  Process-wide. */
bool cs_bdd_package_set_max_table_nodes(int64_t max_nodes, GError **err);

#endif

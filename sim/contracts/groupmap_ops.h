/* Group operations (seed 003, Section 7) on explicit groups, with MPI's
 * semantics, and the translation of ranks between two group maps.
 * Implemented in algorithms/groupmaps/group_ops.c (the input check in
 * algorithms/groupmaps/groupmap.c).
 *
 * A cs_gm_group is an MPI group before it becomes a communicator: its wids
 * in gid order (distinct, each < world).  The operations never modify their
 * operands and return a new group (Section 7's first scalability issue), in
 * MPI's order:
 *   union(A, B)        A's members in A's order, then B's members not in A
 *                      in B's order; so the union of two ordered groups can
 *                      be unordered: union([1,2,3], [0,1,2]) = [1,2,3,0];
 *   intersection(A, B) A's members that are in B, in A's order;
 *   difference(A, B)   A's members not in B, in A's order;
 *   incl(A, ranks)     A[ranks[0]], A[ranks[1]], ... in that order (may be
 *                      unordered); ranks distinct and in [0, |A|);
 *   excl(A, ranks)     A without the members at those ranks, in A's order;
 *   range_incl(A, t)   incl of the ranks of MPI_Group_range_incl's triplets
 *                      (first, last, stride), in triplet order: first,
 *                      first + stride, ... while not past last; a stride may
 *                      be negative (then first >= last), never 0;
 *   range_excl(A, t)   excl of the same ranks.
 * Membership is decided on sorted copies (binary search), so every operation
 * is O((|A| + |B|) lg) whatever the world size.
 *
 * Errors (CS_GM_ERROR_INPUT, message naming the entry): operands of
 * different worlds; a rank outside [0, |A|) or repeated; a triplet with
 * stride 0, or whose stride points away from last (MPI calls both
 * erroneous; we refuse them rather than guess).
 *
 * BDD sets (Section 7.2): when both operands are BDD sets
 * (algorithms/groupmaps/bdd_sets.h), cs_gm_bdd_union / _intersection /
 * _difference combine them through BuDDy's apply, so the results share
 * nodes with the operands.  A BDD set is a set: these implement Section
 * 7.1's proposal "a group as a set" (the result is the ordered set), not
 * MPI's order; cs_gm_group_from_bdd_set gives it as an ordered group.
 */
#ifndef COLLSIM_GROUPMAP_OPS_H
#define COLLSIM_GROUPMAP_OPS_H

#include "sim/contracts/groupmap.h"

/* The module core's input check (groupmap.c), for the strategies and the
 * group operations: world in [1, 2^31], m >= 0, each wid < world, distinct.
 * Sets *ordered (may be NULL).  CS_GM_ERROR_INPUT names the first offending
 * entry and its position. */
bool cs_gm_check_wids(const cs_wid *wids, int64_t m, int64_t world, bool *ordered, GError **err);
/* The same; for an unordered list also returns its sorted copy in
 * *sorted_out (g_free it; NULL when the list is ordered). */
bool cs_gm_check_wids_sorted(const cs_wid *wids, int64_t m, int64_t world, bool *ordered,
                             cs_wid **sorted_out, GError **err);

typedef struct cs_gm_group {
  int64_t world;
  int64_t m;
  cs_wid *wids; /* gid order, distinct, each < world */
} cs_gm_group;

/* A group of a copy of wids[0..m-1], checked (CS_GM_ERROR_INPUT). */
cs_gm_group *cs_gm_group_new(const cs_wid *wids, int64_t m, int64_t world, GError **err);
/* The whole world [0, world). */
cs_gm_group *cs_gm_group_world(int64_t world, GError **err);
/* The wids of a group map, decoded. */
cs_gm_group *cs_gm_group_from_map(cs_groupmap *map);
/* A group map of the group (cs_gm_create with this name). */
cs_groupmap *cs_gm_group_to_map(const cs_gm_group *g, const char *name, const cs_gm_limits *lim,
                                GError **err);
bool cs_gm_group_ordered(const cs_gm_group *g);
void cs_gm_group_free(cs_gm_group *g);

cs_gm_group *cs_gm_group_union(const cs_gm_group *a, const cs_gm_group *b, GError **err);
cs_gm_group *cs_gm_group_intersection(const cs_gm_group *a, const cs_gm_group *b, GError **err);
cs_gm_group *cs_gm_group_difference(const cs_gm_group *a, const cs_gm_group *b, GError **err);
cs_gm_group *cs_gm_group_incl(const cs_gm_group *a, const int64_t *ranks, int64_t n, GError **err);
cs_gm_group *cs_gm_group_excl(const cs_gm_group *a, const int64_t *ranks, int64_t n, GError **err);

typedef struct cs_gm_range {
  int64_t first, last, stride;
} cs_gm_range;

cs_gm_group *cs_gm_group_range_incl(const cs_gm_group *a, const cs_gm_range *ranges, int64_t n,
                                    GError **err);
cs_gm_group *cs_gm_group_range_excl(const cs_gm_group *a, const cs_gm_range *ranges, int64_t n,
                                    GError **err);

/* MPI_Group_translate_ranks between two group maps of one world, by
 * Section 7.1's composite formula
 *     gid_B = pi_B^-1(RANK_B(SELECT_A(pi_A(gid_A))))
 * where cs_gm_select(A, .) is SELECT_A o pi_A and cs_gm_rank(B, .) is
 * pi_B^-1 o RANK_B (identities for a map without permutation).  out[i] is
 * the gid in B of gids_a[i] of A, or -1 (MPI_UNDEFINED) when that member of
 * A is not in B.  CS_GM_ERROR_INPUT for different worlds or a gid outside
 * [0, |A|). */
bool cs_gm_translate_ranks(cs_groupmap *a, const int64_t *gids_a, int64_t n, cs_groupmap *b,
                           int64_t *out, GError **err);

/* ---- BDD sets (Section 7.2), through algorithms/groupmaps/bdd_sets.h ---- */
typedef struct cs_bdd_set cs_bdd_set;

/* The ordered set of a group's members as a BDD set (its order is lost). */
cs_bdd_set *cs_gm_group_to_bdd_set(const cs_gm_group *g, GError **err);
/* A BDD set as an ordered group. */
cs_gm_group *cs_gm_group_from_bdd_set(const cs_bdd_set *s);
cs_bdd_set *cs_gm_bdd_union(const cs_bdd_set *a, const cs_bdd_set *b, GError **err);
cs_bdd_set *cs_gm_bdd_intersection(const cs_bdd_set *a, const cs_bdd_set *b, GError **err);
cs_bdd_set *cs_gm_bdd_difference(const cs_bdd_set *a, const cs_bdd_set *b, GError **err);

#endif

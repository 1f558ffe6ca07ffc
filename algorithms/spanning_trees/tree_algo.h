/* Contract between the tree-construction algorithms (seed 000) and the driver.
 *
 * The driver (sim/drivers/spanning_tree_run.c) starts one simulated process per rank of the
 * parent group, brackets the algorithm between a broadcast on the parent tree
 * and a reduction on the new tree, and verifies what every process reports in
 * its cs_tree_node.  An algorithm sees only its cs_proc (sim/contracts/msg.h) and the
 * local facts in cs_tree_ctx: whether this process joins, and its colour.
 */
#ifndef COLLSIM_TREE_ALGO_H
#define COLLSIM_TREE_ALGO_H

#include "sim/contracts/msg.h"

/* Tags below CS_TAG_ALGO_BASE belong to the driver (bracket messages). */
#define CS_TAG_ALGO_BASE 16

typedef struct cs_tree_ctx {
  int n;           /* size of the parent group; its tree is the k-ary heap */
  int k;           /* degree of the parent tree and of the new tree */
  int colors;      /* number of colours (new groups) */
  int is_member;   /* does this process join a new group? */
  int color;       /* its colour in [0, colors) when a member */
  /* Content of an allgather of (colour, key) pairs: colour of any rank, or -1
   * when that rank does not join.  Only an algorithm that has *received* such
   * an allgather (comm-split, with virtual payloads) may call it: it decodes the
   * payload, it is not an oracle. */
  int (*color_of)(const struct cs_tree_ctx *ctx, int rank);
  const void *color_data;
} cs_tree_ctx;

/* What a process knows when the algorithm returns. Non-members leave
 * member = 0 and touch nothing else. */
typedef struct cs_tree_node {
  int member;
  int color;
  int parent;      /* parent-group id of its parent in the new tree, -1 at a root */
  int nchildren;
  int *children;   /* parent-group ids, allocated with cs_alloc (held memory) */
} cs_tree_node;

typedef void (*cs_tree_run_fn)(cs_proc *p, const cs_tree_ctx *ctx, cs_tree_node *out);

/* The drawn group as a message-count formula sees it (the driver's, not a
 * process's knowledge). */
typedef struct cs_tree_shape {
  int n, k, colors;
  const int32_t *color;   /* colour of each rank 0..n-1, -1 when it does not join */
  const int64_t *m_color; /* members per colour */
} cs_tree_shape;

/* The exact number of messages the algorithm sends (the driver's bracket
 * not included), from the group alone: its formula, documented at the top of
 * its file and checked against runs by tests/unit/spanning_trees.c.  The driver
 * measures progress against it. */
typedef uint64_t (*cs_tree_messages_fn)(const cs_tree_shape *s);

/* The sum of cs_message_work (sim/contracts/msg.h) over the same messages,
 * for an algorithm whose message sizes differ widely: the progress line then
 * weighs each delivered message by its size. */
typedef double (*cs_tree_work_fn)(const cs_tree_shape *s);

typedef struct cs_tree_algo {
  const char *name;
  const char *description;
  cs_tree_run_fn run;
  int multicolor;                /* accepts colors > 1 */
  cs_tree_messages_fn messages;  /* NULL: no closed form (data-dependent) */
  cs_tree_work_fn work;          /* total cs_message_work of its messages, for the
                                    progress line; NULL: it counts messages */
  /* `messages` as a formula over the tree record's fields (n, m, k, s,
   * root_joins; issue 32), for --expect-messages and the reader; NULL
   * where there is none. */
  const char *messages_formula;
} cs_tree_algo;

/* The quantities the exact counts depend on besides n, m and k, reported
 * with every run (the tree record's s and root_joins):
 * s = non-root vertices of the parent tree (the k-ary heap over 0..n-1)
 * whose subtree holds a member, any colour (algorithms/spanning_trees/rank_hash.c). */
uint64_t cs_tree_vertices_above_members(const cs_tree_shape *s);

/* The registry (algorithms/spanning_trees/registry.c). */
extern const cs_tree_algo cs_tree_algos[];
extern const int cs_tree_algo_count;
const cs_tree_algo *cs_tree_algo_find(const char *name);

#endif

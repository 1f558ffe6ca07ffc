/* Shared helpers of the two-tier SDTA algorithms (seed 001, Section 5).
 *
 * Machine: the two-tier projection of the platform's hierarchy
 * (sim/contracts/hierarchy.h, cs_hier_two_tier): sn supernodes of nps nodes
 * of cpn cores, ranks in order.  The supernodes are the hierarchy's top
 * network level, the nodes of a supernode everything below it down to the
 * node:
 *   - PERCS (supernode > node) and Dragonfly (group > router > node): the
 *     paper's two tiers, the gateways the platform's own L2 links;
 *   - a machine with more network levels (a k-ary L-tree: pods of the top
 *     switch level; a torus: its last dimension's planes) runs the same
 *     algorithms on its top level and treats every level below as one flat
 *     tier: a node of the supernode is a node, whatever switches or
 *     dimensions join it to the others.  There is no dedicated link between
 *     two supernodes there, so the gateway of supernode s towards u is node
 *     (u mod nps) of s, landing on node (s mod nps) of u (PERCS's rule);
 *   - a machine with one network level (an SMP cluster, a flat XML file) or
 *     an irregular top level (supernodes of unequal sizes in an XML file)
 *     is one supernode of every node: the algorithms reduce to their
 *     intra-supernode phases.
 * The algorithms never see the platform, only this view.  "Node (s, n)" is node n (0..nps-1) of supernode s; its leader is
 * its core 0, which acts for the node (as in the paper).  The L2 link from
 * supernode s to supernode u leaves node gateway(s, u) of s and lands on node
 * landing(s, u) of u (cs_net_gateway / cs_net_landing: never a fixed rule).
 *
 * TAGS.  tt_tag(prm, step, seg, pair): `step` numbers the phase of an
 * algorithm (< TT_STEPS), `seg` the message when one phase sends several
 * messages between the same two ranks (segments of a set, see below), and
 * `pair` = (index of the sender) + (index of the receiver) inside their node
 * or supernode, or 0 when the pair is otherwise unique in the phase.  With
 * pair = sender + receiver index, a loop over receivers (or over senders)
 * increases the tag by one per iteration, exactly as CS_OP_LOOP does.
 *
 * SETS OF SUPERNODES OR CHUNKS are sent as few messages as possible: an
 * ascending list is cut greedily into arithmetic progressions (tt_prog), one
 * message each, carrying strided units (PERCS: a node's supernodes
 * {n, n+nps, n+2nps, ...} are one progression). */
#ifndef COLLSIM_TWOTIER_H
#define COLLSIM_TWOTIER_H

#include "sim/contracts/schedule.h"

#define TT_STEPS 12

/* Where a rank sits. */
typedef struct tt_where {
  int64_t sn;     /* supernode */
  int64_t node;   /* node inside the supernode */
  int64_t core;   /* core inside the node */
  int64_t leader; /* rank of core 0 of the node */
} tt_where;

tt_where tt_locate(const cs_sched_params *prm, int64_t rank);
/* Rank of core 0 of node n of supernode s. */
int64_t tt_leader(const cs_sched_params *prm, int64_t s, int64_t n);
int64_t tt_gateway(const cs_sched_params *prm, int64_t from, int64_t to);
int64_t tt_landing(const cs_sched_params *prm, int64_t from, int64_t to);
/* Ranks per supernode (nps * cpn). */
int64_t tt_ranks_per_supernode(const cs_sched_params *prm);
/* Units per rank block (nunits / p). */
int64_t tt_units_per_rank(const cs_sched_params *prm);

/* ---- tags ---- */
int32_t tt_tag(const cs_sched_params *prm, int step, int64_t seg, int64_t pair);
/* plan(): fail (naming the algorithm) if the tags of this shape overflow int32. */
bool tt_check_tags(const cs_sched_params *prm, const char *algo, GError **err);
/* Every tag the two-tier algorithms use on prm's shape is below this. */
int64_t tt_tag_span(const cs_sched_params *prm);

/* ---- units ---- */
/* The blocks of every rank of supernode s (per-rank layout, also the
 * reductions' part of supernode s when nunits = p). */
cs_units tt_supernode_units(const cs_sched_params *prm, int64_t s);
/* The blocks of the ranks of node n of supernode s. */
cs_units tt_node_units(const cs_sched_params *prm, int64_t s, int64_t n);

/* ---- arithmetic progressions ---- */
typedef struct tt_prog {
  int64_t first, step, count;
} tt_prog;

/* Cuts the ascending list x[0..n) greedily into maximal progressions; out
 * has room for n.  Returns the number of progressions. */
size_t tt_progressions(const int64_t *x, size_t n, tt_prog *out);
/* Units of the items of g when item i is units [i*scale, (i+1)*scale). */
cs_units tt_prog_units(tt_prog g, int64_t scale);

/* ---- buckets: lists of supernodes (or chunks) keyed by a node ---- */
typedef struct tt_buckets {
  int64_t nb;     /* buckets 0..nb-1 */
  int64_t *start; /* nb + 1 offsets into item */
  int64_t *item;  /* ascending inside a bucket when added in ascending order */
} tt_buckets;

/* Counting sort of n (key, item) pairs into nb buckets (stable). */
void tt_buckets_build(tt_buckets *b, int64_t nb, size_t n, const int64_t *key, const int64_t *item);
void tt_buckets_free(tt_buckets *b);
int64_t tt_bucket_size(const tt_buckets *b, int64_t k);
const int64_t *tt_bucket(const tt_buckets *b, int64_t k);
/* Bucket n: supernodes u != s, ascending, whose L2 link from s leaves node n of s. */
void tt_by_gateway(const cs_sched_params *prm, int64_t s, tt_buckets *b);
/* Bucket n: supernodes t != u, ascending, whose L2 link to u lands on node n of u. */
void tt_by_landing(const cs_sched_params *prm, int64_t u, tt_buckets *b);

/* One message per progression of bucket k (items scaled by `scale` units):
 * op `kind` with peer, tag tt_tag(step, progression index, pair). */
void tt_ops_bucket(cs_oplist *out, const cs_sched_params *prm, cs_op_kind kind, int64_t peer, const tt_buckets *b,
                   int64_t k, int64_t scale, int step, int64_t pair);

/* ---- loops over the other members of a node or supernode ---- */
/* Op `kind` with member j of a group (rank rank0 + j*rank_step, j in [0,
 * count)), for every j != self, as at most two loops: tag tag0 + j, units
 * u0 shifted by j*unit_step. */
void tt_ops_others(cs_oplist *out, const cs_sched_params *prm, cs_op_kind kind, int64_t rank0, int64_t rank_step,
                   int64_t count, int64_t self, int32_t tag0, cs_units u0, int64_t unit_step);
/* Same over the members j in [lo, hi). */
void tt_ops_range(cs_oplist *out, const cs_sched_params *prm, cs_op_kind kind, int64_t rank0, int64_t rank_step,
                  int64_t lo, int64_t hi, int32_t tag0, cs_units u0, int64_t unit_step);
/* The node-level instance: the leaders of the other nodes of supernode s. */
void tt_ops_other_nodes(cs_oplist *out, const cs_sched_params *prm, cs_op_kind kind, int64_t s, int64_t self,
                        int32_t tag0, cs_units u0, int64_t unit_step);
void tt_ops_one(cs_oplist *out, cs_op_kind kind, int64_t peer, int32_t tag, cs_units u);

/* ---- inside a node (core 0 acts for the node), one step each ---- */
void tt_node_scatter(cs_oplist *out, const cs_sched_params *prm, int64_t rank, int step); /* blocks */
void tt_node_gather(cs_oplist *out, const cs_sched_params *prm, int64_t rank, int step);
void tt_node_bcast(cs_oplist *out, const cs_sched_params *prm, int64_t rank, int step); /* all units */
/* Owner-based clique reduction of Sec. 5.4 among the cores of a node, result
 * collected at core 0 (steps `step` and `step`+1).  Core c owns units
 * [c*q, (c+1)*q), q = nunits / cpn (nunits must be a multiple of cpn). */
void tt_node_reduce(cs_oplist *out, const cs_sched_params *prm, int64_t rank, int step);

/* ---- the supernode stage of the reductions (Sec. 5.4) ---- */
/* Ownership among the nodes of supernode s of the supernode parts P_u (part u
 * = tt_supernode_units(u)): P_u, u != s, belongs to gateway(s, u) (it leaves
 * from there); P_s to the node owning the fewest parts (lowest index on a
 * tie), which is node s mod nps under the PERCS wiring. */
int64_t tt_own_part_owner(const tt_buckets *by_gateway);
/* Steps `step` (node level: every node sends each owner its parts, owners
 * combine) and `step`+1 (supernode level: owner gateway(s, u) sends P_u to
 * landing(s, u); the landing node starts (RECV) or adds to (RECV_REDUCE) its
 * partial sum of P_u).  Called for a node leader; leaves P_s's partial sums on
 * the holders of supernode s (tt_part_holders). */
/* The last two steps of gather and reduce, for the leader of node w->node of
 * supernode 0: receive, from the gateway of every supernode t whose L2 link
 * to supernode 0 lands here, t's part (tag step_over_l2), then send what
 * landed to the root in buckets of `scale` units per supernode (tag
 * step_to_root); the root receives them. */
void tt_landed_to_root(cs_oplist *out, const cs_sched_params *prm, const tt_where *w, int step_over_l2,
                       int step_to_root, int64_t scale);

/* The direct variants of Sec. 5.1 (last paragraph): every rank's block goes
 * straight between it and the root (rank 0) in one message, tag rank - 1;
 * the root sends them (scatter, root_sends) or receives them (gather) in rank
 * order, as one loop. */
void tt_direct_with_root(cs_oplist *out, const cs_sched_params *prm, int64_t rank, bool root_sends);

void tt_reduce_exchange(cs_oplist *out, const cs_sched_params *prm, const tt_where *w, int step);
/* holder[n] (nps entries): does node n of supernode s hold a partial sum of
 * P_s after tt_reduce_exchange (its owner, or an L2 landing node)? */
void tt_part_holders(const cs_sched_params *prm, int64_t s, bool *holder);
int64_t tt_count_holders(const cs_sched_params *prm, int64_t s);

/* ---- costs (sim/contracts/cost.h) ----
 * The steps of the algorithms above, as supernode 0 runs them (the loads of
 * its nodes stand for every supernode's).  Each is 0 when it sends nothing. */
/* Bytes of one rank's block (b = n/p) and of a supernode's blocks. */
double tt_block_bytes(const cs_sched_params *prm);
double tt_supernode_bytes(const cs_sched_params *prm);
/* A node sends `out` messages of `bytes` at once, one to each of `out`
 * nodes at `level`, and receives `in` such messages (o_send, o_recv each,
 * its port carrying the larger number); tt_cost_out: (k, 1); tt_cost_in:
 * (1, k). */
double tt_cost_exchange(const cs_cost_params *c, cs_cost_level level, int64_t out, int64_t in, double bytes);
double tt_cost_out(const cs_cost_params *c, cs_cost_level level, int64_t k, double bytes);
double tt_cost_in(const cs_cost_params *c, cs_cost_level level, int64_t k, double bytes);
/* The most L2 links leaving (tt_most_gateways) or landing on
 * (tt_most_landings) one node of supernode s, over nodes [from, nps). */
int64_t tt_most_gateways(const cs_sched_params *prm, int64_t s, int64_t from);
int64_t tt_most_landings(const cs_sched_params *prm, int64_t s, int64_t from);
/* L2 links leaving (landing on) node n of supernode s. */
int64_t tt_gateways_at(const cs_sched_params *prm, int64_t s, int64_t n);
int64_t tt_landings_at(const cs_sched_params *prm, int64_t s, int64_t n);
/* tt_node_scatter, tt_node_gather (m: bytes per core) and tt_node_bcast. */
double tt_cost_node_spread(const cs_sched_params *prm, const cs_cost_params *c, double m);
double tt_cost_node_collect(const cs_sched_params *prm, const cs_cost_params *c, double m);
/* tt_node_reduce's two steps, and tt_reduce_exchange's two. */
double tt_cost_node_reduce(const cs_sched_params *prm, const cs_cost_params *c);
double tt_cost_reduce_exchange(const cs_sched_params *prm, const cs_cost_params *c);
/* Gather's and reduce's last steps (sn > 1): the supernodes' parts over L2
 * to supernode 0, then to the root at once. */
double tt_cost_parts_to_root(const cs_sched_params *prm, const cs_cost_params *c);
/* Their formulas (the steps, then what the counts are). */
#define TT_REDUCE_EXCHANGE_COST \
  "fan_0(cpn-1, n/cpn) + (cpn-1)*(n/cpn)*g + fanin_0(cpn-1, n/cpn) + [nps > 1: fan_1(owners-1, ko*S), nps-1 " \
  "in, + (nps-1)*ko*S*g] + [sn > 1: xchg_g(kG, S) + kG*S*g]"
#define TT_REDUCE_EXCHANGE_WHERE "S = n/sn, ko: most parts a node owns, kG: most L2 links of a node (out or in)"
/* The direct variants: the root sends (receives) p-1 blocks at once; the
 * link from the root's node to a gateway node carries the blocks of every
 * supernode behind it. */
double tt_cost_direct(const cs_sched_params *prm, const cs_cost_params *c, bool root_sends);
#define TT_DIRECT_COST(overheads) \
  overheads " + a2 + max((cpn*b + kg*S)*B2, (p-cpn)*b*Bp, S*BL), S = nps*cpn*b, kg: most L2 links of a node of " \
            "supernode 0 but the root's (a, B: the farthest level present)"

#endif

/* "wtr": the Wavelet Tree on Runs of seed 003, Section 5.5 (Kamal,
 * Mirtaheri, Wagner), after Barbay and Navarro, "Compressed representations
 * of permutations, and applications", STACS 2009, Section 3 (WTR).
 *
 * WHAT IS STORED.  The wids in gid order are cut into their rho maximal
 * strictly ascending runs (run r covers gids [start[r], start[r + 1])).  The
 * runs are the leaves, left to right, of a binary tree; each internal node v,
 * whose subtree covers the contiguous gids [a, b) split at c between its
 * children, stores b - a bits: the members of [a, b) in sorted (merged) wid
 * order, bit 1 when the member comes from the right child.  This is merge
 * sort run backwards: merging the children's sorted sequences writes the
 * bits.  pi(gid) = the position of wid(gid) among the sorted members.
 *  - pi(gid): find gid's run (binary search on the run starts), start at its
 *    offset in the run and walk up: at each parent the position becomes
 *    select1 (right child) or select0 (left child) of it in the parent's bits.
 *    The root's position is pi(gid).
 *  - pi_inv(pos): walk down from the root: the bit at pos picks the child and
 *    rank1 / rank0 gives the position there; at the leaf, gid = start + pos.
 * Both take O(depth) rank/select steps, O(1 + log rho) for the tree below
 * on balanced run lengths (O(1 + H(run lengths)) on average over gids).
 *
 * CHOICES THE PAPER LEFT OPEN.
 *  - Tree shape: an optimal alphabetic tree on the run lengths, built with
 *    GARSIA-WACHS (not Hu-Tucker as the paper and Barbay-Navarro say; the two
 *    give trees of the same optimal cost sum(len_r * depth_r), which is
 *    exactly the number of node bits).  Phase 1 scans the weights keeping a
 *    working sequence: the leftmost pair (k-1, k) with w[k-1] <= w[k+1] is
 *    combined, the sum y moved left past every strictly lighter item (to
 *    just after the nearest item >= y) and the neighbourhood re-examined;
 *    this gives every leaf's depth.  The working sequence is a treap with
 *    implicit keys, so phase 1 is O(rho log rho) expected whatever the
 *    weights (an array is quadratic on monotone profiles).  Phase 2 rebuilds
 *    the alphabetic tree with those depths left to right with a stack (two
 *    entries of equal depth become one of depth - 1).  Tested against an
 *    O(rho^3) dynamic programme for rho <= 40.  (Moving past lighter-or-equal
 *    items instead gives the same cost on every test; we keep the strict
 *    form.)
 *  - Build time O(m log rho): O(m) to count the runs, O(rho log rho) for the
 *    shape, O(T) merging with T <= m ceil(lg rho) node bits, O(T / 64) for
 *    the directories.  About 40 ms at m = 10^6 with 100 runs, 65 ms with
 *    10,000, 135 ms with 65,000 (2.1 GHz EPYC).
 *  - Bit vectors: all node vectors are concatenated (nodes in post-order, the
 *    order phase 2 creates them) in ONE bit vector with one rank/select
 *    directory (bitvec.h); each node keeps its offset and the ones before it,
 *    so its rank and select are those of the big vector shifted.  One
 *    directory instead of one per node avoids a per-node directory cost when
 *    there are many short runs (the paper's Table 2 group 4).  The vectors
 *    are plain, not entropy-compressed.
 *  - Runs are maximal strictly ascending (wids are distinct); an ordered
 *    group has rho = 1 and no tree (pi is the identity); m = 0 has rho = 0.
 *  - The run limit: creation is refused (CS_GM_ERROR_LIMIT) when rho >
 *    lim->wtr_max_runs, after counting the runs in O(m) and before any
 *    allocation; the paper (Section 5.5) does the same "to avoid an
 *    explosion in the working memory" without giving the value.  Its Table 2
 *    accepts a monotonically decreasing group of 10,000 (10,000 runs) and
 *    refuses a random permutation of 10^6 (about 500,000 runs), so the limit
 *    lies in [10,000, 500,000).  We keep the default 2^16 (gm_common.c): it
 *    is in that range; the working memory of the build is O(m) whatever rho
 *    (two m-wid buffers, the node bits, ~100 bytes per run in phase 1), so the
 *    limit bounds the cost of a useless structure rather than memory: at
 *    2^16 runs the tree is 16-17 levels deep (pi about 1.2 us at m = 10^6)
 *    and its per-run metadata (~320 bits per run, 2.6 MB) stays below a
 *    10^6-member array; the strategies compare bpg anyway.
 *
 * SIZE in bits (what is stored; scalars such as m and rho not counted):
 *    bitvectors  = payload of the concatenated node bits: T = sum over the
 *                  runs of len_r * depth_r (the optimal alphabetic cost),
 *                  stored as 64 (floor(T / 64) + 1) bits (bitvec.h)
 *    directories = their rank/select directories, by bitvec.h's formula:
 *                  128 (floor(T / 512) + 1) + 32 (ceil(T1 / 512) + 1)
 *                  + 32 (ceil(T0 / 512) + 1), T1 ones and T0 zeros
 *    runs        = the run starts, 32 (rho + 1) (a 32-bit gid per run and
 *                  the end sentinel m), plus the tree: 32 rho for each
 *                  leaf's parent link, 256 (rho - 1) for the internal nodes
 *                  (64-bit offset, 64-bit ones before it, two 32-bit child
 *                  links, a 32-bit parent link and 32 bits of padding)
 * When rho <= 1 there is no tree: only the run starts (and leaf links) count.
 * size().runs = rho, size().paths = -1.
 */
#include "algorithms/groupmaps/wtr.h"

#include "algorithms/groupmaps/bitvec.h"

#include <string.h>

/* Node ids (2 rho - 1 of them in Garsia-Wachs) and parent links (node << 1
 * | side) are 32-bit: whatever lim->wtr_max_runs says, rho <= 2^30. */
#define WTR_HARD_MAX_RUNS (INT64_C(1) << 30)

/* An internal node.  Child and parent links: a child >= 0 is an internal
 * node, < 0 the leaf (run) ~child; a parent link is (node << 1) | side with
 * side 1 for a right child, -1 at the root. */
typedef struct wtr_node {
  uint64_t off;      /* first bit of the node's vector in the big vector */
  uint64_t ones;     /* ones of the big vector before off */
  int32_t child[2];
  int32_t up;
  int32_t unused;
} wtr_node;

typedef struct wtr_state {
  int64_t m;
  int64_t rho;
  uint32_t *start;   /* rho + 1 run starts, start[rho] = m */
  int32_t *leaf_up;  /* rho parent links (-1 when rho == 1) */
  wtr_node *node;    /* rho - 1 internal nodes, post-order, root last */
  int32_t root;      /* -1 when rho <= 1 */
  uint64_t tree_bits;
  cs_bitvec bits;    /* the concatenated node vectors (unused when rho <= 1) */
} wtr_state;

/* ------------------------------------------------------------------------ */
/* Garsia-Wachs, phase 1: leaf depths of an optimal alphabetic tree.        */

/* The working sequence is a treap with implicit keys (positions), each item
 * holding its subtree's size and largest weight, so that reading position p,
 * cutting the sequence and finding the rightmost item of a prefix with a
 * weight >= y all take O(log rho) expected time.  A plain array would need
 * O(distance) per move (quadratic on long monotone weight profiles: 0.5 s at
 * rho = 65,536).  Priorities are a fixed hash of the slot number: the shape
 * does not depend on the weights, and runs are reproducible. */
typedef struct gw_item {
  int64_t w;       /* weight */
  int64_t maxw;    /* largest weight in the subtree */
  int32_t id;      /* phase-1 tree node: leaves 0..n-1, combined n.. */
  int32_t size;    /* items in the subtree */
  int32_t left;    /* children, 0 = none (slot 0 is never used) */
  int32_t right;
  uint64_t prio;
} gw_item;

typedef struct gw_work {
  int64_t n;
  gw_item *it;      /* 2n slots */
  int32_t slots;    /* slots used, from 1 */
  int32_t root;
  int64_t top;      /* items in the working sequence */
  int32_t *kids;    /* 2 per combined node, at 2 (id - n) */
  int32_t next_id;
  int64_t *pending; /* items to re-examine, as distances from the end */
} gw_work;

static uint64_t gw_priority(uint64_t x)
{
  x += UINT64_C(0x9e3779b97f4a7c15);
  x = (x ^ (x >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
  x = (x ^ (x >> 27)) * UINT64_C(0x94d049bb133111eb);
  return x ^ (x >> 31);
}

static int32_t gw_new_item(gw_work *g, int64_t w, int32_t id)
{
  int32_t t = g->slots++;
  g->it[t] = (gw_item){.w = w, .maxw = w, .id = id, .size = 1, .left = 0, .right = 0, .prio = gw_priority((uint64_t)t)};
  return t;
}

static void gw_pull(gw_item *it, int32_t t)
{
  int32_t l = it[t].left, r = it[t].right;
  int64_t mx = it[t].w;
  if (l && it[l].maxw > mx)
    mx = it[l].maxw;
  if (r && it[r].maxw > mx)
    mx = it[r].maxw;
  it[t].maxw = mx;
  it[t].size = 1 + (l ? it[l].size : 0) + (r ? it[r].size : 0);
}

static int32_t gw_merge(gw_item *it, int32_t a, int32_t b)
{
  if (!a || !b)
    return a ? a : b;
  if (it[a].prio > it[b].prio) {
    it[a].right = gw_merge(it, it[a].right, b);
    gw_pull(it, a);
    return a;
  }
  it[b].left = gw_merge(it, a, it[b].left);
  gw_pull(it, b);
  return b;
}

static int64_t gw_left_size(const gw_item *it, int32_t t)
{
  return it[t].left ? it[it[t].left].size : 0;
}

/* Cuts t into its first k items (*a) and the rest (*b). */
static void gw_split(gw_item *it, int32_t t, int64_t k, int32_t *a, int32_t *b)
{
  if (!t) {
    *a = *b = 0;
    return;
  }
  int64_t ls = gw_left_size(it, t);
  if (k <= ls) {
    gw_split(it, it[t].left, k, a, &it[t].left);
    gw_pull(it, t);
    *b = t;
  } else {
    gw_split(it, it[t].right, k - ls - 1, &it[t].right, b);
    gw_pull(it, t);
    *a = t;
  }
}

/* The item at position k of t. */
static int32_t gw_at(const gw_item *it, int32_t t, int64_t k)
{
  for (;;) {
    int64_t ls = gw_left_size(it, t);
    if (k == ls)
      return t;
    if (k < ls) {
      t = it[t].left;
    } else {
      k -= ls + 1;
      t = it[t].right;
    }
  }
}

/* Position of the rightmost item of t with weight >= y, or -1. */
static int64_t gw_last_at_least(const gw_item *it, int32_t t, int64_t y)
{
  int64_t base = 0;
  while (t) {
    int32_t r = it[t].right;
    if (r && it[r].maxw >= y) {
      base += gw_left_size(it, t) + 1;
      t = r;
    } else if (it[t].w >= y) {
      return base + gw_left_size(it, t);
    } else {
      t = it[t].left;
    }
  }
  return -1;
}

static int64_t gw_weight_at(const gw_work *g, int64_t k)
{
  return g->it[gw_at(g->it, g->root, k)].w;
}

/* Combines items k-1 and k into one item of their summed weight y, placed
 * right after the rightmost item before them weighing >= y (at the front if
 * none): Garsia-Wachs' move left past every lighter item.  Returns its
 * position. */
static int64_t gw_combine(gw_work *g, int64_t k)
{
  gw_item *it = g->it;
  int32_t before, pair, after, front, back;
  gw_split(it, g->root, k - 1, &before, &pair);
  gw_split(it, pair, 2, &pair, &after);
  int32_t a = gw_at(it, pair, 0), b = gw_at(it, pair, 1);
  int32_t nid = g->next_id++;
  g->kids[2 * (nid - g->n)] = it[a].id;
  g->kids[2 * (nid - g->n) + 1] = it[b].id;
  int64_t y = it[a].w + it[b].w;
  int32_t t = gw_new_item(g, y, nid);
  int64_t j = gw_last_at_least(it, before, y) + 1;
  gw_split(it, before, j, &front, &back);
  g->root = gw_merge(it, gw_merge(it, front, t), gw_merge(it, back, after));
  g->top--;
  return j;
}

/* Combines the pair (k-1, k), then every pair that becomes combinable
 * (w[j-2] <= w[j]) around the moved items, innermost first. */
static void gw_combine_and_settle(gw_work *g, int64_t k)
{
  int64_t npending = 0;
  int64_t j = gw_combine(g, k);
  for (;;) {
    if (j >= 2 && gw_weight_at(g, j - 2) <= gw_weight_at(g, j)) {
      g->pending[npending++] = g->top - j;
      j = gw_combine(g, j - 1);
      continue;
    }
    if (npending == 0)
      return;
    j = g->top - g->pending[--npending];
  }
}

int64_t cs_wtr_alphabetic_depths(const int64_t *weights, int64_t n, int32_t *depths)
{
  if (n <= 0)
    return 0;
  if (n == 1) {
    depths[0] = 0;
    return 0;
  }
  gw_work g = {
      .n = n,
      .it = g_new(gw_item, 2 * n),
      .slots = 1,
      .root = 0,
      .top = 0,
      .kids = g_new(int32_t, 2 * (n - 1)),
      .next_id = (int32_t)n,
      .pending = g_new(int64_t, n),
  };
  for (int64_t i = 0; i < n; i++) {
    g.root = gw_merge(g.it, g.root, gw_new_item(&g, weights[i], (int32_t)i));
    g.top++;
    while (g.top >= 3 && gw_weight_at(&g, g.top - 3) <= gw_weight_at(&g, g.top - 1))
      gw_combine_and_settle(&g, g.top - 2);
  }
  while (g.top > 1)
    gw_combine_and_settle(&g, g.top - 1);
  g_assert(g.next_id == 2 * n - 1);

  /* depths: the root is the last combined node; children have smaller ids */
  int32_t *d = g_new(int32_t, 2 * n - 1);
  d[2 * n - 2] = 0;
  for (int64_t v = 2 * n - 2; v >= n; v--) {
    d[g.kids[2 * (v - n)]] = d[v] + 1;
    d[g.kids[2 * (v - n) + 1]] = d[v] + 1;
  }
  int64_t cost = 0;
  for (int64_t i = 0; i < n; i++) {
    depths[i] = d[i];
    cost += weights[i] * d[i];
  }
  g_free(d);
  g_free(g.it);
  g_free(g.kids);
  g_free(g.pending);
  return cost;
}

/* ------------------------------------------------------------------------ */
/* Construction.                                                            */

static int64_t count_runs(const cs_wid *wids, int64_t m)
{
  if (m == 0)
    return 0;
  int64_t rho = 1;
  for (int64_t i = 1; i < m; i++)
    rho += wids[i] <= wids[i - 1];
  return rho;
}

static uint32_t *run_starts(const cs_wid *wids, int64_t m, int64_t rho)
{
  uint32_t *start = g_new(uint32_t, rho + 1);
  int64_t r = 0;
  if (m > 0)
    start[r++] = 0;
  for (int64_t i = 1; i < m; i++)
    if (wids[i] <= wids[i - 1])
      start[r++] = (uint32_t)i;
  start[rho] = (uint32_t)m;
  return start;
}

/* Merges the sorted vals[a, c) (left) and vals[c, b) (right) into vals[a, b),
 * setting bit off + t of words when the t-th merged member is from the right.
 * Only the left part is copied out (to tmp, which holds c - a values): the
 * merged output at a + t never overtakes the unread right members, since
 * t <= (left taken) + (right taken). */
static void merge_and_mark(uint32_t *vals, uint32_t *tmp, int64_t a, int64_t c, int64_t b, uint64_t *words,
                           uint64_t off)
{
  memcpy(tmp, vals + a, (size_t)(c - a) * sizeof *vals);
  int64_t i = 0, nl = c - a, j = c, o = a;
  while (i < nl && j < b) {
    uint32_t x = tmp[i], y = vals[j];
    uint64_t right = y < x;
    vals[o] = right ? y : x;
    uint64_t bit = off + (uint64_t)(o - a);
    words[bit >> 6] |= right << (bit & 63);
    i += (int64_t)(1 - right);
    j += (int64_t)right;
    o++;
  }
  while (i < nl)
    vals[o++] = tmp[i++];
  for (; j < b; j++, o++) { /* already in place */
    uint64_t bit = off + (uint64_t)(o - a);
    words[bit >> 6] |= UINT64_C(1) << (bit & 63);
  }
}

/* A subtree under construction in phase 2. */
typedef struct wtr_pending {
  int32_t ref;    /* >= 0 internal node, < 0 leaf ~ref */
  int32_t depth;
  int64_t first;  /* gids [first, end) */
  int64_t end;
} wtr_pending;

static void set_up_link(wtr_state *s, int32_t ref, int32_t parent, int side)
{
  int32_t link = (parent << 1) | side;
  if (ref >= 0)
    s->node[ref].up = link;
  else
    s->leaf_up[~ref] = link;
}

/* Phase 2: the alphabetic tree with the given leaf depths, built left to
 * right; each new internal node merges its children's members and writes its
 * bits into words (post-order offsets). */
static void build_tree(wtr_state *s, const int32_t *depth, const cs_wid *wids, uint64_t *words)
{
  int64_t m = s->m, rho = s->rho;
  uint32_t *vals = g_new(uint32_t, m);
  memcpy(vals, wids, (size_t)m * sizeof *vals);
  int64_t tmp_cap = 0; /* the largest left subtree so far: at most m - 1 */
  uint32_t *tmp = NULL;
  wtr_pending *stack = g_new(wtr_pending, rho);
  int64_t top = 0;
  int32_t nodes = 0;
  uint64_t off = 0, ones = 0;
  for (int64_t r = 0; r < rho; r++) {
    stack[top++] = (wtr_pending){~(int32_t)r, depth[r], s->start[r], s->start[r + 1]};
    while (top >= 2 && stack[top - 1].depth == stack[top - 2].depth) {
      wtr_pending right = stack[--top], left = stack[--top];
      int32_t v = nodes++;
      s->node[v] = (wtr_node){.off = off, .ones = ones, .child = {left.ref, right.ref}, .up = -1, .unused = 0};
      set_up_link(s, left.ref, v, 0);
      set_up_link(s, right.ref, v, 1);
      if (right.first - left.first > tmp_cap) {
        tmp_cap = right.first - left.first;
        tmp = g_renew(uint32_t, tmp, tmp_cap);
      }
      merge_and_mark(vals, tmp, left.first, right.first, right.end, words, off);
      off += (uint64_t)(right.end - left.first);
      ones += (uint64_t)(right.end - right.first);
      stack[top++] = (wtr_pending){v, left.depth - 1, left.first, right.end};
    }
  }
  /* A valid depth sequence always closes into one root of depth 0. */
  g_assert(top == 1 && stack[0].depth == 0 && nodes == rho - 1 && off == s->tree_bits);
  s->root = nodes - 1;
  g_free(stack);
  g_free(vals);
  g_free(tmp);
}

static void *wtr_create(const cs_wid *wids, int64_t m, const cs_gm_limits *lim, GError **err)
{
  cs_gm_limits defaults = cs_gm_limits_default();
  if (lim == NULL)
    lim = &defaults;
  int64_t rho = count_runs(wids, m);
  if (rho > WTR_HARD_MAX_RUNS) {
    g_set_error(err, CS_GM_ERROR, CS_GM_ERROR_LIMIT,
                "wtr: the permutation has %lld ascending runs, above the 2^30 that 32-bit node links address",
                (long long)rho);
    return NULL;
  }
  if (rho > lim->wtr_max_runs) {
    g_set_error(err, CS_GM_ERROR, CS_GM_ERROR_LIMIT,
                "wtr: the permutation has %lld ascending runs, above the limit wtr_max_runs = %lld", (long long)rho,
                (long long)lim->wtr_max_runs);
    return NULL;
  }
  wtr_state *s = g_new0(wtr_state, 1);
  s->m = m;
  s->rho = rho;
  s->root = -1;
  s->start = run_starts(wids, m, rho);
  s->leaf_up = g_new(int32_t, rho > 0 ? rho : 1);
  if (rho == 1)
    s->leaf_up[0] = -1;
  if (rho <= 1)
    return s;

  int64_t *len = g_new(int64_t, rho);
  int32_t *depth = g_new(int32_t, rho);
  for (int64_t r = 0; r < rho; r++)
    len[r] = (int64_t)s->start[r + 1] - (int64_t)s->start[r];
  s->tree_bits = (uint64_t)cs_wtr_alphabetic_depths(len, rho, depth);
  s->node = g_new(wtr_node, rho - 1);
  uint64_t *words = g_new0(uint64_t, s->tree_bits / 64 + 1);
  build_tree(s, depth, wids, words);
  cs_bv_init(&s->bits, words, s->tree_bits);
  g_free(words);
  g_free(len);
  g_free(depth);
  return s;
}

/* ------------------------------------------------------------------------ */
/* Queries.                                                                 */

/* The run holding gid: the last r with start[r] <= gid (branch-free). */
static inline int64_t run_of(const wtr_state *s, int64_t gid)
{
  const uint32_t *base = s->start;
  int64_t len = s->rho;
  while (len > 1) {
    int64_t half = len >> 1;
    base = (int64_t)base[half] <= gid ? base + half : base;
    len -= half;
  }
  return base - s->start;
}

static int64_t wtr_pi(void *st, int64_t gid)
{
  const wtr_state *s = st;
  if (s->rho <= 1)
    return gid;
  int64_t r = run_of(s, gid);
  uint64_t pos = (uint64_t)(gid - (int64_t)s->start[r]);
  int32_t link = s->leaf_up[r];
  while (link >= 0) {
    const wtr_node *v = &s->node[link >> 1];
    if (link & 1)
      pos = cs_bv_select1(&s->bits, v->ones + pos) - v->off;
    else
      pos = cs_bv_select0(&s->bits, (v->off - v->ones) + pos) - v->off;
    link = v->up;
  }
  return (int64_t)pos;
}

static int64_t wtr_pi_inv(void *st, int64_t pos)
{
  const wtr_state *s = st;
  if (s->rho <= 1)
    return pos;
  uint64_t p = (uint64_t)pos;
  int32_t c = s->root;
  while (c >= 0) {
    const wtr_node *v = &s->node[c];
    uint64_t i = v->off + p;
    unsigned bit = cs_bv_access(&s->bits, i);
    uint64_t ones = cs_bv_rank1(&s->bits, i) - v->ones;
    p = bit ? ones : p - ones;
    c = v->child[bit];
  }
  return (int64_t)s->start[~c] + (int64_t)p;
}

uint64_t cs_wtr_tree_bits(const void *st)
{
  const wtr_state *s = st;
  return s->tree_bits;
}

static cs_gm_size wtr_size(const void *st)
{
  const wtr_state *s = st;
  cs_gm_size z;
  memset(&z, 0, sizeof z);
  bool tree = s->rho > 1;
  z.parts[0].name = "bitvectors";
  z.parts[0].bits = tree ? cs_bv_payload_bits(&s->bits) : 0;
  z.parts[1].name = "directories";
  z.parts[1].bits = tree ? cs_bv_directory_bits(&s->bits) : 0;
  z.parts[2].name = "runs";
  z.parts[2].bits = 32 * (uint64_t)(s->rho + 1) + 32 * (uint64_t)s->rho + (tree ? 256 * (uint64_t)(s->rho - 1) : 0);
  z.bits = z.parts[0].bits + z.parts[1].bits + z.parts[2].bits;
  z.paths = -1;
  z.runs = s->rho;
  return z;
}

static void wtr_destroy(void *st)
{
  wtr_state *s = st;
  if (s == NULL)
    return;
  if (s->rho > 1)
    cs_bv_clear(&s->bits);
  g_free(s->start);
  g_free(s->leaf_up);
  g_free(s->node);
  g_free(s);
}

const cs_perm_rep cs_perm_rep_wtr_impl = {
    .name = "wtr",
    .description = "Wavelet Tree on Runs (Barbay-Navarro 2009): optimal alphabetic tree on the ascending runs",
    .create = wtr_create,
    .pi = wtr_pi,
    .pi_inv = wtr_pi_inv,
    .size = wtr_size,
    .destroy = wtr_destroy,
    .select_ns = 19.0,
    .select_ns_per_level = 26.0,
    .create_ns_per_member = 50.0,
};

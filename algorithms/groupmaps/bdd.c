/* The "bdd" group-map representation and the BDD sets of bdd_sets.h, after
 * seed 003 (Kamal, Mirtaheri, Wagner, "Scalability of Communicators and
 * Groups in MPI"): Section 5.2 (Binary Decision Diagrams), Section 6.1 /
 * Table 1 (what it costs), Section 7.2 (group operations through BuDDy).
 * Contract: sim/contracts/groupmap.h.
 *
 * WHAT IS STORED.  An ordered group (a set of wids) is the boolean function
 * "wid is a member" over L = max(1, ceil(lg world)) variables, variable 0 =
 * the most significant bit of the wid (with the other order a range needs
 * hundreds of paths).  The BDD is built with BuDDy, its paths to the
 * 1-terminal are extracted and the graph is dropped (Section 5.2).  A path
 * is L symbols of 2 bits, 0 = 00, 1 = 01, X (don't care) = 10, symbol j
 * (variable j) in bits 2j..2j+1 of the path's 2L-bit word; the words are
 * packed back to back in one bit array, in the order of a depth-first walk
 * of the BDD that takes the 0-edge first.
 *
 * SIZE (bits) = 2 L p                 the p paths (Section 5.2's 2p ceil(lg N))
 *             + 32 floor(p / 64)      directory: members in paths [0, 64k)
 *             + 32                    header: the path count p (< 2^31) and
 *                                     the "separate" flag below.
 * L, m and the world are kept by the group layer and not counted.  The
 * directory is ours (the paper has none): it makes SELECT and RANK cost
 * O(L (log p + 32)) instead of O(p L), for 0.5 bit per path (1.25 % of the
 * paths at L = 20).
 *
 * SELECT (Section 5.2's level-by-level filter).  At level j the surviving
 * paths are those that agree with the bits chosen so far; we count the
 * members under bit 0 (an X splits its members half and half), keep the
 * 0-side or the 1-side and adjust the rank.  Our addition: in the
 * depth-first order the survivors are always one contiguous run of paths
 * (two paths first differ where one takes a 0-edge and the other the 1-edge
 * of the same node, so at any level the paths of a run either all have X or
 * all have 0/1, 0s first).  A run's member count is (members before its end
 * - members before its start) >> (X's in the common prefix); "members
 * before path i" is counted from the nearest of the run's ends and the
 * directory entries (at most 32 paths away), and the 0/1 boundary is found
 * by galloping from both ends.  Once one path is left, its X positions
 * spell the remaining rank in binary.  When the paths are "separate" (each
 * path's members all lie below the next path's: ranges, strides, a world
 * with holes; checked once at creation) the walk is not needed: the path
 * holding the gid-th member is found from the running member counts
 * (binary search over the directory, then at most 63 paths).
 * RANK walks the same way down the wid's bits, adding the members of the
 * 0-side whenever the wid goes right.  (Counting "members of paths wholly
 * below wid + position in the matching path" is not enough: a path with an
 * X above the level where it branches off interleaves with its neighbours,
 * e.g. {000, 011, 100, 111} = paths X00, X11.)  DECODE enumerates the
 * members in order by the same walk (both halves under an X, 0-side then
 * 1-side at a branch), skipping whole runs before `first` by their counts
 * and listing a single path's members by counting through its X mask.
 * Our addition, like BWT's cached block (Section 5.4): a select of the gid
 * right after the previous one decodes the next 128 members into a small
 * window (512 bytes, allocated on first use, not counted in the size), so
 * a pass over all gids costs about one decode.  select therefore writes
 * into the map: NOT thread-safe, even for readers.
 *
 * BUILDING.  From the sorted wids, recursively: a block of the wid space at
 * level j is empty (false), full (true) or split at its middle by binary
 * search into two halves, joined as ite(var j, high, low).  Each ite makes
 * at most one node, and every node made belongs to the result, so the build
 * needs exactly the result's nodes and O(m L) steps, never m separate ORs.
 *
 * LIMITS (Section 5.2: "limiting the working memory size for the BDD and
 * the total count of the number of paths").  Working memory = the BuDDy
 * nodes of the BDD being built; creation fails with CS_GM_ERROR_LIMIT when
 * they exceed lim->bdd_max_nodes (checked as the node table grows, so a
 * hopeless build stops early, and finally with bdd_nodecount), or when the
 * BDD has more than lim->bdd_max_paths paths to the 1-terminal
 * (bdd_pathcount, before anything is extracted).  The message names the
 * measured value and the limit.  Defaults (gm_common.c), from what the
 * limits protect rather than from which of the paper's groups should fail:
 *  - bdd_max_nodes = 2^18.  A BuDDy node is 20 bytes, plus about 6 bytes
 *    of operator caches at our cache ratio: 2^18 nodes are 6.8 MB, 1.6
 *    times the 4 MiB ARRAY of a 2^20-member group (the paper's world), and
 *    at most about twice that once BuDDy has doubled its table (it never
 *    shrinks it).  Our construction needs exactly the BDD's own nodes, so
 *    this is the BDD size allowed.
 *  - bdd_max_paths = 2^19.  The stored form is then at most 2 L 2^19 bits,
 *    2.5 MiB at L = 20 and 3.9 MiB at L = 31: never larger than the ARRAY
 *    of a 2^20-member group.  SELECT time does not need a path limit here:
 *    with the directory it is O(L (log p + 32)).
 * Whether a BDD is worth keeping for a given group is a matter of comparing
 * its bits with the other representations' (the strategy's bpg), not of
 * these limits.
 *
 * THE BUDDY PACKAGE is one per process.  We start it on first use with
 * bdd_init(2^16 nodes, 2^12 cache entries), operator caches at one entry
 * per 16 nodes (bdd_setcacheratio), the table doubling up to 2^22 new nodes
 * at a time (bdd_setmaxincrease), garbage-collection messages silenced
 * (bdd_gbc_hook(NULL)), and bdd_error_hook recording BuDDy's error code so
 * that a BuDDy error (out of memory, the node cap of
 * cs_bdd_package_set_max_table_nodes) fails the creation or operation with
 * CS_GM_ERROR_LIMIT instead of exiting; bdd_clear_error then lets BuDDy go
 * on.  The variable count grows as larger worlds come (bdd_setvarnum), each
 * time followed by bdd_gbc() because BuDDy 2.4 keeps satcount results
 * cached across a change of the variable count.  bdd_done runs at exit
 * (atexit), so the node table is not reported as a leak by the address
 * sanitizer.  Not thread-safe.
 */
#include "algorithms/groupmaps/bdd_sets.h"

#include "sim/contracts/groupmap.h"

#include <bdd.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ================================================== the BuDDy package === */

enum {
  PKG_INITIAL_NODES = 1 << 16,
  PKG_INITIAL_CACHE = 1 << 12,
  PKG_CACHE_RATIO = 16,
  PKG_MAX_INCREASE = 1 << 22,
};

static int pkg_error;                /* first BuDDy error code since the last take, 0 if none */
static bool pkg_atexit_registered;

static void pkg_record_error(int code)
{
  if (pkg_error == 0)
    pkg_error = code;
}

static void pkg_stop(void)
{
  if (bdd_isrunning())
    bdd_done();
}

/* A pending BuDDy error becomes err (CS_GM_ERROR_LIMIT); BuDDy is told to
 * go on.  False when there was none. */
static bool pkg_take_error(GError **err, const char *doing)
{
  if (pkg_error == 0)
    return false;
  int code = pkg_error;
  pkg_error = 0;
  bdd_clear_error();
  const char *what = bdd_errstring(code);
  g_set_error(err, CS_GM_ERROR, CS_GM_ERROR_LIMIT, "BuDDy error while %s: %s (code %d)", doing,
              what ? what : "unknown error", code);
  return true;
}

static bool pkg_start(GError **err)
{
  if (bdd_isrunning())
    return true;
  pkg_error = 0;
  int rc = bdd_init(PKG_INITIAL_NODES, PKG_INITIAL_CACHE);
  if (rc < 0) {
    const char *what = bdd_errstring(rc);
    g_set_error(err, CS_GM_ERROR, CS_GM_ERROR_LIMIT, "BuDDy could not start: %s (code %d)",
                what ? what : "unknown error", rc);
    return false;
  }
  bdd_error_hook(pkg_record_error);
  bdd_gbc_hook(NULL);
  bdd_resize_hook(NULL);
  bdd_setmaxincrease(PKG_MAX_INCREASE);
  bdd_setcacheratio(PKG_CACHE_RATIO);
  if (!pkg_atexit_registered) {
    atexit(pkg_stop);
    pkg_atexit_registered = true;
  }
  return !pkg_take_error(err, "starting");
}

static bool pkg_ensure_vars(int vars, GError **err)
{
  if (bdd_varnum() >= vars)
    return true;
  bdd_setvarnum(vars);
  if (pkg_take_error(err, "adding variables"))
    return false;
  bdd_gbc(); /* flushes the operator caches, satcount's included */
  return true;
}

int64_t cs_bdd_package_table_nodes(void)
{
  return bdd_isrunning() ? bdd_getallocnum() : 0;
}

bool cs_bdd_package_set_max_table_nodes(int64_t max_nodes, GError **err)
{
  if (!pkg_start(err))
    return false;
  if (max_nodes < 0 || max_nodes > INT32_MAX || (max_nodes != 0 && max_nodes <= bdd_getallocnum())) {
    g_set_error(err, CS_GM_ERROR, CS_GM_ERROR_INPUT,
                "BuDDy node cap %" G_GINT64_FORMAT " must be 0 or above the current table of %d nodes",
                max_nodes, bdd_getallocnum());
    return false;
  }
  bdd_setmaxnodenum((int)max_nodes);
  return !pkg_take_error(err, "setting the node cap");
}

/* ============================================================== worlds === */

static int world_vars(int64_t world)
{
  int L = 1;
  while ((INT64_C(1) << L) < world)
    L++;
  return L;
}

static bool world_ok(int64_t world, GError **err)
{
  if (world >= 1 && world <= CS_GM_MAX_WORLD)
    return true;
  g_set_error(err, CS_GM_ERROR, CS_GM_ERROR_INPUT, "world %" G_GINT64_FORMAT " outside [1, 2^31]", world);
  return false;
}

/* ============================================================ building === */

typedef struct builder {
  int L;
  int64_t max_nodes;   /* nodes the BDD may have; INT64_MAX: no limit */
  int64_t table_start; /* bdd_getnodenum() when the build began */
  bool over_limit;
} builder;

static builder builder_start(int L, int64_t max_nodes)
{
  return (builder){.L = L, .max_nodes = max_nodes, .table_start = bdd_getnodenum(), .over_limit = false};
}

/* ite(variable `depth`, high, low), taking over the references of low and
 * high; a referenced result, or -1 on a BuDDy error or when the table has
 * grown by more than the node limit during this build. */
static BDD join_halves(builder *b, int depth, BDD low, BDD high)
{
  BDD r = bdd_ite(bdd_ithvar(depth), high, low);
  bdd_addref(r);
  bdd_delref(low);
  bdd_delref(high);
  if (pkg_error != 0) {
    bdd_delref(r);
    return -1;
  }
  if ((int64_t)bdd_getnodenum() - b->table_start > b->max_nodes) {
    b->over_limit = true;
    bdd_delref(r);
    return -1;
  }
  return r;
}

/* First index of w[0..n-1] (sorted) holding a value >= v. */
static int64_t lower_bound(const cs_wid *w, int64_t n, uint32_t v)
{
  int64_t lo = 0, hi = n;
  while (lo < hi) {
    int64_t mid = lo + (hi - lo) / 2;
    if (w[mid] < v)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/* The set of w[0..n-1] (sorted, all inside the block of 2^(L-depth) wids
 * starting at base), as a referenced BDD over variables depth..L-1, or -1. */
static BDD build_sorted(builder *b, const cs_wid *w, int64_t n, int depth, uint32_t base)
{
  int64_t span = INT64_C(1) << (b->L - depth);
  if (n == 0)
    return bddfalse;
  if (n == span)
    return bddtrue;
  uint32_t mid = base + (uint32_t)(span / 2);
  int64_t s = lower_bound(w, n, mid);
  BDD low = build_sorted(b, w, s, depth + 1, base);
  if (low < 0)
    return -1;
  BDD high = build_sorted(b, w + s, n - s, depth + 1, mid);
  if (high < 0) {
    bdd_delref(low);
    return -1;
  }
  return join_halves(b, depth, low, high);
}

/* [lo, hi] intersected with the block of 2^(L-depth) wids at base. */
static BDD build_range(builder *b, int64_t lo, int64_t hi, int depth, int64_t base)
{
  int64_t span = INT64_C(1) << (b->L - depth);
  int64_t end = base + span - 1;
  if (lo > hi || hi < base || lo > end)
    return bddfalse;
  if (lo <= base && end <= hi)
    return bddtrue;
  int64_t mid = base + span / 2;
  BDD low = build_range(b, lo, hi, depth + 1, base);
  if (low < 0)
    return -1;
  BDD high = build_range(b, lo, hi, depth + 1, mid);
  if (high < 0) {
    bdd_delref(low);
    return -1;
  }
  return join_halves(b, depth, low, high);
}

/* err for a build that returned -1. */
static void build_failed(const builder *b, GError **err)
{
  if (pkg_take_error(err, "building the BDD"))
    return;
  if (b->over_limit) {
    g_set_error(err, CS_GM_ERROR, CS_GM_ERROR_LIMIT,
                "BDD working memory: more than %" G_GINT64_FORMAT
                " BuDDy nodes while building, over the limit bdd_max_nodes = %" G_GINT64_FORMAT,
                b->max_nodes, b->max_nodes);
    return;
  }
  g_set_error(err, CS_GM_ERROR, CS_GM_ERROR_LIMIT, "BDD build failed");
}

/* ======================================================= stored paths === */

enum { SYM_0 = 0, SYM_1 = 1, SYM_X = 2 };
enum { DIR_STEP = 64 };              /* paths per directory entry */
#define X_BITS UINT64_C(0xAAAAAAAAAAAAAAAA) /* the high bit of every symbol */

enum { SEQ_WINDOW = 128 };           /* wids decoded ahead on sequential select */

typedef struct bdd_map {
  int L;
  uint64_t path_mask; /* 2L low bits */
  int64_t members;
  int64_t paths;
  uint64_t *bits;     /* paths x 2L bits, packed, and one spare word */
  uint32_t *dir;      /* dir[k] = members in paths [0, 64 (k + 1)), k < paths / 64 */
  bool separate;      /* every path's members lie below the next path's */
  /* select's cache (not counted in the size): the last gid asked, and a
   * window of wids decoded ahead once gids come one after the other */
  int64_t last_gid;
  int64_t win_first, win_count;
  cs_wid *win;
} bdd_map;

static inline int sym_at(uint64_t path, int j)
{
  return (int)((path >> (2 * j)) & 3);
}

/* X's among the symbols of a path word (inline: without -mpopcnt,
 * __builtin_popcountll is a library call). */
static inline int x_count(uint64_t path)
{
  uint64_t f = (path >> 1) & UINT64_C(0x5555555555555555); /* 1 per X, in 2-bit fields */
  f = (f & UINT64_C(0x3333333333333333)) + ((f >> 2) & UINT64_C(0x3333333333333333));
  f = (f + (f >> 4)) & UINT64_C(0x0F0F0F0F0F0F0F0F);
  return (int)((f * UINT64_C(0x0101010101010101)) >> 56);
}

/* X's of a path at levels >= j. */
static inline int x_count_from(uint64_t path, int j)
{
  return x_count(path & X_BITS & (~UINT64_C(0) << (2 * j)));
}

static inline uint64_t path_at(const bdd_map *g, int64_t i)
{
  uint64_t pos = (uint64_t)i * (uint64_t)(2 * g->L);
  uint64_t word = pos >> 6;
  unsigned shift = (unsigned)(pos & 63);
  uint64_t v = g->bits[word] >> shift;
  if (shift + 2u * (unsigned)g->L > 64)
    v |= g->bits[word + 1] << (64 - shift);
  return v & g->path_mask;
}

static inline int64_t path_members(const bdd_map *g, int64_t i)
{
  return INT64_C(1) << x_count_from(path_at(g, i), 0);
}

/* Members in paths [a, b). */
static int64_t members_between(const bdd_map *g, int64_t a, int64_t b)
{
  int64_t c = 0;
  for (int64_t t = a; t < b; t++)
    c += path_members(g, t);
  return c;
}

/* Members in paths [0, i), given those before lo and hi (lo <= i <= hi):
 * counted from the nearest of lo, hi and the directory entries. */
static int64_t members_before(const bdd_map *g, int64_t i, int64_t lo, int64_t clo, int64_t hi, int64_t chi)
{
  int64_t k = i / DIR_STEP, r = i % DIR_STEP;
  bool entry_after = k < g->paths / DIR_STEP; /* dir[k] = members before (k + 1) 64 */
  int64_t to_entry = entry_after && DIR_STEP - r < r ? DIR_STEP - r : r;
  if (i - lo <= hi - i && i - lo <= to_entry)
    return clo + members_between(g, lo, i);
  if (hi - i <= to_entry)
    return chi - members_between(g, i, hi);
  if (to_entry == r)
    return (k > 0 ? g->dir[k - 1] : 0) + members_between(g, k * DIR_STEP, i);
  return g->dir[k] - members_between(g, i, (k + 1) * DIR_STEP);
}

/* ---- extraction ---- */

typedef struct path_writer {
  bdd_map *g;
  int64_t next;
  int64_t members;
} path_writer;

static void put_path(path_writer *pw, uint64_t path)
{
  bdd_map *g = pw->g;
  uint64_t pos = (uint64_t)pw->next * (uint64_t)(2 * g->L);
  uint64_t word = pos >> 6;
  unsigned shift = (unsigned)(pos & 63);
  g->bits[word] |= path << shift;
  if (shift + 2u * (unsigned)g->L > 64)
    g->bits[word + 1] |= path >> (64 - shift);
  pw->members += INT64_C(1) << x_count_from(path, 0);
  pw->next++;
  if (pw->next % DIR_STEP == 0)
    g->dir[pw->next / DIR_STEP - 1] = (uint32_t)pw->members;
}

/* Paths below `node` (reached at level `depth` with symbols `path` above),
 * 0-edge first. */
static void collect_paths(path_writer *pw, BDD node, int depth, uint64_t path)
{
  int L = pw->g->L;
  if (node == bddfalse)
    return;
  int var = node == bddtrue ? L : bdd_var(node);
  for (int j = depth; j < var; j++)
    path |= (uint64_t)SYM_X << (2 * j);
  if (var == L) {
    put_path(pw, path);
    return;
  }
  collect_paths(pw, bdd_low(node), var + 1, path | (uint64_t)SYM_0 << (2 * var));
  collect_paths(pw, bdd_high(node), var + 1, path | (uint64_t)SYM_1 << (2 * var));
}

/* The smallest and largest member of a path (X = 0, X = 1). */
static void path_bounds(const bdd_map *g, uint64_t path, uint32_t *least, uint32_t *most)
{
  uint32_t a = 0, b = 0;
  for (int j = 0; j < g->L; j++) {
    int s = sym_at(path, j);
    a = a << 1 | (uint32_t)(s == SYM_1);
    b = b << 1 | (uint32_t)(s != SYM_0);
  }
  *least = a;
  *most = b;
}

/* Whether every path's members lie below the next path's members. */
static bool paths_separate(const bdd_map *g)
{
  uint32_t prev_most = 0;
  for (int64_t i = 0; i < g->paths; i++) {
    uint32_t least, most;
    path_bounds(g, path_at(g, i), &least, &most);
    if (i > 0 && least <= prev_most)
      return false;
    prev_most = most;
  }
  return true;
}

static bool within_node_limit(BDD root, const cs_gm_limits *lim, GError **err)
{
  int64_t nodes = bdd_nodecount(root);
  if (nodes <= lim->bdd_max_nodes)
    return true;
  g_set_error(err, CS_GM_ERROR, CS_GM_ERROR_LIMIT,
              "BDD working memory: %" G_GINT64_FORMAT " BuDDy nodes, over the limit bdd_max_nodes = %" G_GINT64_FORMAT,
              nodes, lim->bdd_max_nodes);
  return false;
}

static bool within_path_limit(double paths, const cs_gm_limits *lim, GError **err)
{
  if (paths <= (double)lim->bdd_max_paths)
    return true;
  g_set_error(err, CS_GM_ERROR, CS_GM_ERROR_LIMIT,
              "BDD has %.0f paths to the 1-terminal, over the limit bdd_max_paths = %" G_GINT64_FORMAT, paths,
              lim->bdd_max_paths);
  return false;
}

/* The stored form of the set `root` over L variables, after the limits. */
static bdd_map *map_from_root(BDD root, int L, const cs_gm_limits *lim, GError **err)
{
  if (!within_node_limit(root, lim, err))
    return NULL;
  double paths = bdd_pathcount(root);
  if (!within_path_limit(paths, lim, err) || pkg_take_error(err, "counting paths"))
    return NULL;
  bdd_map *g = g_new0(bdd_map, 1);
  g->L = L;
  g->path_mask = (UINT64_C(1) << (2 * L)) - 1;
  g->paths = (int64_t)paths;
  g->bits = g_new0(uint64_t, (size_t)((g->paths * 2 * L + 63) / 64 + 1));
  g->dir = g_new0(uint32_t, (size_t)(g->paths / DIR_STEP + 1));
  path_writer pw = {.g = g};
  collect_paths(&pw, root, 0, 0);
  g_assert(pw.next == g->paths);
  g->members = pw.members;
  g->separate = paths_separate(g);
  g->last_gid = -1;
  return g;
}

/* ======================================================== the walk === */

/* A contiguous run of paths [lo, hi) that agree with the bits chosen so
 * far; clo/chi = members before lo/hi; xp = X's in their common prefix;
 * first = the word of path lo (when lo < hi), kept to save reads. */
typedef struct walk {
  int64_t lo, hi, clo, chi;
  int xp;
  uint64_t first;
} walk;

static walk walk_all(const bdd_map *g)
{
  return (walk){.lo = 0, .hi = g->paths, .clo = 0, .chi = g->members, .xp = 0,
                .first = g->paths > 0 ? path_at(g, 0) : 0};
}

/* Members of the run that agree with the chosen bits. */
static inline int64_t walk_members(const walk *w)
{
  return (w->chi - w->clo) >> w->xp;
}

/* First path of [lo, hi) with symbol 1 at level j (the run has 0/1 there,
 * 0s first); hi if none.  Galloping from both ends, then binary search:
 * O(log min(s - lo, hi - s)) paths read, as a branch often splits off a
 * few paths at one end. */
static int64_t first_one_at(const bdd_map *g, int64_t lo, int64_t hi, int j)
{
  /* invariant: paths before lo have 0, paths from hi on have 1 */
  for (int64_t step = 1; hi - lo > 2 * step; step *= 2) {
    int64_t i = lo + step - 1;
    if (sym_at(path_at(g, i), j) == SYM_1) {
      hi = i;
      break;
    }
    lo = i + 1;
    i = hi - step;
    if (sym_at(path_at(g, i), j) == SYM_0) {
      lo = i + 1;
      break;
    }
    hi = i;
  }
  while (lo < hi) {
    int64_t mid = lo + (hi - lo) / 2;
    if (sym_at(path_at(g, mid), j) == SYM_1)
      hi = mid;
    else
      lo = mid + 1;
  }
  return lo;
}

/* The 0-side and 1-side of a run branching at level j. */
static void split_walk(const bdd_map *g, const walk *w, int j, walk *zero, walk *one)
{
  int64_t s = first_one_at(g, w->lo, w->hi, j);
  int64_t cs = members_before(g, s, w->lo, w->clo, w->hi, w->chi);
  *zero = (walk){.lo = w->lo, .hi = s, .clo = w->clo, .chi = cs, .xp = w->xp, .first = w->first};
  *one = (walk){.lo = s, .hi = w->hi, .clo = cs, .chi = w->chi, .xp = w->xp,
                .first = s < w->hi ? path_at(g, s) : 0};
}

static inline bool walk_branches_at(const walk *w, int j)
{
  return sym_at(w->first, j) != SYM_X;
}

/* ---- select ---- */

/* The wid of the `rest`-th member of path i below level j, under `prefix`
 * (the j bits above): its X positions spell `rest`, most significant first. */
static cs_wid select_in_path(const bdd_map *g, int64_t i, int j, uint32_t prefix, int64_t rest)
{
  uint64_t path = path_at(g, i);
  int xs = x_count_from(path, j);
  for (int t = j; t < g->L; t++) {
    int s = sym_at(path, t);
    uint32_t bit = s == SYM_X ? (uint32_t)((rest >> --xs) & 1) : (uint32_t)s;
    prefix = prefix << 1 | bit;
  }
  return prefix;
}

static cs_wid select_walk(const bdd_map *g, int64_t gid)
{
  walk w = walk_all(g);
  uint32_t prefix = 0;
  int64_t rest = gid;
  for (int j = 0; j < g->L; j++) {
    if (w.hi - w.lo == 1)
      return select_in_path(g, w.lo, j, prefix, rest);
    uint32_t bit;
    if (!walk_branches_at(&w, j)) {
      w.xp++;
      int64_t half = walk_members(&w);
      bit = rest >= half;
      if (bit)
        rest -= half;
    } else {
      walk zero, one;
      split_walk(g, &w, j, &zero, &one);
      int64_t below = walk_members(&zero);
      bit = rest >= below;
      if (bit)
        rest -= below;
      w = bit ? one : zero;
    }
    prefix = prefix << 1 | bit;
  }
  return prefix;
}

/* When the paths are separate (their members do not interleave), the
 * gid-th member is in the path where the running member count passes gid:
 * found by binary search over the directory, then at most 63 paths. */
static cs_wid select_by_counts(const bdd_map *g, int64_t gid)
{
  int64_t lo = 0, hi = g->paths / DIR_STEP; /* entries dir[0..lo-1] are <= gid */
  while (lo < hi) {
    int64_t mid = lo + (hi - lo) / 2;
    if (g->dir[mid] <= gid)
      lo = mid + 1;
    else
      hi = mid;
  }
  int64_t i = lo * DIR_STEP;
  int64_t before = lo > 0 ? g->dir[lo - 1] : 0;
  for (;;) {
    int64_t n = path_members(g, i);
    if (gid < before + n)
      return select_in_path(g, i, 0, 0, gid - before);
    before += n;
    i++;
  }
}

/* ---- rank ---- */

/* Position of wid among the members of path i that agree with the levels
 * above j, or -1 when the path's fixed symbols disagree with it. */
static int64_t rank_in_path(const bdd_map *g, int64_t i, int j, int64_t wid)
{
  uint64_t path = path_at(g, i);
  int64_t pos = 0;
  for (int t = j; t < g->L; t++) {
    int bit = (int)((wid >> (g->L - 1 - t)) & 1);
    int s = sym_at(path, t);
    if (s == SYM_X)
      pos = pos << 1 | bit;
    else if (s != bit)
      return -1;
  }
  return pos;
}

static int64_t bdd_rank(void *st, int64_t wid)
{
  const bdd_map *g = st;
  if (g->paths == 0 || wid < 0 || wid >= (INT64_C(1) << g->L))
    return -1;
  walk w = walk_all(g);
  int64_t r = 0;
  for (int j = 0; j < g->L; j++) {
    if (w.hi - w.lo == 1) {
      int64_t pos = rank_in_path(g, w.lo, j, wid);
      return pos < 0 ? -1 : r + pos;
    }
    int bit = (int)((wid >> (g->L - 1 - j)) & 1);
    if (!walk_branches_at(&w, j)) {
      w.xp++;
      if (bit)
        r += walk_members(&w);
    } else {
      walk zero, one;
      split_walk(g, &w, j, &zero, &one);
      if (bit)
        r += walk_members(&zero);
      w = bit ? one : zero;
      if (w.lo == w.hi)
        return -1;
    }
  }
  return r; /* a run at level L is a single path, handled above */
}

/* ---- decode ---- */

typedef struct decoder {
  const bdd_map *g;
  int64_t skip; /* members still to pass over before the first output */
  int64_t left; /* members still to output */
  cs_wid *out;
} decoder;

/* Scatter the low bits of k into the set bits of mask, lowest first. */
static uint32_t deposit_bits(uint64_t k, uint32_t mask)
{
  uint32_t r = 0;
  for (uint32_t m = mask; m != 0 && k != 0; m &= m - 1, k >>= 1)
    if (k & 1)
      r |= m & -m;
  return r;
}

/* Members of path i under `prefix` (levels < j), in increasing order. */
static void emit_path(decoder *d, int64_t i, int j, uint32_t prefix)
{
  uint64_t path = path_at(d->g, i);
  uint32_t fixed = prefix, xmask = 0;
  for (int t = j; t < d->g->L; t++) {
    int s = sym_at(path, t);
    fixed <<= 1;
    xmask <<= 1;
    if (s == SYM_X)
      xmask |= 1;
    else
      fixed |= (uint32_t)s;
  }
  uint32_t sub = deposit_bits((uint64_t)d->skip, xmask);
  d->skip = 0;
  for (;;) {
    *d->out++ = fixed | sub;
    if (--d->left == 0 || sub == xmask)
      return;
    sub = ((sub | ~xmask) + 1) & xmask; /* next subset of xmask */
  }
}

static void decode_walk(decoder *d, walk w, int j, uint32_t prefix)
{
  if (d->left == 0)
    return;
  int64_t n = walk_members(&w);
  if (d->skip >= n) {
    d->skip -= n;
    return;
  }
  if (w.hi - w.lo == 1) {
    emit_path(d, w.lo, j, prefix);
    return;
  }
  if (!walk_branches_at(&w, j)) {
    w.xp++;
    decode_walk(d, w, j + 1, prefix << 1);
    decode_walk(d, w, j + 1, prefix << 1 | 1);
  } else {
    walk zero, one;
    split_walk(d->g, &w, j, &zero, &one);
    decode_walk(d, zero, j + 1, prefix << 1);
    decode_walk(d, one, j + 1, prefix << 1 | 1);
  }
}

static void bdd_decode(void *st, int64_t first, int64_t count, cs_wid *out)
{
  const bdd_map *g = st;
  if (count <= 0)
    return;
  decoder d = {.g = g, .skip = first, .left = count, .out = out};
  decode_walk(&d, walk_all(g), 0, 0);
}

/* SELECT.  A gid right after the previous one fills a window of the next
 * SEQ_WINDOW members with one decode (as BWT caches its last block), so
 * that a pass over the group costs O(m + (m / 128) L log p) instead of
 * m walks; any other gid is one walk.  Writes into the map: not
 * thread-safe. */
static cs_wid bdd_select(void *st, int64_t gid)
{
  bdd_map *g = st;
  bool sequential = gid == g->last_gid + 1;
  g->last_gid = gid;
  if (gid >= g->win_first && gid < g->win_first + g->win_count)
    return g->win[gid - g->win_first];
  if (!sequential)
    return g->separate ? select_by_counts(g, gid) : select_walk(g, gid);
  if (!g->win)
    g->win = g_new(cs_wid, SEQ_WINDOW);
  g->win_first = gid;
  g->win_count = MIN((int64_t)SEQ_WINDOW, g->members - gid);
  bdd_decode(g, gid, g->win_count, g->win);
  return g->win[0];
}

/* ---- size, destroy, create ---- */

static cs_gm_size bdd_size(const void *st)
{
  const bdd_map *g = st;
  uint64_t paths = (uint64_t)g->paths * 2u * (uint64_t)g->L;
  uint64_t dir = 32u * (uint64_t)(g->paths / DIR_STEP);
  uint64_t header = 32u;
  cs_gm_size s = {.bits = paths + dir + header, .paths = g->paths, .runs = -1};
  s.parts[0].name = "paths";
  s.parts[0].bits = paths;
  s.parts[1].name = "directory";
  s.parts[1].bits = dir;
  s.parts[2].name = "header";
  s.parts[2].bits = header;
  return s;
}

static void bdd_destroy(void *st)
{
  bdd_map *g = st;
  if (!g)
    return;
  g_free(g->bits);
  g_free(g->dir);
  g_free(g->win);
  g_free(g);
}

static void *bdd_create(const cs_wid *wids, int64_t m, int64_t world, bool ordered, const cs_gm_limits *lim,
                        GError **err)
{
  if (!ordered) {
    g_set_error(err, CS_GM_ERROR, CS_GM_ERROR_NOT_APPLICABLE,
                "bdd stores a set: the group must be ordered (use wtr+bdd for an unordered one)");
    return NULL;
  }
  if (!world_ok(world, err))
    return NULL;
  cs_gm_limits limits = lim ? *lim : cs_gm_limits_default();
  int L = world_vars(world);
  if (!pkg_start(err) || !pkg_ensure_vars(L, err))
    return NULL;
  builder b = builder_start(L, limits.bdd_max_nodes);
  BDD root = build_sorted(&b, wids, m, 0, 0);
  if (root < 0) {
    build_failed(&b, err);
    return NULL;
  }
  bdd_map *g = map_from_root(root, L, &limits, err);
  bdd_delref(root);
  return g;
}

/* The cost model's SELECT grows with the paths walked (cost_table.c):
 * 12 + 5 lg2(p + 1) + 0.0135 p ns for p paths. */
static double bdd_select_extra_ns(int64_t paths, double bpg)
{
  (void)bpg;
  return 5.0 * log2((double)paths + 1.0) + 0.0135 * (double)paths;
}

const cs_gm_rep cs_gm_rep_bdd = {
  .name = "bdd",
  .description = "binary decision diagram (BuDDy), stored as its paths of {0,1,X} (Section 5.2)",
  .kind = CS_GM_SET,
  .from_paper = true,
  .create = bdd_create,
  .select = bdd_select,
  .rank = bdd_rank,
  .decode = bdd_decode,
  .size = bdd_size,
  .destroy = bdd_destroy,
  .select_ns = 12.0,
  .select_extra_ns = bdd_select_extra_ns,
  .create_ns_per_member = 17.0,
};

/* ============================================================ BDD sets === */

struct cs_bdd_set {
  BDD root; /* referenced */
  int64_t world;
  int L;
};

static cs_bdd_set *set_wrap(BDD referenced_root, int64_t world)
{
  cs_bdd_set *s = g_new(cs_bdd_set, 1);
  s->root = referenced_root;
  s->world = world;
  s->L = world_vars(world);
  return s;
}

static bool wids_sorted_in_world(const cs_wid *wids, int64_t m, int64_t world, GError **err)
{
  for (int64_t i = 0; i < m; i++) {
    if ((int64_t)wids[i] >= world || (i > 0 && wids[i] <= wids[i - 1])) {
      g_set_error(err, CS_GM_ERROR, CS_GM_ERROR_INPUT,
                  "wids[%" G_GINT64_FORMAT "] = %u: wids must increase strictly and stay below the world %" G_GINT64_FORMAT,
                  i, (unsigned)wids[i], world);
      return false;
    }
  }
  return true;
}

cs_bdd_set *cs_bdd_set_from_wids(const cs_wid *wids, int64_t m, int64_t world, GError **err)
{
  if (!world_ok(world, err) || !wids_sorted_in_world(wids, m, world, err))
    return NULL;
  int L = world_vars(world);
  if (!pkg_start(err) || !pkg_ensure_vars(L, err))
    return NULL;
  builder b = builder_start(L, INT64_MAX);
  BDD root = build_sorted(&b, wids, m, 0, 0);
  if (root < 0) {
    build_failed(&b, err);
    return NULL;
  }
  return set_wrap(root, world);
}

cs_bdd_set *cs_bdd_set_range(int64_t lo, int64_t hi, int64_t world, GError **err)
{
  if (!world_ok(world, err))
    return NULL;
  if (lo <= hi && (lo < 0 || hi >= world)) {
    g_set_error(err, CS_GM_ERROR, CS_GM_ERROR_INPUT,
                "range [%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT "] outside the world %" G_GINT64_FORMAT, lo, hi,
                world);
    return NULL;
  }
  int L = world_vars(world);
  if (!pkg_start(err) || !pkg_ensure_vars(L, err))
    return NULL;
  builder b = builder_start(L, INT64_MAX);
  BDD root = build_range(&b, lo, hi, 0, 0);
  if (root < 0) {
    build_failed(&b, err);
    return NULL;
  }
  return set_wrap(root, world);
}

static cs_bdd_set *set_apply(const cs_bdd_set *a, const cs_bdd_set *b, int op, const char *doing, GError **err)
{
  if (a->world != b->world) {
    g_set_error(err, CS_GM_ERROR, CS_GM_ERROR_INPUT,
                "%s of sets of different worlds (%" G_GINT64_FORMAT " and %" G_GINT64_FORMAT ")", doing, a->world,
                b->world);
    return NULL;
  }
  BDD r = bdd_apply(a->root, b->root, op);
  bdd_addref(r);
  if (pkg_take_error(err, doing)) {
    bdd_delref(r);
    return NULL;
  }
  return set_wrap(r, a->world);
}

cs_bdd_set *cs_bdd_set_union(const cs_bdd_set *a, const cs_bdd_set *b, GError **err)
{
  return set_apply(a, b, bddop_or, "union", err);
}

cs_bdd_set *cs_bdd_set_intersection(const cs_bdd_set *a, const cs_bdd_set *b, GError **err)
{
  return set_apply(a, b, bddop_and, "intersection", err);
}

cs_bdd_set *cs_bdd_set_difference(const cs_bdd_set *a, const cs_bdd_set *b, GError **err)
{
  return set_apply(a, b, bddop_diff, "difference", err);
}

int64_t cs_bdd_set_count(const cs_bdd_set *s)
{
  /* satcount counts over every variable of the package; the ones past L
   * are free for our sets, a factor of exactly 2^(varnum - L). */
  double all = bdd_satcount(s->root);
  return (int64_t)ldexp(all, -(bdd_varnum() - s->L));
}

int64_t cs_bdd_set_world(const cs_bdd_set *s)
{
  return s->world;
}

bool cs_bdd_set_equal(const cs_bdd_set *a, const cs_bdd_set *b)
{
  return a->world == b->world && a->root == b->root;
}

int64_t cs_bdd_set_nodes(const cs_bdd_set *s)
{
  return bdd_nodecount(s->root);
}

int64_t cs_bdd_sets_nodes(const cs_bdd_set *const *sets, size_t n)
{
  if (n == 0)
    return 0;
  BDD *roots = g_new(BDD, n);
  for (size_t i = 0; i < n; i++)
    roots[i] = sets[i]->root;
  int64_t c = bdd_anodecount(roots, (int)n);
  g_free(roots);
  return c;
}

/* Members under `node` (reached at level depth, wid bits `prefix` above),
 * in increasing order. */
static void list_members(BDD node, int depth, int L, uint32_t prefix, cs_wid **out)
{
  if (node == bddfalse)
    return;
  if (depth == L) {
    *(*out)++ = prefix;
    return;
  }
  if (node == bddtrue || bdd_var(node) > depth) {
    list_members(node, depth + 1, L, prefix << 1, out);
    list_members(node, depth + 1, L, prefix << 1 | 1, out);
    return;
  }
  list_members(bdd_low(node), depth + 1, L, prefix << 1, out);
  list_members(bdd_high(node), depth + 1, L, prefix << 1 | 1, out);
}

cs_wid *cs_bdd_set_to_wids(const cs_bdd_set *s, int64_t *m)
{
  int64_t n = cs_bdd_set_count(s);
  cs_wid *wids = g_new(cs_wid, (size_t)(n > 0 ? n : 1));
  cs_wid *end = wids;
  list_members(s->root, 0, s->L, 0, &end);
  g_assert(end - wids == n);
  *m = n;
  return wids;
}

void *cs_bdd_set_to_rep_state(const cs_bdd_set *s, const cs_gm_limits *lim, GError **err)
{
  cs_gm_limits limits = lim ? *lim : cs_gm_limits_default();
  return map_from_root(s->root, s->L, &limits, err);
}

void cs_bdd_set_free(cs_bdd_set *s)
{
  if (!s)
    return;
  bdd_delref(s->root);
  g_free(s);
}

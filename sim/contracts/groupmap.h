/* Group maps: the set + permutation framework of seed 003 (Kamal, Mirtaheri,
 * Wagner, "Scalability of Communicators and Groups in MPI", Sections 5-7).
 *
 * A group map turns a group rank (gid, 0 .. m-1) into a world rank (wid,
 * 0 .. world-1) and back.  The communicator layer and the benchmarks use
 * only this interface; every representation is one file under
 * algorithms/groupmaps/, registered in algorithms/groupmaps/registry.c.
 *
 * ORDERED AND UNORDERED (Section 5).  A group is *ordered* when gid order is
 * wid order (wids strictly increasing): then the map is a set and SELECT(gid)
 * is the gid-th smallest member, RANK(wid) its inverse.  An *unordered* group
 * is a set plus a permutation pi of the set's order into the required gid
 * order:  wid(gid) = SELECT(pi(gid)),  gid(wid) = pi^-1(RANK(wid)),
 * where pi(gid) is the position of wid(gid) among the sorted members.
 *
 * KINDS OF REPRESENTATION.
 *  - CS_GM_SET  represents an ordered group only (R/S with positive stride,
 *    BM, BDD, Elias-Fano, Roaring).  create() refuses an unordered input.
 *  - CS_GM_MAP  represents any sequence of distinct wids in the given order
 *    (ARRAY, BWT).  On an unordered group, rank() may take O(m) time.
 *  - A permutation representation (WTR) is composed with any SET
 *    representation X as the map "wtr+X" (Figure 3's AND branch); the module
 *    core builds the composite, representations never see each other.
 *
 * Every create() either returns a representation that is exact (select and
 * rank equal ARRAY's on every input) or fails with a reason in err (domain
 * CS_GM_ERROR): not applicable (e.g. R/S on a group that is no progression),
 * or over a limit of cs_gm_limits (BDD nodes or paths, WTR runs).
 *
 * Sizes are what the representation stores, in bits, by its own formula
 * (documented in its file); malloc overhead and the C struct header are not
 * counted.  1 KiB = 1,024 bytes = 8,192 bits.
 *
 * Not thread-safe: BWT caches its last decompressed block inside select(),
 * and BuDDy is one global package per process.
 */
#ifndef COLLSIM_GROUPMAP_H
#define COLLSIM_GROUPMAP_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

typedef uint32_t cs_wid;

/* World ranks are below 2^31 (they fit an int and the LID width of seed 003
 * is far below that). */
#define CS_GM_MAX_WORLD (INT64_C(1) << 31)

#define CS_GM_ERROR (cs_gm_error_quark())
GQuark cs_gm_error_quark(void);
typedef enum {
  CS_GM_ERROR_NOT_APPLICABLE = 1, /* the representation cannot express this group */
  CS_GM_ERROR_LIMIT,              /* it could, but a limit of cs_gm_limits is exceeded */
  CS_GM_ERROR_INPUT,              /* bad input: wid out of range, duplicate, unknown name */
} cs_gm_error_code;

/* Limits and parameters of the representations.  The defaults
 * (cs_gm_limits_default) are documented with their reasons in
 * algorithms/groupmaps/groupmap.c. */
typedef struct cs_gm_limits {
  int64_t bdd_max_nodes;     /* BuDDy nodes allowed while building one BDD */
  int64_t bdd_max_paths;     /* paths to the 1-terminal allowed in the stored form */
  int64_t wtr_max_runs;      /* ascending runs allowed in a WTR permutation */
  bool rs_allow_negative;    /* R/S may store a decreasing progression (an unordered map) */
  int64_t bm_directory_bits; /* BM: one cumulative count every this many bits (paper: 1,000) */
  int64_t bwt_block_wids;    /* BWT: wids per compressed block (paper: 1,000) */
} cs_gm_limits;

cs_gm_limits cs_gm_limits_default(void);

/* What a representation stores.  parts[] splits `bits` where the split
 * matters (BM: "bitmap" and "directory"; a composite: "permutation" and
 * "set"); unused parts have name NULL.  paths (BDD) and runs (WTR) are -1
 * where they do not apply. */
typedef struct cs_gm_size {
  uint64_t bits;
  struct {
    const char *name;
    uint64_t bits;
  } parts[3];
  int64_t paths;
  int64_t runs;
} cs_gm_size;

typedef enum { CS_GM_SET, CS_GM_MAP } cs_gm_kind;

/* One representation (a row of the registry). */
typedef struct cs_gm_rep {
  const char *name;        /* "array", "rs", "bm", "bdd", "bwt", "ef", "roaring" */
  const char *description; /* one line for `collsim groupmap --list` */
  cs_gm_kind kind;
  bool from_paper;         /* one of the paper's representations (false: beyond the paper) */
  /* wids[0..m-1] in gid order, distinct, each < world; m >= 0.  `ordered`
   * says whether they are strictly increasing (the caller has checked).
   * Returns the representation's state, or NULL with err set. */
  void *(*create)(const cs_wid *wids, int64_t m, int64_t world, bool ordered, const cs_gm_limits *lim,
                  GError **err);
  cs_wid (*select)(void *st, int64_t gid);   /* 0 <= gid < m */
  int64_t (*rank)(void *st, int64_t wid);    /* gid, or -1 when wid is not a member; any wid >= 0 */
  /* wids of gids [first, first + count), in gid order, into out. */
  void (*decode)(void *st, int64_t first, int64_t count, cs_wid *out);
  cs_gm_size (*size)(const void *st);
  void (*destroy)(void *st);
  /* Optional: a lower bound on size().bits for any group of m members in
   * a world of `world`, known without building (ARRAY: exactly 32 m).  The
   * S strategy skips a candidate whose bound cannot beat its best so far,
   * which keeps it from building a map bound to lose.  NULL: no bound. */
  uint64_t (*min_bits)(int64_t m, int64_t world);
  /* Its static cost model, in ns on this project's machine
   * (algorithms/groupmaps/cost_table.c says where the numbers come from
   * and how they were fitted): one SELECT costs select_ns, plus
   * select_extra_ns(paths, bits per gid) when set; creating the map costs
   * create_ns_per_member per member.  select_ns 0: not measured yet (the
   * model charges 1,000 ns per SELECT and 100 ns per member).  A SELECT
   * that keeps the block it decompressed last (select_caches_block) costs
   * cached_select_ns on a gid of that block. */
  double select_ns;
  double (*select_extra_ns)(int64_t paths, double bpg);
  double create_ns_per_member;
  bool select_caches_block;
  double cached_select_ns;
} cs_gm_rep;

/* A permutation representation (WTR).  The permutation is given by the
 * wids in gid order: pi(gid) = position of wids[gid] in sorted order. */
typedef struct cs_perm_rep {
  const char *name;        /* "wtr" */
  const char *description;
  void *(*create)(const cs_wid *wids, int64_t m, const cs_gm_limits *lim, GError **err);
  int64_t (*pi)(void *st, int64_t gid);     /* sorted position of gid's wid */
  int64_t (*pi_inv)(void *st, int64_t pos); /* gid of the pos-th smallest wid */
  cs_gm_size (*size)(const void *st);       /* bits and runs */
  void (*destroy)(void *st);
  /* Its cost model over the set representation X of "wtr+X" (cost_table.c):
   * SELECT select_ns + select_ns_per_level lg2(r + 1) for r runs, plus X's;
   * creation create_ns_per_member per member, plus X's. */
  double select_ns, select_ns_per_level, create_ns_per_member;
} cs_perm_rep;

/* ---- the registry (algorithms/groupmaps/registry.c) ---- */
size_t cs_gm_rep_count(void);
const cs_gm_rep *cs_gm_rep_at(size_t i);
const cs_gm_rep *cs_gm_rep_find(const char *name);
const cs_perm_rep *cs_perm_rep_wtr(void);

/* ---- a group map: one representation of one group ---- */
typedef struct cs_groupmap cs_groupmap;

/* name: a registry name ("bm") or "wtr+X" with X a set representation.  A
 * set representation named alone refuses an unordered group.  wids as for
 * cs_gm_rep.create; the core checks range and distinctness first
 * (CS_GM_ERROR_INPUT) and computes `ordered` itself. */
cs_groupmap *cs_gm_create(const char *name, const cs_wid *wids, int64_t m, int64_t world,
                          const cs_gm_limits *lim, GError **err);
cs_wid cs_gm_select(cs_groupmap *g, int64_t gid);
int64_t cs_gm_rank(cs_groupmap *g, int64_t wid);
void cs_gm_decode(cs_groupmap *g, int64_t first, int64_t count, cs_wid *out);
cs_gm_size cs_gm_size_of(const cs_groupmap *g);
int64_t cs_gm_members(const cs_groupmap *g);
int64_t cs_gm_world(const cs_groupmap *g);
bool cs_gm_ordered(const cs_groupmap *g);
const char *cs_gm_name(const cs_groupmap *g); /* "bm", "wtr+bm" */
void cs_gm_free(cs_groupmap *g);

#endif

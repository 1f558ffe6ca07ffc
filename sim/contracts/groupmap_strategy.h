/* Strategies over the group-map framework (seed 003, Section 6): given a
 * group, pick and build one representation.  Each strategy is one file under
 * algorithms/groupmaps/ (strategy_space.c, strategy_time.c,
 * strategy_hybrid.c), registered in algorithms/groupmaps/strategies.c.
 *
 *   "S"   smallest space: builds every applicable representation (and
 *         "wtr+X" for every X when the group is unordered) and keeps the one
 *         of fewest bits;
 *   "T"   fastest select: ranks the candidates by a static per-representation
 *         model of S-One time (no clock is read; see strategy_time.c) and
 *         keeps the fastest that builds;
 *   "ST"  the paper's hybrid (Section 6.1 and 6.2; rules and thresholds in
 *         strategy_hybrid.c).
 * Every strategy is deterministic: the same group, world and limits give the
 * same pick.  Ties go to the earlier row of the registry (T first prefers
 * the smaller size).
 *
 * Also here: the generators of the paper's groups of Tables 1 and 2
 * (algorithms/groupmaps/paper_groups.c), in a world of 10^6.
 */
#ifndef COLLSIM_GROUPMAP_STRATEGY_H
#define COLLSIM_GROUPMAP_STRATEGY_H

#include "sim/contracts/groupmap.h"
#include "sim/contracts/groupmap_ops.h"

typedef enum {
  CS_GM_CAND_BUILT,     /* created; bits are its size */
  CS_GM_CAND_ESTIMATED, /* not created; bits come from a formula (ST's eq. (1)) */
  CS_GM_CAND_REFUSED,   /* create() failed; note holds its reason */
  CS_GM_CAND_SKIPPED,   /* not tried; note says why */
} cs_gm_cand_status;

/* One row of a strategy's candidate table. */
typedef struct cs_gm_candidate {
  char name[32]; /* "bm", "wtr+rs" */
  cs_gm_cand_status status;
  uint64_t bits;  /* BUILT or ESTIMATED, else 0 */
  double bpg;     /* bits per member (bits when m = 0) */
  double cost_ns; /* T's modelled S-One time, -1 when not modelled */
  char note[200];
} cs_gm_candidate;

/* What a strategy picked and why. */
typedef struct cs_gm_pick {
  char name[32];      /* the name given to cs_gm_create: "bm", "wtr+rs" */
  char reason[256];   /* one line */
  GArray *candidates; /* of cs_gm_candidate, in the order considered */
} cs_gm_pick;

void cs_gm_pick_clear(cs_gm_pick *pick); /* frees the candidates; the struct stays */

typedef struct cs_gm_strategy {
  const char *name; /* "S", "T", "ST" */
  const char *description;
  /* wids as for cs_gm_create (checked the same way, CS_GM_ERROR_INPUT); lim
   * NULL = defaults.  Returns the built map of the pick, or NULL with err.
   * pick may be NULL; else it is filled (clear it with cs_gm_pick_clear). */
  cs_groupmap *(*build)(const cs_wid *wids, int64_t m, int64_t world, const cs_gm_limits *lim,
                        cs_gm_pick *pick, GError **err);
} cs_gm_strategy;

/* ---- the strategy registry (algorithms/groupmaps/strategies.c) ---- */
size_t cs_gm_strategy_count(void);
const cs_gm_strategy *cs_gm_strategy_at(size_t i);
const cs_gm_strategy *cs_gm_strategy_find(const char *name);
/* Find by name and build; an unknown name is CS_GM_ERROR_INPUT. */
cs_groupmap *cs_gm_create_by_strategy(const char *strategy, const cs_wid *wids, int64_t m,
                                      int64_t world, const cs_gm_limits *lim, cs_gm_pick *pick,
                                      GError **err);

/* ---- the static cost model (algorithms/groupmaps/cost_table.c) ---- */
/* Modelled S-One of representation `name` ("bm", "wtr+rs") with BDD paths
 * and WTR runs (1 when unknown) and bits per member, in ns on this
 * project's machine (no term depends on the group's size). */
double cs_gm_model_select_ns(const char *name, int64_t paths, int64_t runs, double bpg);
/* The same for a built map. */
double cs_gm_select_cost_ns(const cs_groupmap *map);
/* Modelled creation time of `name` for m members, ns. */
double cs_gm_model_create_ns(const char *name, int64_t m);
/* A representation whose SELECT keeps its last decompressed block (BWT):
 * the gids per block (0: no such cache), and the cost of a SELECT that
 * finds its gid in the kept block, ns. */
int64_t cs_gm_select_cache_gids(const cs_groupmap *map, const cs_gm_limits *lim);
double cs_gm_cached_select_ns(const cs_groupmap *map);

/* ---- helpers for the strategy files (strategies.c) ---- */
/* Creates `name` and appends its row (BUILT with its size, or REFUSED with
 * the reason) to pick's table when pick is given.  Returns the map or
 * NULL; a refusal is not an error of the strategy. */
cs_groupmap *cs_gm_strategy_try(const char *name, const cs_wid *wids, int64_t m, int64_t world,
                                const cs_gm_limits *lim, cs_gm_pick *pick);
/* Appends a row that was not built (ESTIMATED or SKIPPED). */
void cs_gm_strategy_note(cs_gm_pick *pick, const char *name, cs_gm_cand_status status,
                         uint64_t bits, int64_t m, const char *fmt, ...) G_GNUC_PRINTF(6, 7);
/* Sets pick's name and one-line reason (printf format). */
void cs_gm_strategy_decide(cs_gm_pick *pick, const char *name, const char *fmt, ...)
    G_GNUC_PRINTF(3, 4);
/* Bits per group member: bits / m, or bits when m = 0. */
double cs_gm_bpg(uint64_t bits, int64_t m);
/* Does a registered representation of this name exist, and (for "wtr+X")
 * the permutation representation? */
bool cs_gm_name_available(const char *name);

/* ---- the paper's groups (algorithms/groupmaps/paper_groups.c) ---- */
#define CS_GM_PAPER_WORLD INT64_C(1000000)

typedef struct cs_gm_paper_group {
  const char *name;    /* "t1g1", "t1g2-spread", ..., "t2g4" */
  int table;           /* 1: ordered groups (Table 1), 2: unordered (Table 2) */
  int row;             /* the paper's group number in that table */
  int64_t paper_size;  /* the member count the paper prints */
  const char *reading; /* how we read the row (placement, seed) */
  cs_gm_group *(*make)(void); /* a new group in a world of CS_GM_PAPER_WORLD */
} cs_gm_paper_group;

size_t cs_gm_paper_group_count(void);
const cs_gm_paper_group *cs_gm_paper_group_at(size_t i);
const cs_gm_paper_group *cs_gm_paper_group_find(const char *name);

#endif

/* The communicator layer: the project's one communicator abstraction, on top
 * of the messaging interface (msg.h).  Seed 003 (Kamal, Mirtaheri, Wagner,
 * "Scalability of Communicators and Groups in MPI"), Sections 2-4; seed 004
 * (noncollective creation) builds on the same layer.
 *
 * THE WORLD.  N proclets (simulated MPI processes) in OS processes of C
 * proclets each (proclet r in OS process r / C, machines of P OS processes:
 * the [C,P,M] system of Section 2).  The world holds what an OS process
 * shares among its proclets: the table of group maps keyed by context id
 * (Figure 2) and its memory accounting.  Collocated proclets really share it
 * (they are coroutines in one address space); proclets of other OS
 * processes never read it.
 *
 * A COMMUNICATOR is a context id, a group map (sim/contracts/groupmap.h,
 * representation chosen by a strategy or named) and the caller's rank.
 * Point to point translates group rank to world rank with the map's SELECT
 * and charges that lookup as computation: the S-One model of the group-map
 * benchmark on this machine (strategy_time.c, cs_gm_select_cost_ns), times
 * the world's cpu_factor.  Matching includes the context id.
 *
 * SHARING (Section 4).  With share on, a communicator's map is created once
 * per OS process by its local leader (cs_comm_publish_map) and found by the
 * other collocated members (cs_comm_lookup_map) in the process's table
 * under the context id; the context id must then be unique among the
 * communicators of the OS process.  With share off (--no-share, and MPICH's
 * own scheme), every proclet holds a copy.
 *
 * SIMULATOR SHORTCUT (not part of the simulated system): identical maps are
 * stored once in the simulator's memory however many simulated copies exist
 * (cs_world_memo_*), so 110,000 proclets holding a copy of a 110,000-member
 * array fit; every simulated copy is still charged to its proclet and OS
 * process.
 *
 * MEMORY ACCOUNTING.  A proclet's own memory is the messaging interface's
 * (cs_alloc, cs_mem_hold: the communicator struct, an unshared map, buffers
 * of the protocols).  Group-map bytes are also counted per OS process (now
 * and peak), whether shared or not.
 */
#ifndef COLLSIM_COMM_H
#define COLLSIM_COMM_H

#include "sim/contracts/groupmap.h"
#include "sim/contracts/msg.h"

#include <stdbool.h>
#include <stdint.h>

typedef struct cs_world cs_world;
typedef struct cs_shared_map cs_shared_map;

/* Context id of MPI_COMM_WORLD (no new communicator ever gets it). */
#define CS_CTX_WORLD 0u

/* Tags at and above this value belong to the layer's collectives and
 * protocols; applications use tags below it. */
#define CS_COMM_TAG_RESERVED (1 << 24)
#define CS_COMM_TAG_WAKE (CS_COMM_TAG_RESERVED + 1)

typedef struct cs_world_config {
  int64_t n;            /* proclets */
  int64_t per_process;  /* C: proclets per OS process */
  int64_t per_machine;  /* P: OS processes per machine */
  bool share;           /* share group maps per OS process (Section 4) */
  const char *map;      /* a strategy (S, T, ST) or a representation name */
  cs_gm_limits limits;
  /* Costs measured on this machine (select, map creation, sorting) times
   * cpu_factor = simulated CPU seconds: 1 = this machine's processor. */
  double cpu_factor;
  double sort_ns_per_compare; /* sorting at a root: n lg n compares */
} cs_world_config;

void cs_world_config_defaults(cs_world_config *c);
cs_world *cs_world_new(const cs_world_config *c);
void cs_world_free(cs_world *w);
const cs_world_config *cs_world_cfg(const cs_world *w);
int64_t cs_world_processes(const cs_world *w);
int64_t cs_world_process_of(const cs_world *w, int64_t rank);
int64_t cs_world_machine_of(const cs_world *w, int64_t rank);

/* ---- communicators ---- */
typedef struct cs_comm {
  uint32_t ctx;          /* context id */
  int rank, size;
  cs_shared_map *map;    /* NULL: the world's identity map */
  cs_world *world;
  uint32_t coll_seq;     /* collectives called on it so far (their tags) */
  /* The SELECT cache of this handle's copy of the map (a BWT map keeps the
   * block it decompressed last): the OS process's table entry when the map
   * is shared (shared_cache, set by cs_comm_new), else the handle's own
   * (own_cache).  Both hold the block plus one, 0 = empty, so every handle
   * is valid however it was made: one zero-initialised but for ctx, rank,
   * size, map and world (cs_comm_handle, a designated initialiser) has an
   * empty cache of its own, and a copy of a handle keeps its own cache, not
   * a pointer into the original. */
  int64_t *shared_cache;
  int64_t own_cache;
} cs_comm;

/* MPI_COMM_WORLD for proclet p (allocated with cs_alloc: counted). */
cs_comm *cs_comm_world(cs_proc *p, cs_world *w);
/* A new communicator for p: context id, rank, size, map (NULL only when it
 * is the identity of the whole world).  Takes a reference on map. */
cs_comm *cs_comm_new(cs_proc *p, cs_world *w, uint32_t ctx, int rank, int size, cs_shared_map *map);
/* Release p's handle (and its reference on the map). */
void cs_comm_free(cs_proc *p, cs_comm *c);
/* A handle on a group that is not a communicator of its own (e.g. an MPI
 * group object used for sends in another context): not allocated, not
 * counted, no reference on map; its SELECT cache is its own (empty). */
cs_comm cs_comm_handle(cs_world *w, uint32_t ctx, int rank, int size, cs_shared_map *map);

/* World rank of group rank g; charges the map's select cost to p. */
int cs_comm_world_rank(cs_proc *p, const cs_comm *c, int g);
/* Group rank of world rank w (-1 if not a member); charges a rank query
 * (modelled as a select). */
int cs_comm_group_rank(cs_proc *p, const cs_comm *c, int w);

/* Point to point inside c: dst and src are group ranks (src may be
 * CS_ANY); tags below CS_COMM_TAG_RESERVED.  data may be NULL (virtual
 * payload), or carry data_len <= bytes real bytes. */
void cs_comm_send(cs_proc *p, const cs_comm *c, int dst, int tag, const void *data, size_t data_len,
                  size_t bytes);
cs_msg *cs_comm_recv(cs_proc *p, const cs_comm *c, int src, int tag);

/* ---- group maps shared per OS process (Figure 2) ---- */

/* Build the map of wids[0..m-1] (group order) with the world's map choice;
 * charges the creation cost to p and counts its bytes once for p's OS
 * process (and for p itself when share is off).  memo_key: identical groups
 * given the same nonzero key are built once in the simulator (see the
 * shortcut above); 0 = no memo.  NULL on failure (err set). */
cs_shared_map *cs_comm_build_map(cs_proc *p, cs_world *w, uint64_t memo_key, const cs_wid *wids, int64_t m,
                                 GError **err);
/* The map as the simulator memo holds it (built elsewhere): charges p the
 * creation cost of its own copy, as cs_comm_build_map.  NULL if absent. */
cs_shared_map *cs_comm_copy_memo_map(cs_proc *p, cs_world *w, uint64_t memo_key);
/* Procedure 2's "create or get": TRUE if p is the first of its OS process
 * to ask for ctx (it builds the map and publishes it); FALSE if another
 * collocated proclet has (wait for it with cs_comm_wait_map). */
bool cs_comm_claim_map(cs_proc *p, cs_world *w, uint32_t ctx);
/* Store map in p's OS process table under ctx (the local leader), count its
 * bytes for the process, and wake the collocated proclets waiting for it
 * (a zero-byte message inside the OS process each: a scheduler switch). */
void cs_comm_publish_map(cs_proc *p, cs_world *w, uint32_t ctx, cs_shared_map *map);
/* The map published under ctx in p's OS process; p yields until the local
 * leader has published it (Procedure 1 line 25). */
cs_shared_map *cs_comm_wait_map(cs_proc *p, cs_world *w, uint32_t ctx);
/* The map p's OS process published under ctx, or NULL. */
cs_shared_map *cs_comm_lookup_map(cs_proc *p, cs_world *w, uint32_t ctx);
/* Simulator shortcut: build the map of a group under memo_key without
 * charging anyone (the content a virtual payload stands for); TRUE if it
 * is (now) there. */
bool cs_comm_memo_deposit(cs_world *w, uint64_t memo_key, const cs_wid *wids, int64_t m, GError **err);
bool cs_comm_memo_has(const cs_world *w, uint64_t memo_key);
/* The memo's map, charging nobody (an MPI group object that exists before
 * the call, e.g. MPI_Comm_create's argument); NULL if absent. */
cs_shared_map *cs_comm_memo_peek(cs_world *w, uint64_t memo_key);
/* Simulator-side results shared by the proclets of one creation (what a
 * virtual payload stands for, computed once): get, or put (the world frees
 * it with free_fn). */
void *cs_world_oracle(cs_world *w, uint64_t key);
void cs_world_oracle_put(cs_world *w, uint64_t key, void *data, GDestroyNotify free_fn);
/* World ranks of all c's members in group order (a bulk decode, charged as
 * size selects). */
void cs_comm_world_ranks(cs_proc *p, const cs_comm *c, cs_wid *out);
/* Maps of p's OS process currently published (for uniqueness checks). */
int64_t cs_comm_published_count(const cs_world *w, int64_t process);

const cs_groupmap *cs_shared_map_groupmap(const cs_shared_map *m);
uint64_t cs_shared_map_bytes(const cs_shared_map *m);
const char *cs_shared_map_rep(const cs_shared_map *m);
/* Times this map was built as a simulated copy (shared: once per OS
 * process). */
int64_t cs_shared_map_builds(const cs_shared_map *m);

/* ---- accounting read after a run ---- */
uint64_t cs_world_map_bytes_now(const cs_world *w, int64_t process);
uint64_t cs_world_map_bytes_peak(const cs_world *w, int64_t process);
/* OS process `process`'s memory: its proclets' (each joins it with
 * cs_proc_join_mem_pool before its first allocation) and its shared maps. */
cs_mem_pool *cs_world_mem_pool(cs_world *w, int64_t process);
uint64_t cs_world_map_bytes_total_peak(const cs_world *w);
int64_t cs_world_maps_built(const cs_world *w);
/* The representation of the last map built ("" if none), and the distinct
 * representations built, comma-separated (g_free it). */
char *cs_world_reps_used(const cs_world *w);

/* Seconds of simulated CPU for `ns` nanoseconds measured on this machine. */
double cs_world_cpu_seconds(const cs_world *w, double ns);

/* ---- intercommunicators (seed 004) ----
 *
 * Two disjoint groups joined for point to point: ranks are ranks of the
 * remote group.  MPICH's layout: each side receives on a context id of its
 * own (recvcontext_id, agreed over its local group) and sends on the
 * other side's (context_id); the remote group is an array of world ranks
 * (MPICH 1.x's VCR table: no group map, no lookup cost).  Built by
 * algorithms/communicators/intercomm_create.c, joined into an
 * intracommunicator by intercomm_merge.c. */
typedef struct cs_intercomm {
  cs_comm *local;       /* the local group (the caller's communicator: not owned) */
  uint32_t send_ctx;    /* the remote side's receive context */
  uint32_t recv_ctx;    /* this side's receive context */
  int remote_size;
  cs_wid *remote;       /* world ranks of the remote group in its rank order (cs_alloc'd) */
  bool is_low_group;    /* this side's leader has the smaller world rank */
} cs_intercomm;

void cs_intercomm_send(cs_proc *p, const cs_intercomm *ic, int remote_rank, int tag, const void *data,
                       size_t data_len, size_t bytes);
cs_msg *cs_intercomm_recv(cs_proc *p, const cs_intercomm *ic, int remote_rank, int tag);

/* Tag of the next collective on c (every member calls collectives in the
 * same order, so members agree; messages of two collectives never match). */
int cs_comm_next_coll_tag(cs_comm *c);

#endif

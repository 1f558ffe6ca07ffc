/* One communicator-creation experiment (seed 003, Sections 4 and 8): a world
 * of N proclets on a [C,P,M] system creates communicators with one protocol
 * (algorithms/communicators/), `repeat` times in a row, timed in SimGrid;
 * every proclet's result is verified; the counters, memory and group-map
 * accounting are summarised. */
#ifndef COLLSIM_COMM_RUN_H
#define COLLSIM_COMM_RUN_H

#include "algorithms/communicators/protocol.h"
#include "sim/drivers/record.h"
#include "sim/drivers/procs_engine.h"

/* How colours and keys of a split are assigned. */
typedef enum { CS_LAYOUT_CYCLIC, CS_LAYOUT_BLOCK } cs_color_layout;
typedef enum { CS_KEY_RANK, CS_KEY_REVERSE, CS_KEY_RANDOM } cs_key_rule;

typedef struct cs_comm_params {
  const cs_comm_protocol *proto;
  int64_t n, per_process, per_machine; /* N, C, P */
  int ranks_per_host;                  /* hosts of the platform: rank r on host r / ranks_per_host */
  int64_t cpm[3];                      /* for the output */
  /* split */
  int colors;
  cs_color_layout layout;   /* cyclic: colour = rank mod colours (members spread over every OS process) */
  cs_key_rule key_rule;
  /* split of one group: the members in group order (colour 0, keys their
   * positions; the others MPI_UNDEFINED); NULL: colours by layout */
  const cs_wid *split_group;
  int64_t split_group_size;
  /* create: disjoint groups, world ranks in group order */
  GPtrArray *groups;        /* cs_wid * each (owned by the caller) */
  GArray *group_sizes;      /* int64_t */
  int tag_base;             /* create-group: group g uses tag tag_base + g on the parent */
  const char *map;          /* strategy or representation */
  bool share;
  int lid_bits, lbi_bits;
  double cpu_factor;
  int repeat;               /* creations in a row (each from the world) */
  /* Section 8's messaging on the last communicator created (comm_bench.h) */
  bool bench;
  const char *set;          /* the Section 8 set's name, or NULL */
  int64_t bench_messages;
  int bench_gathers;
  int space_comms;          /* communicators of the space-saving report (paper: 8) */
  uint64_t seed;
  const char *platform_desc;
  cs_engine_config engine;
  cs_procs_engine procs;    /* SimGrid (default) or the native engine */
} cs_comm_params;

typedef struct cs_comm_result {
  bool verified;
  char *why;                /* first verification failure, or NULL */
  double sim_time_s, wall_s;
  uint64_t messages, bytes;
  uint64_t wakeups;         /* scheduler wake-ups inside OS processes (not messages) */
  int64_t peak_mem_bytes_per_proclet_max;
  double peak_mem_bytes_per_proclet_mean; /* comm compare's; not in comm's records */
  uint64_t max_message_bytes;              /* largest message (comm compare's) */
  int64_t peak_mem_bytes_per_process_max; /* the peak of an OS process's total: its proclets and shared maps */
  uint64_t map_bytes_per_process_max, map_bytes_total;
  int64_t maps_built, maps_expected;
  int64_t created;          /* communicators created (distinct context ids x creations) */
  uint64_t nonmember_messages; /* sent or received by processes in no group (create, create-group) */
  bool has_formula;
  uint64_t messages_expected; /* the protocol's documented count, when it has one */
  int64_t exhausted;        /* creations that ran out of context ids */
  char *reps;               /* representations built, comma-separated */
  double create_s, p2p_s, gather_s; /* phase times: last proclet's end minus the previous phase's */
  /* Bytes saved against ARRAY maps by space_comms communicators like the
   * last one, maps shared per OS process in both (Section 8.1). */
  int64_t array_bytes_per_process, space_saved_bytes;
} cs_comm_result;

/* 0 success, 1 internal failure or failed verification (err says which),
 * 2 bad input. */
int cs_comm_run(const cs_comm_params *prm, cs_comm_result *res, GError **err);
/* The colour of rank r in a split by layout: r mod colours (cyclic) or
 * r colours / n (block). */
static inline int32_t cs_layout_color(const cs_comm_params *prm, int64_t r)
{
  return (int32_t)(prm->layout == CS_LAYOUT_CYCLIC ? r % prm->colors : r * prm->colors / prm->n);
}
void cs_comm_result_clear(cs_comm_result *r);
cs_record *cs_comm_result_record(const cs_comm_params *prm, const cs_comm_result *res);
/* The columns of an operation's records (one CSV layout per operation). */
extern const cs_record_kind cs_comm_split_record_kind, cs_comm_create_record_kind;
const cs_record_kind *cs_comm_record_kind(cs_comm_op op);

#endif

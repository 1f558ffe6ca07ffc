/* How many context ids (seed 003, Section 8.2): split a world into K
 * colours over and over until a new communicator cannot be made, and say
 * which of three limits stopped it:
 *   lbi   <LID, LBI>: a colour whose every member has used all 2^k leader bits;
 *   mask  MPICH2's mask: 2^11 ids less 3 reserved, one per split;
 *   pool  MPICH2's pool of communicator objects per OS process (1.3/1.4:
 *         8 preallocated + 1,023 blocks of 256 = 261,896; src/util/mem/
 *         handlemem.c and src/include/mpihandlemem.h), one object per
 *         proclet that joins a new communicator.
 * Untimed: the ids are chosen by the same rules and code as the timed
 * protocols (algorithms/communicators/context_id*.c, Procedure 1's "fewest
 * bits set, first in key order"), without the messages; so 64,000 splits of
 * 100 communicators take seconds.  The splits each scheme and the pool
 * would allow alone are reported too, so one run shows which binds first.
 */
#ifndef COLLSIM_COMM_IDS_H
#define COLLSIM_COMM_IDS_H

#include "sim/drivers/record.h"

#include <stdbool.h>
#include <stdint.h>

#define CS_MPICH2_COMM_POOL 261896

typedef struct cs_ids_params {
  int64_t n, per_process, cpm[3];
  int64_t colors;        /* K communicators per split */
  bool block_layout;     /* colour of r: r K / n (else r mod K) */
  int lid_bits, lbi_bits;
  int64_t pool;          /* objects per OS process; 0 = no limit */
  bool world_in_pool;    /* COMM_WORLD and COMM_SELF of each proclet take 2 objects */
  int64_t max_splits;    /* 0: until exhausted */
  bool mpich;            /* the mask scheme (else <LID, LBI>) */
} cs_ids_params;

typedef struct cs_ids_result {
  int64_t splits;        /* complete splits */
  int64_t created;       /* communicators (context ids) created, splits x K + a partial split */
  int64_t ids_per_process_max; /* distinct context ids held in one OS process */
  const char *limit;     /* "lbi", "mask", "pool" or "none" (max_splits reached) */
  int64_t splits_lbi, splits_mask, splits_pool; /* what each limit alone allows (-1: not within max_splits; pool: no pool) */
  double wall_s;
} cs_ids_result;

void cs_ids_run(const cs_ids_params *prm, cs_ids_result *res);
cs_record *cs_ids_result_record(const cs_ids_params *prm, const cs_ids_result *res, const char *platform);
extern const cs_record_kind cs_ids_record_kind;

#endif

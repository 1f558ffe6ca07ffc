/* Measuring group maps (seed 003, Section 6, Tables 1-2): every
 * representation of one group, what it stores and what SELECT costs, and
 * each strategy's pick, as one result record (sim/drivers/record.h).
 *
 * Per representation (the registry's order; on an unordered group each set
 * representation X is measured as "wtr+X", Figure 3's set + permutation):
 *   bits, kib (bits / 8,192), bpg (bits per member), the parts of bits where
 *   they matter (BM's bitmap_bits and directory_bits; a composite's
 *   perm_bits and set_bits), paths (BDD), runs (WTR);
 *   create_ms    one creation, wall clock;
 *   select_all_ms  select(gid) for every gid in order (Table 1's S-All);
 *   select_one_us  mean select time over `one_samples` gids drawn with the
 *                seed (Table 1's S-One: 1,000 random destinations), in
 *                us with 5 decimals (10 ps: ARRAY's select is about 1 ns);
 *                the batch is repeated until it has run 4 ms, so short
 *                selects are not lost in the clock's resolution, and the
 *                least of 5 such tries is kept (another process on the
 *                machine only ever adds time);
 *   verified     every select of the S-All pass equals the group's wid, and
 *                rank(select(gid)) = gid on the sampled gids, and a sampled
 *                non-member's rank is "not a member";
 *   failed       null, or why creation failed (not applicable, a limit).
 * Times are wall-clock on this machine and vary between runs; with
 * times = false they are left out (null) and the record is deterministic.
 */
#ifndef COLLSIM_GROUPMAP_MEASURE_H
#define COLLSIM_GROUPMAP_MEASURE_H

#include "sim/contracts/groupmap.h"
#include "sim/drivers/record.h"

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

typedef struct cs_gm_measure_opts {
  bool times;              /* measure create, S-All, S-One */
  uint64_t seed;           /* the S-One sample (and the non-members tried) */
  int64_t one_samples;     /* gids per S-One batch (the paper: 1,000) */
  const char *const *reps; /* measure only these names (NULL: all) */
  bool strategies;         /* also run S, T, ST and record their picks */
  cs_gm_limits limits;
} cs_gm_measure_opts;

cs_gm_measure_opts cs_gm_measure_defaults(void);

/* One group: wids[0..m-1] in gid order (checked: CS_GM_ERROR_INPUT for a
 * wid outside [0, world) or a repeat).  label names the group in the
 * record (may be NULL); description is free text (may be NULL).  Returns
 * the record, or NULL with err (bad input only; a representation that
 * fails is a row with `failed` set), or NULL without err when o->reps names
 * none of this group's representations (e.g. only wtr+X, the group being
 * ordered). */
cs_record *cs_gm_measure_group(const char *label, const char *description, const cs_wid *wids, int64_t m,
                               int64_t world, const cs_gm_measure_opts *o, GError **err);

/* S-One's timing: mean seconds per cs_gm_select over gids[0..n-1], the
 * batch repeated until 4 ms have run, the least of 5 such tries
 * (bench/select_floor times with it too). */
double cs_gm_select_one_seconds(cs_groupmap *map, const int64_t *gids, int64_t n);

/* CSV columns of the records above (one line per representation). */
extern const cs_record_kind cs_gm_record_kind;

#endif

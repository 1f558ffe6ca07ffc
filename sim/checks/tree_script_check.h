/* Whether a reduce/broadcast tree script (seed 002, Section 4;
 * sim/contracts/tree_script.h) is safe to execute.
 *
 * Two parts:
 *  - the script's structure, checked statically: a known root, every peer a
 *    rank other than oneself; in the reduce the root never sends and every
 *    other rank sends its partial sum exactly once, as its last command; in
 *    the broadcast the root never receives and every other rank receives
 *    the root's value exactly once, before it sends anything;
 *  - its execution, checked by the schedule replay (sim/checks/replay.c)
 *    running the script as the "script" collective (algorithms/collectives/
 *    script.c): every send matched by a receive, no rank waiting forever, no
 *    cycle of waits, no contribution counted twice, the root ending with
 *    every contribution, every rank ending with the root's value.
 * Every refusal names the phase, the rank and the command ("reduce, rank 12,
 * command 3 (send 8): ..."), prefixed with "origin:line: " when the script
 * was read from YAML (domain CS_TS_ERROR, code CS_TS_ERR_INVALID). */
#ifndef COLLSIM_TREE_SCRIPT_CHECK_H
#define COLLSIM_TREE_SCRIPT_CHECK_H

#include "sim/contracts/tree_script.h"

bool cs_ts_validate(const cs_tree_script *s, GError **err);

/* Read and check: cs_ts_read / cs_ts_read_file, then cs_ts_validate. */
cs_tree_script *cs_ts_parse(const char *text, size_t len, const char *origin, GError **err);
cs_tree_script *cs_ts_load(const char *path, GError **err);

#endif

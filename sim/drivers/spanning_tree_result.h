/* One tree-construction run's result (seed 000) and its record (the fields
 * of collsim tree's table, CSV and JSON output). */
#ifndef COLLSIM_SPANNING_TREE_RESULT_H
#define COLLSIM_SPANNING_TREE_RESULT_H

#include "sim/drivers/record.h"

#include <stdint.h>

typedef struct cs_tree_result {
  const char *algo;
  int n;
  int64_t m;                 /* members over all colours */
  uint64_t s;                /* non-root parent-tree vertices above a member (cs_tree_vertices_above_members) */
  int root_joins;            /* rank 0 joins a new group */
  double f;                  /* participation fraction asked (-1 with --members) */
  int k;
  int colors;
  uint64_t seed;
  const char *platform;      /* e.g. "torus:8x8x16/4" or "file:x.xml" */
  const char *model;         /* SimGrid network model, as configured */
  double sim_time_s;         /* bracket broadcast + algorithm + bracket reduction */
  double sim_time_alg_s;     /* algorithm alone (docs/commands.md) */
  uint64_t messages;         /* algorithm alone */
  int64_t messages_expected; /* the algorithm's exact count (-1: it has none) */
  const char *messages_formula; /* that count as a formula, or NULL */
  uint64_t messages_bracketed;
  uint64_t bytes;            /* algorithm alone */
  uint64_t bytes_bracketed;
  uint64_t max_message_bytes;
  int64_t peak_mem_words_max;
  double peak_mem_words_mean;
  int height;                /* max over colours; -1 with no member */
  int min_height;
  int verified;              /* 1 yes, 0 no, -1 not checked (--no-verify) */
  double wall_s;             /* the only field that differs between identical runs */
} cs_tree_result;

/* The record's columns (the key columns of a sweep's resume are among
 * them: algo, n, f, k, colors, seed, platform). */
extern const cs_record_kind cs_tree_record_kind;
/* The CSV header line (no newline). */
const char *cs_tree_csv_header(void);

cs_record *cs_tree_result_record(const cs_tree_result *r);

#endif

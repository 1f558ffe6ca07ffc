/* One tree-construction run's result, and its table / CSV / JSON forms. */
#ifndef COLLSIM_RESULT_H
#define COLLSIM_RESULT_H

#include <stdint.h>
#include <stdio.h>

typedef struct cs_tree_result {
  const char *algo;
  int n;
  int64_t m;                 /* members over all colours */
  double f;                  /* participation fraction asked (-1 with --members) */
  int k;
  int colors;
  uint64_t seed;
  const char *platform;      /* e.g. "torus:8x8x16/4" or the XML file name */
  const char *model;         /* SimGrid network model, as configured */
  double sim_time_s;         /* bracket broadcast + algorithm + bracket reduction */
  double sim_time_alg_s;     /* algorithm alone (see README) */
  uint64_t messages;         /* algorithm alone */
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

/* CSV header line (no newline) and the key columns that identify a point. */
extern const char *const CS_TREE_CSV_HEADER;
void cs_result_write_csv(FILE *out, const cs_tree_result *r);
void cs_result_write_json(FILE *out, const cs_tree_result *r);
void cs_result_write_table(FILE *out, const cs_tree_result *r);

#endif

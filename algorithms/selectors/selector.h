/* Selectors: what a real MPI library's default decision logic would run for
 * one collective call, written as data read from that library's sources
 * (one file per library: mpich.c, ompi.c; the table of selectors:
 * registry.c).  A selector is a pure function of (collective, p, size,
 * commutative): it returns the library's algorithm, the name collsim gives it
 * (NULL when collsim has no such algorithm) and one line naming the rule that
 * chose it.  The rules are ordered rows, the first whose conditions hold
 * wins, as the nested if/else of the sources; the same rows print the
 * decision table (collsim collective --list --selector NAME,
 * docs/selectors.md).
 *
 * size is collsim's: each rank's block for scatter, gather, allgather,
 * reduce-scatter, each pair's for alltoall, the whole buffer for bcast,
 * reduce, allreduce, 0 for barrier.  Each selector says per collective which
 * of its own quantities that is (size or p * size). */
#ifndef COLLSIM_SELECTORS_SELECTOR_H
#define COLLSIM_SELECTORS_SELECTOR_H

#include "sim/contracts/schedule.h"

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

/* Bytes per element: the selectors' count is size / CS_SEL_ELEMENT_BYTES
 * (MPI_DOUBLE). */
#define CS_SEL_ELEMENT_BYTES 8

enum { CS_SEL_ANY = 0, CS_SEL_YES = 1, CS_SEL_NO = 2 }; /* a yes/no condition: untested, must hold, must not */

/* Conditions, all of which must hold; 0 leaves one untested. */
typedef struct cs_sel_cond {
  int64_t p_lt, p_le, p_eq;   /* p < p_lt, p <= p_le, p == p_eq */
  int pow2;                   /* CS_SEL_YES: p is a power of two, CS_SEL_NO: is not */
  int commutative;            /* the operation is (YES) or is not (NO) commutative (built in) */
  int count_lt_pof2;          /* count < the largest power of two <= p (YES), or not (NO) */
  int count_lt_p;             /* count < p (YES), or not (NO) */
  uint64_t size_lt, size_le;  /* measured size < size_lt, <= size_le */
} cs_sel_cond;

/* One row of a decision: when cond holds, the library runs lib_algo. */
typedef struct cs_sel_rule {
  cs_coll coll;
  cs_sel_cond cond;
  const char *lib_algo;
} cs_sel_rule;

/* One row of the map from the library's algorithm to collsim's: when cond
 * holds, lib_algo runs as collsim's algo (NULL: collsim lacks it); note says
 * why (the implementation's own switch, a variant collsim lacks), or NULL. */
typedef struct cs_sel_name {
  cs_coll coll;
  const char *lib_algo;
  cs_sel_cond cond;
  const char *algo;
  const char *note;
} cs_sel_name;

/* Which of the library's quantities a collective's size is. */
typedef struct cs_sel_measure {
  const char *name;  /* "avg_msg_size", "total_dsize", ...; NULL: the collective is not covered */
  bool times_p;      /* p * size (else size) */
} cs_sel_measure;

typedef struct cs_selection {
  const char *lib_algo; /* the library's algorithm */
  const char *algo;     /* collsim's name for it, NULL: collsim lacks it */
  char rule[512];       /* one line: source, the conditions that held, the values, the algorithm */
} cs_selection;

/* A selector's data: its rules, names and vocabulary. */
typedef struct cs_sel_data {
  const char *source;                    /* "MPICH 4.2.3 maint/tuning/coll/mpir/generic.json" */
  const char *p_name;                    /* "comm_size", "communicator_size" */
  cs_sel_measure measure[CS_NCOLLS];
  const cs_sel_rule *rules;
  size_t nrules;
  const cs_sel_name *names;
  size_t nnames;
} cs_sel_data;

typedef struct cs_selector {
  const char *name;        /* --selector NAME */
  const char *description; /* the library, version and files read */
  /* The entry point: false when the selector does not cover c. */
  bool (*select)(cs_coll c, int64_t p, uint64_t size, bool commutative, cs_selection *out);
  const cs_sel_data *data; /* for the decision table */
} cs_selector;

/* The table of selectors (registry.c). */
size_t cs_selector_count(void);
const cs_selector *cs_selector_at(size_t i);
const cs_selector *cs_selector_find(const char *name);
/* The names joined by ", " (free it). */
char *cs_selector_names(void);

/* The collectives s covers, joined by ", " (free it). */
char *cs_selector_covered(const cs_selector *s);

/* Evaluate d on one call (rules.c): false when d does not cover c. */
bool cs_sel_evaluate(const cs_sel_data *d, cs_coll c, int64_t p, uint64_t size, bool commutative,
                     cs_selection *out);

/* The decision table as Markdown: per collective, the rules (first match
 * wins) and then the map to collsim's algorithms. */
void cs_sel_table_markdown(const cs_selector *s, GString *out);

#endif

/* An experiment: a YAML file naming a subcommand and parameter lists whose
 * cartesian product is a list of points, each one run of that subcommand.
 *
 * Any subcommand (command: collective, allreduce, tree, ...):
 *
 *   name: seed001-table2
 *   command: collective             # the subcommand every point runs
 *   description: free text
 *   parameters:                     # option: value, or a list of values (swept)
 *     platform: "percs:64,16,16"    #   --platform=percs:64,16,16 on every point
 *     timed: true                   #   a flag (false: left out)
 *     coll: [scatter, gather]       #   swept; the first key written is outermost
 *     n: {from: 1, to: 32}          #   integers from..to (step: 1 unless given)
 *   series:                         # optional: sub-experiments, each adding its
 *     - label: {curve: lam}         #   label columns (put first in every row) and
 *       parameters: {trees: lam}    #   parameters (over the shared ones)
 *   points:                         # optional: explicit combinations, each a
 *     - {coll: scatter, algo: binomial, block: 64KiB}   # mapping, crossed with the product
 *   extra_args: ["--cfg=network/crosstraffic:0"]       # passed to every point
 *   exclude:                        # drop points matching all keys of a rule
 *     - {algo: [two-tier], coll: [reduce]}
 * A point runs `collsim COMMAND --OPTION=VALUE ... --format=csv --quiet
 * --with-config EXTRA_ARGS`; its rows, behind the labels, go into the
 * output, whose header is the labels, the subcommand's CSV header and the
 * configuration columns (sim/drivers/run_config.h).  The sweep resumes from a
 * journal beside the output (see sweep.h).
 *
 * extra_args (both schemas): each item one long option, `--name=value` or
 * `--name`, that neither the points nor the sweep already give (a repeated
 * option is an error when the file is read, not at every point's run), and
 * no output option (--format, --out, --quiet, --trace, ...: see
 * cs_experiment_load).  extra_args are part of
 * every point's configuration: changing them makes every point pending.
 *
 * The original tree schema (command: tree, or no command) stays:
 *
 *   name: seed000-fig3              # required, a string
 *   description: free text          # optional
 *   platform:                       # optional; default {torus: auto}
 *     torus: auto                   #   "auto" or "XxYxZ" (BG/P-like 3D torus) ...
 *     cores: 4                      #   optional, ranks per node (>= 1)
 *     # file: ../platforms/x.xml    #   ... or a SimGrid XML file instead of torus;
 *                                   #   a relative path is taken from the YAML file's folder
 *   algorithms: [centralized, rank-hash]   # required, names from the registry
 *   n: [4096, 8192]                 # required, integers >= 1
 *   f: [0.1, 0.6]                   # required, numbers in [0, 1]
 *   k: [3]                          # required, integers >= 2
 *   colors: [1]                     # optional (default [1]), integers >= 1
 *   seeds: [1]                      # optional (default [1]), integers >= 0
 *   extra_args: ["--cfg=network/crosstraffic:0"]  # optional, passed to collsim tree
 *   exclude:                        # optional: drop points matching ALL keys of one rule
 *     - {algorithms: [comm-split], n: [65536, 131072]}
 *
 * Numbers must be plain (unquoted) scalars.  Unknown keys, wrong types, empty
 * lists and out-of-range values are errors naming the file, line and key.
 * A point with colors > 1 needs a multi-colour algorithm (exclude the others).
 *
 * Point order (the index used by --shard): n outermost, then f, k, colors,
 * seeds, and algorithms innermost, each in the order written in the file;
 * excluded points are removed before numbering.  So all algorithms of one
 * (n, f, k, colors, seed) run one after the other, and small n come first
 * when n is written in increasing order.
 */
#ifndef COLLSIM_EXPERIMENT_H
#define COLLSIM_EXPERIMENT_H

#include "sim/contracts/formula.h"

#include <glib.h>
#include <stdint.h>

#define CS_EXPERIMENT_ERROR (cs_experiment_error_quark())
GQuark cs_experiment_error_quark(void);

typedef struct cs_point {
  size_t index;        /* position in the experiment's point list */
  /* generic experiments: the options ("--key=value"), the label values and
   * the point's key (its labels and config_key, one line); NULL for tree
   * points */
  char **args;
  char **labels;
  char *key;
  /* config_key of the run (sim/drivers/run_config.h): the hash of its
   * normalized argument list, extra_args included, and collsim's version */
  char *config_key;
  /* tree experiments */
  const char *algo;    /* points into the experiment's algorithms */
  int n;
  double f;
  int k;
  int colors;
  uint64_t seed;
} cs_point;

typedef struct cs_experiment {
  char *path;          /* the YAML file as given */
  char *name;
  char *command;       /* the subcommand ("tree" for the tree schema) */
  gboolean generic;    /* parameters/series/points schema */
  GPtrArray *label_names; /* char *, generic experiments */
  char *description;   /* "" when absent */
  char *torus;         /* "auto" or "XxYxZ"; NULL with a platform file */
  int cores;           /* 0 when not given */
  char *platform_file; /* resolved path, or NULL */
  GPtrArray *algorithms; /* char * */
  GArray *n;           /* int */
  GArray *f;           /* double */
  GArray *k;           /* int */
  GArray *colors;      /* int */
  GArray *seeds;       /* uint64_t */
  GPtrArray *extra_args; /* char * */
  GArray *points;      /* cs_point, after exclusion */
  /* expect: {messages: EXPR, bytes: EXPR} (issue 32): every row's count
   * checked against the formula after the sweep (sim/sweep/sweep_expect.h);
   * NULL where not given; each parsed once, when the file is read. */
  char *expect_messages, *expect_bytes;
  cs_formula *expect_messages_f, *expect_bytes_f;
  size_t excluded;     /* points removed by `exclude` */
} cs_experiment;

/* The output options of a subcommand: those that write a file (type
 * CS_OPT_PATH_OUT in its option table: --out, --trace, --per-link, ...),
 * NULL-terminated (the parser g_strfreev's it).  NULL when they cannot be
 * found, with err set (the parse then fails with that error).  The sweep
 * asks the subcommand itself (sim/sweep/option_query.h). */
typedef char **(*cs_output_options_fn)(const char *command, gpointer data, GError **err);

/* What the parser asks of the program that runs the experiment (the table
 * of subcommands sits above the sweep, in sim/cli/commands.h): which
 * subcommands an experiment may name, and which options of one write files. */
typedef struct cs_experiment_host {
  const char *const *commands;  /* NULL-terminated: the subcommands that print result rows */
  cs_output_options_fn outputs; /* NULL: only the sweep's own options are refused */
  gpointer data;                /* given to outputs */
} cs_experiment_host;

/* Load and validate.  On error returns NULL with a message
 * "FILE:LINE: key 'KEY': what is wrong" (CS_EXPERIMENT_ERROR), or the error
 * of `outputs`.  Refused wherever an option is named (parameters, series,
 * points, exclude, extra_args): the options the sweep gives every point
 * itself (format, out, no-header, quiet, with-config) and every output
 * option of the experiment's command, asked of `outputs` (with data) once
 * the command is known: a point must not write files beside the sweep's
 * output.  outputs NULL: only the sweep's own are refused.  A label named
 * like a configuration column (cs_config_columns()) is refused too; one named
 * like a column of the command's own output is refused when the first
 * point's header shows it (sweep.c). */
cs_experiment *cs_experiment_load(const char *path, const cs_experiment_host *host, GError **err);

/* Same from a string; `path` names it in messages and anchors relative
 * platform files. */
cs_experiment *cs_experiment_parse(const char *text, size_t len, const char *path, const cs_experiment_host *host,
                                   GError **err);

void cs_experiment_free(cs_experiment *e);

static inline size_t cs_experiment_npoints(const cs_experiment *e) { return e->points->len; }
static inline const cs_point *cs_experiment_point(const cs_experiment *e, size_t i)
{
  return &g_array_index(e->points, cs_point, i);
}

/* The output options the sweep sets itself (the front end's output group,
 * sim/cli/frontend.c): refused in an experiment file, and left out of a
 * point's config_args as its run leaves them out. */
extern const char *const cs_sweep_own_options[];

/* The options a point runs with, after `collsim COMMAND` (NULL-terminated,
 * g_strfreev it): its own, then --format=csv --quiet --with-config (tree
 * points --no-header too), then extra_args.  Every option is one token,
 * --name=value or --name. */
char **cs_point_options(const cs_experiment *e, const cs_point *p);
/* A point's whole command line (NULL-terminated, g_strfreev it): exe, the
 * experiment's subcommand, then cs_point_options. */
char **cs_point_argv(const cs_experiment *e, const cs_point *p, const char *exe);


/* Human-readable platform, e.g. "torus auto, 4 cores" or "file x.xml". */
char *cs_experiment_platform_label(const cs_experiment *e);

/* Shortest decimal text that reads back as exactly d ("0.1", not
 * "0.10000000000000001"); buf of at least 32 bytes. */
const char *cs_format_double(char *buf, size_t size, double d);

/* collsim prints f with %g (6 significant digits): two fractions this close
 * are the same point. */
gboolean cs_same_fraction(double a, double b);

#endif

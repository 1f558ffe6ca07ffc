/* The shared front-end layer: what every subcommand's command line has in
 * common, written once.
 *
 *  - Options are declared in a table (cs_opt): name, type, target, range,
 *    unit, help.  Every value goes through one checked parser
 *    (sim/contracts/units.h): numbers finite and in range with their unit,
 *    sizes exact, choices from their list, paths checked.  A single-valued
 *    option given twice is an error.  GLib builds --help from the table.
 *  - Common option groups, added by flags: output (--format, --out,
 *    --no-header, --quiet, --with-config), engine (--model from one list, --o-send,
 *    --o-recv, --cfg checked before SimGrid sees it, --stack-kib,
 *    --factory, --crosstraffic, --semantics eager|mpi), platform (--platform SPEC and the older
 *    aliases --torus/--cores/--link-bw/--link-lat, --net, --cluster and its
 *    --cycles/--net-lat/--shm-lat), seed (--seed).
 *  - Message trace (CS_CLI_TRACE, for subcommands that run a simulation):
 *    --trace FILE (one CSV row per message delivered) and --timeline
 *    FILE.png (gnuplot: messages per rank and link load per tier over
 *    time, small runs), recorded by sim/drivers/trace.h through the engine
 *    configuration cs_cli_engine makes; a command that simulates nothing
 *    refuses them through its rule table (@trace) and the others write
 *    them after a run that succeeded (cs_cli_trace_write).
 *  - Errors map to exit statuses once: bad input (CS_INPUT_ERROR, an option
 *    error) prints one line "collsim CMD: error: ..." and gives 2; anything
 *    else gives 1.
 *  - Output: records rendered as table, CSV or JSON (sim/drivers/record.h) to
 *    stdout or, atomically, to --out; with --with-config every row also
 *    names the run's whole configuration (sim/drivers/run_config.h: resolved
 *    platform, model, overheads, every option given, seed, collsim version,
 *    config_key).  Output paths (every option of type CS_OPT_PATH_OUT) are
 *    checked before the run (a writable folder, not a directory, not a
 *    device); their missing folders are made, and removed again when the
 *    run wrote nothing into them, so a failed run leaves nothing behind.
 *  - Input paths (CS_OPT_PATH_IN, platform files) that do not exist from the
 *    working folder are looked up in the data folders
 *    (sim/contracts/input_path.h), so `--batch experiments/...` works from
 *    any folder.
 */
#ifndef COLLSIM_FRONTEND_H
#define COLLSIM_FRONTEND_H

#include "platforms/platform.h"
#include "sim/drivers/run_config.h"
#include "sim/drivers/record.h"
#include "sim/drivers/trace.h"
#include "sim/contracts/output_path.h"
#include "sim/contracts/units.h"
#include "sim/drivers/procs_engine.h"
#include "sim/engine/sg_engine.h"

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

typedef enum {
  CS_OPT_FLAG,     /* bool */
  CS_OPT_STRING,   /* char * (g_free'd by cs_cli_free) */
  CS_OPT_CHOICE,   /* char *, one of choices */
  CS_OPT_PATH_IN,  /* char *, a readable file (checked when parsed; found in the data folders too) */
  CS_OPT_PATH_STREAM, /* the same, read as a stream: no size cap (a GOAL schedule) */
  CS_OPT_PATH_OUT, /* char *, a path we may write (checked when parsed; missing folders made) */
  CS_OPT_INT,      /* int64_t in [min, max] */
  CS_OPT_U64,      /* uint64_t in [min, max] (max 0: 2^64-1) */
  CS_OPT_QUANTITY, /* double: qty, bare_mult, [min, max] */
  CS_OPT_SIZE,     /* uint64_t bytes in [min, max] (max 0: 2^64-1) */
  CS_OPT_LIST,     /* GPtrArray * of char *, repeatable */
} cs_opt_type;

typedef struct cs_opt {
  const char *name;
  char short_name;
  cs_opt_type type;
  void *target;
  const char *arg;  /* metavariable in --help */
  const char *help;
  double min, max;  /* CS_OPT_QUANTITY: in base units (seconds, bytes/s) */
  cs_quantity qty;
  double bare_mult; /* CS_OPT_QUANTITY: base units per bare number (1e-6 for microseconds) */
  const char *const *choices;
} cs_opt;

/* Common option groups. */
enum {
  CS_CLI_OUTPUT = 1 << 0,
  CS_CLI_ENGINE = 1 << 1,
  CS_CLI_PLATFORM = 1 << 2,
  CS_CLI_SEED = 1 << 3,
  CS_CLI_TRACE = 1 << 4,
  CS_CLI_NATIVE = 1 << 5, /* --engine simgrid|native, --loggops: commands that run processes */
};

typedef struct cs_cli {
  const char *cmd;           /* "tree" */
  unsigned groups;
  /* output */
  char *format, *out;
  bool no_header, quiet, with_config, wide;
  cs_format fmt;
  /* --expect-messages, --expect-bytes (sim/cli/expect.h) */
#define CS_CLI_NEXPECT 2
  char *expect[CS_CLI_NEXPECT];
  struct cs_formula *expect_formula[CS_CLI_NEXPECT];
  /* engine */
  char *model;
  double o_send, o_recv;     /* seconds; NAN: not given */
  GPtrArray *cfg;            /* "name:value" */
  int64_t stack_kib;
  char *factory;
  bool crosstraffic;
  char *semantics;           /* "eager", "mpi" or NULL (eager) */
  char *engine, *loggops;    /* CS_CLI_NATIVE: "simgrid", "native" or NULL (simgrid); L,o,g,G,S,O */
  /* platform */
  char *platform, *torus, *net, *cluster;
  int64_t cores;             /* 0: not given */
  double link_bw, link_lat;  /* torus aliases; NAN: not given */
  double cycles, net_lat, shm_lat; /* smp aliases; NAN: not given */
  /* seed */
  uint64_t seed;
  bool seed_given;
  /* message trace */
  char *trace, *timeline;
  cs_trace *tracer;          /* when either is given: attached by cs_cli_engine */
  /* the run's configuration (options as given, then what the run resolved) */
  cs_run_config *run;
  GPtrArray *made_dirs;      /* folders made for output paths, removed at the end when empty */
  /* parsing state */
  GHashTable *seen;          /* options given, to refuse repeats */
  GHashTable *group_of;      /* common option name -> its group (CS_CLI_ENGINE, ...) */
  GPtrArray *opts;           /* cs_opt * of this command, common ones included */
  GPtrArray *owned;          /* allocations to free */
  char **rest;               /* positional arguments left (NULL-terminated) */
} cs_cli;

/* path (an input the command reads, named `what` in the message, e.g. the
 * experiment file) is not also one of the outputs given: false with a
 * bad-input error when an output path names the same file.  The parser
 * already checks every pair of path options (and --platform's file). */
bool cs_cli_input_not_output(const cs_cli *c, const char *what, const char *path, GError **err);

/* Where options have an effect, declared by each command beside its
 * options and applied by one rule (cs_cli_check_rules): an option given
 * where it has none is refused, naming where it applies.
 *
 * `names`: option names separated by spaces; @engine, @platform and @trace
 * stand for the common groups' options.  `when`: alternatives separated by
 * " | ", each a list of terms separated by spaces, all of which must hold:
 *   op=A,B      the operation (comm's first argument) is A or B
 *   +NAME       --NAME is given           !NAME     --NAME is not given
 *   NAME=V,W    --NAME is given as V or W
 *   NAME!=V,W   --NAME is not given, or given as neither V nor W
 * A list ends with {NULL, NULL}. */
typedef struct cs_opt_rule {
  const char *names;
  const char *when;
} cs_opt_rule;

/* 0, or 2 after one message when an option given has no effect here (op:
 * the command's operation, or NULL). */
int cs_cli_check_rules(const cs_cli *c, const cs_opt_rule *rules, const char *op);

/* Parse argv (argv[0] is the subcommand's name) against the command's own
 * options (NULL-terminated by name == NULL) and the common groups.
 * summary and description go to --help.  Returns 0, or the exit status to
 * return at once: 2 on bad input (one message printed), 0 after --help. */
int cs_cli_parse(cs_cli *c, const char *cmd, unsigned groups, const cs_opt *opts, const char *parameter_string,
                 const char *summary, const char *description, int argc, char **argv);
void cs_cli_free(cs_cli *c);
/* Was the option given on the command line? */
bool cs_cli_given(const cs_cli *c, const char *name);

/* Print "collsim CMD: error: <message>" (first line of it) and return the
 * exit status of e: 2 for bad input, 1 otherwise. */
int cs_cli_fail(const cs_cli *c, const GError *e);
/* The same with a formatted bad-input message: returns 2. */
int cs_cli_usage(const cs_cli *c, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
/* Exit status for an error domain (2 input, 1 internal). */
int cs_exit_status(const GError *e);

/* The platform named by --platform or one of its aliases (default_spec
 * when none is given; NULL: required).  The caller resolves it. */
cs_platform *cs_cli_platform(const cs_cli *c, const char *default_spec, GError **err);

/* Engine settings from the common options: defaults first, then the
 * platform's (overheads, model), then the options given. default_o_send /
 * default_o_recv: the subcommand's overheads (seconds) where neither the
 * platform nor the options give any.  Records the resolved platform (p, if
 * any), model, overheads and --cfg settings in the run's configuration. */
bool cs_cli_engine(const cs_cli *c, const cs_platform *p, double default_o_send, double default_o_recv,
                   cs_engine_config *ec, GError **err);
void cs_cli_engine_clear(cs_engine_config *ec);
/* The options that have no effect on the native engine (a rule's names,
 * with "engine!=native"): SimGrid's settings, and the platform's network
 * timings (LogGOPS replaces them; a platform only maps ranks to hosts). */
#define CS_NATIVE_REFUSES "o-send o-recv cfg factory crosstraffic semantics link-bw link-lat cycles net-lat shm-lat"
/* --engine native given (CS_CLI_NATIVE). */
bool cs_cli_native(const cs_cli *c);
/* The engine of the command's processes from --engine, --model and
 * --loggops: false with a bad-input error for a model the engine has not. */
bool cs_cli_procs_engine(const cs_cli *c, cs_procs_engine *e, GError **err);

/* The run's size is known, before the run and before anything is printed:
 * --timeline on more ranks than it draws is refused at once (false,
 * CS_INPUT_ERROR), not after the whole simulation (its message limit can
 * only be judged after the run); and a large run continues in a process
 * with transparent huge pages (sim/contracts/hugepages.h). */
bool cs_cli_run_size(const cs_cli *c, int64_t ranks, GError **err);
/* After a run that succeeded: the timeline, then the trace (each through a
 * temporary file moved into place).  0, or the exit status after one
 * message (2 for a run too large to draw). */
int cs_cli_trace_write(const cs_cli *c);

/* Write records to --out (atomically) or stdout in the chosen format; with
 * --with-config, the configuration columns are added to each record. */
int cs_cli_emit(const cs_cli *c, cs_record *const *records, size_t n, const char *const *columns, const char *title);
/* Write a text (already rendered) to --out or stdout. */
int cs_cli_emit_text(const cs_cli *c, const char *text, size_t len);


/* SimGrid's network models that collsim accepts (one list for every subcommand). */
extern const char *const cs_models[];

#endif

/* The whole configuration of a run, as columns of its result rows, and the
 * key a sweep resumes by.
 *
 * `--with-config` (a common output option; `collsim sweep` gives it to every
 * point) appends to every row, in CSV, JSON and tables, the columns that
 * together with the subcommand's own determine the result:
 *   config_platform   the resolved platform spec (torus:auto resolved; link
 *                     bandwidths, latencies and other parameters that differ
 *                     from the family's defaults are in it, the defaults are
 *                     those of collsim_version)
 *   config_model      the SimGrid network model
 *   config_o_send_s, config_o_recv_s   per-message software overheads, s
 *   config_cfg        extra SimGrid settings (--cfg), space-separated
 *   config_seed       the seed
 *   config_args       the normalized argument list: the subcommand, then
 *                     every option given as --name=value (flags --name),
 *                     sorted by name (a repeatable option keeps its order),
 *                     options that only say where and how results are
 *                     written left out (the front end records none of them:
 *                     its output group and the options that write a file),
 *                     then the positional arguments
 *   collsim_version   PACKAGE_VERSION and the git description at build time
 *   config_key        16 hex digits of SHA-256 over PACKAGE_VERSION and
 *                     config_args: what a sweep resumes by
 * A column is empty where the subcommand has no such thing (no platform, no
 * simulation).  The sweep computes config_key of a point from the argument
 * list it passes (cs_config_args + cs_config_key, the same functions), and
 * checks it against the row the point prints. */
#ifndef COLLSIM_RUN_CONFIG_H
#define COLLSIM_RUN_CONFIG_H

#include "sim/drivers/record.h"

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

typedef struct cs_run_config {
  char *command;         /* "tree", "comm split" */
  GPtrArray *tokens;     /* "--name=value" / "--name" as given, then positional arguments */
  char *platform;        /* resolved spec, or NULL */
  char *model;           /* NULL: no simulation */
  double o_send, o_recv; /* NAN: none */
  char *cfg;             /* NULL: none */
  bool has_seed;
  uint64_t seed;
} cs_run_config;

/* The configuration columns, in their order. */
extern const cs_record_kind cs_config_record_kind;
/* Its CSV columns, NULL-terminated. */
static inline const char *const *cs_config_columns(void) { return cs_record_kind_csv(&cs_config_record_kind); }

cs_run_config *cs_run_config_new(const char *command);
void cs_run_config_free(cs_run_config *rc);
/* Record one option as given (value NULL for a flag); the caller records
 * only options that can change a result. */
void cs_run_config_option(cs_run_config *rc, const char *name, const char *value);

/* config_args of a command and its argument tokens (NULL-terminated), the
 * options named in leave_out (NULL-terminated; NULL: none) left out. */
char *cs_config_args(const char *command, char *const *tokens, const char *const *leave_out);
/* config_key of a config_args (g_free it). */
char *cs_config_key(const char *config_args);
/* "0.1.0 (git cb6332a)" */
const char *cs_collsim_version(void);

/* Append the configuration fields to r. */
void cs_run_config_add(const cs_run_config *rc, cs_record *r);
/* columns followed by the configuration columns (g_free the array, not the names). */
const char **cs_config_with_columns(const char *const *columns);

/* The strings of a as a NULL-terminated vector that does not own them
 * (g_free the vector only). */
char **cs_strv_view(const GPtrArray *a);
/* argv as one shell line, each argument quoted only when it needs to be. */
char *cs_shell_join(char *const *argv);

#endif

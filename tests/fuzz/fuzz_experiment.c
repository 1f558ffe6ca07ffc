/* libFuzzer harness for experiment files: cs_experiment_parse and
 * cs_experiment_free (sim/sweep/experiment.h), both schemas: the seed-000
 * tree schema (algorithms, n, f, k, colors, seeds, platform, exclude) and
 * the generic one (command, parameters, series, points, exclude).
 *
 * The input is the YAML text, every byte of it, named "fuzz.yaml" (so a
 * relative platform file is looked up, never opened, in the current
 * folder).  Properties:
 *  - an experiment is returned exactly when no error is set; an error is one
 *    line naming the file ("fuzz.yaml:LINE: ...": docs/commands.md, "bad input is one
 *    line on stderr");
 *  - an experiment has a name, a known command, a description, and between
 *    1 and 1,000,000 points numbered 0, 1, 2, ... in order;
 *  - the command's output options are asked at most once (the harness
 *    answers as collsim's front end declares them today, OUTPUTS below, and
 *    fails for mcmc: that error is then the parse's, as it was given);
 *  - a generic point has its options as "--name" or "--name=value" (names in
 *    lower case, digits and dashes, never one the sweep sets itself:
 *    format, out, no-header, quiet, with-config; never an output option of
 *    the command), one label per label column, and a key on one line (a
 *    line of the sweep's journal); no label is named like another or like
 *    a configuration column (cs_config_columns());
 *  - extra_args (both schemas) hold no such option either;
 *  - a tree point names one of the experiment's algorithms and has n >= 1,
 *    f in [0, 1], k >= 2, colors >= 1 (more than one only for a
 *    multi-colour algorithm), and a torus or a platform file, not both.
 * A violated property aborts (libFuzzer reports it as a crash). */
#include "algorithms/spanning_trees/tree_algo.h"
#include "sim/drivers/run_config.h"
#include "sim/sweep/experiment.h"

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FUZZ_NAME "fuzz_experiment"
#include "tests/fuzz/fuzz_common.h"

#define PATH "fuzz.yaml"
#define MAX_POINTS 1000000


/* The options of type CS_OPT_PATH_OUT collsim's subcommands declare (the
 * sweep asks the subcommand; the harness cannot run one). */
static const char *const OUTPUTS[] = {"out", "trace", "timeline", "per-link", "pairs", "keep-platform",
                                      "write-script", NULL};
/* The subcommands an experiment may name, as collsim's table of
 * subcommands gives them to the sweep (sim/cli/commands.h, CS_CMD_ROWS);
 * the harness links the parser only. */
static const char *const COMMANDS[] = {"tree", "collective", "allreduce", "comm", "mcmc", NULL};
#define NO_ANSWER "fuzz: collsim mcmc gives no answer"
static int questions;

static char **outputs(const char *command, gpointer data, GError **err)
{
  (void)data;
  questions++;
  CHECK(g_strv_contains(COMMANDS, command), "asked about the unknown command '%s'", command);
  if (strcmp(command, "mcmc") == 0) {
    g_set_error_literal(err, g_quark_from_static_string("fuzz"), 1, NO_ANSWER);
    return NULL;
  }
  return g_strdupv((char **)OUTPUTS);
}

static void check_option_name(const char *arg, const char *name, size_t len)
{
  static const char *const reserved[] = {"format", "out", "no-header", "quiet", "with-config"};
  for (size_t i = 0; i < G_N_ELEMENTS(reserved); i++)
    CHECK(strlen(reserved[i]) != len || strncmp(name, reserved[i], len) != 0, "option '%s' is the sweep's own",
          arg);
  for (size_t i = 0; OUTPUTS[i]; i++)
    CHECK(strlen(OUTPUTS[i]) != len || strncmp(name, OUTPUTS[i], len) != 0, "option '%s' writes a file", arg);
}

static void check_option(const char *arg)
{
  CHECK(g_str_has_prefix(arg, "--"), "option '%s' without its dashes", arg);
  const char *name = arg + 2;
  size_t len = strcspn(name, "=");
  CHECK(len > 0 && strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789-") >= len && name[0] != '-',
        "option '%s': not a lower-case name", arg);
  check_option_name(arg, name, len);
}

/* extra_args: long options (any name characters), none the sweep's own or an output option. */
static void check_extra_args(const cs_experiment *e)
{
  for (guint i = 0; i < e->extra_args->len; i++) {
    const char *arg = g_ptr_array_index(e->extra_args, i);
    CHECK(g_str_has_prefix(arg, "--"), "extra_args '%s' without its dashes", arg);
    check_option_name(arg, arg + 2, strcspn(arg + 2, "="));
  }
}

static void check_label_names(const cs_experiment *e)
{
  for (guint i = 0; i < e->label_names->len; i++) {
    const char *name = g_ptr_array_index(e->label_names, i);
    CHECK(!g_strv_contains(cs_config_columns(), name), "label '%s' is a configuration column", name);
    for (guint j = 0; j < i; j++)
      CHECK(strcmp(name, g_ptr_array_index(e->label_names, j)) != 0, "label '%s' twice", name);
  }
}

static void check_generic_point(const cs_experiment *e, const cs_point *p)
{
  CHECK(p->args && p->labels && p->key, "generic point %zu without args, labels or key", p->index);
  for (char **a = p->args; *a; a++)
    check_option(*a);
  CHECK(strpbrk(p->key, "\r\n") == NULL, "point %zu: its key is more than one line: %s", p->index, p->key);
  guint nlabels = g_strv_length(p->labels);
  CHECK(nlabels == e->label_names->len, "point %zu: %u labels for %u label columns", p->index, nlabels,
        e->label_names->len);
}

static void check_tree_point(const cs_experiment *e, const cs_point *p)
{
  CHECK(p->args == NULL && p->labels == NULL && p->key == NULL, "tree point %zu with generic fields", p->index);
  CHECK(p->algo != NULL, "tree point %zu without an algorithm", p->index);
  bool listed = false;
  for (guint i = 0; i < e->algorithms->len && !listed; i++)
    listed = g_ptr_array_index(e->algorithms, i) == p->algo;
  CHECK(listed, "tree point %zu: algorithm '%s' is not one of the experiment's", p->index, p->algo);
  const cs_tree_algo *a = cs_tree_algo_find(p->algo);
  CHECK(a != NULL, "tree point %zu: unknown algorithm '%s'", p->index, p->algo);
  CHECK(p->n >= 1 && p->f >= 0 && p->f <= 1 && p->k >= 2 && p->colors >= 1,
        "tree point %zu: n %d, f %g, k %d, colors %d", p->index, p->n, p->f, p->k, p->colors);
  CHECK(p->colors == 1 || a->multicolor, "tree point %zu: %d colours with the single-group algorithm %s", p->index,
        p->colors, p->algo);
}

static void check_experiment(const cs_experiment *e)
{
  CHECK(e->path && strcmp(e->path, PATH) == 0, "path '%s'", e->path ? e->path : "(null)");
  CHECK(e->name != NULL, "no name");
  CHECK(e->description != NULL, "no description");
  CHECK(e->command && g_strv_contains(COMMANDS, e->command), "command '%s'",
        e->command ? e->command : "(null)");
  CHECK(e->generic || strcmp(e->command, "tree") == 0, "tree schema with command '%s'", e->command);
  size_t np = cs_experiment_npoints(e);
  CHECK(np >= 1 && np <= MAX_POINTS, "%zu points", np);
  CHECK(questions == 1, "the output options asked %d times", questions);
  check_extra_args(e);
  check_label_names(e);
  if (!e->generic) {
    CHECK((e->torus != NULL) != (e->platform_file != NULL), "torus %s, platform file %s",
          e->torus ? e->torus : "(none)", e->platform_file ? e->platform_file : "(none)");
    CHECK(e->cores >= 0, "%d cores", e->cores);
    char *label = cs_experiment_platform_label(e);
    g_free(label);
  }
  for (size_t i = 0; i < np; i++) {
    const cs_point *p = cs_experiment_point(e, i);
    CHECK(p->index == i, "point %zu has index %zu", i, p->index);
    if (e->generic)
      check_generic_point(e, p);
    else
      check_tree_point(e, p);
  }
}


int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  /* a private copy of exactly size bytes, so that a read past the end is caught */
  char *text = g_malloc(size ? size : 1);
  memcpy(text, data, size);
  GError *err = NULL;
  questions = 0;
  const cs_experiment_host host = {.commands = COMMANDS, .outputs = outputs};
  cs_experiment *e = cs_experiment_parse(text, size, PATH, &host, &err);
  CHECK((e != NULL) == (err == NULL), "returned %p with error %s", (void *)e, err ? err->message : "(none)");
  CHECK(questions <= 1, "the output options asked %d times", questions);
  if (e) {
    check_experiment(e);
    cs_experiment_free(e);
  } else if (strcmp(err->message, NO_ANSWER) == 0) {
    CHECK(questions == 1, "the answer's error without a question");
    g_error_free(err);
  } else {
    CHECK(g_str_has_prefix(err->message, PATH ":"), "the error does not name the file: %s", err->message);
    CHECK(strpbrk(err->message, "\r\n") == NULL, "the error is more than one line: %s",
          err->message);
    g_error_free(err);
  }
  g_free(text);
  return 0;
}

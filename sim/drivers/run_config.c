/* The whole configuration of a run (see run_config.h). */
#include "sim/drivers/run_config.h"

/* Made by `make` (Makefile.am); absent when a harness compiles this file
 * straight from the sources (tests/fuzz/build.sh). */
#if defined(__has_include)
#if __has_include("collsim-git.h")
#include "collsim-git.h"
#endif
#endif
#ifndef COLLSIM_GIT
#define COLLSIM_GIT ""
#endif
#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "unknown"
#endif

#include <math.h>
#include <string.h>

enum { RC_PLATFORM, RC_MODEL, RC_O_SEND, RC_O_RECV, RC_CFG, RC_SEED, RC_ARGS, RC_VERSION, RC_KEY };

#define WITH_CONFIG "--with-config"
static const cs_column columns[] = {
    [RC_PLATFORM] = {"config_platform", CS_COL_TEXT, NULL, "", WITH_CONFIG, 0, "the resolved platform's spec"},
    [RC_MODEL] = {"config_model", CS_COL_TEXT, NULL, "", WITH_CONFIG, 0, "SimGrid network model"},
    [RC_O_SEND] = {"config_o_send_s", CS_COL_NUM, "%.9g", "s", WITH_CONFIG, 0, "software overhead of a send"},
    [RC_O_RECV] = {"config_o_recv_s", CS_COL_NUM, "%.9g", "s", WITH_CONFIG, 0, "software overhead of a receive"},
    [RC_CFG] = {"config_cfg", CS_COL_TEXT, NULL, "", WITH_CONFIG, 0, "the --cfg settings given to SimGrid"},
    [RC_SEED] = {"config_seed", CS_COL_INT, NULL, "", WITH_CONFIG, 0, "random seed (null: the command takes none)"},
    [RC_ARGS] = {"config_args", CS_COL_TEXT, NULL, "", WITH_CONFIG, 0,
                 "every option given that can change a row, in a canonical order"},
    [RC_VERSION] = {"collsim_version", CS_COL_TEXT, NULL, "", WITH_CONFIG, 0, "the collsim that wrote the row"},
    [RC_KEY] = {"config_key", CS_COL_TEXT, NULL, "", WITH_CONFIG, 0, "a hash of config_args: equal runs, equal keys"},
};

const cs_record_kind cs_config_record_kind = {"configuration", "the run's whole configuration (--with-config)",
                                              columns, G_N_ELEMENTS(columns), NULL};

cs_run_config *cs_run_config_new(const char *command)
{
  cs_run_config *rc = g_new0(cs_run_config, 1);
  rc->command = g_strdup(command);
  rc->tokens = g_ptr_array_new_with_free_func(g_free);
  rc->o_send = rc->o_recv = NAN;
  return rc;
}

void cs_run_config_free(cs_run_config *rc)
{
  if (!rc)
    return;
  g_free(rc->command);
  g_ptr_array_free(rc->tokens, TRUE);
  g_free(rc->platform);
  g_free(rc->model);
  g_free(rc->cfg);
  g_free(rc);
}

void cs_run_config_option(cs_run_config *rc, const char *name, const char *value)
{
  g_ptr_array_add(rc->tokens, value ? g_strdup_printf("--%s=%s", name, value) : g_strdup_printf("--%s", name));
}

/* The option name of a token ("--name=value" -> "name"), or NULL for a
 * positional argument (g_free it). */
static char *token_name(const char *token)
{
  if (strncmp(token, "--", 2) != 0)
    return NULL;
  const char *eq = strchr(token, '=');
  return eq ? g_strndup(token + 2, (gsize)(eq - token - 2)) : g_strdup(token + 2);
}

static gint by_name(gconstpointer a, gconstpointer b)
{
  char *x = token_name(*(char *const *)a), *y = token_name(*(char *const *)b);
  gint r = strcmp(x, y);
  g_free(x);
  g_free(y);
  return r;
}

char *cs_config_args(const char *command, char *const *tokens, const char *const *leave_out)
{
  GPtrArray *options = g_ptr_array_new(), *positional = g_ptr_array_new();
  for (size_t i = 0; tokens && tokens[i]; i++) {
    char *name = token_name(tokens[i]);
    if (!name)
      g_ptr_array_add(positional, tokens[i]);
    else if (!leave_out || !g_strv_contains(leave_out, name))
      g_ptr_array_add(options, tokens[i]);
    g_free(name);
  }
  g_ptr_array_sort(options, by_name); /* stable: a repeatable option keeps its order */
  GPtrArray *all = g_ptr_array_new();
  g_ptr_array_add(all, (gpointer)command);
  for (guint i = 0; i < options->len; i++)
    g_ptr_array_add(all, g_ptr_array_index(options, i));
  for (guint i = 0; i < positional->len; i++)
    g_ptr_array_add(all, g_ptr_array_index(positional, i));
  g_ptr_array_add(all, NULL);
  char *line = cs_shell_join((char *const *)all->pdata);
  g_ptr_array_free(all, TRUE);
  g_ptr_array_free(options, TRUE);
  g_ptr_array_free(positional, TRUE);
  return line;
}

char *cs_config_key(const char *config_args)
{
  char *text = g_strdup_printf("collsim %s\n%s", PACKAGE_VERSION, config_args);
  char *sum = g_compute_checksum_for_string(G_CHECKSUM_SHA256, text, -1);
  sum[16] = '\0';
  g_free(text);
  return sum;
}

const char *cs_collsim_version(void)
{
  return *COLLSIM_GIT ? PACKAGE_VERSION " (git " COLLSIM_GIT ")" : PACKAGE_VERSION;
}

void cs_run_config_add(const cs_run_config *rc, cs_record *r)
{
  char **t = cs_strv_view(rc->tokens);
  char *args = cs_config_args(rc->command, t, NULL);
  char *key = cs_config_key(args);
  cs_col_str(r, &columns[RC_PLATFORM], rc->platform);
  cs_col_str(r, &columns[RC_MODEL], rc->model);
  cs_col_num(r, &columns[RC_O_SEND], rc->o_send);
  cs_col_num(r, &columns[RC_O_RECV], rc->o_recv);
  cs_col_str(r, &columns[RC_CFG], rc->cfg);
  if (rc->has_seed)
    cs_col_u64(r, &columns[RC_SEED], rc->seed);
  else
    cs_col_str(r, &columns[RC_SEED], NULL);
  cs_col_str(r, &columns[RC_ARGS], args);
  cs_col_str(r, &columns[RC_VERSION], cs_collsim_version());
  cs_col_str(r, &columns[RC_KEY], key);
  g_free(key);
  g_free(args);
  g_free(t);
}

const char **cs_config_with_columns(const char *const *columns)
{
  GPtrArray *all = g_ptr_array_new();
  for (size_t i = 0; columns && columns[i]; i++)
    g_ptr_array_add(all, (gpointer)columns[i]);
  const char *const *config = cs_record_kind_csv(&cs_config_record_kind);
  for (size_t i = 0; config[i]; i++)
    g_ptr_array_add(all, (gpointer)config[i]);
  g_ptr_array_add(all, NULL);
  return (const char **)g_ptr_array_free(all, FALSE);
}

char **cs_strv_view(const GPtrArray *a)
{
  char **v = g_new0(char *, (a ? a->len : 0) + 1);
  for (guint i = 0; a && i < a->len; i++)
    v[i] = g_ptr_array_index(a, i);
  return v;
}

char *cs_shell_join(char *const *argv)
{
  static const char plain[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./:=,+@%^-";
  GString *s = g_string_new(NULL);
  for (size_t i = 0; argv[i]; i++) {
    if (i)
      g_string_append_c(s, ' ');
    if (argv[i][0] && strspn(argv[i], plain) == strlen(argv[i])) {
      g_string_append(s, argv[i]);
    } else {
      char *q = g_shell_quote(argv[i]);
      g_string_append(s, q);
      g_free(q);
    }
  }
  return g_string_free(s, FALSE);
}

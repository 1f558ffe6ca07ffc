/* A subcommand's output options, asked of the subcommand (see option_query.h). */
#include "sim/sweep/option_query.h"
#include "sim/contracts/errors.h"
#include "sim/contracts/tempdir.h"

#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

/* Runs this program as `collsim COMMAND --help` with the question in its
 * environment; the answer's text, or NULL.  The program is the file
 * /proc/self/exe links to (under valgrind that is collsim, where
 * /proc/self/exe itself would be valgrind's tool). */
static char *ask(const char *command, const char *answer_path, GError **err)
{
  char *self = g_file_read_link("/proc/self/exe", NULL);
  char *argv[] = {self ? self : "/proc/self/exe", "collsim", (char *)command, "--help", NULL};
  char **env = g_environ_setenv(g_get_environ(), CS_OPTION_QUERY_ENV, answer_path, TRUE);
  int status = -1;
  GError *e = NULL;
  gboolean ran = g_spawn_sync(NULL, argv, env,
                              G_SPAWN_FILE_AND_ARGV_ZERO | G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL,
                              NULL, NULL, NULL, NULL, &status, &e);
  g_strfreev(env);
  g_free(self);
  char *text = NULL;
  if (!ran) {
    g_set_error(err, CS_INTERNAL_ERROR, 1, "cannot ask collsim %s for its options: %s", command, e->message);
    g_error_free(e);
  } else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || !g_file_get_contents(answer_path, &text, NULL, NULL) ||
             !*text) {
    g_set_error(err, CS_INTERNAL_ERROR, 1, "collsim %s did not list its options (%s): its front end does not "
                "answer, so the sweep cannot tell which options write files", command, CS_OPTION_QUERY_ENV);
    g_clear_pointer(&text, g_free);
  }
  return text;
}

char **cs_option_query_output_options(const char *command, GError **err)
{
  char *path = cs_tempfile("options", ".txt", err);
  if (!path)
    return NULL;
  char *text = ask(command, path, err);
  cs_tempfile_remove(path);
  g_free(path);
  if (!text)
    return NULL;
  GPtrArray *names = g_ptr_array_new();
  char **lines = g_strsplit(text, "\n", -1);
  for (char **l = lines; *l; l++) {
    char *tab = strchr(*l, '\t');
    if (tab && strcmp(tab + 1, "path-out") == 0)
      g_ptr_array_add(names, g_strndup(*l, (gsize)(tab - *l)));
  }
  g_ptr_array_add(names, NULL);
  g_strfreev(lines);
  g_free(text);
  return (char **)g_ptr_array_free(names, FALSE);
}

char **cs_option_query_for_experiment(const char *command, gpointer data, GError **err)
{
  (void)data;
  return cs_option_query_output_options(command, err);
}

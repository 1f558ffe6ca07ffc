/* Test harness: spawn the collsim binary, read its JSON result (json-glib), temporary
 * directories.  See harness.h. */
#include "tests/lib/harness.h"

#include <check.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <linux/capability.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

/* ------------------------------------------------------------ binary ---- */

const char *harness_collsim(void)
{
  static char *path = NULL;
  if (path)
    return path;
  const char *env = g_getenv("COLLSIM");
  if (env && *env) {
    path = g_strdup(env);
    return path;
  }
  char *self = g_file_read_link("/proc/self/exe", NULL);
  if (self) {
    char *dir = g_path_get_dirname(self);
    char *cand = g_build_filename(dir, "..", "..", "collsim", NULL); /* tests/KIND/NAME */
    g_free(dir);
    g_free(self);
    if (g_file_test(cand, G_FILE_TEST_IS_EXECUTABLE)) {
      path = cand;
      return path;
    }
    g_free(cand);
  }
  path = g_strdup("./collsim");
  return path;
}

static gboolean obey_file_modes;

void harness_obey_file_modes(gboolean on) { obey_file_modes = on; }

/* In the child, before exec: no core file from a crash of collsim; file
 * modes binding on root too when asked (a failure to drop shows as the
 * file being read). */
static void child_setup(gpointer user)
{
  (void)user;
  struct rlimit none = {0, 0};
  setrlimit(RLIMIT_CORE, &none);
  if (obey_file_modes && geteuid() == 0) {
    prctl(PR_CAPBSET_DROP, CAP_DAC_OVERRIDE, 0, 0, 0);
    prctl(PR_CAPBSET_DROP, CAP_DAC_READ_SEARCH, 0, 0, 0);
  }
}

/* stderr without AddressSanitizer's notice about SimGrid's stack switches
 * ("ASan is ignoring requested __asan_handle_no_return" and its two
 * follow-up lines), which the sanitizer build prints once per process that
 * ran actors: it is the sanitizer runtime's output, not collsim's. */
static char *without_asan_notice(char *err)
{
  if (!strstr(err, "__asan_handle_no_return"))
    return err;
  GString *kept = g_string_new("");
  char **lines = g_strsplit(err, "\n", -1);
  for (char **l = lines; *l; l++) {
    gboolean notice = strstr(*l, "ASan is ignoring requested __asan_handle_no_return") ||
                      strstr(*l, "False positive error reports may follow") ||
                      strstr(*l, "google/sanitizers/issues/189");
    if (!notice && (**l || l[1]))
      g_string_append_printf(kept, "%s%s", *l, l[1] ? "\n" : "");
  }
  g_strfreev(lines);
  g_free(err);
  return g_string_free(kept, FALSE);
}

void harness_run(harness_result *r, const char *const *args)
{
  GPtrArray *argv = g_ptr_array_new();
  g_ptr_array_add(argv, (gpointer)harness_collsim());
  for (const char *const *a = args; a && *a; a++)
    g_ptr_array_add(argv, (gpointer)*a);
  g_ptr_array_add(argv, NULL);

  int status = 0;
  GError *e = NULL;
  memset(r, 0, sizeof *r);
  gboolean ok = g_spawn_sync(NULL, (char **)argv->pdata, NULL, G_SPAWN_DEFAULT, child_setup, NULL, &r->out, &r->err,
                             &status, &e);
  g_ptr_array_free(argv, TRUE);
  if (!ok) {
    char *msg = g_strdup_printf("cannot run %s (set COLLSIM): %s", harness_collsim(), e->message);
    g_error_free(e);
    ck_abort_msg("%s", msg);
  }
  if (!r->out)
    r->out = g_strdup("");
  r->err = r->err ? without_asan_notice(r->err) : g_strdup("");
  if (WIFEXITED(status)) {
    r->exit_status = WEXITSTATUS(status);
  } else {
    r->exit_status = -1;
    r->term_signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
  }
}

GPtrArray *harness_args_va(const char *first, va_list ap)
{
  GPtrArray *args = g_ptr_array_new();
  for (const char *s = first; s; s = va_arg(ap, const char *))
    g_ptr_array_add(args, (gpointer)s);
  g_ptr_array_add(args, NULL);
  return args;
}

void harness_runl(harness_result *r, const char *first, ...)
{
  va_list ap;
  va_start(ap, first);
  GPtrArray *args = harness_args_va(first, ap);
  va_end(ap);
  harness_run(r, (const char *const *)args->pdata);
  g_ptr_array_free(args, TRUE);
}

void harness_expect_bad(const char *dir, const char *word, const char *first, ...)
{
  va_list ap;
  va_start(ap, first);
  GPtrArray *args = harness_args_va(first, ap);
  va_end(ap);
  char *out = g_build_filename(dir, "result.out", NULL);
  g_ptr_array_remove_index(args, args->len - 1); /* the terminating NULL */
  g_ptr_array_add(args, "--out");
  g_ptr_array_add(args, out);
  g_ptr_array_add(args, NULL);
  harness_result r;
  harness_run(&r, (const char *const *)args->pdata);
  ck_assert_msg(r.exit_status == 2, "exit %d, stderr: %s", r.exit_status, r.err);
  ck_assert_msg(strstr(r.err, word) != NULL, "stderr lacks '%s': %s", word, r.err);
  ck_assert_int_eq(harness_count_lines(r.err), 1);
  ck_assert_str_eq(r.out, "");
  ck_assert_msg(access(out, F_OK) != 0, "%s was written", out);
  harness_result_clear(&r);
  g_free(out);
  g_ptr_array_free(args, TRUE);
}

void harness_result_clear(harness_result *r)
{
  g_free(r->out);
  g_free(r->err);
  r->out = r->err = NULL;
}

int harness_count_lines(const char *text)
{
  int n = 0;
  for (const char *s = text; s && *s; s++)
    n += *s == '\n';
  return n;
}

/* -------------------------------------------------------------- JSON ---- */

/* A copy of the node at `path` ("tiers.L1.links": member names separated by
 * dots, from the root object down) in the JSON document `json`, or NULL when
 * a step of the path is missing or is not an object.  Text that is not one
 * line holding one JSON document fails the current test. */
static JsonNode *json_node_at(const char *json, const char *path)
{
  ck_assert_msg(json != NULL, "no JSON text (looking for %s)", path);
  /* collsim writes its result on one line; json-glib would accept several
   * documents in one text */
  const char *newline = strchr(json, '\n');
  ck_assert_msg(!newline || newline[1] == '\0', "not one line of JSON (looking for %s): %s", path, json);
  JsonParser *parser = json_parser_new();
  GError *err = NULL;
  if (!json_parser_load_from_data(parser, json, -1, &err))
    ck_abort_msg("not JSON (%s): %s", err->message, json);
  JsonNode *node = json_parser_get_root(parser);
  ck_assert_msg(node != NULL, "empty JSON text (looking for %s)", path);
  char **names = g_strsplit(path, ".", -1);
  for (char **name = names; node && *name; name++)
    node = JSON_NODE_HOLDS_OBJECT(node) ? json_object_get_member(json_node_get_object(node), *name) : NULL;
  JsonNode *found = node ? json_node_copy(node) : NULL;
  g_strfreev(names);
  g_object_unref(parser);
  return found;
}

/* The scalar at path when it has GType `type` (G_TYPE_INT64, G_TYPE_DOUBLE,
 * G_TYPE_BOOLEAN), else NULL. */
static JsonNode *json_value_at(const char *json, const char *path, GType type)
{
  JsonNode *node = json_node_at(json, path);
  if (node && (!JSON_NODE_HOLDS_VALUE(node) || json_node_get_value_type(node) != type)) {
    json_node_unref(node);
    node = NULL;
  }
  return node;
}

gboolean harness_json_int(const char *json, const char *path, gint64 *value)
{
  JsonNode *node = json_value_at(json, path, G_TYPE_INT64);
  if (node) {
    *value = json_node_get_int(node);
    json_node_unref(node);
  }
  return node != NULL;
}

gboolean harness_json_double(const char *json, const char *path, double *value)
{
  JsonNode *node = json_value_at(json, path, G_TYPE_DOUBLE);
  if (!node)
    node = json_value_at(json, path, G_TYPE_INT64); /* 7 is a number too */
  if (node) {
    *value = json_node_get_double(node);
    json_node_unref(node);
  }
  return node != NULL;
}

gboolean harness_json_bool(const char *json, const char *path, gboolean *value)
{
  JsonNode *node = json_value_at(json, path, G_TYPE_BOOLEAN);
  if (node) {
    *value = json_node_get_boolean(node);
    json_node_unref(node);
  }
  return node != NULL;
}

gboolean harness_json_has(const char *json, const char *path)
{
  JsonNode *node = json_node_at(json, path);
  if (node)
    json_node_unref(node);
  return node != NULL;
}

char **harness_json_members(const char *json, const char *path)
{
  JsonNode *node = json_node_at(json, path);
  char **names = NULL;
  if (node && JSON_NODE_HOLDS_OBJECT(node)) {
    GList *members = json_object_get_members(json_node_get_object(node));
    names = g_new0(char *, g_list_length(members) + 1);
    int i = 0;
    for (GList *m = members; m; m = m->next)
      names[i++] = g_strdup(m->data);
    g_list_free(members);
  }
  if (node)
    json_node_unref(node);
  return names;
}

/* ------------------------------------------------------------- files ---- */

char *harness_tmpdir_new(void)
{
  GError *e = NULL;
  char *dir = g_dir_make_tmp("collsim-test-XXXXXX", &e);
  if (!dir) {
    char *msg = g_strdup(e->message);
    g_error_free(e);
    ck_abort_msg("cannot create a temporary directory: %s", msg);
  }
  return dir;
}

char *harness_tmpdir_new_in(const char *parent)
{
  char *dir = g_build_filename(parent, "t-XXXXXX", NULL);
  if (!g_mkdtemp(dir))
    ck_abort_msg("cannot create a directory in %s", parent);
  return dir;
}

static void remove_tree(const char *path)
{
  if (g_file_test(path, G_FILE_TEST_IS_DIR) && !g_file_test(path, G_FILE_TEST_IS_SYMLINK)) {
    GDir *d = g_dir_open(path, 0, NULL);
    if (d) {
      const char *name;
      while ((name = g_dir_read_name(d)) != NULL) {
        char *child = g_build_filename(path, name, NULL);
        remove_tree(child);
        g_free(child);
      }
      g_dir_close(d);
    }
    g_rmdir(path);
  } else {
    g_remove(path);
  }
}

void harness_tmpdir_remove(char *dir)
{
  if (!dir)
    return;
  remove_tree(dir);
  g_free(dir);
}

char *harness_path(const char *dir, const char *name) { return g_build_filename(dir, name, NULL); }

char *harness_write_file(const char *dir, const char *name, const char *text)
{
  char *path = harness_path(dir, name);
  GError *e = NULL;
  if (!g_file_set_contents(path, text, -1, &e)) {
    char *msg = g_strdup(e->message);
    g_error_free(e);
    ck_abort_msg("cannot write %s: %s", path, msg);
  }
  return path;
}

char *harness_read_file(const char *path)
{
  char *text = NULL;
  if (!g_file_get_contents(path, &text, NULL, NULL))
    return NULL;
  return text;
}

/* Input files found from any working folder (see input_path.h). */
#include "sim/contracts/input_path.h"
#include "sim/contracts/errors.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef COLLSIM_SRCDIR
#define COLLSIM_SRCDIR ""
#endif
#ifndef COLLSIM_DATADIR
#define COLLSIM_DATADIR ""
#endif

/* The data folders, in search order, without repeats or empty entries. */
static GPtrArray *data_folders(void)
{
  const char *env = g_getenv("COLLSIM_SRCDIR");
  const char *all[] = {env, COLLSIM_DATADIR, COLLSIM_SRCDIR};
  GPtrArray *dirs = g_ptr_array_new();
  for (size_t i = 0; i < G_N_ELEMENTS(all); i++) {
    bool seen = !all[i] || !*all[i];
    for (guint j = 0; j < dirs->len && !seen; j++)
      seen = strcmp(g_ptr_array_index(dirs, j), all[i]) == 0;
    if (!seen)
      g_ptr_array_add(dirs, (gpointer)all[i]);
  }
  return dirs;
}

/* The first place that has path (newly allocated), or NULL. */
static char *find(const char *path)
{
  if (g_file_test(path, G_FILE_TEST_EXISTS) || g_path_is_absolute(path))
    return NULL;
  GPtrArray *dirs = data_folders();
  char *found = NULL;
  for (guint i = 0; i < dirs->len && !found; i++) {
    char *p = g_build_filename(g_ptr_array_index(dirs, i), path, NULL);
    if (g_file_test(p, G_FILE_TEST_EXISTS))
      found = p;
    else
      g_free(p);
  }
  g_ptr_array_free(dirs, TRUE);
  return found;
}

char *cs_input_locate(const char *path)
{
  char *found = find(path);
  return found ? found : g_strdup(path);
}

bool cs_input_exists(const char *path)
{
  char *found = find(path);
  bool ok = found || g_file_test(path, G_FILE_TEST_EXISTS);
  g_free(found);
  return ok;
}

static char *places(const char *path)
{
  GString *s = g_string_new("the working folder");
  if (!g_path_is_absolute(path)) {
    GPtrArray *dirs = data_folders();
    for (guint i = 0; i < dirs->len; i++)
      g_string_append_printf(s, ", %s", (const char *)g_ptr_array_index(dirs, i));
    g_ptr_array_free(dirs, TRUE);
  }
  return g_string_free(s, FALSE);
}

char *cs_input_path(const char *what, const char *path, GError **err)
{
  struct stat st;
  if (!path || !*path) {
    cs_input_error(err, "%s: empty path", what);
    return NULL;
  }
  char *found = find(path);
  char *use = found ? found : g_strdup(path);
  int e = stat(use, &st) == 0 && access(use, R_OK) == 0 ? 0 : errno;
  if (e) {
    char *where = places(path);
    cs_input_error(err, "%s: cannot read %s: %s (looked in %s)", what, path, g_strerror(e), where);
    g_free(where);
  } else if (S_ISDIR(st.st_mode)) {
    cs_input_error(err, "%s: %s is a folder, not a file", what, use);
    e = EISDIR;
  }
  if (e) {
    g_free(use);
    return NULL;
  }
  return use;
}

/* Output files (see output_path.h). */
#include "sim/contracts/output_path.h"
#include "sim/contracts/errors.h"

#include <errno.h>
#include <stdarg.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

bool cs_check_output_path(const char *what, const char *path, bool make_folders, GError **err)
{
  struct stat st;
  if (!path || !*path)
    return cs_input_error(err, "%s: empty path", what);
  if (stat(path, &st) == 0) {
    if (S_ISDIR(st.st_mode))
      return cs_input_error(err, "%s: %s is a folder", what, path);
    if (!S_ISREG(st.st_mode))
      return cs_input_error(err, "%s: %s is not a regular file (a device or a pipe?)", what, path);
    if (access(path, W_OK) != 0)
      return cs_input_error(err, "%s: cannot write %s: %s", what, path, g_strerror(errno));
  }
  /* the folder (with make_folders: the nearest existing one above) must be writable */
  char *dir = g_path_get_dirname(path);
  if (!make_folders && stat(dir, &st) != 0) {
    cs_input_error(err, "%s: cannot write %s: folder %s does not exist", what, path, dir);
    g_free(dir);
    return false;
  }
  while (stat(dir, &st) != 0 && strcmp(dir, ".") != 0 && strcmp(dir, "/") != 0) {
    char *up = g_path_get_dirname(dir);
    g_free(dir);
    dir = up;
  }
  bool ok = true;
  if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
    ok = cs_input_error(err, "%s: %s: %s is not a folder", what, path, dir);
  else if (access(dir, W_OK | X_OK) != 0)
    ok = cs_input_error(err, "%s: cannot write in folder %s: %s", what, dir, g_strerror(errno));
  g_free(dir);
  return ok;
}

bool cs_write_file_atomic(const char *path, const char *text, size_t len, GError **err)
{
  char *dir = g_path_get_dirname(path);
  if (g_mkdir_with_parents(dir, 0777) != 0) {
    cs_input_error(err, "cannot make folder %s: %s", dir, g_strerror(errno));
    g_free(dir);
    return false;
  }
  g_free(dir);
  GError *e = NULL;
  if (!g_file_set_contents(path, text, (gssize)len, &e)) {
    cs_input_error(err, "cannot write %s: %s", path, e->message);
    g_error_free(e);
    return false;
  }
  return true;
}


bool cs_make_parent_folders(const char *what, const char *path, GPtrArray *made, GError **err)
{
  GPtrArray *missing = g_ptr_array_new_with_free_func(g_free);
  char *dir = g_path_get_dirname(path);
  while (!g_file_test(dir, G_FILE_TEST_EXISTS) && strcmp(dir, ".") != 0 && strcmp(dir, "/") != 0) {
    g_ptr_array_insert(missing, 0, dir);
    dir = g_path_get_dirname(dir);
  }
  g_free(dir);
  bool ok = true;
  for (guint i = 0; i < missing->len && ok; i++) {
    const char *d = g_ptr_array_index(missing, i);
    if (mkdir(d, 0777) == 0)
      g_ptr_array_add(made, g_strdup(d));
    else if (errno != EEXIST)
      ok = cs_input_error(err, "%s: cannot make folder %s: %s", what, d, g_strerror(errno));
  }
  g_ptr_array_free(missing, TRUE);
  return ok;
}

void cs_remove_made_folders(GPtrArray *made)
{
  for (guint i = made ? made->len : 0; i > 0; i--)
    rmdir(g_ptr_array_index(made, i - 1)); /* fails, harmlessly, on a folder that holds something */
}

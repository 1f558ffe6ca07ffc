/* Output files (see output_path.h). */
#include "sim/contracts/output_path.h"
#include "sim/contracts/errors.h"
#include "sim/contracts/signals.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

bool cs_output_error(GError **err, const char *path, int e)
{
  const char *problem = e == ENOTDIR ? "a folder on its path is not a folder"
                        : e == EISDIR ? "it is a folder"
                                      : g_strerror(e);
  return cs_input_error(err, "cannot write %s: %s", path, problem);
}

/* Does path name a folder by its form: "dir/", ".", "..", "dir/."? */
static bool names_a_folder(const char *path)
{
  size_t len = strlen(path);
  const char *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  return path[len - 1] == '/' || strcmp(base, ".") == 0 || strcmp(base, "..") == 0;
}

/* Can a file be made in folder dir?  Tried for real (access() says yes to
 * root everywhere, and nothing of read-only or virtual file systems). */
static int try_file_in(const char *dir)
{
  char *probe = g_build_filename(dir, ".collsim-probe-XXXXXX", NULL);
  cs_signals_hold(); /* a signal waits until the probe is gone */
  int fd = g_mkstemp_full(probe, O_WRONLY | O_CLOEXEC, 0600);
  int e = fd < 0 ? errno : 0;
  if (fd >= 0) {
    close(fd);
    unlink(probe);
  }
  cs_signals_release();
  g_free(probe);
  return e;
}

/* The nearest existing folder above path (path itself excluded). */
static char *nearest_existing_folder(const char *path, bool make_folders)
{
  struct stat st;
  char *dir = g_path_get_dirname(path);
  while (make_folders && stat(dir, &st) != 0 && strcmp(dir, ".") != 0 && strcmp(dir, "/") != 0) {
    char *up = g_path_get_dirname(dir);
    g_free(dir);
    dir = up;
  }
  return dir;
}

bool cs_check_output_path(const char *what, const char *path, bool make_folders, GError **err)
{
  struct stat st;
  if (!path || !*path)
    return cs_input_error(err, "%s: empty path", what);
  if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
    return cs_input_error(err, "%s: %s is a folder", what, path);
  if (names_a_folder(path))
    return cs_input_error(err, "%s: %s names a folder, not a file", what, path);
  if (stat(path, &st) == 0) {
    if (!S_ISREG(st.st_mode))
      return cs_input_error(err, "%s: %s is not a regular file (a device or a pipe?)", what, path);
    if (access(path, W_OK) != 0)
      return cs_input_error(err, "%s: cannot write %s: %s", what, path, g_strerror(errno));
  }
  char *dir = nearest_existing_folder(path, make_folders);
  bool ok = true;
  int e;
  if (stat(dir, &st) != 0)
    ok = make_folders ? cs_input_error(err, "%s: %s: %s is not a folder", what, path, dir)
                      : cs_input_error(err, "%s: cannot write %s: folder %s does not exist", what, path, dir);
  else if (!S_ISDIR(st.st_mode))
    ok = cs_input_error(err, "%s: %s: %s is not a folder", what, path, dir);
  else if ((e = try_file_in(dir)) != 0)
    ok = cs_input_error(err, "%s: cannot write in folder %s: %s", what, dir, g_strerror(e));
  g_free(dir);
  return ok;
}

static bool write_all(int fd, const char *text, size_t len)
{
  while (len > 0) {
    ssize_t w = write(fd, text, len);
    if (w < 0 && errno == EINTR)
      continue;
    if (w < 0)
      return false;
    text += w;
    len -= (size_t)w;
  }
  return true;
}

struct cs_atomic_file {
  char *path, *tmp;
  int fd;
  int e; /* the first write's errno, 0: none */
};

cs_atomic_file *cs_atomic_open(const char *path, GError **err)
{
  if (names_a_folder(path)) {
    cs_input_error(err, "cannot write %s: it names a folder, not a file", path);
    return NULL;
  }
  char *dir = g_path_get_dirname(path);
  if (g_mkdir_with_parents(dir, 0777) != 0) {
    int e = errno;
    cs_input_error(err, "cannot write %s: cannot make folder %s: %s", path, dir, g_strerror(e));
    g_free(dir);
    return NULL;
  }
  /* a short name: path's own name plus a suffix could pass NAME_MAX */
  char *tmp = g_build_filename(dir, ".collsim-XXXXXX", NULL);
  g_free(dir);
  cs_signals_hold();
  int fd = g_mkstemp_full(tmp, O_WRONLY | O_CLOEXEC, 0666);
  int e = fd < 0 ? errno : 0;
  if (fd >= 0)
    cs_signals_track(tmp, false); /* when the table is full: not removed on a signal */
  cs_signals_release();
  if (fd < 0) {
    g_free(tmp);
    cs_output_error(err, path, e);
    return NULL;
  }
  cs_atomic_file *f = g_new0(cs_atomic_file, 1);
  f->path = g_strdup(path);
  f->tmp = tmp;
  f->fd = fd;
  return f;
}

bool cs_atomic_write(cs_atomic_file *f, const char *text, size_t len)
{
  if (!f->e && !write_all(f->fd, text, len))
    f->e = errno ? errno : EIO;
  return !f->e;
}

static void atomic_free(cs_atomic_file *f)
{
  cs_signals_untrack(f->tmp);
  g_free(f->tmp);
  g_free(f->path);
  g_free(f);
}

void cs_atomic_abort(cs_atomic_file *f)
{
  if (!f)
    return;
  close(f->fd);
  unlink(f->tmp);
  atomic_free(f);
}

bool cs_atomic_commit(cs_atomic_file *f, GError **err)
{
  int e = f->e;
  bool ok = !e;
  if (ok && g_file_test(f->path, G_FILE_TEST_EXISTS) && fsync(f->fd) != 0) /* replacing: the new text first */
    ok = false, e = errno;
  if (close(f->fd) != 0 && ok)
    ok = false, e = errno;
  if (ok && rename(f->tmp, f->path) != 0)
    ok = false, e = errno;
  if (!ok)
    unlink(f->tmp);
  if (!ok)
    cs_output_error(err, f->path, e);
  atomic_free(f);
  return ok;
}

bool cs_write_file_atomic(const char *path, const char *text, size_t len, GError **err)
{
  cs_atomic_file *f = cs_atomic_open(path, err);
  if (!f)
    return false;
  cs_atomic_write(f, text, len);
  return cs_atomic_commit(f, err);
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
    cs_signals_hold();
    bool made_now = mkdir(d, 0777) == 0;
    int e = errno;
    if (made_now)
      cs_signals_track(d, true);
    cs_signals_release();
    if (made_now)
      g_ptr_array_add(made, g_strdup(d));
    else if (e != EEXIST)
      ok = cs_input_error(err, "%s: cannot make folder %s: %s", what, d, g_strerror(e));
  }
  g_ptr_array_free(missing, TRUE);
  return ok;
}

void cs_remove_made_folders(GPtrArray *made)
{
  for (guint i = made ? made->len : 0; i > 0; i--) {
    const char *d = g_ptr_array_index(made, i - 1);
    rmdir(d); /* fails, harmlessly, on a folder that holds something */
    cs_signals_untrack(d);
  }
}

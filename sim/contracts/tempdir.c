/* The run's private temporary folder (see tempdir.h).
 *
 * The folder and each temporary file are tracked for removal by signals.c,
 * whose handler removes them on a signal and whose exit hook removes them at
 * exit; this file only makes them and forgets them. */
#include "sim/contracts/tempdir.h"
#include "sim/contracts/errors.h"
#include "sim/contracts/output_path.h"
#include "sim/contracts/signals.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char *dir_path;
static pid_t owner;

/* The temporary folder and how messages name it. */
static const char *tmp_root(void)
{
  const char *env = g_getenv("TMPDIR");
  return env && *env ? env : g_get_tmp_dir();
}

static char *tmp_name(void)
{
  const char *env = g_getenv("TMPDIR");
  if (!env || !*env)
    return g_strdup_printf("the temporary folder %s (TMPDIR is not set)", g_get_tmp_dir());
  glong chars = g_utf8_validate(env, -1, NULL) ? g_utf8_strlen(env, -1) : (glong)strlen(env);
  if (chars <= 80)
    return g_strdup_printf("TMPDIR=%s", env);
  char *head = g_utf8_validate(env, -1, NULL) ? g_utf8_substring(env, 0, 60) : g_strndup(env, 60);
  char *name = g_strdup_printf("TMPDIR=%s... (%ld characters)", head, chars);
  g_free(head);
  return name;
}

static bool tmp_problem(GError **err, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
static bool tmp_problem(GError **err, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  char *problem = g_strdup_vprintf(fmt, ap);
  va_end(ap);
  char *name = tmp_name();
  cs_input_error(err, "%s: %s", name, problem);
  g_free(name);
  g_free(problem);
  return false;
}

bool cs_tempdir_check(GError **err)
{
  const char *root = tmp_root();
  struct stat st;
  if (strlen(root) > CS_TMPDIR_MAX)
    return tmp_problem(err, "too long (at most %d characters)", CS_TMPDIR_MAX);
  if (stat(root, &st) != 0)
    return tmp_problem(err, "%s", g_strerror(errno));
  if (!S_ISDIR(st.st_mode))
    return tmp_problem(err, "not a folder");
  char *probe = g_strdup_printf("%s/collsim-check-XXXXXX", root);
  bool made = g_mkdtemp(probe) != NULL;
  int e = errno;
  if (made)
    rmdir(probe);
  g_free(probe);
  if (!made)
    return tmp_problem(err, "cannot make a folder in it: %s", g_strerror(e));
  return true;
}

/* Folders "collsim-<pid>-XXXXXX" of processes that no longer exist. */
static void remove_orphans(const char *tmp)
{
  DIR *d = opendir(tmp);
  if (!d)
    return;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    long pid;
    int used = 0;
    if (sscanf(e->d_name, "collsim-%ld-%*6c%n", &pid, &used) != 1 || used == 0 || e->d_name[used] != '\0')
      continue;
    if (pid <= 0 || kill((pid_t)pid, 0) == 0 || errno != ESRCH)
      continue;
    char *path = g_build_filename(tmp, e->d_name, NULL);
    struct stat st;
    if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == getuid()) {
      GDir *sub = g_dir_open(path, 0, NULL);
      const char *name;
      while (sub && (name = g_dir_read_name(sub)) != NULL) {
        char *f = g_build_filename(path, name, NULL);
        unlink(f);
        g_free(f);
      }
      if (sub)
        g_dir_close(sub);
      rmdir(path);
    }
    g_free(path);
  }
  closedir(d);
}

bool cs_tempdir_usable(const char *cmd)
{
  GError *e = NULL;
  if (cs_tempdir_check(&e))
    return true;
  fprintf(stderr, "collsim %s: error: %s\n", cmd, e->message);
  g_error_free(e);
  return false;
}

bool cs_tempdir_made(void) { return dir_path && owner == getpid(); }

const char *cs_tempdir(GError **err)
{
  if (dir_path && owner == getpid())
    return dir_path;
  const char *root = tmp_root();
  if (strlen(root) > CS_TMPDIR_MAX) {
    tmp_problem(err, "too long (at most %d characters)", CS_TMPDIR_MAX);
    return NULL;
  }
  remove_orphans(root);
  char *templ = g_strdup_printf("%s/collsim-%ld-XXXXXX", root, (long)getpid());
  cs_signals_hold();
  bool made = g_mkdtemp(templ) != NULL;
  int e = errno;
  if (made)
    cs_signals_track(templ, true);
  cs_signals_release();
  if (!made) {
    tmp_problem(err, "cannot make a folder in it: %s", g_strerror(e));
    g_free(templ);
    return NULL;
  }
  g_free(dir_path); /* a forked child's copy of its parent's name */
  dir_path = templ;
  owner = getpid();
  return dir_path;
}

char *cs_tempfile(const char *stem, const char *suffix, GError **err)
{
  const char *dir = cs_tempdir(err);
  if (!dir)
    return NULL;
  char *path = g_strdup_printf("%s/%s-XXXXXX%s", dir, stem, suffix ? suffix : "");
  cs_signals_hold();
  int fd = g_mkstemp_full(path, O_RDWR | O_CLOEXEC, 0644);
  int e = errno;
  bool tracked = fd >= 0 && cs_signals_track(path, false);
  if (fd >= 0 && !tracked)
    unlink(path);
  cs_signals_release();
  if (fd >= 0)
    close(fd);
  if (!tracked) {
    g_set_error(err, CS_INTERNAL_ERROR, 1, "cannot make a temporary file in %s: %s", dir,
                fd < 0 ? g_strerror(e) : "too many at once");
    g_free(path);
    return NULL;
  }
  return path;
}

void cs_tempfile_remove(const char *path)
{
  if (!path)
    return;
  unlink(path);
  cs_signals_untrack(path);
}

/* On another file system: the content, written to dest atomically. */
static bool copy_to(const char *tmp, const char *dest, GError **err)
{
  gchar *text = NULL;
  gsize len = 0;
  GError *e = NULL;
  if (!g_file_get_contents(tmp, &text, &len, &e)) { /* our own file */
    g_set_error(err, CS_INTERNAL_ERROR, 1, "cannot write %s: reading the finished file back failed (%s)", dest,
                e->message);
    g_error_free(e);
    return false;
  }
  bool ok = cs_write_file_atomic(dest, text, len, err);
  g_free(text);
  return ok;
}

bool cs_tempfile_commit(const char *tmp, const char *dest, GError **err)
{
  bool ok = rename(tmp, dest) == 0;
  if (!ok && errno == EXDEV)
    ok = copy_to(tmp, dest, err);
  else if (!ok)
    cs_output_error(err, dest, errno);
  cs_tempfile_remove(tmp);
  return ok;
}

void cs_tempdir_cleanup(void)
{
  cs_signals_cleanup();
  owner = 0; /* made again if needed */
}

/* The run's private temporary folder (see tempdir.h).
 *
 * The signal handler may only make async-signal-safe calls, so the folder's
 * path and the paths of the files in it live in static buffers filled
 * before any signal can need them; the handler unlinks them, removes the
 * folder, restores the default action and raises the signal again. */
#include "sim/contracts/tempdir.h"
#include "sim/contracts/errors.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_FILES 256
#define PATH_BYTES 4096

static char dir_path[PATH_BYTES];
static char file_path[MAX_FILES][PATH_BYTES];
static volatile sig_atomic_t file_used[MAX_FILES];
static pid_t owner;

static const int fatal_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGABRT, SIGSEGV, SIGBUS, SIGFPE};

static void remove_all(void)
{
  if (owner != getpid() || !dir_path[0])
    return;
  for (int i = 0; i < MAX_FILES; i++)
    if (file_used[i]) {
      unlink(file_path[i]);
      file_used[i] = 0;
    }
  rmdir(dir_path);
  dir_path[0] = '\0';
}

static void on_signal(int sig)
{
  remove_all();
  signal(sig, SIG_DFL);
  raise(sig);
}

/* Install our handler only where the default action is in force (a caller
 * that handles SIGINT itself, e.g. the sweep runner, keeps its handler). */
static void install_handlers(void)
{
  for (size_t i = 0; i < G_N_ELEMENTS(fatal_signals); i++) {
    struct sigaction old;
    if (sigaction(fatal_signals[i], NULL, &old) != 0 || old.sa_handler != SIG_DFL)
      continue;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESETHAND;
    sigaction(fatal_signals[i], &sa, NULL);
  }
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

const char *cs_tempdir(GError **err)
{
  if (dir_path[0] && owner == getpid())
    return dir_path;
  const char *tmp = g_get_tmp_dir();
  remove_orphans(tmp);
  char *templ = g_strdup_printf("%s/collsim-%ld-XXXXXX", tmp, (long)getpid());
  if (strlen(templ) >= PATH_BYTES - 64 || !g_mkdtemp(templ)) {
    g_set_error(err, CS_INTERNAL_ERROR, 1, "cannot make a temporary folder in %s: %s", tmp, g_strerror(errno));
    g_free(templ);
    return NULL;
  }
  g_strlcpy(dir_path, templ, sizeof dir_path);
  g_free(templ);
  if (!owner || owner != getpid()) {
    owner = getpid();
    memset((void *)file_used, 0, sizeof file_used);
    atexit(remove_all);
    install_handlers();
  }
  return dir_path;
}

char *cs_tempfile(const char *stem, const char *suffix, GError **err)
{
  const char *dir = cs_tempdir(err);
  if (!dir)
    return NULL;
  int slot = 0;
  while (slot < MAX_FILES && file_used[slot])
    slot++;
  if (slot == MAX_FILES) {
    g_set_error(err, CS_INTERNAL_ERROR, 1, "too many temporary files at once (%d)", MAX_FILES);
    return NULL;
  }
  char *path = g_strdup_printf("%s/%s-XXXXXX%s", dir, stem, suffix ? suffix : "");
  int fd = g_mkstemp_full(path, O_RDWR, 0644);
  if (fd < 0) {
    g_set_error(err, CS_INTERNAL_ERROR, 1, "cannot make a temporary file in %s: %s", dir, g_strerror(errno));
    g_free(path);
    return NULL;
  }
  close(fd);
  g_strlcpy(file_path[slot], path, PATH_BYTES);
  file_used[slot] = 1;
  return path;
}

void cs_tempfile_remove(const char *path)
{
  if (!path)
    return;
  unlink(path);
  for (int i = 0; i < MAX_FILES; i++)
    if (file_used[i] && strcmp(file_path[i], path) == 0)
      file_used[i] = 0;
}

bool cs_tempfile_commit(const char *tmp, const char *dest, GError **err)
{
  bool ok = rename(tmp, dest) == 0;
  if (!ok && errno == EXDEV) {
    gchar *text = NULL;
    gsize len = 0;
    GError *e = NULL;
    ok = g_file_get_contents(tmp, &text, &len, &e) && g_file_set_contents(dest, text, (gssize)len, &e);
    if (!ok) {
      g_set_error(err, CS_INPUT_ERROR, 1, "cannot write %s: %s", dest, e->message);
      g_error_free(e);
    }
    g_free(text);
  } else if (!ok) {
    g_set_error(err, CS_INPUT_ERROR, 1, "cannot write %s: %s", dest, g_strerror(errno));
  }
  cs_tempfile_remove(tmp);
  return ok;
}

void cs_tempdir_cleanup(void) { remove_all(); }

/* Input files found from any working folder (see input_path.h). */
#include "sim/contracts/input_path.h"
#include "sim/contracts/errors.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
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

/* What a file that is not a regular one is, for messages. */
static const char *kind_of(mode_t mode)
{
  return S_ISDIR(mode)    ? "a folder"
         : S_ISCHR(mode)  ? "a character device"
         : S_ISBLK(mode)  ? "a block device"
         : S_ISFIFO(mode) ? "a named pipe"
         : S_ISSOCK(mode) ? "a socket"
                          : "not a file";
}

/* NULL when st is a regular file (of at most the cap when capped), else
 * the problem (newly allocated). */
static char *input_problem(const struct stat *st, bool capped)
{
  if (!S_ISREG(st->st_mode))
    return g_strdup_printf("not a regular file (%s)", kind_of(st->st_mode));
  if (capped && (uintmax_t)st->st_size > CS_INPUT_MAX_BYTES)
    return g_strdup_printf("%jd bytes, more than an input file may hold (1 GiB)", (intmax_t)st->st_size);
  return NULL;
}

static char *resolve(const char *what, const char *path, bool capped, GError **err)
{
  struct stat st;
  if (!path || !*path) {
    cs_input_error(err, "%s: empty path", what);
    return NULL;
  }
  char *found = find(path);
  char *use = found ? found : g_strdup(path);
  int e = stat(use, &st) == 0 && access(use, R_OK) == 0 ? 0 : errno;
  char *problem = e ? NULL : input_problem(&st, capped);
  if (e) {
    char *where = places(path);
    cs_input_error(err, "%s: cannot read %s: %s (looked in %s)", what, path, g_strerror(e), where);
    g_free(where);
  } else if (S_ISDIR(st.st_mode)) {
    cs_input_error(err, "%s: %s is a folder, not a file", what, use);
  } else if (problem) {
    cs_input_error(err, "%s: %s: %s", what, use, problem);
  }
  if (e || problem) {
    g_free(problem);
    g_free(use);
    return NULL;
  }
  return use;
}

char *cs_input_path(const char *what, const char *path, GError **err) { return resolve(what, path, true, err); }

char *cs_input_path_stream(const char *what, const char *path, GError **err) { return resolve(what, path, false, err); }

static bool read_problem(GError **err, const char *what, const char *path, const char *problem)
{
  return cs_input_error(err, "%s%s%s: %s", what ? what : "", what ? " " : "", path, problem);
}

/* The whole of fd, at most the cap; `size` is what fstat said (0 for the
 * files of /proc, whose size is unknown). */
static bool read_to_end(int fd, off_t size, char **text, size_t *len, int *e)
{
  size_t cap = (size_t)size + 1 < 4096 ? 4096 : (size_t)size + 1, got = 0;
  char *buf = g_malloc(cap);
  for (;;) {
    if (got == cap - 1) {
      if (cap - 1 > CS_INPUT_MAX_BYTES) {
        *e = EFBIG;
        break;
      }
      cap = MIN(2 * cap, CS_INPUT_MAX_BYTES + 2);
      buf = g_realloc(buf, cap);
    }
    ssize_t r = read(fd, buf + got, cap - 1 - got);
    if (r < 0 && errno == EINTR)
      continue;
    if (r <= 0) {
      *e = r < 0 ? errno : 0;
      break;
    }
    got += (size_t)r;
  }
  if (*e) {
    g_free(buf);
    return false;
  }
  buf[got] = '\0';
  *text = buf;
  if (len)
    *len = got;
  return true;
}

bool cs_read_user_file(const char *what, const char *path, char **text, size_t *len, GError **err)
{
  *text = NULL;
  if (len)
    *len = 0;
  /* O_NONBLOCK: opening a named pipe does not wait for a writer */
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0)
    return read_problem(err, what, path, g_strerror(errno));
  struct stat st;
  int e = 0;
  char *problem = fstat(fd, &st) != 0 ? g_strdup(g_strerror(errno)) : input_problem(&st, true);
  bool ok = !problem && read_to_end(fd, st.st_size, text, len, &e);
  close(fd);
  if (!ok && !problem)
    problem = e == EFBIG ? g_strdup("more than an input file may hold (1 GiB)") : g_strdup(g_strerror(e));
  if (problem)
    read_problem(err, what, path, problem);
  g_free(problem);
  return ok;
}

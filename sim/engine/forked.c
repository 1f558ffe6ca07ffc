/* See forked.h.  The child writes a status byte (1 done, 0 bad input,
 * 2 internal failure), then either the result or an error message.  The
 * child dies with its parent (a killed search leaves no simulation running)
 * and removes its own temporary folder before it exits. */
#include "sim/engine/forked.h"
#include "sim/contracts/signals.h"
#include "sim/contracts/tempdir.h"
#include "sim/engine/sg_engine.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

static void write_all(int fd, const void *buf, size_t len)
{
  const char *p = buf;
  while (len > 0) {
    ssize_t w = write(fd, p, len);
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0)
      _exit(4);
    p += w;
    len -= (size_t)w;
  }
}

/* Out of memory in the child: status 2 and the message, to the parent,
 * which reports it as its own failure (one line, exit status 1). */
static int report_fd = -1;

static void report_to_parent(const char *message)
{
  char status = 2;
  write_all(report_fd, &status, 1);
  write_all(report_fd, message, strlen(message) + 1);
}

static void child(int fd, cs_forked_fn fn, void *arg, void *out, size_t out_size)
{
  prctl(PR_SET_PDEATHSIG, SIGTERM);
  report_fd = fd;
  cs_signals_report_to(report_to_parent);
  GError *e = NULL;
  char status = fn(arg, out, &e) ? 1 : e && e->domain == CS_INPUT_ERROR ? 0 : 2;
  write_all(fd, &status, 1);
  if (status == 1)
    write_all(fd, out, out_size);
  else
    write_all(fd, e ? e->message : "failed", strlen(e ? e->message : "failed") + 1);
  close(fd);
  cs_tempdir_cleanup();
  _exit(0);
}

static GString *read_all(int fd)
{
  GString *s = g_string_new(NULL);
  char buf[4096];
  ssize_t got;
  while ((got = read(fd, buf, sizeof buf)) != 0) {
    if (got < 0 && errno == EINTR)
      continue;
    if (got < 0)
      break;
    g_string_append_len(s, buf, got);
  }
  return s;
}

gboolean cs_run_forked(cs_forked_fn fn, void *arg, void *out, size_t out_size, GError **err)
{
  int pipefd[2];
  if (pipe(pipefd) != 0) {
    g_set_error(err, CS_INTERNAL_ERROR, 1, "pipe: %s", g_strerror(errno));
    return FALSE;
  }
  cs_engine_preload(); /* once here, not in every child (SimGrid takes 50-80 ms to load) */
  fflush(NULL);
  pid_t pid = fork();
  if (pid < 0) {
    g_set_error(err, CS_INTERNAL_ERROR, 1, "fork: %s", g_strerror(errno));
    return FALSE;
  }
  if (pid == 0) {
    close(pipefd[0]);
    child(pipefd[1], fn, arg, out, out_size);
  }
  close(pipefd[1]);
  GString *s = read_all(pipefd[0]);
  close(pipefd[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  gboolean ok = s->len >= 1 && s->str[0] == 1 && s->len == 1 + out_size;
  if (ok)
    memcpy(out, s->str + 1, out_size);
  else if (s->len >= 2 && (s->str[0] == 0 || s->str[0] == 2))
    g_set_error(err, s->str[0] == 0 ? CS_INPUT_ERROR : CS_INTERNAL_ERROR, 1, "%s", s->str + 1);
  else
    g_set_error(err, CS_INTERNAL_ERROR, 1, "simulation process died (status %d)", status);
  g_string_free(s, TRUE);
  return ok;
}

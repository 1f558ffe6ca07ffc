/* How a run stops early (see signals.h).
 *
 * The handler may only make async-signal-safe calls (unlink, rmdir, getpid,
 * signal, sigprocmask, raise), so tracked paths live in a static table of
 * fixed-size slots.  A slot is claimed with an atomic compare-and-swap, its
 * path written, and only then marked as a file or a folder; the handler
 * reads slots so marked, whatever thread it interrupts. */
#include "sim/contracts/signals.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#define SLOTS 256
#define PATH_BYTES 4096

enum { SLOT_FREE, SLOT_CLAIMED, SLOT_FILE, SLOT_FOLDER };

static _Atomic int slot_state[SLOTS];
static pid_t slot_owner[SLOTS];
static char slot_path[SLOTS][PATH_BYTES];

static char command[64];
static void (*reporter)(const char *message);

/* Sent to stop the run, and raised by a fault (never held: blocking these
 * is undefined when the fault happens). */
static const int stop_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
static const int fault_signals[] = {SIGABRT, SIGSEGV, SIGBUS, SIGFPE};

/* ---- tracked paths ---- */

static void cleanup_at_exit(void) { cs_signals_cleanup(); }

/* The removal at exit, registered once (also in a program that never calls
 * cs_signals_install, such as a unit test). */
static void remove_at_exit(void)
{
  static bool registered;
  if (!registered)
    registered = atexit(cleanup_at_exit) == 0;
}

bool cs_signals_track(const char *path, bool folder)
{
  if (!path || strlen(path) >= PATH_BYTES)
    return false;
  remove_at_exit();
  for (int i = 0; i < SLOTS; i++) {
    int expected = SLOT_FREE;
    if (!atomic_compare_exchange_strong(&slot_state[i], &expected, SLOT_CLAIMED))
      continue;
    strcpy(slot_path[i], path);
    slot_owner[i] = getpid();
    atomic_store(&slot_state[i], folder ? SLOT_FOLDER : SLOT_FILE);
    return true;
  }
  return false;
}

static bool tracked_here(int i, pid_t self, int kind)
{
  return atomic_load(&slot_state[i]) == kind && slot_owner[i] == self;
}

void cs_signals_untrack(const char *path)
{
  pid_t self = getpid();
  for (int i = 0; path && i < SLOTS; i++)
    if ((tracked_here(i, self, SLOT_FILE) || tracked_here(i, self, SLOT_FOLDER)) && strcmp(slot_path[i], path) == 0) {
      atomic_store(&slot_state[i], SLOT_FREE);
      return;
    }
}

static sigset_t held_before;
static int held;

static void stop_set(sigset_t *set)
{
  sigemptyset(set);
  for (size_t i = 0; i < G_N_ELEMENTS(stop_signals); i++)
    sigaddset(set, stop_signals[i]);
}

void cs_signals_hold(void)
{
  if (held++ > 0)
    return;
  sigset_t set;
  stop_set(&set);
  pthread_sigmask(SIG_BLOCK, &set, &held_before);
}

void cs_signals_release(void)
{
  if (held > 0 && --held == 0)
    pthread_sigmask(SIG_SETMASK, &held_before, NULL);
}

/* Files first, then folders: a pass removes the empty ones, and the next
 * pass their parents, until a pass removes nothing. */
void cs_signals_cleanup(void)
{
  int saved = errno;
  pid_t self = getpid();
  for (int i = 0; i < SLOTS; i++)
    if (tracked_here(i, self, SLOT_FILE)) {
      unlink(slot_path[i]);
      atomic_store(&slot_state[i], SLOT_FREE);
    }
  bool removed = true;
  while (removed) {
    removed = false;
    for (int i = 0; i < SLOTS; i++)
      if (tracked_here(i, self, SLOT_FOLDER) && (rmdir(slot_path[i]) == 0 || errno == ENOENT)) {
        atomic_store(&slot_state[i], SLOT_FREE);
        removed = true;
      }
  }
  for (int i = 0; i < SLOTS; i++)
    if (tracked_here(i, self, SLOT_FOLDER)) /* not empty: it holds something else */
      atomic_store(&slot_state[i], SLOT_FREE);
  errno = saved;
}

/* ---- signals ---- */

static bool address_space_nearly_full(void);

static void on_signal(int sig)
{
  bool fault = sig == SIGSEGV || sig == SIGBUS || sig == SIGABRT;
  if (fault && address_space_nearly_full())
    cs_signals_out_of_memory(sig == SIGABRT ? "an abort near the address-space limit" : "a crash near the address-space limit");
  cs_signals_cleanup();
  signal(sig, SIG_DFL);
  sigset_t only;
  sigemptyset(&only);
  sigaddset(&only, sig);
  sigprocmask(SIG_UNBLOCK, &only, NULL);
  raise(sig); /* ends the process here, as the signal would have */
}

static void install_handler(int sig)
{
  struct sigaction old;
  /* only over the default action: a signal ignored by whoever started us
   * stays ignored, and a sanitizer's fault handler stays in place */
  if (sigaction(sig, NULL, &old) != 0 || (old.sa_flags & SA_SIGINFO) || old.sa_handler != SIG_DFL)
    return;
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  stop_set(&sa.sa_mask); /* one cleanup at a time */
  /* SA_ONSTACK: SimGrid installs an alternate stack, on which a stack
   * overflow in an actor can still be handled. */
  sa.sa_flags = SA_RESETHAND | SA_ONSTACK;
  sigaction(sig, &sa, NULL);
}

/* ---- out of memory ---- */

static void write_all(int fd, const char *s)
{
  size_t len = strlen(s);
  while (len > 0) {
    ssize_t w = write(fd, s, len);
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0)
      return;
    s += w;
    len -= (size_t)w;
  }
}

/* Appending to a fixed buffer without snprintf, which is not
 * async-signal-safe (this also runs in the fault handler). */
typedef struct line_buf {
  char text[1024];
  size_t len;
} line_buf;

static void put(line_buf *b, const char *s)
{
  while (*s && b->len < sizeof b->text - 2)
    b->text[b->len++] = *s++;
  b->text[b->len] = '\0';
}

static void put_number(line_buf *b, unsigned long long v)
{
  char digits[24];
  int n = 0;
  do
    digits[n++] = (char)('0' + v % 10);
  while ((v /= 10) > 0);
  char s[24];
  for (int i = 0; i < n; i++)
    s[i] = digits[n - 1 - i];
  s[n] = '\0';
  put(b, s);
}

void cs_signals_out_of_memory(const char *detail)
{
  static line_buf b;
  struct rlimit rl;
  b.len = 0;
  if (!reporter) {
    put(&b, "collsim ");
    put(&b, command);
    put(&b, ": error: ");
  }
  put(&b, "out of memory (");
  put(&b, detail ? detail : "an allocation failed");
  put(&b, ")");
  if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY) {
    put(&b, "; the address space is limited to ");
    put_number(&b, (unsigned long long)(rl.rlim_cur / 1024));
    put(&b, " KiB (ulimit -v)");
  }
  if (reporter) {
    reporter(b.text);
  } else {
    put(&b, "\n");
    write_all(STDERR_FILENO, b.text);
  }
  cs_signals_cleanup();
  _exit(1);
}

/* A fault (SIGSEGV, SIGBUS, SIGABRT) with the address space within an
 * eighth of its limit: the fallout of an allocation that failed where
 * nothing checks (SimGrid's terminate handler, when even the exception
 * object for std::bad_alloc cannot be allocated, dereferences the null
 * exception it is handed).  /proc/self/statm's first field is the address
 * space in pages; open, read and close are async-signal-safe. */
static long page_bytes;

static bool address_space_nearly_full(void)
{
  struct rlimit rl;
  if (page_bytes <= 0 || getrlimit(RLIMIT_AS, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY)
    return false;
  char buf[64];
  int fd = open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
  ssize_t got = fd < 0 ? -1 : read(fd, buf, sizeof buf - 1);
  if (fd >= 0)
    close(fd);
  if (got <= 0)
    return false;
  unsigned long long pages = 0;
  for (ssize_t i = 0; i < got && buf[i] >= '0' && buf[i] <= '9'; i++)
    pages = pages * 10 + (unsigned long long)(buf[i] - '0');
  unsigned long long used = pages * (unsigned long long)page_bytes, limit = rl.rlim_cur;
  return used + limit / 8 >= limit;
}

void cs_signals_report_to(void (*fn)(const char *message)) { reporter = fn; }

/* GLib's g_malloc and friends end with g_error("...: failed to allocate N
 * bytes"); any other fatal GLib message keeps GLib's own treatment. */
static void on_glib_error(const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer data)
{
  const char *what = message ? strstr(message, "failed to allocate") : NULL;
  if (what)
    cs_signals_out_of_memory(what);
  g_log_default_handler(domain, level, message, data);
}

/* ---- start ---- */

void cs_signals_install(const char *cmd)
{
  page_bytes = sysconf(_SC_PAGESIZE);
  g_strlcpy(command, cmd ? cmd : "", sizeof command);
  for (size_t i = 0; i < G_N_ELEMENTS(stop_signals); i++)
    install_handler(stop_signals[i]);
  for (size_t i = 0; i < G_N_ELEMENTS(fault_signals); i++)
    install_handler(fault_signals[i]);
  g_log_set_handler("GLib", G_LOG_LEVEL_ERROR | G_LOG_FLAG_FATAL | G_LOG_FLAG_RECURSION, on_glib_error, NULL);
  remove_at_exit();
}

const char *cs_signals_command(void) { return command; }

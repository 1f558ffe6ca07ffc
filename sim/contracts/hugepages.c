/* Transparent huge pages for large runs (see hugepages.h). */
#include "sim/contracts/hugepages.h"
#include "sim/contracts/tempdir.h"

#include <glib.h>
#include <gnu/libc-version.h>
#include <malloc.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define TUNABLE "glibc.malloc.hugetlb"
#define MMAP_TUNABLE "glibc.malloc.mmap_threshold"
#define MMAP_THRESHOLD (32 << 20) /* glibc's largest (HEAP_MAX_SIZE / 2 on 64 bits) */
#define SYS_THP "/sys/kernel/mm/transparent_hugepage/enabled"

static char **saved_argv;

/* Blocks below 32 MiB (glibc's largest threshold) come from the heap, not
 * each from mmap: glibc's default threshold starts at 128 KiB and rises
 * only as mmapped blocks are freed, so arrays that grow by doubling were
 * mmapped afresh, their pages faulted and zeroed again each time; a native
 * recursive-doubling allgather of 131,072 ranks took 1.6-2.1 s (0.5 s in
 * the kernel), 0.83-0.85 s with this (0.05 s), at the same peak memory
 * (docs/performance.md).  Not when GLIBC_TUNABLES names the threshold (the
 * user chose). */
static void heap_for_large_blocks(void)
{
  const char *tunables = g_getenv("GLIBC_TUNABLES");
  if (!(tunables && strstr(tunables, MMAP_TUNABLE)))
    mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD);
}

void cs_hugepages_init(char **argv)
{
  saved_argv = argv;
  heap_for_large_blocks();
}

bool cs_hugepages_asked(void)
{
  const char *tunables = g_getenv("GLIBC_TUNABLES");
  return tunables && strstr(tunables, TUNABLE "=1");
}

/* glibc 2.35 or later (earlier ones ignore the tunable). */
static bool glibc_has_tunable(void)
{
  unsigned major = 0, minor = 0;
  return sscanf(gnu_get_libc_version(), "%u.%u", &major, &minor) == 2 && (major > 2 || (major == 2 && minor >= 35));
}

/* The kernel gives huge pages to memory that asks ("[always]" or
 * "[madvise]" selected, not "[never]"). */
static bool kernel_has_thp(void)
{
  char *text = NULL;
  bool yes = g_file_get_contents(SYS_THP, &text, NULL, NULL) && !strstr(text, "[never]");
  g_free(text);
  return yes;
}

static bool under_valgrind(void)
{
  const char *preload = g_getenv("LD_PRELOAD");
  return preload && strstr(preload, "vgpreload");
}

/* A build with AddressSanitizer allocates with the sanitizer's allocator,
 * which glibc's tunable does not reach: a new image would cost without
 * saving anything. */
static bool sanitized(void)
{
#ifdef COLLSIM_SANITIZED
  return true;
#else
  return false;
#endif
}

/* collsim sweep's planning (COLLSIM_PLAN) stops before the simulation. */
static bool planning_only(void) { return g_getenv("COLLSIM_PLAN") != NULL; }

static bool worthwhile(int64_t ranks)
{
  const char *env = g_getenv("COLLSIM_HUGEPAGES"), *tunables = g_getenv("GLIBC_TUNABLES");
  return saved_argv && ranks >= CS_HUGEPAGES_MIN_RANKS && !(env && strcmp(env, "0") == 0) &&
         !(tunables && strstr(tunables, TUNABLE)) && !cs_tempdir_made() && !under_valgrind() && !sanitized() &&
         !planning_only() && glibc_has_tunable() && kernel_has_thp();
}

void cs_hugepages_for(int64_t ranks, void (*before_exec)(void *), void (*after_failed_exec)(void *), void *arg)
{
  if (!worthwhile(ranks))
    return;
  if (before_exec)
    before_exec(arg);
  const char *old = g_getenv("GLIBC_TUNABLES");
  char *tunables = old && *old ? g_strdup_printf("%s:" TUNABLE "=1", old) : g_strdup(TUNABLE "=1");
  g_setenv("GLIBC_TUNABLES", tunables, TRUE);
  g_free(tunables);
  fflush(NULL);
  execv("/proc/self/exe", saved_argv);
  /* not executed: go on as we are, without asking again */
  if (after_failed_exec)
    after_failed_exec(arg);
  g_setenv("COLLSIM_HUGEPAGES", "0", TRUE);
  if (old)
    g_setenv("GLIBC_TUNABLES", old, TRUE);
  else
    g_unsetenv("GLIBC_TUNABLES");
}

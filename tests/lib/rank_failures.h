/* What the ranks of a simulated test run found wrong, kept for one
 * message at the end: every failure counted, the first ten kept as text
 * ("rank R: ...").  Shared by the tests whose ranks check their own
 * communicators (check_comm_layer.c, check_comm_reps.c). */
#ifndef COLLSIM_TESTS_RANK_FAILURES_H
#define COLLSIM_TESTS_RANK_FAILURES_H

#include <glib.h>
#include <stdarg.h>

#define RANK_FAILURES_KEPT 10

static void rank_failure(GPtrArray *failures, int *failed, int rank, const char *fmt, ...) G_GNUC_PRINTF(4, 5);
static void rank_failure(GPtrArray *failures, int *failed, int rank, const char *fmt, ...)
{
  ++*failed;
  if (failures->len >= RANK_FAILURES_KEPT)
    return;
  va_list ap;
  va_start(ap, fmt);
  char *what = g_strdup_vprintf(fmt, ap);
  va_end(ap);
  g_ptr_array_add(failures, g_strdup_printf("rank %d: %s", rank, what));
  g_free(what);
}

/* The kept failures, one per line after a newline and two spaces (g_free it). */
static G_GNUC_UNUSED char *rank_failures_text(const GPtrArray *failures)
{
  GString *s = g_string_new(NULL);
  for (guint i = 0; i < failures->len; i++)
    g_string_append_printf(s, "\n  %s", (const char *)g_ptr_array_index(failures, i));
  return g_string_free(s, FALSE);
}

#endif

/* Progress line with elapsed time and ETA; see progress.h. */
#if !defined _POSIX_C_SOURCE && !defined _GNU_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include "sim/contracts/progress.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <string.h>
#include <unistd.h>

#define TTY_INTERVAL_S 0.25
#define LOG_INTERVAL_S 10.0
#define LOG_HEARTBEAT_S 60.0

struct cs_progress {
  FILE *stream;
  char *label;
  size_t total, done, failed, running;
  double total_weight, done_weight;
  double partial_weight; /* done by the running items (cs_progress_set_partial) */
  gboolean quiet, tty;
  gint64 start_us;
  double last_draw_s;   /* elapsed at the last draw, < 0 before the first */
  size_t last_len;      /* length of the line on screen (tty) */
  size_t last_drawn_done;
};

static double elapsed_s(const cs_progress *p) { return (double)(g_get_monotonic_time() - p->start_us) / 1e6; }

void cs_progress_duration(char *buf, size_t size, double s)
{
  if (!(s >= 0) || isinf(s)) {
    snprintf(buf, size, "?");
    return;
  }
  long long t = llround(s);
  if (t < 60)
    snprintf(buf, size, "%llds", t);
  else if (t < 3600)
    snprintf(buf, size, "%lldm%02llds", t / 60, t % 60);
  else if (t < 86400)
    snprintf(buf, size, "%lldh%02lldm", t / 3600, (t % 3600) / 60);
  else
    snprintf(buf, size, "%lldd%02lldh", t / 86400, (t % 86400) / 3600);
}

char *cs_progress_format(const char *label, size_t done, size_t total, size_t failed, size_t running,
                         double elapsed, double eta)
{
  char el[32], et[32];
  cs_progress_duration(el, sizeof el, elapsed);
  GString *s = g_string_new(NULL);
  if (label && *label)
    g_string_append_printf(s, "%s: ", label);
  if (total > 0)
    g_string_append_printf(s, "%zu/%zu done", done, total);
  else
    g_string_append_printf(s, "%zu done", done);
  if (failed)
    g_string_append_printf(s, ", %zu failed", failed);
  if (running > 1)
    g_string_append_printf(s, ", %zu running", running);
  g_string_append_printf(s, ", elapsed %s", el);
  if (done < total) {
    cs_progress_duration(et, sizeof et, eta);
    g_string_append_printf(s, ", ETA %s", et);
  }
  return g_string_free(s, FALSE);
}

cs_progress *cs_progress_new(FILE *stream, const char *label, size_t total, double total_weight, gboolean quiet)
{
  cs_progress *p = g_new0(cs_progress, 1);
  p->stream = stream;
  p->label = g_strdup(label ? label : "");
  p->total = total;
  p->total_weight = total_weight > 0 ? total_weight : (double)total;
  p->quiet = quiet;
  p->tty = isatty(fileno(stream));
  p->start_us = g_get_monotonic_time();
  p->last_draw_s = -1;
  p->last_drawn_done = (size_t)-1;
  return p;
}

void cs_progress_set_tty(cs_progress *p, gboolean tty) { p->tty = tty; }

void cs_progress_set_start(cs_progress *p, gint64 start_us) { p->start_us = start_us; }

static double eta(const cs_progress *p, double el)
{
  double done = p->done_weight + p->partial_weight;
  if (done <= 0)
    return NAN;
  double remaining = p->total_weight - done;
  return remaining <= 0 ? 0 : el * remaining / done;
}

static void clear_line(cs_progress *p)
{
  if (p->tty && p->last_len) {
    fprintf(p->stream, "\r%*s\r", (int)p->last_len, "");
    p->last_len = 0;
  }
}

static void draw(cs_progress *p, double el)
{
  char *line = cs_progress_format(p->label, p->done, p->total, p->failed, p->running, el, eta(p, el));
  size_t len = strlen(line);
  if (p->tty) {
    /* pad over a longer previous line */
    fprintf(p->stream, "\r%s%*s", line, p->last_len > len ? (int)(p->last_len - len) : 0, "");
    p->last_len = len;
  } else {
    fprintf(p->stream, "%s\n", line);
  }
  fflush(p->stream);
  g_free(line);
  p->last_draw_s = el;
  p->last_drawn_done = p->done;
}

static gboolean all_done(const cs_progress *p) { return p->total > 0 && p->done == p->total; }

/* Terminal: redraw at most every TTY_INTERVAL_S (and at the end).  Log: a
 * line on a completion, at most one every LOG_INTERVAL_S, and the last one;
 * between completions (cs_progress_tick: a sweep's point that runs for
 * minutes) a heartbeat line every LOG_HEARTBEAT_S, so a log never falls
 * silent for longer. */
static void maybe_draw(cs_progress *p, gboolean completion)
{
  if (p->quiet)
    return;
  double el = elapsed_s(p);
  if (p->tty) {
    if (p->last_draw_s < 0 || el - p->last_draw_s >= TTY_INTERVAL_S || (completion && all_done(p)))
      draw(p, el);
  } else {
    double since = el - (p->last_draw_s < 0 ? 0 : p->last_draw_s);
    if (!completion) {
      if (since >= LOG_HEARTBEAT_S)
        draw(p, el);
      return;
    }
    if (p->last_draw_s < 0 || since >= LOG_INTERVAL_S || all_done(p))
      draw(p, el);
  }
}

void cs_progress_done(cs_progress *p, double weight, gboolean failed)
{
  p->done++;
  p->done_weight += weight;
  if (failed)
    p->failed++;
  maybe_draw(p, TRUE);
}

void cs_progress_set(cs_progress *p, size_t done, double done_weight)
{
  if (done < p->done || done_weight < p->done_weight)
    return;
  p->done = done;
  p->done_weight = done_weight;
  maybe_draw(p, TRUE);
}

void cs_progress_set_running(cs_progress *p, size_t running) { p->running = running; }

void cs_progress_set_partial(cs_progress *p, double weight) { p->partial_weight = weight > 0 ? weight : 0; }

void cs_progress_tick(cs_progress *p) { maybe_draw(p, FALSE); }

void cs_progress_message(cs_progress *p, const char *fmt, ...)
{
  clear_line(p);
  va_list ap;
  va_start(ap, fmt);
  vfprintf(p->stream, fmt, ap);
  va_end(ap);
  fputc('\n', p->stream);
  fflush(p->stream);
  if (p->tty && !p->quiet && p->last_draw_s >= 0)
    draw(p, elapsed_s(p));
}

void cs_progress_finish(cs_progress *p)
{
  if (!p)
    return;
  if (!p->quiet && (p->total > 0 || p->last_draw_s >= 0)) {
    double el = elapsed_s(p);
    if (p->tty) {
      draw(p, el);
      fputc('\n', p->stream);
    } else if (p->last_drawn_done != p->done) {
      draw(p, el);
    }
    fflush(p->stream);
  }
  g_free(p->label);
  g_free(p);
}

FILE *cs_progress_log_open(void)
{
  const char *path = g_getenv("COLLSIM_PROGRESS_LOG");
  return path && *path ? fopen(path, "a") : NULL;
}

const char *cs_progress_plan_path(void)
{
  const char *path = g_getenv("COLLSIM_PLAN");
  return path && *path ? path : NULL;
}

bool cs_progress_plan_write(const char *path, int64_t processes, double messages, double work, double compute_s)
{
  FILE *f = fopen(path, "w");
  if (!f)
    return false;
  bool ok = fprintf(f, "%" PRId64 " %.17g %.17g %.17g\n", processes, messages, work, compute_s) >= 0;
  return fclose(f) == 0 && ok;
}

/* cs_progress_log_stage's stage, and when the first began. */
static struct {
  double before, weight, all;
  gint64 start_us;
} stage;

#define STAGE_SCALE 1000000000.0

void cs_progress_log_stage(double before, double weight, double all)
{
  stage.before = before;
  stage.weight = weight;
  stage.all = all;
  if (all <= 0)
    return;
  if (!stage.start_us)
    stage.start_us = g_get_monotonic_time();
  FILE *log = cs_progress_log_open();
  if (log) {
    cs_progress_log_line(log, (double)(g_get_monotonic_time() - stage.start_us) / 1e6, 0, 0, 0, 0, 0);
    fclose(log);
  }
}

void cs_progress_log_line(FILE *log, double elapsed_s, int64_t messages, double work, double computed_s,
                          size_t done, size_t total)
{
  if (stage.all > 0) {
    double fraction = total > 0 ? MIN(1.0, (double)done / (double)total) : 0;
    done = (size_t)(STAGE_SCALE * MIN(1.0, (stage.before + stage.weight * fraction) / stage.all));
    total = (size_t)STAGE_SCALE;
  }
  fprintf(log, "%.3f %" PRId64 " %.1f %.6f %zu %zu\n", elapsed_s, messages, work, computed_s, done, total);
  fflush(log);
}

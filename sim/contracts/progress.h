/* A progress line on a stream (stderr): "done/total", failures, elapsed and
 * an ETA.  On a terminal the line is redrawn in place with '\r' (at most every
 * 0.25 s); otherwise (a log file, a Slurm output) one full line is printed per
 * update, at most one every 10 s, plus the last one.  Quiet prints nothing.
 *
 * The ETA is weighted: each item has a weight (the sweep uses its points'
 * planned cost, sim/sweep/point_cost.h), and the remaining time is elapsed *
 * remaining weight / done weight, where the done weight includes what the
 * running items have done (cs_progress_set_partial), so a sweep whose large
 * points come last is not grossly under-estimated. */
#ifndef COLLSIM_PROGRESS_H
#define COLLSIM_PROGRESS_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

typedef struct cs_progress cs_progress;

cs_progress *cs_progress_new(FILE *stream, const char *label, size_t total, double total_weight,
                             gboolean quiet);
/* Count elapsed time from start_us (g_get_monotonic_time) instead of now:
 * for a line that appears only once the work has run a while. */
void cs_progress_set_start(cs_progress *p, gint64 start_us);
/* Force the tty / non-tty behaviour (tests); default: isatty(fileno(stream)). */
void cs_progress_set_tty(cs_progress *p, gboolean tty);

/* One more item finished (ok or failed) with this weight; redraws if due. */
void cs_progress_done(cs_progress *p, double weight, gboolean failed);
/* Progress given as a level rather than items: done (of total) and its
 * weight; never moves backwards.  A total of 0 is open-ended: "N done",
 * no ETA. */
void cs_progress_set(cs_progress *p, size_t done, double done_weight);
/* The weight of what the running items have done so far (a sweep's points
 * part way through): counted in the ETA, replaced by each call, not by
 * cs_progress_done. */
void cs_progress_set_partial(cs_progress *p, double weight);
/* Items now running (shown as "N running" when more than one job). */
void cs_progress_set_running(cs_progress *p, size_t running);
/* Redraw if due (call from an idle loop so elapsed time keeps moving); to a
 * log, a heartbeat line after a minute without one. */
void cs_progress_tick(cs_progress *p);

/* Print a message line (a newline is added), clearing the progress line
 * first on a terminal.  Messages are printed even when quiet. */
G_GNUC_PRINTF(2, 3) void cs_progress_message(cs_progress *p, const char *fmt, ...);

/* Final line (when not quiet) and free. */
void cs_progress_finish(cs_progress *p);

/* COLLSIM_PROGRESS_LOG: a run's counters for collsim sweep, which reads
 * the last line (sim/sweep/point_cost.c), written by both engines.  Open:
 * the file for appending when the variable is set, else NULL.  Line:
 * elapsed seconds, messages delivered, their work, seconds computed, then
 * the meter's done and total (total 0: not known), flushed at once. */
FILE *cs_progress_log_open(void);
void cs_progress_log_line(FILE *log, double elapsed_s, int64_t messages, double work, double computed_s,
                          size_t done, size_t total);
/* A run made of stages one after another, each with its own meters (comm
 * compare runs its schemes in turn): from here on the log's done and total
 * are those of the whole run, (before + weight * done / total) / all,
 * written in billionths, so that a sweep's ETA follows the whole point
 * instead of restarting at each stage.  A line is written at once (the
 * stage starts).  all = 0: back to the meters' own counts. */
void cs_progress_log_stage(double before, double weight, double all);

/* COLLSIM_PLAN: collsim sweep's planning (sim/sweep/point_cost.c) runs a
 * point's command with it set; the command writes "processes messages
 * work compute_s" there instead of running.  The path, or NULL when not
 * planning; writing it: false with errno on failure. */
const char *cs_progress_plan_path(void);
bool cs_progress_plan_write(const char *path, int64_t processes, double messages, double work, double compute_s);

/* Pure formatting, for tests: "12/40 done, 1 failed, elapsed 1m05s, ETA 3m10s"
 * ("12 done, elapsed 1m05s" when total is 0: open-ended). */
char *cs_progress_format(const char *label, size_t done, size_t total, size_t failed, size_t running,
                         double elapsed_s, double eta_s);
/* "0s", "59s", "1m05s", "2h03m", "3d04h"; negative or NaN: "?". */
void cs_progress_duration(char *buf, size_t size, double seconds);

#endif

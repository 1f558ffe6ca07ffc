/* How a run stops early, leaving nothing behind: on a signal, and when
 * memory runs out.
 *
 * Paths a run may leave behind (its temporary folder and files, the
 * temporary file of an output being written, folders made for an output)
 * are tracked here while they exist.  On SIGINT, SIGTERM, SIGHUP or SIGQUIT,
 * and on the fatal signals (SIGABRT, SIGSEGV, SIGBUS, SIGFPE), an
 * async-signal-safe handler removes the tracked files, then the tracked
 * folders that are empty, restores the signal's default action and raises it
 * again: the process ends at once, and its exit status says which signal
 * ended it (a shell shows 128+N).  At a normal exit the same removal runs.
 *
 * Only the process that tracked a path removes it: a forked child (which
 * inherits the handler and the table) leaves its parent's paths alone.
 *
 * Only signals at their default action get the handler: one ignored when
 * collsim starts (SIGINT and SIGQUIT of a background job, SIGHUP under
 * nohup) stays ignored, a sanitizer's fault handler stays in place.
 * SimGrid takes SIGINT when it starts (it would print every actor's state
 * and call exit(1)): the engine puts back the handler it found
 * (sg_engine.c).  A caller that handles a signal itself for a while (the
 * sweep, which stops its points and keeps its journal consistent) saves and
 * restores ours.
 *
 * Out of memory: GLib's allocation failure (and SimGrid's, which the engine
 * routes here, see sg_engine.c), and a fault with the address space within
 * an eighth of RLIMIT_AS, end the run with exit status 1 and one line,
 * "collsim CMD: error: out of memory (...)", instead of an abort with a
 * backtrace. */
#ifndef COLLSIM_SIGNALS_H
#define COLLSIM_SIGNALS_H

#include <glib.h>
#include <stdbool.h>

/* Install the handlers, the GLib out-of-memory hook and the removal at exit.
 * `cmd` names the subcommand in messages ("collsim CMD: error: ...").  Once,
 * first thing in main(). */
void cs_signals_install(const char *cmd);

/* Remove `path` if the run stops (a file; with folder, an empty folder).
 * FALSE when the table is full (the path is then not removed on a signal).
 * cs_signals_untrack forgets it (the file was renamed, removed or kept). */
bool cs_signals_track(const char *path, bool folder);
void cs_signals_untrack(const char *path);

/* Hold the stop signals (they wait, then act at cs_signals_release) while a
 * path is made and tracked, so that no signal falls between the two.  Calls
 * nest; they concern the calling thread. */
void cs_signals_hold(void);
void cs_signals_release(void);

/* Remove what this process tracks, now (what the handler and exit do). */
void cs_signals_cleanup(void);

/* End the run: "collsim CMD: error: out of memory (DETAIL)", the address
 * space limit when there is one, tracked paths removed, exit status 1.
 * Makes no allocation.  In a forked child that reports to its parent
 * (cs_signals_report_to), the line goes to the parent instead. */
G_NORETURN void cs_signals_out_of_memory(const char *detail);

/* A forked child's way of reporting out of memory: fn(message) is called
 * (and must not allocate) before the child exits with status 1. */
void cs_signals_report_to(void (*fn)(const char *message));

/* The subcommand given to cs_signals_install ("" before). */
const char *cs_signals_command(void);

#endif

/* The message trace of a timed run (--trace FILE) and its timeline
 * (--timeline FILE.png), written once for every timed subcommand.
 *
 * A cs_trace is attached to an engine configuration (cs_trace_attach): the
 * engine's second delivery hook (sg_engine.h, `tracer`) hands it every
 * message a process took out of the network, with its send and receive
 * times; at the end of the run (`tracer_end`, the platform still loaded)
 * the rows are sorted and, for a timeline, each message's route is looked
 * up once to count the links of each tier it crossed.
 *
 * CSV (cs_trace_write_csv), one row per message delivered:
 *   t_send_s   simulated time the sender posted it (called cs_send, before
 *              its send overhead)
 *   t_recv_s   simulated time the receiver took it (after its receive
 *              overhead), so t_recv_s >= t_send_s
 *   src, dst   ranks;  src_host, dst_host  their hosts (host g: the g-th
 *              host in natural order of names, node-g on collsim's families)
 *   bytes      the message's simulated bytes (the Allreduce benchmark's
 *              per-message header included)
 *   tag, ctx   its tag and context id (0 outside communicators)
 *   phase      the sender's phase: algo, bracket (tree's broadcast and
 *              reduction around the algorithm) or local (wake-ups between
 *              proclets of one OS process)
 * On the native engine (collective --timed --engine native, LogGOPS):
 * t_send is when the send started (before its overhead o), t_recv when its
 * receive matched it (LogGOPS charges the receiver's o on arrival, so the
 * receiver goes on o after the match at the earliest); hosts are the
 * ranks' nodes.
 * Rows are sorted by every column in that order (t_recv_s first, then
 * t_send_s, ...), so the same inputs and seed give a byte-identical file.
 * Times are printed with 12 significant digits.  Messages a failed process
 * discarded are not in it (they were never taken).
 *
 * Timeline (cs_trace_write_timeline): a PNG drawn by gnuplot, two panels on
 * one time axis:
 *   - messages per rank: each message a line from (t_send, src) to
 *     (t_recv, dst), coloured by phase;
 *   - link load per tier: each message's bytes spread evenly over
 *     [t_send, t_recv] and charged to every link of its route (the
 *     platform's netmap, sim/contracts/netmap.h: SimGrid's route between
 *     the two hosts, a host's loopback for two ranks of one host), summed
 *     per tier (L1, L2, T, X, ...: the links' tier as --links names them;
 *     "network" where the platform names none).  A file collsim's router
 *     cannot read has no routes here: one "network" series charging each
 *     message once.  A message with
 *     t_recv == t_send is spread over 1 ns.
 * Small runs only: at most CS_TIMELINE_MAX_RANKS ranks (the highest rank
 * that sent or received, plus one) and CS_TIMELINE_MAX_MESSAGES messages;
 * a larger run is refused as bad input (--trace records any run).
 * The data and the gnuplot script go to temporary files; the PNG is drawn
 * into a temporary file and moved into place only when gnuplot succeeded.
 */
#ifndef COLLSIM_TRACE_H
#define COLLSIM_TRACE_H

#include "platforms/platform.h"
#include "sim/engine/sg_engine.h"
#include "sim/contracts/netmap.h"

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#define CS_TIMELINE_MAX_RANKS 256
#define CS_TIMELINE_MAX_MESSAGES 20000

typedef struct cs_trace_row {
  double t_send, t_recv;
  int32_t src, dst, src_host, dst_host;
  uint64_t bytes;
  int32_t tag;
  uint32_t ctx;
  int32_t phase; /* cs_phase */
} cs_trace_row;

typedef struct cs_trace cs_trace;

/* The CSV's header line (without the newline). */
extern const char cs_trace_header[];

/* keep_all: every row is kept (--trace); else (only a timeline) rows stop
 * being kept past CS_TIMELINE_MAX_MESSAGES, only counted. */
cs_trace *cs_trace_new(bool keep_all, bool timeline);
void cs_trace_free(cs_trace *t);

/* Record the runs of ec into t; p (or NULL): the platform whose netmap
 * gives the timeline's tiers. */
void cs_trace_attach(cs_trace *t, const cs_platform *p, cs_engine_config *ec);
/* A configuration copy that must not record (e.g. for forked trial runs). */
void cs_trace_detach(cs_engine_config *ec);


/* Messages delivered so far, and the rows kept (sorted once the run has
 * ended, or after cs_trace_read_csv). */
uint64_t cs_trace_messages(const cs_trace *t);
const cs_trace_row *cs_trace_rows(const cs_trace *t, size_t *count);

/* The CSV, through a temporary file moved into place. */
bool cs_trace_write_csv(const cs_trace *t, const char *path, GError **err);
/* A trace CSV read back (tests, tools): NULL with err if it is not one. */
cs_trace *cs_trace_read_csv(const char *path, GError **err);

/* Links per tier of each row's route (done at the end of a run for a
 * timeline; tests call it on a trace read back).  Returns FALSE when a
 * host of the trace is not in routes. */
bool cs_trace_resolve_tiers(cs_trace *t, const cs_netmap *map);
/* Without routes: one "network" tier, each message charged once. */
void cs_trace_one_tier(cs_trace *t);

/* The link-load panel's data, as gnuplot gets it: breakpoints t[0..n-1]
 * (every distinct send and receive time) and, per tier, the load in bytes/s
 * summed over the tier's links on [t[i], t[i+1]) (rate[i * ntiers + k]; 0
 * on the last point). */
typedef struct cs_trace_load {
  size_t npoints;
  int ntiers;
  double *t, *rate;
  const char *const *tier; /* names, owned by the trace */
} cs_trace_load;
void cs_trace_tier_load(const cs_trace *t, cs_trace_load *out);
void cs_trace_load_clear(cs_trace_load *l);
/* Bytes x links of tier k: the load integrated over time. */
double cs_trace_load_integral(const cs_trace_load *l, int k);

/* FALSE (CS_INPUT_ERROR) when the run is too large to draw. */
bool cs_trace_timeline_fits(const cs_trace *t, GError **err);
/* Draw the timeline into png (gnuplot). */
bool cs_trace_write_timeline(const cs_trace *t, const char *png, GError **err);

#endif

/* The message trace and its timeline (see trace.h for the CSV's columns,
 * the panels and the limits).
 *
 * Choices: rows are kept in memory (56 bytes each) and sorted at the end of
 * the run, so their order depends on nothing but the simulated events;
 * routes are looked up once per row, and only for a timeline (a trace alone
 * costs one row per message and no route); the timeline's data are the
 * exact piecewise-constant load (one breakpoint per distinct send or
 * receive time), so its integral is the traffic --links counts. */
#include "sim/drivers/trace.h"
#include "sim/contracts/errors.h"
#include "sim/contracts/tempdir.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

const char cs_trace_header[] = "t_send_s,t_recv_s,src,dst,src_host,dst_host,bytes,tag,ctx,phase";

static const char *const phase_names[CS_NPHASES] = {"algo", "bracket", "local"};
static const char *const phase_colors[CS_NPHASES] = {"#1f77b4", "#d62728", "#2ca02c"};

/* A message with t_recv == t_send is spread over this long in the load. */
#define MIN_SPAN_S 1e-9

struct cs_trace {
  GArray *rows; /* cs_trace_row */
  bool keep_all, timeline, sorted;
  uint64_t messages;
  int32_t max_rank, max_host;
  const cs_platform *platform;
  /* tiers of the rows' routes (timeline) */
  GPtrArray *tiers; /* names */
  int32_t *links;   /* rows x tiers: links of the route in each tier */
};

cs_trace *cs_trace_new(bool keep_all, bool timeline)
{
  cs_trace *t = g_new0(cs_trace, 1);
  t->rows = g_array_new(FALSE, FALSE, sizeof(cs_trace_row));
  t->keep_all = keep_all;
  t->timeline = timeline;
  t->max_rank = t->max_host = -1;
  return t;
}

static void clear_tiers(cs_trace *t)
{
  if (t->tiers)
    g_ptr_array_free(t->tiers, TRUE);
  t->tiers = NULL;
  g_clear_pointer(&t->links, g_free);
}

void cs_trace_free(cs_trace *t)
{
  if (!t)
    return;
  clear_tiers(t);
  g_array_free(t->rows, TRUE);
  g_free(t);
}

uint64_t cs_trace_messages(const cs_trace *t) { return t->messages; }

const cs_trace_row *cs_trace_rows(const cs_trace *t, size_t *count)
{
  *count = t->rows->len;
  return (const cs_trace_row *)(void *)t->rows->data;
}

/* ---- recording ---- */

static void note_extent(cs_trace *t, const cs_trace_row *r)
{
  t->max_rank = MAX(t->max_rank, MAX(r->src, r->dst));
  t->max_host = MAX(t->max_host, MAX(r->src_host, r->dst_host));
}

static void record(const cs_delivery *d, void *user)
{
  cs_trace *t = user;
  cs_trace_row r = {d->t_send, d->t_recv, d->src, d->dst, d->src_host, d->dst_host, d->bytes, d->tag, d->ctx,
                    (int32_t)d->phase};
  t->messages++;
  note_extent(t, &r);
  if (t->keep_all || t->rows->len < CS_TIMELINE_MAX_MESSAGES)
    g_array_append_val(t->rows, r);
}

#define CMP(a, b) \
  do { \
    if ((a) != (b)) \
      return (a) < (b) ? -1 : 1; \
  } while (0)

static int row_cmp(const void *x, const void *y)
{
  const cs_trace_row *a = x, *b = y;
  CMP(a->t_recv, b->t_recv);
  CMP(a->t_send, b->t_send);
  CMP(a->src, b->src);
  CMP(a->dst, b->dst);
  CMP(a->src_host, b->src_host);
  CMP(a->dst_host, b->dst_host);
  CMP(a->bytes, b->bytes);
  CMP(a->tag, b->tag);
  CMP(a->ctx, b->ctx);
  CMP(a->phase, b->phase);
  return 0;
}

static void sort_rows(cs_trace *t)
{
  if (!t->sorted)
    g_array_sort(t->rows, row_cmp); /* leaves an empty array alone (its data is NULL) */
  t->sorted = true;
}

static bool fits(const cs_trace *t) { return cs_trace_timeline_fits(t, NULL); }

/* End of the run: rows in order; for a timeline that fits, the tiers of
 * every route (one "network" tier where the platform has no routes to
 * give). */
static void run_end(const cs_engine_config *c, void *user)
{
  cs_trace *t = user;
  sort_rows(t);
  if (!t->timeline || !fits(t) || t->rows->len == 0)
    return;
  (void)c;
  GError *e = NULL;
  cs_netmap *map = t->platform ? cs_platform_netmap(t->platform, &e) : NULL;
  g_clear_error(&e);
  if (!map || !cs_trace_resolve_tiers(t, map))
    cs_trace_one_tier(t); /* no platform, or a file whose routes collsim cannot read */
  cs_netmap_free(map);
}

void cs_trace_attach(cs_trace *t, const cs_platform *p, cs_engine_config *ec)
{
  t->platform = p;
  ec->tracer = record;
  ec->tracer_end = run_end;
  ec->tracer_user = t;
}

void cs_trace_detach(cs_engine_config *ec)
{
  ec->tracer = NULL;
  ec->tracer_end = NULL;
  ec->tracer_user = NULL;
}

/* ---- the CSV ---- */

static void write_row(FILE *f, const cs_trace_row *r)
{
  fprintf(f, "%.12g,%.12g,%" PRId32 ",%" PRId32 ",%" PRId32 ",%" PRId32 ",%" PRIu64 ",%" PRId32 ",%" PRIu32 ",%s\n",
          r->t_send, r->t_recv, r->src, r->dst, r->src_host, r->dst_host, r->bytes, r->tag, r->ctx,
          r->phase >= 0 && r->phase < CS_NPHASES ? phase_names[r->phase] : "?");
}

/* A new temporary file (stem, suffix) written by fn: its path, or NULL
 * with err (nothing left behind). */
typedef bool (*writer_fn)(FILE *f, const void *data);

static char *write_temp(const char *stem, const char *suffix, writer_fn fn, const void *data, GError **err)
{
  char *tmp = cs_tempfile(stem, suffix, err);
  if (!tmp)
    return NULL;
  FILE *f = fopen(tmp, "w");
  bool ok = f && fn(f, data);
  if (f && fclose(f) != 0)
    ok = false;
  if (!ok) {
    g_set_error(err, CS_INTERNAL_ERROR, 1, "cannot write the temporary file %s: %s", tmp, g_strerror(errno));
    cs_tempfile_remove(tmp);
    g_free(tmp);
    return NULL;
  }
  return tmp;
}

static bool commit(char *tmp, const char *dest, GError **err)
{
  if (!tmp)
    return false;
  bool ok = cs_tempfile_commit(tmp, dest, err);
  cs_tempfile_remove(tmp);
  g_free(tmp);
  return ok;
}

static bool csv_writer(FILE *f, const void *data)
{
  const cs_trace *t = data;
  fprintf(f, "%s\n", cs_trace_header);
  for (guint i = 0; i < t->rows->len; i++)
    write_row(f, &g_array_index(t->rows, cs_trace_row, i));
  return !ferror(f);
}

bool cs_trace_write_csv(const cs_trace *t, const char *path, GError **err)
{
  return commit(write_temp("trace", ".csv", csv_writer, t, err), path, err);
}

static bool parse_row(const char *line, cs_trace_row *r)
{
  char phase[16];
  int used = 0;
  if (sscanf(line, "%lf,%lf,%" SCNd32 ",%" SCNd32 ",%" SCNd32 ",%" SCNd32 ",%" SCNu64 ",%" SCNd32 ",%" SCNu32
                   ",%15[a-z]%n",
             &r->t_send, &r->t_recv, &r->src, &r->dst, &r->src_host, &r->dst_host, &r->bytes, &r->tag, &r->ctx,
             phase, &used) != 10 ||
      line[used] != 0)
    return false;
  for (int k = 0; k < CS_NPHASES; k++)
    if (strcmp(phase, phase_names[k]) == 0) {
      r->phase = k;
      return true;
    }
  return false;
}

cs_trace *cs_trace_read_csv(const char *path, GError **err)
{
  char *text = NULL;
  if (!g_file_get_contents(path, &text, NULL, err))
    return NULL;
  char **lines = g_strsplit(text, "\n", -1);
  g_free(text);
  cs_trace *t = cs_trace_new(true, false);
  bool ok = lines[0] && strcmp(lines[0], cs_trace_header) == 0;
  for (int i = 1; ok && lines[i] && *lines[i]; i++) {
    cs_trace_row r;
    if (!(ok = parse_row(lines[i], &r)))
      g_set_error(err, CS_INPUT_ERROR, 1, "%s line %d: not a trace row", path, i + 1);
    g_array_append_val(t->rows, r);
    note_extent(t, &r);
  }
  if (!ok && !(err && *err))
    g_set_error(err, CS_INPUT_ERROR, 1, "%s: not a collsim trace (header %s expected)", path, cs_trace_header);
  g_strfreev(lines);
  if (!ok) {
    cs_trace_free(t);
    return NULL;
  }
  t->messages = t->rows->len;
  sort_rows(t);
  return t;
}

/* ---- tiers and load ---- */

bool cs_trace_resolve_tiers(cs_trace *t, const cs_netmap *map)
{
  clear_tiers(t);
  int all = map->ntiers;
  cs_route_buf buf = {0};
  size_t n = t->rows->len;
  int32_t *count = g_new0(int32_t, n * (size_t)MAX(all, 1));
  for (size_t i = 0; i < n; i++) {
    const cs_trace_row *r = &g_array_index(t->rows, cs_trace_row, i);
    const int32_t *links;
    int nl = cs_netmap_route(map, &buf, r->src_host, r->dst_host, &links);
    if (nl < 0) {
      g_free(count);
      cs_route_buf_clear(&buf);
      return false;
    }
    for (int j = 0; j < nl; j++)
      count[i * (size_t)all + (size_t)map->ops->link_tier(map, links[j])]++;
  }
  cs_route_buf_clear(&buf);
  /* keep the tiers some message crossed, in the routes' order */
  t->tiers = g_ptr_array_new_with_free_func(g_free);
  int *keep = g_new(int, MAX(all, 1));
  for (int k = 0; k < all; k++) {
    bool used = false;
    for (size_t i = 0; i < n && !used; i++)
      used = count[i * (size_t)all + (size_t)k] > 0;
    if (used) {
      const char *name = map->tier_name[k];
      keep[t->tiers->len] = k;
      g_ptr_array_add(t->tiers, g_strdup(strcmp(name, "?") == 0 ? "network" : name));
    }
  }
  size_t nt = t->tiers->len;
  t->links = g_new0(int32_t, n * MAX(nt, 1));
  for (size_t i = 0; i < n; i++)
    for (size_t k = 0; k < nt; k++)
      t->links[i * nt + k] = count[i * (size_t)all + (size_t)keep[k]];
  g_free(keep);
  g_free(count);
  return true;
}

void cs_trace_one_tier(cs_trace *t)
{
  clear_tiers(t);
  t->tiers = g_ptr_array_new_with_free_func(g_free);
  g_ptr_array_add(t->tiers, g_strdup("network"));
  t->links = g_new(int32_t, MAX(t->rows->len, 1));
  for (guint i = 0; i < t->rows->len; i++)
    t->links[i] = 1;
}

static double span_end(const cs_trace_row *r) { return r->t_recv > r->t_send ? r->t_recv : r->t_send + MIN_SPAN_S; }

static int dbl_cmp(const void *x, const void *y)
{
  double a = *(const double *)x, b = *(const double *)y;
  return (a > b) - (a < b);
}

static size_t point_of(const cs_trace_load *l, double x)
{
  const double *hit = bsearch(&x, l->t, l->npoints, sizeof(double), dbl_cmp);
  return (size_t)(hit - l->t);
}

void cs_trace_tier_load(const cs_trace *t, cs_trace_load *l)
{
  memset(l, 0, sizeof *l);
  size_t n = t->rows->len;
  int nt = t->tiers ? (int)t->tiers->len : 0;
  l->ntiers = nt;
  l->tier = t->tiers ? (const char *const *)t->tiers->pdata : NULL;
  l->t = g_new(double, 2 * n + 1);
  for (size_t i = 0; i < n; i++) {
    const cs_trace_row *r = &g_array_index(t->rows, cs_trace_row, i);
    l->t[2 * i] = r->t_send;
    l->t[2 * i + 1] = span_end(r);
  }
  qsort(l->t, 2 * n, sizeof(double), dbl_cmp);
  for (size_t i = 0; i < 2 * n; i++)
    if (l->npoints == 0 || l->t[i] != l->t[l->npoints - 1])
      l->t[l->npoints++] = l->t[i];
  size_t np = l->npoints, cells = np * (size_t)MAX(nt, 1);
  l->rate = g_new0(double, cells);
  int64_t *active = g_new0(int64_t, cells); /* messages in flight: exactly 0 means no load */
  for (size_t i = 0; i < n && nt > 0; i++) {
    const cs_trace_row *r = &g_array_index(t->rows, cs_trace_row, i);
    size_t a = point_of(l, r->t_send), b = point_of(l, span_end(r));
    for (int k = 0; k < nt; k++) {
      int32_t links = t->links[i * (size_t)nt + (size_t)k];
      if (!links)
        continue;
      double rate = (double)r->bytes * links / (span_end(r) - r->t_send);
      l->rate[a * nt + k] += rate;
      l->rate[b * nt + k] -= rate;
      active[a * nt + k]++;
      active[b * nt + k]--;
    }
  }
  for (size_t i = 1; i < np; i++)
    for (int k = 0; k < nt; k++) {
      l->rate[i * nt + k] += l->rate[(i - 1) * nt + k];
      active[i * nt + k] += active[(i - 1) * nt + k];
    }
  for (size_t c = 0; c < cells; c++)
    if (active[c] == 0)
      l->rate[c] = 0;
  g_free(active);
}

void cs_trace_load_clear(cs_trace_load *l)
{
  g_free(l->t);
  g_free(l->rate);
  memset(l, 0, sizeof *l);
}

double cs_trace_load_integral(const cs_trace_load *l, int k)
{
  double sum = 0;
  for (size_t i = 0; i + 1 < l->npoints; i++)
    sum += l->rate[i * l->ntiers + k] * (l->t[i + 1] - l->t[i]);
  return sum;
}

/* ---- the timeline ---- */

bool cs_trace_timeline_fits(const cs_trace *t, GError **err)
{
  int64_t ranks = (int64_t)t->max_rank + 1;
  if (ranks <= CS_TIMELINE_MAX_RANKS && t->messages <= CS_TIMELINE_MAX_MESSAGES && t->messages > 0)
    return true;
  if (t->messages == 0)
    g_set_error(err, CS_INPUT_ERROR, 1, "--timeline: the run delivered no message, nothing to draw");
  else
    g_set_error(err, CS_INPUT_ERROR, 1,
                "--timeline draws small runs only: at most %d ranks and %d messages (this run: %" PRId64
                " ranks, %" PRIu64 " messages); --trace FILE records any run",
                CS_TIMELINE_MAX_RANKS, CS_TIMELINE_MAX_MESSAGES, ranks, t->messages);
  return false;
}

/* Messages per phase, one gnuplot data block each: x y dx dy. */
static bool messages_writer(FILE *f, const void *data)
{
  const cs_trace *t = data;
  for (int ph = 0; ph < CS_NPHASES; ph++) {
    fprintf(f, "# phase %s\n", phase_names[ph]);
    for (guint i = 0; i < t->rows->len; i++) {
      const cs_trace_row *r = &g_array_index(t->rows, cs_trace_row, i);
      if (r->phase == ph)
        fprintf(f, "%.12g %d %.12g %d\n", r->t_send, r->src, r->t_recv - r->t_send, r->dst - r->src);
    }
    fprintf(f, "\n\n");
  }
  return !ferror(f);
}

static bool load_writer(FILE *f, const void *data)
{
  const cs_trace_load *l = data;
  fprintf(f, "# t_s");
  for (int k = 0; k < l->ntiers; k++)
    fprintf(f, " %s_bytes_per_s", l->tier[k]);
  fprintf(f, "\n");
  for (size_t i = 0; i < l->npoints; i++) {
    fprintf(f, "%.12g", l->t[i]);
    for (int k = 0; k < l->ntiers; k++)
      fprintf(f, " %.12g", l->rate[i * l->ntiers + k]);
    fprintf(f, "\n");
  }
  return !ferror(f);
}

/* A path in a gnuplot single-quoted string ('' is a quote). */
static void append_quoted(GString *s, const char *path)
{
  g_string_append_c(s, '\'');
  for (const char *c = path; *c; c++)
    g_string_append(s, *c == '\'' ? "''" : (char[]){*c, 0});
  g_string_append_c(s, '\'');
}

typedef struct script_in {
  const cs_trace *t;
  const cs_trace_load *l;
  const char *messages, *load, *png;
} script_in;

static bool script_writer(FILE *f, const void *data)
{
  const script_in *in = data;
  const cs_trace *t = in->t;
  double t_end = 0;
  for (guint i = 0; i < t->rows->len; i++)
    t_end = MAX(t_end, span_end(&g_array_index(t->rows, cs_trace_row, i)));
  GString *s = g_string_new("set terminal pngcairo size 1200,800 font 'sans,9'\nset output ");
  append_quoted(s, in->png);
  g_string_append_printf(s, "\nset multiplot layout 2,1 title 'collsim timeline: %u messages, %d ranks'\n"
                            "set xrange [0:%.12g]\nset format x '%%.1s%%c'\nset key outside right top\n"
                            "set ylabel 'rank (line: sender at send to receiver at receive)'\n"
                            "set yrange [-0.5:%d.5]\nplot",
                         t->rows->len, t->max_rank + 1, t_end, t->max_rank);
  bool first = true;
  for (int ph = 0; ph < CS_NPHASES; ph++) {
    bool present = false;
    for (guint i = 0; i < t->rows->len && !present; i++)
      present = g_array_index(t->rows, cs_trace_row, i).phase == ph;
    if (!present)
      continue;
    g_string_append(s, first ? " " : ", ");
    append_quoted(s, in->messages);
    g_string_append_printf(s, " index %d using 1:2:3:4 with vectors nohead lc rgb '%s' title '%s'", ph,
                           phase_colors[ph], phase_names[ph]);
    first = false;
  }
  g_string_append(s, "\nset xlabel 'simulated time (s)'\nset ylabel 'link load (bytes/s, summed over the tier''s "
                     "links)'\nset yrange [0:*]\nset format y '%.1s%c'\nplot");
  for (int k = 0; k < in->l->ntiers; k++) {
    g_string_append(s, k ? ", " : " ");
    append_quoted(s, in->load);
    g_string_append_printf(s, " using 1:%d with steps lw 1.5 title ", k + 2);
    append_quoted(s, in->l->tier[k]);
  }
  g_string_append(s, "\nunset multiplot\n");
  fputs(s->str, f);
  g_string_free(s, TRUE);
  return !ferror(f);
}

/* Run gnuplot on the script; FALSE with its first line of complaint. */
static bool run_gnuplot(const char *script, GError **err)
{
  char *argv[] = {"gnuplot", "-d", (char *)script, NULL};
  char *errout = NULL;
  int status = 0;
  GError *e = NULL;
  if (!g_spawn_sync(NULL, argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, &errout,
                    &status, &e)) {
    g_set_error(err, CS_INTERNAL_ERROR, 1, "--timeline needs gnuplot (scripts/install-deps.sh installs gnuplot-nox): %s",
                e->message);
    g_error_free(e);
    return false;
  }
  bool ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  if (!ok) {
    char *nl = errout ? strchr(g_strstrip(errout), '\n') : NULL;
    if (nl)
      *nl = 0;
    g_set_error(err, CS_INTERNAL_ERROR, 1, "gnuplot failed drawing the timeline: %s",
                errout && *errout ? errout : "no message");
  }
  g_free(errout);
  return ok;
}

bool cs_trace_write_timeline(const cs_trace *t, const char *png, GError **err)
{
  if (!cs_trace_timeline_fits(t, err))
    return false;
  cs_trace_load l;
  cs_trace_tier_load(t, &l);
  char *messages = write_temp("timeline-messages", ".dat", messages_writer, t, err);
  char *load = messages ? write_temp("timeline-load", ".dat", load_writer, &l, err) : NULL;
  char *image = load ? cs_tempfile("timeline", ".png", err) : NULL;
  script_in in = {t, &l, messages, load, image};
  char *script = image ? write_temp("timeline", ".gp", script_writer, &in, err) : NULL;
  bool ok = script && run_gnuplot(script, err) && commit(g_steal_pointer(&image), png, err);
  char *temps[] = {messages, load, image, script};
  for (size_t i = 0; i < G_N_ELEMENTS(temps); i++)
    if (temps[i]) {
      cs_tempfile_remove(temps[i]);
      g_free(temps[i]);
    }
  cs_trace_load_clear(&l);
  return ok;
}

/* Run-time configurable reduce and broadcast trees (seed 002, Section 4):
 * building the per-rank command lists, their YAML form (read with the
 * libyaml document API, written by hand so that the output is deterministic)
 * and the checks that a script is safe to execute.
 *
 * Errors (domain CS_TS_ERROR) name where they are: parse errors as
 * "origin:line: message"; script errors as "reduce, rank 12, command 3
 * (send 8): message" (commands counted from 1), prefixed with origin:line
 * when the script comes from YAML.  Codes: 1 YAML syntax or structure,
 * 2 file I/O, 3 an invalid script (cs_ts_validate).
 *
 * Validation executes each phase with blocking receives in the scripted
 * order and non-blocking (buffered) sends, FIFO per (sender, receiver).
 * A script with receive_order: arrival is checked in scripted order too:
 * taking partial sums in order of arrival can only finish earlier. */
#include "sim/contracts/tree_script.h"
#include "sim/contracts/yaml_util.h"

#include "sim/contracts/prng.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

G_DEFINE_QUARK(cs-tree-script-error-quark, cs_ts_error)

enum { TS_ERR_SYNTAX = 1, TS_ERR_IO = 2, TS_ERR_INVALID = 3 };

#define TS_MAX_N (1 << 24)
#define AT_END (-1) /* an error after a rank's last command */

static const char *const PHASE_NAME[2] = {"reduce", "bcast"};

/* ------------------------------------------------------------ scripts ---- */

cs_tree_script *cs_ts_new(int n, const char *name)
{
  g_return_val_if_fail(n >= 1 && n <= TS_MAX_N, NULL);
  cs_tree_script *s = g_new0(cs_tree_script, 1);
  s->name = name && *name ? g_utf8_make_valid(name, -1) : g_strdup("unnamed");
  s->n = n;
  s->root = 0;
  s->order = CS_TS_SCRIPTED_ORDER;
  s->phase[CS_TS_REDUCE] = g_new0(cs_ts_list, n);
  s->phase[CS_TS_BCAST] = g_new0(cs_ts_list, n);
  return s;
}

void cs_ts_free(cs_tree_script *s)
{
  if (!s)
    return;
  for (int ph = 0; ph < 2; ph++) {
    for (int r = 0; s->phase[ph] && r < s->n; r++)
      g_free(s->phase[ph][r].cmd);
    g_free(s->phase[ph]);
  }
  g_free(s->name);
  g_free(s);
}

void cs_ts_add(cs_tree_script *s, cs_ts_phase ph, int rank, cs_ts_kind kind, int peer)
{
  g_return_if_fail(s && (ph == CS_TS_REDUCE || ph == CS_TS_BCAST) && rank >= 0 && rank < s->n);
  cs_ts_list *l = &s->phase[ph][rank];
  if (l->n == l->cap) {
    l->cap = l->cap ? 2 * l->cap : 4;
    l->cmd = g_renew(cs_ts_cmd, l->cmd, l->cap);
  }
  l->cmd[l->n++] = (cs_ts_cmd){.kind = kind, .peer = peer};
}

static const char *kind_word(cs_ts_kind k) { return k == CS_TS_SEND ? "send" : "recv"; }

int cs_ts_messages(const cs_tree_script *s)
{
  int m = 0;
  for (int ph = 0; ph < 2; ph++)
    for (int r = 0; r < s->n; r++)
      for (int i = 0; i < s->phase[ph][r].n; i++)
        m += s->phase[ph][r].cmd[i].kind == CS_TS_SEND;
  return m;
}

int cs_ts_internode_messages(const cs_tree_script *s, const int *node_of)
{
  int m = 0;
  for (int ph = 0; ph < 2; ph++)
    for (int r = 0; r < s->n; r++)
      for (int i = 0; i < s->phase[ph][r].n; i++) {
        cs_ts_cmd c = s->phase[ph][r].cmd[i];
        if (c.kind == CS_TS_SEND && c.peer >= 0 && c.peer < s->n && node_of[r] != node_of[c.peer])
          m++;
      }
  return m;
}

/* --------------------------------------------------- validation context ---- */

/* Where the parser found each rank and command (lines from 1; 0 = absent). */
typedef struct ts_lines {
  int *rank_line[2]; /* line of rank r's key */
  int *first[2];     /* index of rank r's first command in cmd_line */
  GArray *cmd_line[2];
} ts_lines;

typedef struct vctx {
  const cs_tree_script *s;
  const char *origin;     /* NULL when not parsing */
  const ts_lines *lines;  /* NULL when not parsing */
  GError **err;
} vctx;

static int command_line(const vctx *v, cs_ts_phase ph, int rank, int i)
{
  if (!v->lines)
    return 0;
  if (i < 0)
    return v->lines->rank_line[ph][rank];
  return g_array_index(v->lines->cmd_line[ph], int, v->lines->first[ph][rank] + i);
}

static void append_origin(GString *msg, const vctx *v, int line)
{
  if (!v->origin)
    return;
  if (line > 0)
    g_string_append_printf(msg, "%s:%d: ", v->origin, line);
  else
    g_string_append_printf(msg, "%s: ", v->origin);
}

/* "phase, rank R, command I+1 (text): what"; i = AT_END names the rank's
 * last command ("after command ...") or says that it has none. */
G_GNUC_PRINTF(5, 6)
static bool vfail(const vctx *v, cs_ts_phase ph, int rank, int i, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  char *what = g_strdup_vprintf(fmt, ap);
  va_end(ap);
  const cs_ts_list *l = &v->s->phase[ph][rank];
  int at = i >= 0 ? i : l->n - 1;
  GString *msg = g_string_new(NULL);
  append_origin(msg, v, command_line(v, ph, rank, at));
  g_string_append_printf(msg, "%s, rank %d", PHASE_NAME[ph], rank);
  if (at < 0)
    g_string_append(msg, ", no commands");
  else
    g_string_append_printf(msg, ", %s %d (%s %d)", i >= 0 ? "command" : "after command", at + 1,
                           kind_word(l->cmd[at].kind), l->cmd[at].peer);
  g_string_append_printf(msg, ": %s", what);
  g_set_error_literal(v->err, CS_TS_ERROR, TS_ERR_INVALID, msg->str);
  g_string_free(msg, TRUE);
  g_free(what);
  return false;
}

/* ------------------------------------------------------------ structure ---- */

static bool check_header(const vctx *v)
{
  const cs_tree_script *s = v->s;
  const char *what = NULL;
  if (s->n < 1 || s->n > TS_MAX_N)
    what = "n must be in 1..16777216";
  else if (s->root < 0 || s->root >= s->n)
    what = "the root is not a rank (0..n-1)";
  else if (s->order != CS_TS_SCRIPTED_ORDER && s->order != CS_TS_ARRIVAL_ORDER)
    what = "receive_order is neither scripted nor arrival";
  else if (!s->phase[CS_TS_REDUCE] || !s->phase[CS_TS_BCAST])
    what = "a phase has no command lists";
  if (!what)
    return true;
  g_set_error(v->err, CS_TS_ERROR, TS_ERR_INVALID, "%s%s%s (n = %d, root = %d)", v->origin ? v->origin : "",
              v->origin ? ": " : "", what, s->n, s->root);
  return false;
}

static bool check_peers(const vctx *v, cs_ts_phase ph)
{
  const cs_tree_script *s = v->s;
  for (int r = 0; r < s->n; r++) {
    const cs_ts_list *l = &s->phase[ph][r];
    for (int i = 0; i < l->n; i++) {
      int p = l->cmd[i].peer;
      if (l->cmd[i].kind != CS_TS_SEND && l->cmd[i].kind != CS_TS_RECV)
        return vfail(v, ph, r, i, "unknown command kind %d", (int)l->cmd[i].kind);
      if (p < 0 || p >= s->n)
        return vfail(v, ph, r, i, "peer %d is out of range (ranks 0..%d)", p, s->n - 1);
      if (p == r)
        return vfail(v, ph, r, i, "a rank cannot %s %s itself", kind_word(l->cmd[i].kind),
                     l->cmd[i].kind == CS_TS_SEND ? "to" : "from");
    }
  }
  return true;
}

/* ----------------------------------------------------------- simulation ---- */

/* A message in flight.  reduce: the contributions it carries (how many, and
 * the sum of their random 64-bit weights); bcast: count 1 = the root's value. */
typedef struct ts_msg {
  int from, cmd;
  uint64_t count, sum;
} ts_msg;

typedef struct ts_rank {
  int pc;          /* next command */
  int sent_at;     /* first send, -1 before */
  int recv_at;     /* first receive, -1 before */
  bool waiting;    /* blocked on the receive at pc */
  uint64_t count, sum; /* reduce: contributions held; bcast: count 1 = holds the value */
} ts_rank;

typedef struct ts_sim {
  const vctx *v;
  cs_ts_phase ph;
  const cs_ts_list *l;
  int n;
  ts_rank *st;
  GHashTable *chan; /* (from * n + to) -> GQueue of ts_msg */
  int *ready, nready;
} ts_sim;

static uint64_t weight(int r) { return cs_mix64((uint64_t)r ^ 0x002a11ed0c0ffeeULL); }

static void queue_free(gpointer q) { g_queue_free_full(q, g_free); }

static void sim_init(ts_sim *m, const vctx *v, cs_ts_phase ph)
{
  m->v = v;
  m->ph = ph;
  m->n = v->s->n;
  m->l = v->s->phase[ph];
  m->st = g_new0(ts_rank, m->n);
  m->chan = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, queue_free);
  m->ready = g_new(int, m->n);
  m->nready = 0;
  for (int r = m->n - 1; r >= 0; r--) {
    ts_rank *t = &m->st[r];
    t->sent_at = t->recv_at = -1;
    t->count = ph == CS_TS_REDUCE || r == v->s->root;
    t->sum = ph == CS_TS_REDUCE ? weight(r) : 0;
    m->ready[m->nready++] = r;
  }
}

static void sim_clear(ts_sim *m)
{
  g_free(m->st);
  g_hash_table_destroy(m->chan);
  g_free(m->ready);
}

static GQueue *channel(ts_sim *m, int from, int to, bool create)
{
  gint64 key = (gint64)from * m->n + to;
  GQueue *q = g_hash_table_lookup(m->chan, &key);
  if (!q && create) {
    q = g_queue_new();
    g_hash_table_insert(m->chan, g_memdup2(&key, sizeof key), q);
  }
  return q;
}

static bool reduce_send_ok(ts_sim *m, int r)
{
  ts_rank *t = &m->st[r];
  if (r == m->v->s->root)
    return vfail(m->v, m->ph, r, t->pc, "the root sends in the reduce; the result must stay at the root");
  if (t->sent_at >= 0)
    return vfail(m->v, m->ph, r, t->pc,
                 "a second send of its partial sum (command %d sent it): its contribution would be counted twice",
                 t->sent_at + 1);
  return true;
}

static bool reduce_recv_ok(ts_sim *m, int r)
{
  ts_rank *t = &m->st[r];
  if (t->sent_at >= 0)
    return vfail(m->v, m->ph, r, t->pc,
                 "receives after sending its partial sum (command %d): what it receives never reaches the root",
                 t->sent_at + 1);
  return true;
}

static bool bcast_send_ok(ts_sim *m, int r)
{
  if (m->st[r].count == 0)
    return vfail(m->v, m->ph, r, m->st[r].pc, "sends before it holds the root's value (no receive before it)");
  return true;
}

static bool bcast_recv_ok(ts_sim *m, int r)
{
  ts_rank *t = &m->st[r];
  if (r == m->v->s->root)
    return vfail(m->v, m->ph, r, t->pc, "the root receives in the broadcast; it already holds the value");
  if (t->recv_at >= 0)
    return vfail(m->v, m->ph, r, t->pc, "receives the root's value a second time (command %d received it)",
                 t->recv_at + 1);
  return true;
}

static bool do_send(ts_sim *m, int r)
{
  ts_rank *t = &m->st[r];
  if (!(m->ph == CS_TS_REDUCE ? reduce_send_ok(m, r) : bcast_send_ok(m, r)))
    return false;
  int to = m->l[r].cmd[t->pc].peer;
  ts_msg *msg = g_new(ts_msg, 1);
  *msg = (ts_msg){.from = r, .cmd = t->pc, .count = t->count, .sum = t->sum};
  g_queue_push_tail(channel(m, r, to, true), msg);
  if (t->sent_at < 0)
    t->sent_at = t->pc;
  ts_rank *u = &m->st[to];
  if (u->waiting && m->l[to].cmd[u->pc].peer == r) {
    u->waiting = false;
    m->ready[m->nready++] = to;
  }
  return true;
}

/* 1 done, 0 blocked, -1 error. */
static int do_recv(ts_sim *m, int r)
{
  ts_rank *t = &m->st[r];
  if (!(m->ph == CS_TS_REDUCE ? reduce_recv_ok(m, r) : bcast_recv_ok(m, r)))
    return -1;
  GQueue *q = channel(m, m->l[r].cmd[t->pc].peer, r, false);
  ts_msg *msg = q ? g_queue_pop_head(q) : NULL;
  if (!msg)
    return 0;
  if (m->ph == CS_TS_REDUCE) {
    t->count += msg->count;
    t->sum += msg->sum;
  } else {
    t->count = t->count || msg->count;
  }
  if (t->recv_at < 0)
    t->recv_at = t->pc;
  g_free(msg);
  return 1;
}

/* Runs rank r until it blocks or ends. */
static bool run_rank(ts_sim *m, int r)
{
  ts_rank *t = &m->st[r];
  while (t->pc < m->l[r].n) {
    if (m->l[r].cmd[t->pc].kind == CS_TS_SEND) {
      if (!do_send(m, r))
        return false;
    } else {
      int got = do_recv(m, r);
      if (got < 0)
        return false;
      if (got == 0) {
        t->waiting = true;
        return true;
      }
    }
    t->pc++;
  }
  return true;
}

static bool sim_run(ts_sim *m)
{
  while (m->nready > 0)
    if (!run_rank(m, m->ready[--m->nready]))
      return false;
  return true;
}

/* ------------------------------------------------------ after the run ---- */

static bool blocked(const ts_sim *m, int r) { return m->st[r].pc < m->l[r].n; }

static int waits_for(const ts_sim *m, int r) { return m->l[r].cmd[m->st[r].pc].peer; }

/* The cycle through `start` of ranks that wait for each other, reported at its
 * lowest rank. */
static bool cycle_error(const ts_sim *m, int start)
{
  int low = start, len = 1;
  for (int r = waits_for(m, start); r != start; r = waits_for(m, r), len++)
    low = MIN(low, r);
  GString *chain = g_string_new(NULL);
  g_string_append_printf(chain, "rank %d waits for rank %d", low, waits_for(m, low));
  int k = 1;
  for (int r = waits_for(m, low); r != low && k < 8; r = waits_for(m, r), k++)
    g_string_append_printf(chain, ", rank %d waits for rank %d (its command %d)", r, waits_for(m, r),
                           m->st[r].pc + 1);
  if (k < len)
    g_string_append_printf(chain, ", ... (%d ranks in the cycle)", len);
  bool ok = vfail(m->v, m->ph, low, m->st[low].pc, "deadlock, blocking receives wait in a cycle: %s", chain->str);
  g_string_free(chain, TRUE);
  return ok;
}

/* Follows who waits for whom from the blocked rank r: either a rank that
 * waits for one that has ended (a receive without a send) or a cycle. */
static bool blocked_error(const ts_sim *m, int r)
{
  bool *seen = g_new0(bool, m->n);
  bool ok;
  for (;;) {
    seen[r] = true;
    int p = waits_for(m, r);
    if (!blocked(m, p)) {
      ok = vfail(m->v, m->ph, r, m->st[r].pc, "waits forever: rank %d ends without a matching send to rank %d", p,
                 r);
      break;
    }
    if (seen[p]) {
      ok = cycle_error(m, p);
      break;
    }
    r = p;
  }
  g_free(seen);
  return ok;
}

/* The earliest (sender, command) of the messages nobody receives. */
static bool unreceived_error(const ts_sim *m)
{
  const ts_msg *first = NULL;
  GHashTableIter it;
  gpointer key, q;
  g_hash_table_iter_init(&it, m->chan);
  while (g_hash_table_iter_next(&it, &key, &q)) {
    const ts_msg *head = g_queue_peek_head(q);
    if (head && (!first || head->from < first->from || (head->from == first->from && head->cmd < first->cmd)))
      first = head;
  }
  if (!first)
    return true;
  int to = m->l[first->from].cmd[first->cmd].peer;
  if (m->ph == CS_TS_BCAST)
    return vfail(m->v, m->ph, first->from, first->cmd, "rank %d never receives this message", to);
  return vfail(m->v, m->ph, first->from, first->cmd,
               "rank %d never receives this message: the partial sum of %" PRIu64 " rank(s) never reaches the root",
               to, first->count);
}

static bool reduce_end_ok(const ts_sim *m)
{
  const cs_tree_script *s = m->v->s;
  uint64_t total = 0;
  for (int r = 0; r < m->n; r++) {
    total += weight(r);
    if (r != s->root && m->st[r].sent_at < 0)
      return vfail(m->v, m->ph, r, AT_END, "never sends its partial sum, so the root misses its contribution");
  }
  const ts_rank *t = &m->st[s->root];
  if (t->count != (uint64_t)m->n || t->sum != total)
    return vfail(m->v, m->ph, s->root, AT_END,
                 "the root ends with %" PRIu64 " contributions, not the %d of all ranks each counted once", t->count,
                 m->n);
  return true;
}

static bool bcast_end_ok(const ts_sim *m)
{
  for (int r = 0; r < m->n; r++)
    if (m->st[r].count == 0)
      return vfail(m->v, m->ph, r, AT_END, "never receives the root's value");
  return true;
}

static bool check_phase(const vctx *v, cs_ts_phase ph)
{
  ts_sim m;
  sim_init(&m, v, ph);
  bool ok = sim_run(&m);
  for (int r = 0; ok && r < m.n; r++)
    if (blocked(&m, r))
      ok = blocked_error(&m, r);
  ok = ok && unreceived_error(&m);
  ok = ok && (ph == CS_TS_REDUCE ? reduce_end_ok(&m) : bcast_end_ok(&m));
  sim_clear(&m);
  return ok;
}

static bool validate(const vctx *v)
{
  return check_header(v) && check_peers(v, CS_TS_REDUCE) && check_peers(v, CS_TS_BCAST) &&
         check_phase(v, CS_TS_REDUCE) && check_phase(v, CS_TS_BCAST);
}

bool cs_ts_validate(const cs_tree_script *s, GError **err)
{
  g_return_val_if_fail(s != NULL, false);
  vctx v = {.s = s, .origin = NULL, .lines = NULL, .err = err};
  return validate(&v);
}

/* --------------------------------------------------------- YAML output ---- */

static bool plain_name(const char *s)
{
  if (!g_ascii_isalnum(s[0]) && s[0] != '_')
    return false;
  for (const char *p = s; *p; p++)
    if (!g_ascii_isalnum(*p) && !strchr("_.+/-", *p))
      return false;
  return true;
}

/* Characters a double-quoted YAML scalar must escape (libyaml refuses or
 * folds them): controls, NEL, line/paragraph separators, BOM, non-characters. */
static bool must_escape(gunichar c)
{
  return c < 0x20 || (c >= 0x7f && c < 0xa0) || c == 0x2028 || c == 0x2029 || c == 0xfeff || c == 0xfffe ||
         c == 0xffff;
}

/* The name as a YAML scalar: plain when that is unambiguous, else quoted. */
static char *yaml_name(const char *name)
{
  if (plain_name(name))
    return g_strdup(name);
  GString *q = g_string_new("\"");
  for (const char *p = name; *p; p = g_utf8_next_char(p)) {
    gunichar c = g_utf8_get_char(p);
    if (c == '"' || c == '\\')
      g_string_append_printf(q, "\\%c", (char)c);
    else if (must_escape(c))
      g_string_append_printf(q, "\\u%04X", (unsigned)c);
    else
      g_string_append_unichar(q, c);
  }
  g_string_append_c(q, '"');
  return g_string_free(q, FALSE);
}

static void append_phase(GString *y, const cs_tree_script *s, cs_ts_phase ph)
{
  g_string_append_printf(y, "%s:\n", PHASE_NAME[ph]);
  for (int r = 0; r < s->n; r++) {
    const cs_ts_list *l = &s->phase[ph][r];
    g_string_append_printf(y, "  %d: [", r);
    for (int i = 0; i < l->n; i++)
      g_string_append_printf(y, "%s%s %d", i ? ", " : "", kind_word(l->cmd[i].kind), l->cmd[i].peer);
    g_string_append(y, "]\n");
  }
}

char *cs_ts_to_yaml(const cs_tree_script *s)
{
  char *name = yaml_name(s->name);
  GString *y = g_string_new(NULL);
  g_string_append_printf(y, "# collsim tree script %s (seed 002, Section 4): %d processes, root %d, %d messages\n",
                         name, s->n, s->root, cs_ts_messages(s));
  g_string_append_printf(y, "name: %s\nn: %d\nroot: %d\nreceive_order: %s\n", name, s->n, s->root,
                         s->order == CS_TS_ARRIVAL_ORDER ? "arrival" : "scripted");
  append_phase(y, s, CS_TS_REDUCE);
  append_phase(y, s, CS_TS_BCAST);
  g_free(name);
  return g_string_free(y, FALSE);
}

bool cs_ts_save(const cs_tree_script *s, const char *path, GError **err)
{
  char *text = cs_ts_to_yaml(s);
  GError *e = NULL;
  bool ok = g_file_set_contents(path, text, -1, &e);
  if (!ok) {
    g_set_error(err, CS_TS_ERROR, TS_ERR_IO, "%s: cannot write the tree script: %s", path, e->message);
    g_error_free(e);
  }
  g_free(text);
  return ok;
}

/* ---------------------------------------------------------- YAML input ---- */

typedef struct pctx {
  const char *origin;
  yaml_document_t *doc;
  GError **err;
} pctx;

/* Line of a node for messages; 1 for the document as a whole. */
static int line_of(const yaml_node_t *node) { return node ? cs_yaml_line(node) : 1; }

G_GNUC_PRINTF(3, 4)
static bool pfail(pctx *c, const yaml_node_t *node, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  char *what = g_strdup_vprintf(fmt, ap);
  va_end(ap);
  g_set_error(c->err, CS_TS_ERROR, TS_ERR_SYNTAX, "%s:%d: %s", c->origin, line_of(node), what);
  g_free(what);
  return false;
}

static yaml_node_t *node_at(pctx *c, int id) { return yaml_document_get_node(c->doc, id); }

/* A plain decimal integer in lo..hi; `what` starts the message. */
static bool get_int(pctx *c, const yaml_node_t *node, const char *what, long long lo, long long hi, int *out)
{
  if (node->type != YAML_SCALAR_NODE || node->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
    return pfail(c, node, "%s: expected an integer, found %s", what,
                 node->type == YAML_SCALAR_NODE ? "a quoted string" : cs_yaml_type_name(node));
  const char *s = cs_yaml_scalar(node);
  char *end;
  errno = 0;
  long long v = strtoll(s, &end, 10);
  if (end == s || *end != '\0' || !(g_ascii_isdigit(s[0]) || s[0] == '-'))
    return pfail(c, node, "%s: '%s' is not an integer", what, s);
  if (errno == ERANGE || v < lo || v > hi)
    return pfail(c, node, "%s: %s is out of range (%lld..%lld)", what, s, lo, hi);
  *out = (int)v;
  return true;
}

/* "recv N" or "send N" (N an integer, maybe out of range: validation says so
 * with the command named). */
static bool parse_command(const char *t, cs_ts_kind *kind, int *peer)
{
  if (strncmp(t, "recv", 4) == 0)
    *kind = CS_TS_RECV;
  else if (strncmp(t, "send", 4) == 0)
    *kind = CS_TS_SEND;
  else
    return false;
  const char *p = t + 4;
  if (*p != ' ' && *p != '\t')
    return false;
  while (*p == ' ' || *p == '\t')
    p++;
  if (!g_ascii_isdigit(p[0]) && !(p[0] == '-' && g_ascii_isdigit(p[1])))
    return false;
  char *end;
  errno = 0;
  long long v = strtoll(p, &end, 10);
  if (*end != '\0' || errno == ERANGE || v < G_MININT || v > G_MAXINT)
    return false;
  *peer = (int)v;
  return true;
}

enum { K_NAME, K_N, K_ROOT, K_ORDER, K_REDUCE, K_BCAST, K_COUNT };
static const char *const KEYS[K_COUNT] = {"name", "n", "root", "receive_order", "reduce", "bcast"};
#define KNOWN_KEYS "name, n, root, receive_order, reduce, bcast"

typedef struct ts_keys {
  yaml_node_t *key[K_COUNT], *value[K_COUNT];
} ts_keys;

static int key_index(const char *k)
{
  for (int i = 0; i < K_COUNT; i++)
    if (strcmp(k, KEYS[i]) == 0)
      return i;
  return -1;
}

static bool collect_keys(pctx *c, const yaml_node_t *root, ts_keys *k)
{
  memset(k, 0, sizeof *k);
  if (root->type != YAML_MAPPING_NODE)
    return pfail(c, root, "expected a mapping with the keys " KNOWN_KEYS ", found %s", cs_yaml_type_name(root));
  for (yaml_node_pair_t *p = root->data.mapping.pairs.start; p < root->data.mapping.pairs.top; p++) {
    yaml_node_t *kn = node_at(c, p->key);
    if (kn->type != YAML_SCALAR_NODE)
      return pfail(c, kn, "keys must be words (" KNOWN_KEYS "), found %s", cs_yaml_type_name(kn));
    int i = key_index(cs_yaml_scalar(kn));
    if (i < 0)
      return pfail(c, kn, "unknown key '%s' (known: " KNOWN_KEYS ")", cs_yaml_scalar(kn));
    if (k->key[i])
      return pfail(c, kn, "key '%s' appears twice (first at line %d)", KEYS[i], line_of(k->key[i]));
    k->key[i] = kn;
    k->value[i] = node_at(c, p->value);
  }
  const int required[] = {K_NAME, K_N, K_REDUCE, K_BCAST};
  for (size_t i = 0; i < G_N_ELEMENTS(required); i++)
    if (!k->key[required[i]])
      return pfail(c, root, "missing key '%s' (required: name, n, reduce, bcast)", KEYS[required[i]]);
  return true;
}

typedef struct ts_header {
  char *name;
  int n, root;
  cs_ts_order order;
} ts_header;

static bool parse_name(pctx *c, const yaml_node_t *v, ts_header *h)
{
  if (v->type != YAML_SCALAR_NODE || cs_yaml_scalar(v)[0] == '\0')
    return pfail(c, v, "name: expected a non-empty string, found %s",
                 v->type == YAML_SCALAR_NODE ? "an empty value" : cs_yaml_type_name(v));
  h->name = g_strdup(cs_yaml_scalar(v));
  return true;
}

static bool parse_order(pctx *c, const yaml_node_t *v, ts_header *h)
{
  const char *word = v->type == YAML_SCALAR_NODE ? cs_yaml_scalar(v) : "";
  if (strcmp(word, "scripted") == 0)
    h->order = CS_TS_SCRIPTED_ORDER;
  else if (strcmp(word, "arrival") == 0)
    h->order = CS_TS_ARRIVAL_ORDER;
  else if (v->type == YAML_SCALAR_NODE)
    return pfail(c, v, "receive_order: expected scripted or arrival, found '%s'", word);
  else
    return pfail(c, v, "receive_order: expected scripted or arrival, found %s", cs_yaml_type_name(v));
  return true;
}

/* Each rank takes at least "R: []" (4 characters) in a phase, so a text of
 * len bytes cannot list more than len / 4 ranks: refuse a huge n before
 * allocating for it. */
static bool parse_header(pctx *c, const ts_keys *k, size_t len, ts_header *h)
{
  *h = (ts_header){.name = NULL, .n = 0, .root = 0, .order = CS_TS_SCRIPTED_ORDER};
  if (!parse_name(c, k->value[K_NAME], h) || !get_int(c, k->value[K_N], "n", 1, TS_MAX_N, &h->n))
    return false;
  if ((size_t)h->n > len / 4)
    return pfail(c, k->value[K_N], "n is %d, but a text of %zu bytes cannot list that many ranks", h->n, len);
  if (k->value[K_ROOT] && !get_int(c, k->value[K_ROOT], "root", 0, h->n - 1, &h->root))
    return false;
  return !k->value[K_ORDER] || parse_order(c, k->value[K_ORDER], h);
}

static void lines_init(ts_lines *L, int n)
{
  for (int ph = 0; ph < 2; ph++) {
    L->rank_line[ph] = g_new0(int, n);
    L->first[ph] = g_new0(int, n);
    L->cmd_line[ph] = g_array_new(FALSE, FALSE, sizeof(int));
  }
}

static void lines_clear(ts_lines *L)
{
  for (int ph = 0; ph < 2; ph++) {
    g_free(L->rank_line[ph]);
    g_free(L->first[ph]);
    g_array_unref(L->cmd_line[ph]);
  }
}

static bool parse_commands(pctx *c, cs_tree_script *s, ts_lines *L, cs_ts_phase ph, int r, const yaml_node_t *v)
{
  if (v->type != YAML_SEQUENCE_NODE)
    return pfail(c, v, "%s, rank %d: expected a list of commands such as [recv 1, send 0] ([] for none), found %s",
                 PHASE_NAME[ph], r, cs_yaml_type_name(v));
  L->first[ph][r] = (int)L->cmd_line[ph]->len;
  int i = 0;
  for (yaml_node_item_t *it = v->data.sequence.items.start; it < v->data.sequence.items.top; it++, i++) {
    yaml_node_t *item = node_at(c, *it);
    cs_ts_kind kind;
    int peer, line = line_of(item);
    if (item->type != YAML_SCALAR_NODE)
      return pfail(c, item, "%s, rank %d, command %d: expected 'recv N' or 'send N', found %s", PHASE_NAME[ph], r,
                   i + 1, cs_yaml_type_name(item));
    if (!parse_command(cs_yaml_scalar(item), &kind, &peer))
      return pfail(c, item, "%s, rank %d, command %d: malformed command '%s' (expected 'recv N' or 'send N')",
                   PHASE_NAME[ph], r, i + 1, cs_yaml_scalar(item));
    cs_ts_add(s, ph, r, kind, peer);
    g_array_append_val(L->cmd_line[ph], line);
  }
  return true;
}

static bool missing_ranks(pctx *c, const ts_lines *L, cs_ts_phase ph, int n, const yaml_node_t *key)
{
  int first = -1, count = 0;
  for (int r = 0; r < n; r++)
    if (L->rank_line[ph][r] == 0 && count++ == 0)
      first = r;
  if (count == 0)
    return true;
  char more[64] = "";
  if (count > 1)
    g_snprintf(more, sizeof more, " (and %d more)", count - 1);
  return pfail(c, key, "%s: rank %d is missing%s; list every rank 0..%d, [] for a rank with nothing to do",
               PHASE_NAME[ph], first, more, n - 1);
}

static bool parse_phase(pctx *c, cs_tree_script *s, ts_lines *L, cs_ts_phase ph, const yaml_node_t *key,
                        const yaml_node_t *v)
{
  if (v->type != YAML_MAPPING_NODE)
    return pfail(c, v, "%s: expected a mapping from rank to commands (e.g. 0: [recv 1]), found %s", PHASE_NAME[ph],
                 cs_yaml_type_name(v));
  char what[32];
  g_snprintf(what, sizeof what, "%s: rank", PHASE_NAME[ph]);
  for (yaml_node_pair_t *p = v->data.mapping.pairs.start; p < v->data.mapping.pairs.top; p++) {
    yaml_node_t *kn = node_at(c, p->key);
    int r;
    if (!get_int(c, kn, what, G_MININT, G_MAXINT, &r))
      return false;
    if (r < 0 || r >= s->n)
      return pfail(c, kn, "%s: rank %d is out of range (0..%d)", PHASE_NAME[ph], r, s->n - 1);
    if (L->rank_line[ph][r])
      return pfail(c, kn, "%s: rank %d appears twice (first at line %d)", PHASE_NAME[ph], r, L->rank_line[ph][r]);
    L->rank_line[ph][r] = line_of(kn);
    if (!parse_commands(c, s, L, ph, r, node_at(c, p->value)))
      return false;
  }
  return missing_ranks(c, L, ph, s->n, key);
}

/* The script of a loaded document, validated; NULL with *err set. */
static cs_tree_script *parse_root(pctx *c, const yaml_node_t *root, size_t len)
{
  ts_keys k;
  ts_header h;
  if (!collect_keys(c, root, &k))
    return NULL;
  if (!parse_header(c, &k, len, &h)) {
    g_free(h.name);
    return NULL;
  }
  cs_tree_script *s = cs_ts_new(h.n, h.name);
  s->root = h.root;
  s->order = h.order;
  g_free(h.name);
  ts_lines L;
  lines_init(&L, s->n);
  vctx v = {.s = s, .origin = c->origin, .lines = &L, .err = c->err};
  bool ok = parse_phase(c, s, &L, CS_TS_REDUCE, k.key[K_REDUCE], k.value[K_REDUCE]) &&
            parse_phase(c, s, &L, CS_TS_BCAST, k.key[K_BCAST], k.value[K_BCAST]) && validate(&v);
  lines_clear(&L);
  if (!ok) {
    cs_ts_free(s);
    return NULL;
  }
  return s;
}

static bool syntax_error(pctx *c, yaml_parser_t *parser)
{
  int line = (int)parser->problem_mark.line + 1, from = (int)parser->context_mark.line + 1;
  char *where = parser->context && from != line ? g_strdup_printf(" (started at line %d)", from) : g_strdup("");
  g_set_error(c->err, CS_TS_ERROR, TS_ERR_SYNTAX, "%s:%d: YAML syntax error: %s%s%s%s", c->origin, line,
              parser->problem ? parser->problem : "unknown", parser->context ? " " : "",
              parser->context ? parser->context : "", where);
  g_free(where);
  return false;
}

/* False with *err set unless the stream holds nothing after the first document. */
static bool only_one_document(pctx *c, yaml_parser_t *parser)
{
  yaml_document_t next;
  if (!yaml_parser_load(parser, &next))
    return syntax_error(c, parser);
  yaml_node_t *second = yaml_document_get_root_node(&next);
  bool ok = second == NULL;
  if (!ok)
    pfail(c, second, "only one YAML document is allowed");
  yaml_document_delete(&next);
  return ok;
}

cs_tree_script *cs_ts_parse(const char *text, size_t len, const char *origin, GError **err)
{
  pctx c = {.origin = origin ? origin : "<tree script>", .doc = NULL, .err = err};
  yaml_parser_t parser;
  yaml_document_t doc;
  cs_tree_script *s = NULL;
  yaml_parser_initialize(&parser);
  yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
  if (!yaml_parser_load(&parser, &doc)) {
    syntax_error(&c, &parser);
    yaml_parser_delete(&parser);
    return NULL;
  }
  c.doc = &doc;
  yaml_node_t *root = yaml_document_get_root_node(&doc);
  if (!root)
    pfail(&c, NULL, "the text is empty (required keys: name, n, reduce, bcast)");
  else if (only_one_document(&c, &parser))
    s = parse_root(&c, root, len);
  yaml_document_delete(&doc);
  yaml_parser_delete(&parser);
  return s;
}

cs_tree_script *cs_ts_load(const char *path, GError **err)
{
  char *text = NULL;
  gsize len = 0;
  GError *e = NULL;
  if (!g_file_get_contents(path, &text, &len, &e)) {
    g_set_error(err, CS_TS_ERROR, TS_ERR_IO, "%s: cannot read the tree script: %s", path, e->message);
    g_error_free(e);
    return NULL;
  }
  cs_tree_script *s = cs_ts_parse(text, len, path, err);
  g_free(text);
  return s;
}

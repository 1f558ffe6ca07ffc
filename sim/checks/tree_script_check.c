/* Whether a tree script is safe to execute (see tree_script_check.h): the
 * static rules of a reduce and a broadcast tree, then the schedule replay
 * of each phase, its faults worded in the script's terms. */
#include "sim/checks/tree_script_check.h"
#include "sim/checks/replay.h"

#include <stdarg.h>
#include <string.h>

#define TS_MAX_N (1 << 24)
#define AT_END (-1) /* a fault after a rank's last command */

typedef struct check {
  const cs_tree_script *s;
  cs_ts_phase ph;
  GError **err;
} check;

/* "origin:line: phase, rank R, command I+1 (text): what"; i = AT_END names
 * the rank's last command ("after command ...") or says it has none. */
static bool refuse(const check *k, int rank, int i, const char *fmt, ...) G_GNUC_PRINTF(4, 5);
static bool refuse(const check *k, int rank, int i, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  char *what = g_strdup_vprintf(fmt, ap);
  va_end(ap);
  const cs_ts_list *l = &k->s->phase[k->ph][rank];
  int at = i >= 0 ? i : l->n - 1;
  GString *msg = g_string_new(NULL);
  const char *origin = cs_ts_origin(k->s);
  int line = cs_ts_line(k->s, k->ph, rank, at);
  if (origin && line > 0)
    g_string_append_printf(msg, "%s:%d: ", origin, line);
  else if (origin)
    g_string_append_printf(msg, "%s: ", origin);
  g_string_append_printf(msg, "%s, rank %d", cs_ts_phase_name(k->ph), rank);
  if (at < 0)
    g_string_append(msg, ", no commands");
  else
    g_string_append_printf(msg, ", %s %d (%s %d)", i >= 0 ? "command" : "after command", at + 1,
                           cs_ts_kind_word(l->cmd[at].kind), l->cmd[at].peer);
  g_string_append_printf(msg, ": %s", what);
  g_set_error_literal(k->err, CS_TS_ERROR, CS_TS_ERR_INVALID, msg->str);
  g_string_free(msg, TRUE);
  g_free(what);
  return false;
}

/* ---- structure ---- */

static bool check_header(const cs_tree_script *s, GError **err)
{
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
  const char *origin = cs_ts_origin(s);
  g_set_error(err, CS_TS_ERROR, CS_TS_ERR_INVALID, "%s%s%s (n = %d, root = %d)", origin ? origin : "",
              origin ? ": " : "", what, s->n, s->root);
  return false;
}

static bool check_peers(const check *k)
{
  const cs_tree_script *s = k->s;
  for (int r = 0; r < s->n; r++) {
    const cs_ts_list *l = &s->phase[k->ph][r];
    for (int i = 0; i < l->n; i++) {
      int p = l->cmd[i].peer;
      if (l->cmd[i].kind != CS_TS_SEND && l->cmd[i].kind != CS_TS_RECV)
        return refuse(k, r, i, "unknown command kind %d", (int)l->cmd[i].kind);
      if (p < 0 || p >= s->n)
        return refuse(k, r, i, "peer %d is out of range (ranks 0..%d)", p, s->n - 1);
      if (p == r)
        return refuse(k, r, i, "a rank cannot %s %s itself", cs_ts_kind_word(l->cmd[i].kind),
                      l->cmd[i].kind == CS_TS_SEND ? "to" : "from");
    }
  }
  return true;
}

/* Reduce: the root only receives; every other rank sends its partial sum
 * once, after all its receives. */
static bool reduce_rank_ok(const check *k, int r)
{
  const cs_ts_list *l = &k->s->phase[CS_TS_REDUCE][r];
  int sent = -1;
  for (int i = 0; i < l->n; i++) {
    bool send = l->cmd[i].kind == CS_TS_SEND;
    if (send && r == k->s->root)
      return refuse(k, r, i, "the root sends in the reduce (it keeps the sum)");
    if (send && sent >= 0)
      return refuse(k, r, i, "a second send of its partial sum (the first is command %d): its contributions would "
                    "be counted twice", sent + 1);
    if (!send && sent >= 0)
      return refuse(k, r, i, "receives after sending its partial sum (command %d)", sent + 1);
    if (send)
      sent = i;
  }
  if (sent < 0 && r != k->s->root)
    return refuse(k, r, AT_END, "never sends its partial sum, so the root misses its contribution");
  return true;
}

/* Broadcast: the root only sends; every other rank receives the value once,
 * before it sends anything. */
static bool bcast_rank_ok(const check *k, int r)
{
  const cs_ts_list *l = &k->s->phase[CS_TS_BCAST][r];
  int got = -1;
  for (int i = 0; i < l->n; i++) {
    bool recv = l->cmd[i].kind == CS_TS_RECV;
    if (recv && r == k->s->root)
      return refuse(k, r, i, "the root receives in the broadcast (it holds the value)");
    if (recv && got >= 0)
      return refuse(k, r, i, "receives the root's value a second time (command %d already did)", got + 1);
    if (!recv && got < 0 && r != k->s->root)
      return refuse(k, r, i, "sends before it holds the root's value");
    if (recv)
      got = i;
  }
  if (got < 0 && r != k->s->root)
    return refuse(k, r, AT_END, "never receives the root's value");
  return true;
}

static bool structure_ok(const check *k)
{
  if (!check_peers(k))
    return false;
  for (int r = 0; r < k->s->n; r++)
    if (!(k->ph == CS_TS_REDUCE ? reduce_rank_ok(k, r) : bcast_rank_ok(k, r)))
      return false;
  return true;
}

/* ---- execution, by the replay ---- */

static int64_t no_gateway(const cs_two_tier *t, int64_t from, int64_t to)
{
  (void)t;
  (void)from;
  (void)to;
  return -1;
}

static bool deadlock(const check *k, const cs_replay_fault *f)
{
  GString *chain = g_string_new(NULL);
  for (int i = 0; i < f->chain_len; i++) {
    const cs_wait *w = &f->chain[i];
    g_string_append_printf(chain, "%srank %lld waits for rank %lld", i ? ", " : "", (long long)w->rank,
                           (long long)w->peer);
    if (i)
      g_string_append_printf(chain, " (its command %lld)", (long long)w->op_index + 1);
  }
  bool r = refuse(k, (int)f->rank, (int)f->op_index, "deadlock: %s", chain->str);
  g_string_free(chain, TRUE);
  return r;
}

/* The replay's fault in the script's words. */
static bool explain(const check *k, const cs_replay_fault *f, const GError *e)
{
  int r = (int)f->rank, i = (int)f->op_index, peer = (int)f->peer;
  bool reduce = k->ph == CS_TS_REDUCE;
  switch (f->kind) {
  case CS_FAULT_STUCK:
    return refuse(k, r, i, "waits forever: rank %d ends without a matching send to rank %d", peer, r);
  case CS_FAULT_DEADLOCK:
    return deadlock(k, f);
  case CS_FAULT_UNRECEIVED:
  case CS_FAULT_TAG_REUSED:
    return refuse(k, r, i, "rank %d never receives this message%s", peer,
                  reduce ? ", so this partial sum never reaches the root" : "");
  case CS_FAULT_TWICE:
    return refuse(k, r, i, "takes a partial sum holding a contribution it already has (counted twice)");
  case CS_FAULT_NOT_HELD:
    return refuse(k, r, i, "sends before it holds the root's value");
  case CS_FAULT_INCOMPLETE:
    return refuse(k, r, AT_END, reduce ? "the root ends without every rank's contribution"
                                       : "never receives the root's value");
  default:
    return refuse(k, r, i, "%s", e ? e->message : "the replay refuses it");
  }
}

static bool execution_ok(const check *k)
{
  cs_coll coll = k->ph == CS_TS_REDUCE ? CS_COLL_REDUCE : CS_COLL_BCAST;
  const cs_coll_algo *a = cs_coll_algo_find(coll, "script");
  cs_two_tier tt = {.sn = 1, .nps = k->s->n, .cpn = 1, .p = k->s->n, .gateway = no_gateway,
                    .landing = no_gateway};
  cs_sched_params prm;
  GError *e = NULL;
  if (!a || !cs_sched_setup_script(&prm, a, &tt, 1, k->s, &e)) {
    g_set_error(k->err, CS_TS_ERROR, CS_TS_ERR_INVALID, "internal error: %s", e ? e->message : "no script schedule");
    g_clear_error(&e);
    return false;
  }
  cs_replay_fault fault;
  bool ok = cs_replay_ex(a, &prm, NULL, &fault, &e) || explain(k, &fault, e);
  g_clear_error(&e);
  return ok;
}

bool cs_ts_validate(const cs_tree_script *s, GError **err)
{
  g_return_val_if_fail(s != NULL, false);
  if (!check_header(s, err))
    return false;
  for (int ph = CS_TS_REDUCE; ph <= CS_TS_BCAST; ph++) {
    check k = {s, (cs_ts_phase)ph, err};
    if (!structure_ok(&k) || !execution_ok(&k))
      return false;
  }
  return true;
}

cs_tree_script *cs_ts_parse(const char *text, size_t len, const char *origin, GError **err)
{
  cs_tree_script *s = cs_ts_read(text, len, origin, err);
  if (s && !cs_ts_validate(s, err)) {
    cs_ts_free(s);
    return NULL;
  }
  return s;
}

cs_tree_script *cs_ts_load(const char *path, GError **err)
{
  cs_tree_script *s = cs_ts_read_file(path, err);
  if (s && !cs_ts_validate(s, err)) {
    cs_ts_free(s);
    return NULL;
  }
  return s;
}

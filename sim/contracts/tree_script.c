/* Run-time configurable reduce and broadcast trees (seed 002, Section 4):
 * building the per-rank command lists and their YAML form (read with the
 * libyaml document API, written by hand so that the output is
 * deterministic).  Reading checks the syntax and the structure (keys,
 * ranks, commands) and records the line of every rank and command; whether
 * a script is safe to execute is checked by sim/checks/tree_script_check.c.
 *
 * Errors (domain CS_TS_ERROR) name where they are: "origin:line: message".
 * Codes: CS_CS_TS_ERR_SYNTAX (YAML syntax or structure), CS_CS_TS_ERR_IO. */
#include "sim/contracts/tree_script.h"
#include "sim/contracts/input_path.h"
#include "sim/contracts/yaml_util.h"


#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

G_DEFINE_QUARK(cs-tree-script-error-quark, cs_ts_error)


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
  if (s->lines) {
    for (int ph = 0; ph < 2; ph++) {
      g_free(s->lines->rank_line[ph]);
      g_free(s->lines->first[ph]);
      g_free(s->lines->cmd_line[ph]);
    }
    g_free(s->lines->origin);
    g_free(s->lines);
  }
  g_free(s->name);
  g_free(s);
}

int cs_ts_line(const cs_tree_script *s, cs_ts_phase ph, int rank, int i)
{
  if (!s->lines || rank < 0 || rank >= s->n)
    return 0;
  if (i < 0 || i >= s->phase[ph][rank].n)
    return s->lines->rank_line[ph][rank];
  return s->lines->cmd_line[ph][s->lines->first[ph][rank] + i];
}

const char *cs_ts_origin(const cs_tree_script *s) { return s->lines ? s->lines->origin : NULL; }

const char *cs_ts_phase_name(cs_ts_phase ph) { return PHASE_NAME[ph]; }

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

const char *cs_ts_kind_word(cs_ts_kind k) { return k == CS_TS_SEND ? "send" : "recv"; }

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
      g_string_append_printf(y, "%s%s %d", i ? ", " : "", cs_ts_kind_word(l->cmd[i].kind), l->cmd[i].peer);
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
    g_set_error(err, CS_TS_ERROR, CS_TS_ERR_IO, "%s: cannot write the tree script: %s", path, e->message);
    g_error_free(e);
  }
  g_free(text);
  return ok;
}

/* ---------------------------------------------------------- YAML input ---- */

/* Where the parser found each rank and command (lines from 1; 0 = absent). */
typedef struct ts_lines {
  int *rank_line[2]; /* line of rank r's key */
  int *first[2];     /* index of rank r's first command in cmd_line */
  GArray *cmd_line[2];
} ts_lines;

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
  g_set_error(c->err, CS_TS_ERROR, CS_TS_ERR_SYNTAX, "%s:%d: %s", c->origin, line_of(node), what);
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

/* The script keeps where its ranks and commands were (for the checks' messages). */
static void keep_lines(cs_tree_script *s, ts_lines *L, const char *origin)
{
  s->lines = g_new0(cs_ts_lines, 1);
  s->lines->origin = g_strdup(origin);
  for (int ph = 0; ph < 2; ph++) {
    s->lines->rank_line[ph] = L->rank_line[ph];
    s->lines->first[ph] = L->first[ph];
    s->lines->cmd_line[ph] = (int *)(void *)g_array_free(L->cmd_line[ph], FALSE);
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
  bool ok = parse_phase(c, s, &L, CS_TS_REDUCE, k.key[K_REDUCE], k.value[K_REDUCE]) &&
            parse_phase(c, s, &L, CS_TS_BCAST, k.key[K_BCAST], k.value[K_BCAST]);
  if (!ok) {
    lines_clear(&L);
    cs_ts_free(s);
    return NULL;
  }
  keep_lines(s, &L, c->origin);
  return s;
}

static bool syntax_error(pctx *c, yaml_parser_t *parser)
{
  int line = (int)parser->problem_mark.line + 1, from = (int)parser->context_mark.line + 1;
  char *where = parser->context && from != line ? g_strdup_printf(" (started at line %d)", from) : g_strdup("");
  g_set_error(c->err, CS_TS_ERROR, CS_TS_ERR_SYNTAX, "%s:%d: YAML syntax error: %s%s%s%s", c->origin, line,
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

cs_tree_script *cs_ts_read(const char *text, size_t len, const char *origin, GError **err)
{
  pctx c = {.origin = origin ? origin : "<tree script>", .doc = NULL, .err = err};
  yaml_parser_t parser;
  yaml_document_t doc;
  cs_tree_script *s = NULL;
  int deep = cs_yaml_too_deep(text, len, CS_YAML_MAX_DEPTH);
  if (deep) {
    g_set_error(err, CS_TS_ERROR, CS_TS_ERR_SYNTAX, "%s:%d: nested more than %d levels deep", c.origin, deep,
                CS_YAML_MAX_DEPTH);
    return NULL;
  }
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

cs_tree_script *cs_ts_read_file(const char *path, GError **err)
{
  char *text = NULL;
  gsize len = 0;
  GError *e = NULL;
  if (!cs_read_user_file(NULL, path, &text, &len, &e)) {
    g_set_error(err, CS_TS_ERROR, CS_TS_ERR_IO, "%s: cannot read the tree script: %s", path, e->message);
    g_error_free(e);
    return NULL;
  }
  cs_tree_script *s = cs_ts_read(text, len, path, err);
  g_free(text);
  return s;
}

/* GOAL in and out, and the lowering of op lists into steps (see goal.h). */
#include "sim/contracts/goal.h"
#include "sim/contracts/bigarray.h"
#include "sim/contracts/errors.h"
#include "sim/contracts/output_path.h"

#include <glib/gstdio.h>

#include <gio/gio.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

/* ---- the lowering ---- */

/* FIXED_BYTES: a full op whose bytes do not move with the iteration holds
 * them in the value bits too (the lowering asks at every op). */
enum { KIND_BITS = 3, ANY_ORDER = 4, FULL = 8, FIXED_BYTES = 16, VALUE_SHIFT = 8 };
#define VALUE_MAX (UINT64_MAX >> VALUE_SHIFT)

void cs_lower_ctx_init(cs_lower_ctx *x, const cs_sched_params *prm, double gamma_ns)
{
  *x = (cs_lower_ctx){.prm = prm, .gamma_ns = gamma_ns, .uniform = cs_units_uniform(prm)};
  x->unit_bytes = x->uniform ? cs_unit_bytes(prm, 0) : 0;
}

/* cs_units_bytes of op's units at iteration iter.  A loop op's units keep
 * their count from iteration to iteration (a shift moves them; an XOR
 * loop's are a pair block, of the same count for every pair), so on a
 * buffer of uniform units they hold their count times the unit's bytes;
 * and every pair block holds one pair's bytes (cs_loop_op_bytes), so an
 * XOR loop's bytes do not depend on the iteration either. */
static uint64_t op_bytes(const cs_lower_ctx *x, const cs_op *op, int64_t iter)
{
  int64_t count = cs_units_count(op->units);
  if (count == 0)
    return 0;
  if (x->uniform)
    return (uint64_t)count * x->unit_bytes;
  if (op->peer_mode == CS_PEER_XOR || iter == 0)
    return cs_units_bytes(x->prm, op->units);
  return cs_units_bytes(x->prm, cs_op_at_iteration(x->prm, op, iter).units);
}

/* Does op_bytes(x, op, i) not depend on i? */
static bool bytes_fixed(const cs_lower_ctx *x, const cs_op *op)
{
  return x->uniform || op->peer_mode == CS_PEER_XOR || op->unit_step == 0;
}

static uint64_t word_of(cs_op_kind kind, bool any_order, uint64_t value)
{
  return (uint64_t)kind | (any_order ? ANY_ORDER : 0) | value << VALUE_SHIFT;
}

cs_packed *cs_lower_pack(const cs_lower_ctx *x, const cs_op *ops, size_t nops)
{
  size_t head = sizeof(cs_packed) + nops * sizeof(cs_packed_op);
  cs_packed *l = g_malloc(head);
  *l = (cs_packed){.n = (uint32_t)nops};
  int64_t in_loop = 0; /* ops of the current loop's body still to come */
  for (size_t i = 0; i < nops; i++, in_loop -= in_loop > 0) {
    const cs_op *op = &ops[i];
    cs_packed_op *pk = &l->op[i];
    pk->tag = op->tag;
    if (!in_loop && op->kind != CS_OP_LOOP && x->uniform && (uint64_t)op->peer <= UINT32_MAX) { /* the usual op */
      uint64_t bytes = (uint64_t)cs_units_count(op->units) * x->unit_bytes;
      if (bytes <= VALUE_MAX) {
        pk->word = word_of(op->kind, op->any_order, bytes);
        pk->peer = (uint32_t)op->peer;
        continue;
      }
    }
    bool loop = op->kind == CS_OP_LOOP;
    uint64_t value = loop ? (uint64_t)(op->iterations > 0 ? op->iterations : 0) : op_bytes(x, op, 0);
    int64_t peer = loop ? op->body : op->peer;
    if (in_loop || value > VALUE_MAX || peer < 0 || peer > UINT32_MAX) {
      pk->word = word_of(op->kind, op->any_order, 0) | FULL;
      if (!loop && bytes_fixed(x, op) && value <= VALUE_MAX)
        pk->word |= FIXED_BYTES | value << VALUE_SHIFT;
      pk->peer = l->nfull++;
    } else {
      pk->word = word_of(op->kind, op->any_order, value);
      pk->peer = (uint32_t)peer;
    }
    if (loop && !in_loop)
      in_loop = op->body + 1;
  }
  if (l->nfull)
    l = g_realloc(l, head + (size_t)l->nfull * sizeof(cs_op));
  cs_op *full = (cs_op *)((char *)l + head);
  for (size_t i = 0; l->nfull && i < nops; i++)
    if (l->op[i].word & FULL)
      full[l->op[i].peer] = ops[i];
  l->full = full;
  return l;
}

static bool has_peer(const cs_packed_op *pk)
{
  return !(pk->word & FULL) && (cs_op_kind)(pk->word & KIND_BITS) != CS_OP_LOOP;
}

/* (a + b) mod p, for a < p and b <= p: the one rotation of ranks that
 * relative peers are made and undone with. */
static uint32_t add_mod(uint32_t a, uint32_t b, uint32_t p)
{
  uint64_t s = (uint64_t)a + b;
  return (uint32_t)(s >= p ? s - p : s);
}

/* The first n ops' relative peers back to absolute ones. */
static void absolute(cs_packed *l, uint32_t n, uint32_t rank, uint32_t p)
{
  for (uint32_t i = 0; i < n; i++)
    if (has_peer(&l->op[i]))
      l->op[i].peer = add_mod(l->op[i].peer, rank, p);
}

bool cs_packed_make_relative(cs_packed *l, uint32_t rank, uint32_t p)
{
  if (l->nfull > 0 || rank >= p)
    return false;
  for (uint32_t i = 0; i < l->n; i++) {
    cs_packed_op *pk = &l->op[i];
    if (!has_peer(pk))
      continue;
    if (pk->peer >= p) { /* put back the peers already rewritten */
      absolute(l, i, rank, p);
      return false;
    }
    pk->peer = add_mod(pk->peer, p - rank, p);
  }
  return true;
}

static cs_op_kind kind_at(const cs_lower *c, uint32_t k) { return (cs_op_kind)(c->l->op[k].word & KIND_BITS); }
static bool is_full(const cs_lower *c, uint32_t k) { return c->l->op[k].word & FULL; }
static const cs_op *full_at(const cs_lower *c, uint32_t k) { return &c->l->full[c->l->op[k].peer]; }

static int64_t loop_iterations(const cs_lower *c, uint32_t k)
{
  return is_full(c, k) ? full_at(c, k)->iterations : (int64_t)(c->l->op[k].word >> VALUE_SHIFT);
}

static int64_t loop_body(const cs_lower *c, uint32_t k)
{
  return is_full(c, k) ? full_at(c, k)->body : (int64_t)c->l->op[k].peer;
}

static bool in_group(const cs_lower *c, uint32_t k)
{
  cs_op_kind kind = kind_at(c, k);
  return c->loop < 0 && (c->l->op[k].word & ANY_ORDER) && (kind == CS_OP_RECV || kind == CS_OP_RECV_REDUCE);
}

/* Settle at the step starting at op k (entering loops, skipping empty ones). */
static void settle(cs_lower *c)
{
  uint32_t nops = c->l->n;
  c->phase = 0;
  while (c->loop < 0 && c->k < nops && kind_at(c, c->k) == CS_OP_LOOP) {
    int64_t iterations = loop_iterations(c, c->k), body = loop_body(c, c->k);
    if (iterations > 0 && body > 0) {
      c->loop = (int32_t)c->k;
      c->iter = 0;
      c->k++;
    } else
      c->k += (uint32_t)body + 1;
  }
  if (c->k >= nops) {
    c->n = 0;
    return;
  }
  c->n = 1;
  if (in_group(c, c->k))
    while (c->k + c->n < nops && in_group(c, c->k + c->n) && c->l->op[c->k + c->n].tag == c->l->op[c->k].tag)
      c->n++;
}

void cs_lower_start(cs_lower *c, const cs_lower_ctx *x, const cs_packed *l)
{
  *c = (cs_lower){.x = x, .l = l, .loop = -1};
  settle(c);
}

/* Bytes of member j of the step at the current iteration. */
static uint64_t member_bytes(const cs_lower *c, uint32_t j)
{
  uint64_t word = c->l->op[c->k + j].word;
  return (word & FULL) && !(word & FIXED_BYTES) ? op_bytes(c->x, full_at(c, c->k + j), c->iter) : word >> VALUE_SHIFT;
}

/* Nanoseconds of the calc after member j (0: none). */
static uint64_t calc_ns(const cs_lower *c, uint32_t j)
{
  if (kind_at(c, c->k + j) != CS_OP_RECV_REDUCE || c->x->gamma_ns <= 0)
    return 0;
  return (uint64_t)llround(c->x->gamma_ns * (double)member_bytes(c, j));
}

static uint32_t absolute_peer(const cs_lower *c, uint32_t packed)
{
  return c->peers ? add_mod(packed, c->shift, c->peers) : packed;
}

void cs_lower_op(const cs_lower *c, uint32_t j, cs_goal_op *out)
{
  memset(out, 0, sizeof *out);
  if (c->phase) {
    out->type = CS_GOAL_CALC;
    out->size = calc_ns(c, c->phase - 1);
    return;
  }
  uint32_t k = c->k + j;
  const cs_packed_op *pk = &c->l->op[k];
  out->type = kind_at(c, k) == CS_OP_SEND ? CS_GOAL_SEND : CS_GOAL_RECV;
  out->peer = is_full(c, k) ? (uint32_t)cs_loop_op_peer(c->x->prm, full_at(c, k), c->iter) : absolute_peer(c, pk->peer);
  out->tag = (uint32_t)(c->iter == 0 ? pk->tag : (int32_t)(pk->tag + c->iter));
  out->size = member_bytes(c, j);
}

bool cs_lower_step_is_send(const cs_lower *c)
{
  return c->phase == 0 && c->n == 1 && kind_at(c, c->k) == CS_OP_SEND;
}

void cs_lower_next(cs_lower *c)
{
  for (c->phase++; c->phase <= c->n; c->phase++)
    if (calc_ns(c, c->phase - 1) > 0)
      return;
  c->phase = 0;
  c->k += c->n;
  if (c->loop >= 0 && c->k == (uint32_t)c->loop + 1 + (uint32_t)loop_body(c, (uint32_t)c->loop)) {
    if (++c->iter < loop_iterations(c, (uint32_t)c->loop))
      c->k = (uint32_t)c->loop + 1;
    else {
      c->loop = -1;
      c->iter = 0; /* ops outside loops are their iteration 0 */
    }
  }
  settle(c);
}

/* ---- writing ---- */

void cs_goal_op_text(const cs_goal_op *op, GString *out)
{
  if (op->type == CS_GOAL_CALC) {
    g_string_append_printf(out, "calc %" PRIu64, op->size);
    if (op->cpu)
      g_string_append_printf(out, " cpu %u", op->cpu);
    return;
  }
  bool send = op->type == CS_GOAL_SEND;
  g_string_append_printf(out, "%s %" PRIu64 "b %s ", send ? "send" : "recv", op->size, send ? "to" : "from");
  if (op->peer == CS_GOAL_ANY)
    g_string_append(out, "-1");
  else
    g_string_append_printf(out, "%" PRIu32, op->peer);
  if (op->tag == CS_GOAL_ANY)
    g_string_append(out, " tag -1");
  else
    g_string_append_printf(out, " tag %" PRIu32, op->tag);
  if (op->cpu)
    g_string_append_printf(out, " cpu %u", op->cpu);
  if (op->nic)
    g_string_append_printf(out, " nic %u", op->nic);
}

/* One rank: its steps, each op requiring every op of the step before. */
static void write_rank(GString *s, const cs_lower_ctx *x, int64_t rank, const cs_oplist *o)
{
  g_string_append_printf(s, "\nrank %" PRId64 " {\n", rank);
  cs_packed *packed = cs_lower_pack(x, o->op, o->n);
  cs_lower c;
  cs_lower_start(&c, x, packed);
  uint64_t label = 0, prev_first = 0, prev_n = 0;
  const char *dep = "requires";
  for (; !cs_lower_finished(&c); cs_lower_next(&c)) {
    uint32_t n = cs_lower_step_size(&c);
    for (uint32_t j = 0; j < n; j++) {
      cs_goal_op op;
      cs_lower_op(&c, j, &op);
      g_string_append_printf(s, "l%" PRIu64 ": ", label + j + 1);
      cs_goal_op_text(&op, s);
      g_string_append_c(s, '\n');
      for (uint64_t d = 0; d < prev_n; d++)
        g_string_append_printf(s, "l%" PRIu64 " %s l%" PRIu64 "\n", label + j + 1, dep, prev_first + d + 1);
    }
    dep = cs_lower_step_is_send(&c) ? "irequires" : "requires";
    prev_first = label;
    prev_n = n;
    label += n;
  }
  g_free(packed);
  g_string_append(s, "}\n");
}

/* Writes and empties s once it holds more than a chunk. */
static void flush_chunk(cs_atomic_file *f, GString *s, bool all)
{
  if (all || s->len >= (1u << 20)) {
    cs_atomic_write(f, s->str, s->len);
    g_string_truncate(s, 0);
  }
}

bool cs_goal_write(const char *path, const cs_coll_algo *a, const cs_sched_params *prm, double gamma, GError **err)
{
  if (prm->p > UINT32_MAX)
    return cs_input_error(err, "GOAL numbers ranks with 32 bits (p = %" PRId64 ")", prm->p);
  cs_atomic_file *f = cs_atomic_open(path, err);
  if (!f)
    return false;
  GString *s = g_string_sized_new(1u << 21);
  g_string_append_printf(s, "// collsim: %s %s, p = %" PRId64 " (lowering: sim/contracts/goal.h)\nnum_ranks %" PRId64
                         "\n", cs_coll_name(a->coll), a->name, prm->p, prm->p);
  cs_lower_ctx x;
  cs_lower_ctx_init(&x, prm, gamma * 1e9);
  cs_oplist o;
  cs_oplist_init(&o);
  for (int64_t r = 0; r < prm->p; r++) {
    cs_oplist_clear(&o);
    a->ops(prm, r, &o);
    write_rank(s, &x, r, &o);
    flush_chunk(f, s, false);
  }
  flush_chunk(f, s, true);
  cs_oplist_free(&o);
  g_string_free(s, TRUE);
  return cs_atomic_commit(f, err);
}

/* ---- reading: a tokenizer over a stream ---- */

enum { T_EOF, T_NL, T_WORD, T_INT, T_ANY, T_COLON, T_OPEN, T_CLOSE, T_BAD };

typedef struct reader {
  GInputStream *in;
  guchar buf[1 << 16];
  gsize len, pos;
  bool eof;
  GError *io_error;
  uint64_t line;       /* 1-based line of the current token */
  int tok;
  char word[64];       /* T_WORD */
  uint64_t num;        /* T_INT */
  bool word_too_long, num_too_big;
} reader;

static int peekc(reader *R)
{
  if (R->pos == R->len) {
    if (R->eof)
      return -1;
    gssize n = g_input_stream_read(R->in, R->buf, sizeof R->buf, NULL, R->io_error ? NULL : &R->io_error);
    if (n <= 0) {
      R->eof = true;
      return -1;
    }
    R->len = (gsize)n;
    R->pos = 0;
  }
  return R->buf[R->pos];
}

static int getc_(reader *R)
{
  int c = peekc(R);
  if (c >= 0)
    R->pos++;
  return c;
}

static void skip_block_comment(reader *R)
{
  int prev = 0, c;
  while ((c = getc_(R)) >= 0) {
    if (c == '\n')
      R->line++;
    if (prev == '*' && c == '/')
      return;
    prev = c;
  }
}

static void read_word(reader *R, int c)
{
  size_t n = 0;
  R->word_too_long = false;
  for (;;) {
    if (n + 1 < sizeof R->word)
      R->word[n++] = (char)c;
    else
      R->word_too_long = true;
    c = peekc(R);
    if (!(g_ascii_isalnum(c) || c == '_'))
      break;
    getc_(R);
  }
  R->word[n] = 0;
  R->tok = T_WORD;
}

static void read_int(reader *R, int c)
{
  R->num = 0;
  R->num_too_big = false;
  for (;;) {
    unsigned d = (unsigned)(c - '0');
    if (R->num > (UINT64_MAX - d) / 10)
      R->num_too_big = true;
    else
      R->num = R->num * 10 + d;
    c = peekc(R);
    if (!g_ascii_isdigit(c))
      break;
    getc_(R);
  }
  R->tok = T_INT;
}

/* The next token; comments and blanks are skipped. */
static void next(reader *R)
{
  if (R->tok == T_NL)
    R->line++;
  for (;;) {
    int c = getc_(R);
    if (c < 0) {
      R->tok = T_EOF;
      return;
    }
    if (c == ' ' || c == '\t' || c == '\r')
      continue;
    if (c == '\n') {
      R->tok = T_NL;
      return;
    }
    if (c == '/' && peekc(R) == '/') {
      while ((c = peekc(R)) >= 0 && c != '\n')
        getc_(R);
      continue;
    }
    if (c == '/' && peekc(R) == '*') {
      getc_(R);
      skip_block_comment(R);
      continue;
    }
    if (g_ascii_isalpha(c))
      return read_word(R, c);
    if (g_ascii_isdigit(c))
      return read_int(R, c);
    if (c == '-' && peekc(R) == '1') {
      getc_(R);
      R->tok = g_ascii_isdigit(peekc(R)) ? T_BAD : T_ANY;
      return;
    }
    R->tok = c == ':' ? T_COLON : c == '{' ? T_OPEN : c == '}' ? T_CLOSE : T_BAD;
    return;
  }
}

/* ---- reading: the statements ---- */

typedef struct edge {
  uint32_t from, to; /* `to` requires (or irequires) `from` */
  bool start;        /* irequires */
} edge;

typedef struct parse {
  reader R;
  const char *path;
  GError **err;
  int64_t num_ranks;  /* -1: not yet */
  int64_t rank;       /* the rank being read, -1 outside */
  int64_t next_rank;
  GHashTable *labels; /* label -> op offset + 1, in the current rank */
  GArray *rank_ops;   /* cs_goal_op of the current rank */
  GArray *edges;      /* edge, of the current rank, in the file's order */
  /* the graph so far (in memory, or on disk for a large file: bigarray.h) */
  cs_bigarray *ops, *ndeps, *out_first, *nrequired, *out, *rank_first;
  GError *store_error; /* the first append that failed (a full disk) */
  uint32_t max_cpu, max_nic;
  uint64_t messages, bytes;
} parse;

static bool fail(parse *P, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
static bool fail(parse *P, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  char *msg = g_strdup_vprintf(fmt, ap);
  va_end(ap);
  cs_input_error(P->err, "GOAL file %s line %" PRIu64 ": %s", P->path, P->R.line, msg);
  g_free(msg);
  return false;
}

static const char *tok_name(const reader *R)
{
  switch (R->tok) {
  case T_EOF: return "the end of the file";
  case T_NL: return "the end of the line";
  case T_WORD: return R->word;
  case T_INT: return "a number";
  case T_ANY: return "-1";
  case T_COLON: return "':'";
  case T_OPEN: return "'{'";
  case T_CLOSE: return "'}'";
  default: return "a character outside GOAL's grammar";
  }
}

static bool expect_word(parse *P, const char *w)
{
  next(&P->R);
  if (P->R.tok == T_WORD && strcmp(P->R.word, w) == 0)
    return true;
  return fail(P, "expected \"%s\", found %s", w, tok_name(&P->R));
}

/* A number below `limit` (the next token). */
static bool number(parse *P, const char *what, uint64_t limit, uint64_t *out)
{
  next(&P->R);
  if (P->R.tok != T_INT)
    return fail(P, "expected %s (a number), found %s", what, tok_name(&P->R));
  if (P->R.num_too_big || P->R.num >= limit)
    return fail(P, "%s is too large (at most %" PRIu64 ")", what, limit - 1);
  *out = P->R.num;
  return true;
}

static bool end_of_statement(parse *P)
{
  next(&P->R);
  if (P->R.tok == T_NL || P->R.tok == T_EOF)
    return true;
  return fail(P, "expected the end of the line, found %s", tok_name(&P->R));
}

static bool in_rank(parse *P, const char *what)
{
  if (P->rank >= 0)
    return true;
  return fail(P, "%s outside a rank's { }", what);
}

/* A peer rank, or -1 where allowed. */
static bool peer(parse *P, bool any_ok, uint32_t *out)
{
  next(&P->R);
  if (P->R.tok == T_ANY && any_ok) {
    *out = CS_GOAL_ANY;
    return true;
  }
  if (P->R.tok != T_INT)
    return fail(P, "expected a rank%s, found %s", any_ok ? " or -1" : "", tok_name(&P->R));
  if (P->R.num_too_big || P->R.num >= (uint64_t)P->num_ranks)
    return fail(P, "rank %" PRIu64 "%s does not exist (num_ranks %" PRId64 ")", P->R.num,
                P->R.num_too_big ? "..." : "", P->num_ranks);
  *out = (uint32_t)P->R.num;
  return true;
}

/* [tag T] [cpu C] [nic I] then the end of the line (calc: [cpu C]). */
static bool options(parse *P, cs_goal_op *op)
{
  int stage = op->type == CS_GOAL_CALC ? 1 : 0;
  uint64_t v;
  for (;;) {
    next(&P->R);
    if (P->R.tok == T_NL || P->R.tok == T_EOF)
      return true;
    if (P->R.tok != T_WORD)
      return fail(P, "expected tag, cpu, nic or the end of the line, found %s", tok_name(&P->R));
    if (stage == 0 && strcmp(P->R.word, "tag") == 0) {
      next(&P->R);
      if (P->R.tok == T_ANY)
        op->tag = CS_GOAL_ANY;
      else if (P->R.tok == T_INT && !P->R.num_too_big && P->R.num < UINT32_MAX)
        op->tag = (uint32_t)P->R.num;
      else
        return fail(P, "expected a tag (a number below 2^32 - 1, or -1), found %s", tok_name(&P->R));
      stage = 1;
    } else if (stage <= 1 && strcmp(P->R.word, "cpu") == 0) {
      if (!number(P, "the cpu", 256, &v))
        return false;
      op->cpu = (uint8_t)v;
      stage = op->type == CS_GOAL_CALC ? 3 : 2;
    } else if (stage <= 2 && op->type != CS_GOAL_CALC && strcmp(P->R.word, "nic") == 0) {
      if (!number(P, "the nic", 256, &v))
        return false;
      op->nic = (uint8_t)v;
      stage = 3;
    } else
      return fail(P, "unexpected \"%s\" (an operation ends with [tag T] [cpu C] [nic I], a calc with [cpu C])",
                  P->R.word);
  }
}

static bool operation(parse *P, const char *label, const char *kind)
{
  if (!in_rank(P, "an operation"))
    return false;
  cs_goal_op op = {0};
  if (strcmp(kind, "calc") == 0) {
    op.type = CS_GOAL_CALC;
    if (!number(P, "the calc's nanoseconds", UINT64_MAX, &op.size))
      return false;
  } else {
    bool send = strcmp(kind, "send") == 0;
    op.type = send ? CS_GOAL_SEND : CS_GOAL_RECV;
    if (!number(P, "the size", UINT64_MAX, &op.size) || !expect_word(P, "b") ||
        !expect_word(P, send ? "to" : "from") || !peer(P, !send, &op.peer))
      return false;
  }
  if (!options(P, &op))
    return false;
  if (P->rank_ops->len >= UINT32_MAX - 1)
    return fail(P, "rank %" PRId64 " has too many operations", P->rank);
  if (label) {
    if (g_hash_table_contains(P->labels, label))
      return fail(P, "label %s is defined twice in rank %" PRId64, label, P->rank);
    g_hash_table_insert(P->labels, g_strdup(label), GUINT_TO_POINTER(P->rank_ops->len + 1));
  }
  P->max_cpu = MAX(P->max_cpu, op.cpu);
  P->max_nic = MAX(P->max_nic, op.nic);
  if (op.type == CS_GOAL_SEND) {
    P->messages++;
    P->bytes += op.size;
  }
  g_array_append_val(P->rank_ops, op);
  return true;
}

static bool label_op(parse *P, const char *label, uint32_t *out)
{
  gpointer v = g_hash_table_lookup(P->labels, label);
  if (!v)
    return fail(P, "label %s is not defined (before this line) in rank %" PRId64, label, P->rank);
  *out = GPOINTER_TO_UINT(v) - 1;
  return true;
}

static bool dependency(parse *P, const char *label, bool start)
{
  if (!in_rank(P, "a dependency"))
    return false;
  next(&P->R);
  if (P->R.tok != T_WORD)
    return fail(P, "expected a label, found %s", tok_name(&P->R));
  edge e = {.start = start};
  if (!label_op(P, label, &e.to) || !label_op(P, P->R.word, &e.from) || !end_of_statement(P))
    return false;
  g_array_append_val(P->edges, e);
  return true;
}

/* Appends to one of the graph's arrays; a failure (a full disk) is kept
 * and ends the parse after this rank. */
static void store(parse *P, cs_bigarray *a, const void *v, uint64_t count)
{
  if (!P->store_error)
    cs_bigarray_append(a, v, count, &P->store_error);
}

/* The current rank into the graph: ops, then dependants grouped per op
 * (requires first, then irequires, each in the file's order). */
static void close_rank(parse *P)
{
  uint32_t n = P->rank_ops->len;
  store(P, P->ops, P->rank_ops->data, n);
  uint32_t *nd = g_new0(uint32_t, n + 1), *nreq = g_new0(uint32_t, n + 1), *nstart = g_new0(uint32_t, n + 1);
  const edge *E = (const edge *)P->edges->data;
  for (guint i = 0; i < P->edges->len; i++) {
    nd[E[i].to]++;
    (E[i].start ? nstart : nreq)[E[i].from]++;
  }
  uint64_t base = cs_bigarray_len(P->out);
  uint64_t *first = g_new(uint64_t, n + 1), *pos = g_new(uint64_t, n + 1), *spos = g_new(uint64_t, n + 1);
  for (uint32_t i = 0, at = 0; i < n; i++) {
    first[i] = base + at;
    pos[i] = at;
    spos[i] = at + nreq[i];
    at += nreq[i] + nstart[i];
  }
  uint32_t *out = g_new(uint32_t, P->edges->len + 1);
  for (guint i = 0; i < P->edges->len; i++)
    out[E[i].start ? spos[E[i].from]++ : pos[E[i].from]++] = E[i].to;
  store(P, P->out_first, first, n);
  store(P, P->ndeps, nd, n);
  store(P, P->nrequired, nreq, n);
  store(P, P->out, out, P->edges->len);
  uint64_t end = cs_bigarray_len(P->ops);
  store(P, P->rank_first, &end, 1);
  g_free(nd);
  g_free(nreq);
  g_free(nstart);
  g_free(first);
  g_free(pos);
  g_free(spos);
  g_free(out);
  g_array_set_size(P->rank_ops, 0);
  g_array_set_size(P->edges, 0);
  g_hash_table_remove_all(P->labels);
  P->rank = -1;
  P->next_rank++;
}

static bool rank_header(parse *P)
{
  uint64_t r;
  if (P->num_ranks < 0)
    return fail(P, "a rank before num_ranks");
  if (P->rank >= 0)
    return fail(P, "rank inside rank %" PRId64 "'s { } (a '}' is missing)", P->rank);
  if (!number(P, "the rank", UINT64_MAX, &r))
    return false;
  if (r != (uint64_t)P->next_rank)
    return fail(P, "rank %" PRIu64 " out of order: ranks come in order 0 .. num_ranks-1, expected rank %" PRId64, r,
                P->next_rank);
  if (r >= (uint64_t)P->num_ranks)
    return fail(P, "rank %" PRIu64 " but num_ranks is %" PRId64, r, P->num_ranks);
  next(&P->R);
  if (P->R.tok != T_OPEN)
    return fail(P, "expected '{' after rank %" PRIu64 ", found %s", r, tok_name(&P->R));
  P->rank = (int64_t)r;
  return true;
}

static bool num_ranks(parse *P)
{
  uint64_t n;
  if (P->num_ranks >= 0)
    return fail(P, "num_ranks given twice");
  if (!number(P, "num_ranks", (uint64_t)UINT32_MAX + 1, &n))
    return false;
  if (n == 0)
    return fail(P, "num_ranks must be at least 1");
  P->num_ranks = (int64_t)n;
  return true;
}

/* One statement starting at the current token (a word, '}' or a blank line). */
static bool statement(parse *P)
{
  reader *R = &P->R;
  if (R->tok == T_NL)
    return true;
  if (R->tok == T_CLOSE) {
    if (P->rank < 0)
      return fail(P, "'}' outside a rank");
    close_rank(P);
    if (P->store_error) {
      g_propagate_error(P->err, P->store_error);
      P->store_error = NULL;
      return false;
    }
    return true;
  }
  if (R->tok != T_WORD)
    return fail(P, "expected rank, num_ranks, send, recv, calc or a label, found %s", tok_name(R));
  if (R->word_too_long)
    return fail(P, "a word longer than %zu characters", sizeof R->word - 2);
  if (strcmp(R->word, "num_ranks") == 0)
    return num_ranks(P);
  if (strcmp(R->word, "rank") == 0)
    return rank_header(P);
  if (!strcmp(R->word, "send") || !strcmp(R->word, "recv") || !strcmp(R->word, "calc")) {
    char kind[8];
    g_strlcpy(kind, R->word, sizeof kind);
    return operation(P, NULL, kind);
  }
  char *label = g_strdup(R->word);
  next(R);
  bool ok;
  if (R->tok == T_COLON) {
    next(R);
    if (R->tok == T_WORD && (!strcmp(R->word, "send") || !strcmp(R->word, "recv") || !strcmp(R->word, "calc"))) {
      char kind[8];
      g_strlcpy(kind, R->word, sizeof kind);
      ok = operation(P, label, kind);
    } else
      ok = fail(P, "expected send, recv or calc after \"%s:\", found %s", label, tok_name(R));
  } else if (R->tok == T_WORD && (!strcmp(R->word, "requires") || !strcmp(R->word, "irequires")))
    ok = dependency(P, label, R->word[0] == 'i');
  else
    ok = fail(P, "expected ':', requires or irequires after \"%s\", found %s", label, tok_name(R));
  g_free(label);
  return ok;
}

static bool parse_all(parse *P)
{
  next(&P->R);
  while (P->R.tok != T_EOF) {
    if (!statement(P))
      return false;
    if (P->R.tok != T_EOF)
      next(&P->R);
  }
  if (P->R.io_error)
    return cs_input_error(P->err, "cannot read GOAL file %s: %s", P->path, P->R.io_error->message);
  if (P->num_ranks < 0)
    return fail(P, "no num_ranks line");
  if (P->rank >= 0)
    return fail(P, "rank %" PRId64 "'s { } is not closed", P->rank);
  if (P->next_rank != P->num_ranks)
    return fail(P, "the file ends after rank %" PRId64 " of %" PRId64 " (ranks 0 .. num_ranks-1 must all be given)",
                P->next_rank - 1, P->num_ranks);
  return true;
}

/* The file, decompressed when it starts with gzip's magic bytes (*gz). */
static GInputStream *open_input(const char *path, bool *gz, GError **err)
{
  GFile *f = g_file_new_for_path(path);
  GError *e = NULL;
  GFileInputStream *fin = g_file_read(f, NULL, &e);
  g_object_unref(f);
  *gz = false;
  if (!fin) {
    cs_input_error(err, "cannot read GOAL file %s: %s", path, e->message);
    g_error_free(e);
    return NULL;
  }
  guchar magic[2] = {0, 0};
  gsize got = 0;
  g_input_stream_read_all(G_INPUT_STREAM(fin), magic, 2, &got, NULL, NULL);
  g_seekable_seek(G_SEEKABLE(fin), 0, G_SEEK_SET, NULL, NULL);
  if (got < 2 || magic[0] != 0x1f || magic[1] != 0x8b)
    return G_INPUT_STREAM(fin);
  *gz = true;
  GZlibDecompressor *z = g_zlib_decompressor_new(G_ZLIB_COMPRESSOR_FORMAT_GZIP);
  GInputStream *in = g_converter_input_stream_new(G_INPUT_STREAM(fin), G_CONVERTER(z));
  g_object_unref(z);
  g_object_unref(fin);
  return in;
}

/* Whether the graph goes to disk (bigarray.h): COLLSIM_GOAL_ON_DISK=1
 * always, =0 never; otherwise for a file of more than 1 GiB (plain) or
 * 128 MiB (gzip, about 1 GiB of text), whose graph (about 1.3 times the
 * text) would take a large part of this kind of machine's memory. */
static bool graph_on_disk(const char *path, bool gz)
{
  const char *force = g_getenv("COLLSIM_GOAL_ON_DISK");
  if (force && *force)
    return strcmp(force, "0") != 0;
  GStatBuf st;
  if (g_stat(path, &st) != 0)
    return false;
  return (uint64_t)st.st_size > (gz ? (uint64_t)128 << 20 : (uint64_t)1 << 30);
}

static void parse_free(parse *P)
{
  g_hash_table_destroy(P->labels);
  g_array_free(P->rank_ops, TRUE);
  g_array_free(P->edges, TRUE);
  if (P->R.io_error)
    g_error_free(P->R.io_error);
  if (P->store_error)
    g_error_free(P->store_error);
}

static bool graph_arrays_new(parse *P, bool on_disk)
{
  cs_bigarray **a[] = {&P->ops, &P->ndeps, &P->nrequired, &P->out_first, &P->out, &P->rank_first};
  size_t elem[] = {sizeof(cs_goal_op), sizeof(uint32_t), sizeof(uint32_t), sizeof(uint64_t), sizeof(uint32_t),
                   sizeof(uint64_t)};
  for (size_t i = 0; i < G_N_ELEMENTS(a); i++)
    if (!(*a[i] = cs_bigarray_new(elem[i], on_disk, P->err)))
      return false;
  uint64_t zero = 0;
  return cs_bigarray_append(P->rank_first, &zero, 1, P->err);
}

/* The parsed arrays into g (which owns them from here). */
static bool graph_take(parse *P, cs_goal_graph *g)
{
  g->p = (uint32_t)P->num_ranks;
  g->ncpus = P->max_cpu + 1;
  g->nnics = P->max_nic + 1;
  g->nops = cs_bigarray_len(P->ops);
  g->nedges = cs_bigarray_len(P->out);
  g->messages = P->messages;
  g->bytes = P->bytes;
  g->on_disk = cs_bigarray_on_disk(P->ops);
  uint64_t end = g->nedges;
  cs_bigarray *a[] = {P->ops, P->ndeps, P->nrequired, P->out_first, P->out, P->rank_first};
  void **data[] = {(void **)&g->ops, (void **)&g->ndeps, (void **)&g->nrequired, (void **)&g->out_first,
                   (void **)&g->out, (void **)&g->rank_first};
  bool ok = cs_bigarray_append(P->out_first, &end, 1, P->err);
  for (size_t i = 0; i < G_N_ELEMENTS(a); i++) {
    g->store[i] = a[i];
    ok = ok && cs_bigarray_finish(a[i], data[i], P->err);
  }
  P->ops = P->ndeps = P->nrequired = P->out_first = P->out = P->rank_first = NULL;
  return ok;
}

static void graph_arrays_free(parse *P)
{
  cs_bigarray *a[] = {P->ops, P->ndeps, P->nrequired, P->out_first, P->out, P->rank_first};
  for (size_t i = 0; i < G_N_ELEMENTS(a); i++)
    cs_bigarray_free(a[i]);
}

cs_goal_graph *cs_goal_read(const char *path, GError **err)
{
  bool gz;
  GInputStream *in = open_input(path, &gz, err);
  if (!in)
    return NULL;
  parse *P = g_new0(parse, 1);
  P->R.in = in;
  P->R.line = 1;
  P->path = path;
  P->err = err;
  P->num_ranks = P->rank = -1;
  P->labels = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
  P->rank_ops = g_array_new(FALSE, FALSE, sizeof(cs_goal_op));
  P->edges = g_array_new(FALSE, FALSE, sizeof(edge));
  bool ok = graph_arrays_new(P, graph_on_disk(path, gz)) && parse_all(P);
  g_object_unref(in);
  cs_goal_graph *g = NULL;
  if (ok) {
    g = g_new0(cs_goal_graph, 1);
    if (!graph_take(P, g)) {
      cs_goal_graph_free(g);
      g = NULL;
    }
  }
  graph_arrays_free(P);
  parse_free(P);
  g_free(P);
  return g;
}

uint32_t cs_goal_peek_ranks(const char *path)
{
  bool gz;
  GInputStream *in = open_input(path, &gz, NULL);
  if (!in)
    return 0;
  parse P = {.R = {.in = in, .line = 1}, .path = path, .num_ranks = -1, .rank = -1};
  do
    next(&P.R);
  while (P.R.tok == T_NL);
  bool found = P.R.tok == T_WORD && strcmp(P.R.word, "num_ranks") == 0 && num_ranks(&P);
  if (P.R.io_error)
    g_error_free(P.R.io_error);
  g_object_unref(in);
  return found && P.num_ranks <= UINT32_MAX ? (uint32_t)P.num_ranks : 0;
}

void cs_goal_graph_free(cs_goal_graph *g)
{
  if (!g)
    return;
  for (size_t i = 0; i < G_N_ELEMENTS(g->store); i++)
    cs_bigarray_free(g->store[i]);
  g_free(g);
}

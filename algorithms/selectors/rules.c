/* The selectors' evaluator and printer: the first rule of a collective
 * whose conditions hold names the library's algorithm, the first name row
 * whose conditions hold maps it to collsim's (selector.h). */
#include "algorithms/selectors/selector.h"

#include <inttypes.h>
#include <string.h>

typedef struct call {
  int64_t p;
  uint64_t measured; /* size in the library's quantity */
  int64_t count;     /* elements of the buffer (size / CS_SEL_ELEMENT_BYTES) */
  bool commutative;
} call;

static bool is_pow2(int64_t p) { return p > 0 && (p & (p - 1)) == 0; }

static int64_t pof2_below(int64_t p)
{
  int64_t k = 1;
  while (k * 2 <= p)
    k *= 2;
  return k;
}

static bool tri_holds(int want, bool is) { return want == CS_SEL_ANY || (want == CS_SEL_YES) == is; }

static bool cond_holds(const cs_sel_cond *c, const call *k)
{
  return (!c->p_lt || k->p < c->p_lt) && (!c->p_le || k->p <= c->p_le) && (!c->p_eq || k->p == c->p_eq) &&
         tri_holds(c->pow2, is_pow2(k->p)) && tri_holds(c->commutative, k->commutative) &&
         tri_holds(c->count_lt_pof2, k->count < pof2_below(k->p)) && tri_holds(c->count_lt_p, k->count < k->p) &&
         (!c->size_lt || k->measured < c->size_lt) && (!c->size_le || k->measured <= c->size_le);
}

static void add_term(GString *s, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
static void add_term(GString *s, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  if (s->len)
    g_string_append(s, ", ");
  g_string_append_vprintf(s, fmt, ap);
  va_end(ap);
}

/* The conditions in the library's vocabulary; "any" when there are none. */
static void cond_text(const cs_sel_data *d, cs_coll coll, const cs_sel_cond *c, GString *s)
{
  GString *t = g_string_new(NULL);
  const char *m = d->measure[coll].name;
  if (c->p_eq)
    add_term(t, "%s=%" PRId64, d->p_name, c->p_eq);
  if (c->p_lt)
    add_term(t, "%s<%" PRId64, d->p_name, c->p_lt);
  if (c->p_le)
    add_term(t, "%s<=%" PRId64, d->p_name, c->p_le);
  if (c->pow2 != CS_SEL_ANY)
    add_term(t, "%s %s a power of two", d->p_name, c->pow2 == CS_SEL_YES ? "is" : "is not");
  if (c->commutative != CS_SEL_ANY)
    add_term(t, "%s", c->commutative == CS_SEL_YES ? "commutative (built-in op)" : "not commutative (user op)");
  if (c->count_lt_pof2 != CS_SEL_ANY)
    add_term(t, "count %s pof2(%s)", c->count_lt_pof2 == CS_SEL_YES ? "<" : ">=", d->p_name);
  if (c->count_lt_p != CS_SEL_ANY)
    add_term(t, "count %s %s", c->count_lt_p == CS_SEL_YES ? "<" : ">=", d->p_name);
  if (c->size_lt)
    add_term(t, "%s<%" PRIu64, m ? m : "size", c->size_lt);
  if (c->size_le)
    add_term(t, "%s<=%" PRIu64, m ? m : "size", c->size_le);
  g_string_append(s, t->len ? t->str : "any");
  g_string_free(t, TRUE);
}

static const cs_sel_name *name_for(const cs_sel_data *d, cs_coll coll, const char *lib, const call *k)
{
  for (size_t i = 0; i < d->nnames; i++)
    if (d->names[i].coll == coll && strcmp(d->names[i].lib_algo, lib) == 0 && cond_holds(&d->names[i].cond, k))
      return &d->names[i];
  return NULL;
}

bool cs_sel_evaluate(const cs_sel_data *d, cs_coll c, int64_t p, uint64_t size, bool commutative,
                     cs_selection *out)
{
  memset(out, 0, sizeof *out);
  if ((int)c < 0 || c >= CS_NCOLLS || !d->measure[c].name)
    return false;
  call k = {p, d->measure[c].times_p ? size * (uint64_t)p : size, (int64_t)(size / CS_SEL_ELEMENT_BYTES),
            commutative};
  const cs_sel_rule *r = NULL;
  for (size_t i = 0; !r && i < d->nrules; i++)
    if (d->rules[i].coll == c && cond_holds(&d->rules[i].cond, &k))
      r = &d->rules[i];
  if (!r)
    return false; /* the rows of a covered collective end in an unconditional one */
  const cs_sel_name *n = name_for(d, c, r->lib_algo, &k);
  out->lib_algo = r->lib_algo;
  out->algo = n ? n->algo : NULL;
  GString *s = g_string_new(NULL);
  g_string_printf(s, "%s %s: ", d->source, cs_coll_name(c));
  cond_text(d, c, &r->cond, s);
  g_string_append_printf(s, " -> %s (%s=%" PRId64, r->lib_algo, d->p_name, p);
  if (c != CS_COLL_BARRIER)
    g_string_append_printf(s, ", %s=%" PRIu64 ", count=%" PRId64, d->measure[c].name, k.measured, k.count);
  g_string_append(s, ")");
  if (n && n->note)
    g_string_append_printf(s, "; %s", n->note);
  g_strlcpy(out->rule, s->str, sizeof out->rule);
  g_string_free(s, TRUE);
  return true;
}

char *cs_selector_covered(const cs_selector *s)
{
  GString *g = g_string_new(NULL);
  for (int c = 0; c < CS_NCOLLS; c++)
    if (s->data->measure[c].name)
      g_string_append_printf(g, "%s%s", g->len ? ", " : "", cs_coll_name((cs_coll)c));
  return g_string_free(g, FALSE);
}

void cs_sel_table_markdown(const cs_selector *s, GString *out)
{
  const cs_sel_data *d = s->data;
  for (int c = 0; c < CS_NCOLLS; c++) {
    const cs_sel_measure *m = &d->measure[c];
    if (!m->name)
      continue;
    const char *is = c == CS_COLL_BARRIER ? "none" : m->times_p ? "p x size" : "size";
    g_string_append_printf(out, "\n### %s (%s = %s)\n\n| condition (first match) | algorithm |\n|---|---|\n",
                           cs_coll_name((cs_coll)c), m->name, is);
    for (size_t i = 0; i < d->nrules; i++)
      if (d->rules[i].coll == (cs_coll)c) {
        g_string_append(out, "| ");
        cond_text(d, (cs_coll)c, &d->rules[i].cond, out);
        g_string_append_printf(out, " | %s |\n", d->rules[i].lib_algo);
      }
    g_string_append(out, "\n| library algorithm | when | collsim algorithm | note |\n|---|---|---|---|\n");
    for (size_t i = 0; i < d->nnames; i++)
      if (d->names[i].coll == (cs_coll)c) {
        g_string_append_printf(out, "| %s | ", d->names[i].lib_algo);
        cond_text(d, (cs_coll)c, &d->names[i].cond, out);
        g_string_append_printf(out, " | %s | %s |\n", d->names[i].algo ? d->names[i].algo : "(lacks it: refused)",
                               d->names[i].note ? d->names[i].note : "");
      }
  }
}

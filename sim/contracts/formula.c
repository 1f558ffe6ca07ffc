/* User formulas: libmatheval, plus floor() and ceil() (formula.h). */
#include "sim/contracts/formula.h"
#include "sim/contracts/errors.h"

#include <math.h>
#include <matheval.h>
#include <stdio.h>
#include <string.h>

#define PART_PREFIX "cs_part_"

typedef struct part {
  void *eval;   /* libmatheval evaluator */
  bool ceiling; /* ceil (else floor) of the value; the last part is the whole formula */
} part;

struct cs_formula {
  char *text;
  GArray *parts; /* part: the floor/ceil arguments innermost first, then the whole */
};

static bool allowed_char(char c)
{
  return g_ascii_isalnum(c) || strchr("_.+-*/^() \t", c) != NULL;
}

static bool check_characters(const char *text, GError **err)
{
  for (const char *c = text; *c; c++)
    if (!allowed_char(*c)) {
      cs_input_error(err, "formula '%s': '%c' is not allowed (numbers, variables, + - * / ^, parentheses, "
                     "functions such as floor, ceil, sqrt, log)", text, *c);
      return false;
    }
  return true;
}

static bool add_part(cs_formula *f, const char *text, bool ceiling, const char *whole, GError **err)
{
  void *e = *text ? evaluator_create((char *)text) : NULL;
  if (!e) {
    cs_input_error(err, "formula '%s' does not parse", whole);
    return false;
  }
  part p = {e, ceiling};
  g_array_append_val(f->parts, p);
  return true;
}

/* The last "floor(" or "ceil(" that starts a name, or NULL. */
static char *last_rounding(char *s, bool *ceiling)
{
  char *best = NULL;
  for (char *c = s; *c; c++) {
    bool is_floor = strncmp(c, "floor(", 6) == 0, is_ceil = strncmp(c, "ceil(", 5) == 0;
    if ((is_floor || is_ceil) && (c == s || !(g_ascii_isalnum(c[-1]) || c[-1] == '_'))) {
      best = c;
      *ceiling = is_ceil;
    }
  }
  return best;
}

/* Take floor(...) and ceil(...) out, innermost (last) first. */
static bool take_out_roundings(cs_formula *f, char **text, const char *whole, GError **err)
{
  bool ceiling = false;
  char *at, *s = *text;
  while ((at = last_rounding(s, &ceiling))) {
    char *open = strchr(at, '('), *close = open + 1;
    int depth = 1;
    for (; *close && depth; close++)
      depth += *close == '(' ? 1 : *close == ')' ? -1 : 0;
    if (depth) {
      cs_input_error(err, "formula '%s': unbalanced parentheses", whole);
      return false;
    }
    char *arg = g_strndup(open + 1, (size_t)(close - 1 - (open + 1)));
    bool ok = add_part(f, arg, ceiling, whole, err);
    g_free(arg);
    if (!ok)
      return false;
    char *name = g_strdup_printf(PART_PREFIX "%u", f->parts->len - 1);
    char *next = g_strdup_printf("%.*s%s%s", (int)(at - s), s, name, close);
    g_free(name);
    g_free(s);
    *text = s = next;
  }
  return true;
}

cs_formula *cs_formula_parse(const char *text, GError **err)
{
  if (!check_characters(text, err))
    return NULL;
  cs_formula *f = g_new0(cs_formula, 1);
  f->text = g_strdup(text);
  f->parts = g_array_new(FALSE, FALSE, sizeof(part));
  char *s = g_strdup(text);
  bool ok = take_out_roundings(f, &s, text, err) && add_part(f, s, false, text, err);
  g_free(s);
  if (!ok) {
    cs_formula_free(f);
    return NULL;
  }
  return f;
}

void cs_formula_free(cs_formula *f)
{
  if (!f)
    return;
  for (guint i = 0; i < f->parts->len; i++)
    evaluator_destroy(g_array_index(f->parts, part, i).eval);
  g_array_free(f->parts, TRUE);
  g_free(f->text);
  g_free(f);
}

const char *cs_formula_text(const cs_formula *f) { return f->text; }

static bool is_part_name(const char *name) { return g_str_has_prefix(name, PART_PREFIX); }

GPtrArray *cs_formula_variables(const cs_formula *f)
{
  GPtrArray *out = g_ptr_array_new_with_free_func(g_free);
  for (guint k = 0; k < f->parts->len; k++) {
    char **names;
    int count;
    evaluator_get_variables(g_array_index(f->parts, part, k).eval, &names, &count);
    for (int i = 0; i < count; i++) {
      guint at;
      if (!is_part_name(names[i]) && !g_ptr_array_find_with_equal_func(out, names[i], g_str_equal, &at))
        g_ptr_array_add(out, g_strdup(names[i]));
    }
  }
  return out;
}

/* Values of one part's variables: earlier parts' results or the lookup's. */
static bool part_variables(const cs_formula *f, const part *p, const double *done, cs_formula_lookup lookup,
                           void *user, char **names, int count, double *values, GError **err)
{
  for (int i = 0; i < count; i++) {
    unsigned k;
    if (sscanf(names[i], PART_PREFIX "%u", &k) == 1 && k < f->parts->len && &g_array_index(f->parts, part, k) < p) {
      values[i] = done[k];
    } else if (!lookup(names[i], &values[i], user)) {
      cs_input_error(err, "formula '%s': no value for '%s' in this row", f->text, names[i]);
      return false;
    }
  }
  return true;
}

bool cs_formula_eval(const cs_formula *f, cs_formula_lookup lookup, void *user, double *out, GError **err)
{
  double *done = g_new0(double, f->parts->len);
  bool ok = true;
  for (guint k = 0; ok && k < f->parts->len; k++) {
    const part *p = &g_array_index(f->parts, part, k);
    char **names;
    int count;
    evaluator_get_variables(p->eval, &names, &count);
    double *values = g_new0(double, count > 0 ? count : 1);
    ok = part_variables(f, p, done, lookup, user, names, count, values, err);
    if (ok) {
      double v = evaluator_evaluate(p->eval, count, names, values);
      done[k] = k + 1 == f->parts->len ? v : p->ceiling ? ceil(v) : floor(v);
    }
    g_free(values);
  }
  if (ok)
    *out = done[f->parts->len - 1];
  g_free(done);
  return ok;
}

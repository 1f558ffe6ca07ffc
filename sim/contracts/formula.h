/* A user's formula over named numbers (issue 32: message-count formulas as
 * regression tests): `--expect-messages 'n - 1 + s + 3*m - 2 + ceil((m-1)/k)'`.
 *
 * Parsed and evaluated by GNU libmatheval (+ - * / ^, parentheses, numbers,
 * variables, and its functions: sqrt, exp, log, abs, ...), plus floor() and
 * ceil(), which libmatheval lacks and message counts need: each is taken
 * out, innermost first, as a sub-formula whose value becomes a variable of
 * the one around it.  Only the characters of that grammar are accepted
 * (libmatheval's scanner echoes any other character to stdout). */
#ifndef COLLSIM_FORMULA_H
#define COLLSIM_FORMULA_H

#include <glib.h>
#include <stdbool.h>

typedef struct cs_formula cs_formula;

/* NULL with a bad-input error naming the problem. */
cs_formula *cs_formula_parse(const char *text, GError **err);
void cs_formula_free(cs_formula *f);
const char *cs_formula_text(const cs_formula *f);

/* The variables the formula names (floor/ceil parts resolved), each once,
 * in first-seen order; g_ptr_array_unref it. */
GPtrArray *cs_formula_variables(const cs_formula *f);

/* The value for the variables given by lookup (true: found, *value set).
 * False with a bad-input error naming the first variable lookup lacks. */
typedef bool (*cs_formula_lookup)(const char *name, double *value, void *user);
bool cs_formula_eval(const cs_formula *f, cs_formula_lookup lookup, void *user, double *out, GError **err);

#endif

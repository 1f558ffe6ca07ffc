/* One row's count against a user's formula (expect_row.h). */
#include "sim/contracts/expect_row.h"

#include <math.h>
#include <string.h>

static const char *const aliases[][2] = {{"c", "colors"}, {"p", "n"}};

const char *cs_expect_field(const char *variable, cs_row_has_fn has, const void *row)
{
  for (size_t i = 0; i < G_N_ELEMENTS(aliases); i++)
    if (strcmp(variable, aliases[i][0]) == 0 && !has(row, variable))
      return aliases[i][1];
  return variable;
}

typedef struct lookup_state {
  cs_row_number_fn get;
  cs_row_has_fn has;
  const void *row;
  GString *used; /* "n = 1024, m = 491" */
} lookup_state;

static bool lookup_variable(const char *name, double *value, void *user)
{
  lookup_state *L = user;
  if (!L->get(L->row, cs_expect_field(name, L->has, L->row), value))
    return false;
  g_string_append_printf(L->used, "%s%s = %.17g", L->used->len ? ", " : "", name, *value);
  return true;
}

static bool counts_equal(double measured, double expected)
{
  return fabs(measured - expected) <= 1e-9 * fmax(1.0, fabs(measured));
}

cs_expect_result cs_expect_row(const cs_formula *f, const char *text, const char *column, cs_row_number_fn get,
                               cs_row_has_fn has, const void *row, GString *why)
{
  double measured, expected;
  if (!get(row, column, &measured)) {
    g_string_printf(why, "the row has no %s", column);
    return CS_EXPECT_NO_COLUMN;
  }
  lookup_state L = {get, has, row, g_string_new(NULL)};
  GError *e = NULL;
  cs_expect_result r = CS_EXPECT_MATCH;
  if (!cs_formula_eval(f, lookup_variable, &L, &expected, &e)) {
    g_string_printf(why, "%s", e->message);
    g_error_free(e);
    r = CS_EXPECT_NO_VALUE;
  } else if (!counts_equal(measured, expected)) {
    g_string_printf(why, "%s = %.17g, '%s' = %.17g (%s)", column, measured, text, expected, L.used->str);
    r = CS_EXPECT_MISMATCH;
  }
  g_string_free(L.used, TRUE);
  return r;
}

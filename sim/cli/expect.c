/* --expect-messages / --expect-bytes: the run's counts against the user's
 * formulas (expect.h).  The variables are the record's CSV columns that
 * hold a number (n, m, f, k, s, colors, messages, bytes, ...), plus c for
 * colors and p for n where the record has no such column.  A count matches
 * when it equals the formula's value to 1e-9 relative: counts are exact. */
#include "sim/cli/expect.h"
#include "sim/cli/commands.h"
#include "sim/drivers/record.h"
#include "sim/contracts/errors.h"
#include "sim/contracts/formula.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct expectation {
  const char *option; /* "--expect-messages" */
  const char *column; /* the count it checks: "messages" */
} expectation;

static const expectation expectations[CS_CLI_NEXPECT] = {
    {"--expect-messages", "messages"},
    {"--expect-bytes", "bytes"},
};

static const char *const aliases[][2] = {{"c", "colors"}, {"p", "n"}};

/* Is `name` a numeric column of one of the command's kinds of record? */
static bool numeric_column(const cs_command *cmd, const char *name)
{
  for (size_t k = 0; cmd && cmd->records && cmd->records[k]; k++)
    for (size_t i = 0; i < cmd->records[k]->ncolumns; i++) {
      const cs_column *col = &cmd->records[k]->columns[i];
      if ((col->type == CS_COL_INT || col->type == CS_COL_NUM) && strcmp(col->name, name) == 0)
        return true;
    }
  return false;
}

static const char *unalias(const cs_command *cmd, const char *name)
{
  for (size_t i = 0; i < G_N_ELEMENTS(aliases); i++)
    if (strcmp(name, aliases[i][0]) == 0 && !numeric_column(cmd, name))
      return aliases[i][1];
  return name;
}

/* Before the run: the count checked and every variable are numeric fields
 * of the command's records (so a typo is refused before a long run, and
 * nothing is written). */
static bool fields_exist(const cs_cli *c, int i, GError **err)
{
  char *name = g_strndup(c->cmd, strcspn(c->cmd, " ")); /* "comm split": comm's */
  const cs_command *cmd = cs_command_named(name);
  g_free(name);
  if (!numeric_column(cmd, expectations[i].column))
    return cs_input_error(err, "%s: the records of collsim %s have no %s", expectations[i].option, c->cmd,
                          expectations[i].column);
  GPtrArray *names = cs_formula_variables(c->expect_formula[i]);
  bool ok = true;
  for (guint v = 0; ok && v < names->len; v++)
    if (!numeric_column(cmd, unalias(cmd, g_ptr_array_index(names, v))))
      ok = cs_input_error(err, "%s: formula '%s': collsim %s's records have no number '%s' (collsim %s "
                          "--list-columns lists them)", expectations[i].option, c->expect[i], c->cmd,
                          (const char *)g_ptr_array_index(names, v), c->cmd);
  g_ptr_array_unref(names);
  return ok;
}

bool cs_cli_expect_parse(cs_cli *c, GError **err)
{
  for (int i = 0; i < CS_CLI_NEXPECT; i++) {
    if (!c->expect[i])
      continue;
    GError *e = NULL;
    c->expect_formula[i] = cs_formula_parse(c->expect[i], &e);
    if (!c->expect_formula[i]) {
      cs_input_error(err, "%s: %s", expectations[i].option, e->message);
      g_error_free(e);
      return false;
    }
    if (!fields_exist(c, i, err))
      return false;
  }
  return true;
}

void cs_cli_expect_free(cs_cli *c)
{
  for (int i = 0; i < CS_CLI_NEXPECT; i++) {
    cs_formula_free(c->expect_formula[i]);
    c->expect_formula[i] = NULL;
  }
}

/* A record's field as a number (false: absent or not a number). */
static bool field_number(const cs_record *r, const char *name, double *value)
{
  char *text = cs_record_text(r, name), *end = NULL;
  bool ok = text && *text && (*value = strtod(text, &end), *end == '\0');
  g_free(text);
  return ok;
}

typedef struct lookup_state {
  const cs_record *record;
  const char *const *columns;
  GString *used; /* "n = 1024, m = 491" */
} lookup_state;

static bool is_column(const char *const *columns, const char *name)
{
  for (size_t i = 0; columns[i]; i++)
    if (strcmp(columns[i], name) == 0)
      return true;
  return false;
}

static bool lookup_variable(const char *name, double *value, void *user)
{
  lookup_state *L = user;
  const char *field = name;
  for (size_t i = 0; i < G_N_ELEMENTS(aliases); i++)
    if (strcmp(name, aliases[i][0]) == 0 && !is_column(L->columns, name))
      field = aliases[i][1];
  if (!is_column(L->columns, field) || !field_number(L->record, field, value))
    return false;
  g_string_append_printf(L->used, "%s%s = %.17g", L->used->len ? ", " : "", name, *value);
  return true;
}

static bool counts_equal(double measured, double expected)
{
  return fabs(measured - expected) <= 1e-9 * fmax(1.0, fabs(measured));
}

/* "n, m, f, ..., c, p": the variables a record offers. */
static char *variables_offered(const cs_record *r, const char *const *columns)
{
  GString *s = g_string_new(NULL);
  double v;
  for (size_t i = 0; columns[i]; i++)
    if (field_number(r, columns[i], &v))
      g_string_append_printf(s, "%s%s", s->len ? ", " : "", columns[i]);
  for (size_t i = 0; i < G_N_ELEMENTS(aliases); i++)
    if (!is_column(columns, aliases[i][0]) && field_number(r, aliases[i][1], &v))
      g_string_append_printf(s, ", %s", aliases[i][0]);
  return g_string_free(s, FALSE);
}

/* 0 match, 1 mismatch or a variable empty in this row (reported), 2 the
 * count's column absent (reported). */
static int check_one(const cs_cli *c, int i, const cs_record *r, size_t row, const char *const *columns)
{
  double measured, expected;
  if (!is_column(columns, expectations[i].column) || !field_number(r, expectations[i].column, &measured)) {
    fprintf(stderr, "collsim %s: error: %s: the records of collsim %s have no %s\n", c->cmd, expectations[i].option,
            c->cmd, expectations[i].column);
    return 2;
  }
  lookup_state L = {r, columns, g_string_new(NULL)};
  GError *e = NULL;
  int rc = 0;
  if (!cs_formula_eval(c->expect_formula[i], lookup_variable, &L, &expected, &e)) {
    /* a field the command's records have, empty in this one (e.g. a count only some protocols have) */
    char *offered = variables_offered(r, columns);
    fprintf(stderr, "collsim %s: expectation failed (row %zu): %s: %s (variables: %s)\n", c->cmd, row + 1,
            expectations[i].option, e->message, offered);
    g_free(offered);
    g_error_free(e);
    rc = 1;
  } else if (!counts_equal(measured, expected)) {
    fprintf(stderr, "collsim %s: expectation failed (row %zu): %s = %.17g, %s '%s' = %.17g (%s)\n", c->cmd, row + 1,
            expectations[i].column, measured, expectations[i].option, c->expect[i], expected, L.used->str);
    rc = 1;
  }
  g_string_free(L.used, TRUE);
  return rc;
}

int cs_cli_expect_check(const cs_cli *c, cs_record *const *records, size_t n, const char *const *columns)
{
  int worst = 0;
  for (int i = 0; i < CS_CLI_NEXPECT; i++)
    for (size_t row = 0; c->expect_formula[i] && row < n && worst < 2; row++) {
      int rc = check_one(c, i, records[row], row, columns);
      worst = rc > worst ? rc : worst;
    }
  return worst;
}

/* --expect-messages / --expect-bytes: the run's counts against the user's
 * formulas (expect.h), each row checked by sim/contracts/expect_row.h.
 * Before the run, the count's column and every variable must be numeric
 * columns of the command's records (sim/cli/commands.h), so a typo is
 * refused before a long run and nothing is written. */
#include "sim/cli/expect.h"
#include "sim/cli/commands.h"
#include "sim/contracts/errors.h"
#include "sim/contracts/expect_row.h"
#include "sim/drivers/record.h"

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

/* ---- before the run: the command's declared columns ---- */

static bool numeric_column(const void *command, const char *name)
{
  const cs_command *cmd = command;
  for (size_t k = 0; cmd && cmd->records && cmd->records[k]; k++)
    for (size_t i = 0; i < cmd->records[k]->ncolumns; i++) {
      const cs_column *col = &cmd->records[k]->columns[i];
      if ((col->type == CS_COL_INT || col->type == CS_COL_NUM) && strcmp(col->name, name) == 0)
        return true;
    }
  return false;
}

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
  for (guint v = 0; ok && v < names->len; v++) {
    const char *var = g_ptr_array_index(names, v);
    if (!numeric_column(cmd, cs_expect_field(var, numeric_column, cmd)))
      ok = cs_input_error(err, "%s: formula '%s': collsim %s's records have no number '%s' (collsim %s "
                          "--list-columns lists them)", expectations[i].option, c->expect[i], c->cmd, var, c->cmd);
  }
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

/* ---- after the run: each record ---- */

static bool record_number(const void *row, const char *name, double *value)
{
  char *text = cs_record_text(row, name), *end = NULL;
  bool ok = text && *text && (*value = strtod(text, &end), *end == '\0');
  g_free(text);
  return ok;
}

static bool record_has(const void *row, const char *name) { return cs_record_has(row, name); }

int cs_cli_expect_check(const cs_cli *c, cs_record *const *records, size_t n, const char *const *columns)
{
  (void)columns;
  int status = 0;
  GString *why = g_string_new(NULL);
  for (int i = 0; i < CS_CLI_NEXPECT; i++)
    for (size_t row = 0; c->expect_formula[i] && row < n; row++) {
      cs_expect_result r = cs_expect_row(c->expect_formula[i], c->expect[i], expectations[i].column, record_number,
                                         record_has, records[row], why);
      if (r == CS_EXPECT_MATCH)
        continue;
      fprintf(stderr, "collsim %s: expectation failed (row %zu): %s: %s\n", c->cmd, row + 1, expectations[i].option,
              why->str);
      status = 1;
    }
  g_string_free(why, TRUE);
  return status;
}

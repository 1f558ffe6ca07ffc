/* --expect-messages EXPR and --expect-bytes EXPR (issue 32): a run checks
 * its own message or byte count against the user's formula over the
 * record's numeric fields, so a command line or a sweep is a regression
 * test of a paper's count.  Rows are written first; then one line per
 * mismatch on stderr and exit status 1. */
#ifndef COLLSIM_CLI_EXPECT_H
#define COLLSIM_CLI_EXPECT_H

#include "sim/cli/frontend.h"

/* Parse the formulas given (false: bad input, naming the option). */
bool cs_cli_expect_parse(cs_cli *c, GError **err);
void cs_cli_expect_free(cs_cli *c);

/* 0 when every record matches every formula given; else 1 after one line
 * per mismatch (a variable empty in a row, or a record without the count,
 * is one).  The variables were checked against the command's columns by
 * cs_cli_expect_parse.  columns: the CSV columns (unused: every field of
 * the record counts, those of tables and JSON only included). */
int cs_cli_expect_check(const cs_cli *c, cs_record *const *records, size_t n, const char *const *columns);

#endif

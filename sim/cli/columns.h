/* `collsim CMD --list-columns`: the columns a subcommand's records have, from
 * their declarations (sim/drivers/record.h), as a Markdown table (the
 * default; docs/output-reference.md is made of these) or as CSV or JSON
 * rows (--format). */
#ifndef COLLSIM_CLI_COLUMNS_H
#define COLLSIM_CLI_COLUMNS_H

#include "sim/cli/frontend.h"

#define CS_LIST_COLUMNS_HELP "list the output's fields (name, type, unit, meaning) as Markdown, or --format csv/json, and exit"

/* Prints the command's kinds of record (its row of the table of
 * subcommands, sim/cli/commands.h) and the configuration columns
 * (--with-config); the exit status. */
int cs_cli_list_columns(const cs_cli *c);

/* collsim allreduce's records (filled and declared in cli_allreduce.c). */
extern const cs_record_kind cs_allreduce_record_kind;

/* The CSV columns of every kind of record a subcommand prints (the table
 * of subcommands) and of the configuration columns that carry flag (CS_COL_KEY,
 * CS_COL_MEASURED), each name once, NULL-terminated (built once, kept). */
const char *const *cs_output_columns_with(unsigned flag);

#endif

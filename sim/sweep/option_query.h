/* Which options of a subcommand write files: the sweep asks the subcommand
 * itself, so the answer comes from the option declarations (type
 * CS_OPT_PATH_OUT, sim/cli/frontend.h), never from a list kept by hand.
 *
 * The question: `collsim COMMAND --help` run with COLLSIM_OPTION_QUERY=FILE
 * in its environment.  The front end answers while it parses (before
 * --help is handled): cs_cli_parse calls cs_option_query_answer with the
 * command's options, its own and the common ones, which writes into FILE
 * one line per option, "NAME<TAB>KIND" (KIND: flag, string, choice, path-in,
 * path-out, int, u64, quantity, size, list).  Then --help ends the run as
 * usual (exit 0, nothing simulated).  A front end that does not answer
 * leaves FILE empty, and the question fails: the sweep never guesses. */
#ifndef COLLSIM_OPTION_QUERY_H
#define COLLSIM_OPTION_QUERY_H

#include <glib.h>

#define CS_OPTION_QUERY_ENV "COLLSIM_OPTION_QUERY"

/* The front end's side is sim/cli/option_answer.c (the front end sits
 * above the sweep). */

/* The sweep's side: the output options of `collsim COMMAND` (those of kind
 * path-out), NULL-terminated (g_strfreev it), asking this program.  NULL
 * with err set (CS_INTERNAL_ERROR) when it does not answer. */
char **cs_option_query_output_options(const char *command, GError **err);

/* The same in the shape cs_experiment_parse asks for (data unused). */
char **cs_option_query_for_experiment(const char *command, gpointer data, GError **err);

#endif

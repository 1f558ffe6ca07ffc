/* collsim: simulator of process-group construction and collective
 * communication on large HPC networks: dispatch over the table of
 * subcommands (sim/cli/commands.h). */
#include "sim/cli/commands.h"
#include "sim/contracts/signals.h"
#include "sim/contracts/tempdir.h"
#include "sim/contracts/hugepages.h"

#include <glib.h>
#include <locale.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static void usage(FILE *out)
{
  fputs("usage: collsim COMMAND [OPTIONS]\n\ncommands:\n", out);
  for (size_t i = 0; i < cs_ncommands; i++)
    fprintf(out, "  %-12s %s\n  %-12s   %s\n", cs_commands[i].name, cs_commands[i].description, "",
            cs_commands[i].example);
  fputs("\ncollsim COMMAND --help describes each command's options; collsim --list-commands lists\n"
        "the commands, one per line, with \"records\" after those that print result records.\n",
        out);
}

/* `collsim --list-commands`: the table's names, for scripts (scripts/gen-docs.sh). */
static void list_commands(FILE *out)
{
  for (size_t i = 0; i < cs_ncommands; i++)
    fprintf(out, "%s%s\n", cs_commands[i].name, cs_commands[i].records ? " records" : "");
}

/* `collsim help COMMAND`: the command's own --help. */
static int help_on(const char *name)
{
  const cs_command *c = cs_command_named(name);
  if (!c) {
    fprintf(stderr, "collsim: error: help: unknown command '%s' (run 'collsim --help')\n", name);
    return 2;
  }
  char *args[] = {(char *)c->name, "--help", NULL};
  return c->main(2, args);
}

int main(int argc, char **argv)
{
  cs_hugepages_init(argv); /* a large run may continue in a new image: hugepages.h */
  /* The terminal's character set, so GLib prints help text such as
   * "Bjørndalen" as written on a UTF-8 terminal; numbers keep the C
   * locale (LC_NUMERIC untouched: CSV and JSON always use '.'). */
  setlocale(LC_CTYPE, "");
  cs_signals_install(argc > 1 ? argv[1] : ""); /* a signal removes the run's temporary files */
  if (argc < 2) {
    fprintf(stderr, "collsim: error: no command given (run 'collsim --help')\n");
    return 2;
  }
  const char *cmd = argv[1];
  if (!strcmp(cmd, "help") && argc == 3)
    return help_on(argv[2]);
  bool asks_help = !strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help");
  bool asks_list = !strcmp(cmd, "--list-commands");
  if ((asks_help || asks_list || !strcmp(cmd, "--version")) && argc > 2) {
    fprintf(stderr, "collsim: error: unexpected argument '%s' after %s%s\n", argv[2], cmd,
            asks_help ? " (collsim help COMMAND describes one command)" : "");
    return 2;
  }
  if (asks_help) {
    usage(stdout);
    return 0;
  }
  if (asks_list) {
    list_commands(stdout);
    return 0;
  }
  if (!strcmp(cmd, "--version")) {
    printf("collsim %s\n", PACKAGE_VERSION);
    return 0;
  }
  const cs_command *c = cs_command_named(cmd);
  if (c)
    return cs_tempdir_usable(cmd) ? c->main(argc - 1, argv + 1) : 2; /* TMPDIR: exit 2 for all */
  fprintf(stderr, "collsim: error: unknown command '%s' (run 'collsim --help')\n", cmd);
  return 2;
}

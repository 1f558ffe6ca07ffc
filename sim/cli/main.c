/* collsim: simulator of process-group construction and collective
 * communication on large HPC networks.  The subcommands, one table. */
#include "sim/cli/cli_allreduce.h"
#include "sim/cli/cli_collective.h"
#include "sim/cli/cli_comm.h"
#include "sim/cli/cli_groupmap.h"
#include "sim/cli/cli_mcmc.h"
#include "sim/cli/cli_platform.h"
#include "sim/cli/cli_tree.h"
#include "sim/cli/compare.h"
#include "sim/cli/demo.h"
#include "sim/cli/reproduce.h"
#include "sim/contracts/signals.h"
#include "sim/contracts/tempdir.h"
#include "sim/sweep/sweep.h"

#include <glib.h>
#include <locale.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

typedef struct command {
  const char *name;
  const char *description;
  const char *example;
  int (*main)(int argc, char **argv);
} command;

static const command commands[] = {
    {"tree", "build a spanning tree over a system-ranked process group (seed 000)",
     "collsim tree --algo rank-hash -n 4096 -f 0.6 -k 3", cs_tree_main},
    {"collective", "one collective on any platform: traffic per link, timed runs (seed 001)",
     "collsim collective --platform percs:64,16,16 --coll scatter --algo binomial --block 64KiB --links",
     cs_collective_main},
    {"allreduce", "the Allreduce benchmark with scripted reduce/broadcast trees (seed 002)",
     "collsim allreduce --cluster 4w --trees lam --iterations 1000 -n 32", cs_allreduce_main},
    {"tree-script", "write a reduce/broadcast tree as an editable YAML script",
     "collsim tree-script --from lam -n 32 --out my.yaml", cs_tree_script_main},
    {"groupmap", "every representation of a group map, measured, and the strategies' picks (seed 003)",
     "collsim groupmap --world 1000000 --members my-group.txt --format json", cs_groupmap_main},
    {"comm", "communicators: split, create, context ids (seed 003); group-collective create-group (seed 004)",
     "collsim comm create-group --platform torus:8x16x16/4 -n 8192 --group-size 256 --format json", cs_comm_main},
    {"mcmc", "the MCMC load-balancing benchmark: none, async or collective regrouping (seed 004)",
     "collsim mcmc --platform torus:8x16x16/4 -n 8192 --balance async --format json", cs_mcmc_main},
    {"sweep", "run an experiment file (any subcommand), one CSV row per point, resumable",
     "collsim sweep experiments/seed000-fig3.yaml --out fig3.csv", cs_sweep_main},
    {"reproduce", "recompute a paper's tables and figures into a fresh folder, compare them with results/",
     "collsim reproduce seed004 --quick --out /tmp/seed004", cs_reproduce_main},
    {"compare", "compare two CSV files or folders of results row by row",
     "collsim compare results/seed004 reproduce-seed004", cs_compare_main},
    {"platform", "list the platform families, or write one as SimGrid XML",
     "collsim platform --platform torus:8x8x16/4 --out bgp.xml", cs_platform_main},
    {"demo", "the built-in default: the three seed-000 schemes on 32,768 ranks, with a summary", "collsim demo",
     cs_demo_main},
};

static void usage(FILE *out)
{
  fputs("usage: collsim COMMAND [OPTIONS]\n\ncommands:\n", out);
  for (size_t i = 0; i < G_N_ELEMENTS(commands); i++)
    fprintf(out, "  %-12s %s\n  %-12s   %s\n", commands[i].name, commands[i].description, "", commands[i].example);
  fputs("\ncollsim COMMAND --help describes each command's options.\n", out);
}

static const command *find_command(const char *name)
{
  for (size_t i = 0; i < G_N_ELEMENTS(commands); i++)
    if (!strcmp(name, commands[i].name))
      return &commands[i];
  return NULL;
}

/* `collsim help COMMAND`: the command's own --help. */
static int help_on(const char *name)
{
  const command *c = find_command(name);
  if (!c) {
    fprintf(stderr, "collsim: error: help: unknown command '%s' (run 'collsim --help')\n", name);
    return 2;
  }
  char *args[] = {(char *)c->name, "--help", NULL};
  return c->main(2, args);
}

int main(int argc, char **argv)
{
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
  if ((asks_help || !strcmp(cmd, "--version")) && argc > 2) {
    fprintf(stderr, "collsim: error: unexpected argument '%s' after %s%s\n", argv[2], cmd,
            asks_help ? " (collsim help COMMAND describes one command)" : "");
    return 2;
  }
  if (asks_help) {
    usage(stdout);
    return 0;
  }
  if (!strcmp(cmd, "--version")) {
    printf("collsim %s\n", PACKAGE_VERSION);
    return 0;
  }
  const command *c = find_command(cmd);
  if (c)
    return cs_tempdir_usable(cmd) ? c->main(argc - 1, argv + 1) : 2; /* TMPDIR: exit 2 for all */
  fprintf(stderr, "collsim: error: unknown command '%s' (run 'collsim --help')\n", cmd);
  return 2;
}

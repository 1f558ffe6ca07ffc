/* collsim: simulator of process-group construction and collective
 * communication on large HPC networks.  Subcommand dispatch. */
#include "sim/cli/cli_allreduce.h"
#include "sim/cli/cli_collective.h"
#include "sim/cli/cli_tree.h"
#include "sim/cli/demo.h"
#include "sim/sweep/sweep.h"

#include <glib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static const char *usage =
    "usage: collsim COMMAND [OPTIONS]\n"
    "\n"
    "commands:\n"
    "  tree       build a spanning tree over a system-ranked process group (seed 000)\n"
    "             collsim tree --list | collsim tree --algo rank-hash -n 4096 -f 0.6 -k 3\n"
    "  collective one collective on a two-tier network: traffic per link, timed runs (seed 001)\n"
    "             collsim collective --list\n"
    "             collsim collective --net percs:64,16,16 --coll scatter --algo binomial --block 64KiB --links\n"
    "  allreduce  the Allreduce benchmark on a simulated SMP cluster with scripted trees (seed 002)\n"
    "             collsim allreduce --cluster 8x4 --trees lam --iterations 1000 -n 32\n"
    "  tree-script  write a reduce/broadcast tree as an editable YAML script\n"
    "             collsim tree-script --from lam -n 32 --out my.yaml\n"
    "  sweep      run an experiment file, one CSV row per point, resumable\n"
    "             collsim sweep experiments/seed000-fig3.yaml --out results/seed000/fig3.csv\n"
    "  reproduce  regenerate a paper's tables and figures: collsim reproduce seed000|seed001|seed002\n"
    "  platform   write a platform as SimGrid XML: collsim platform --torus 8x8x8 | --net percs:64,16,16\n"
    "  demo       the built-in default: three schemes on 16,384 ranks, with a summary\n"
    "\n"
    "collsim COMMAND --help describes each command's options.\n";

/* Directory holding scripts/ and experiments/: $COLLSIM_SRCDIR, else the
 * source tree this binary was built from. */
static const char *data_dir(void)
{
  const char *env = g_getenv("COLLSIM_SRCDIR");
  return env && *env ? env : COLLSIM_SRCDIR;
}

static int reproduce_main(int argc, char **argv)
{
  if (argc != 2 || argv[1][0] == '-')
    return cs_usage_error("reproduce", "usage: collsim reproduce seed000|seed001|seed002");
  if (strcmp(argv[1], "seed000") != 0 && strcmp(argv[1], "seed001") != 0 && strcmp(argv[1], "seed002") != 0)
    return cs_usage_error("reproduce", "unknown target '%s' (known: seed000, seed001, seed002)", argv[1]);
  char *script = g_strdup_printf("%s/scripts/reproduce-%s.sh", data_dir(), argv[1]);
  char *self = g_file_read_link("/proc/self/exe", NULL);
  if (access(script, R_OK) != 0 || !self) {
    int rc = cs_usage_error("reproduce", "cannot find %s", script);
    g_free(script);
    g_free(self);
    return rc;
  }
  g_setenv("COLLSIM", self, TRUE);
  g_setenv("COLLSIM_SRCDIR", data_dir(), TRUE);
  execl("/bin/bash", "bash", script, (char *)NULL);
  perror("collsim reproduce: cannot run bash");
  return 1;
}

int main(int argc, char **argv)
{
  if (argc < 2) {
    fputs(usage, stderr);
    return 2;
  }
  const char *cmd = argv[1];
  if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
    fputs(usage, stdout);
    return 0;
  }
  if (!strcmp(cmd, "--version")) {
    printf("collsim %s\n", PACKAGE_VERSION);
    return 0;
  }
  if (!strcmp(cmd, "tree"))
    return cs_tree_main(argc - 1, argv + 1);
  if (!strcmp(cmd, "collective"))
    return cs_collective_main(argc - 1, argv + 1);
  if (!strcmp(cmd, "allreduce"))
    return cs_allreduce_main(argc - 1, argv + 1);
  if (!strcmp(cmd, "tree-script"))
    return cs_tree_script_main(argc - 1, argv + 1);
  if (!strcmp(cmd, "sweep"))
    return cs_sweep_main(argc - 1, argv + 1);
  if (!strcmp(cmd, "platform"))
    return cs_platform_main(argc - 1, argv + 1);
  if (!strcmp(cmd, "reproduce"))
    return reproduce_main(argc - 1, argv + 1);
  if (!strcmp(cmd, "demo"))
    return cs_demo_main(argc - 1, argv + 1);
  fprintf(stderr, "collsim: error: unknown command '%s'\n\n%s", cmd, usage);
  return 2;
}

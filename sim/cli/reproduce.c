/* `collsim reproduce TARGET`: runs scripts/reproduce-TARGET.sh with this
 * collsim, from the source tree it was built from ($COLLSIM_SRCDIR). */
#include "sim/cli/reproduce.h"

#include <glib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

typedef struct target {
  const char *name, *description;
} target;

static const target targets[] = {
    {"seed000", "balanced spanning trees on BG/P: Figures 3-4, Tables 1-2 (results/seed000/)"},
    {"seed001", "collectives on two-tier networks: Tables 2-5 (results/seed001/)"},
    {"seed002", "configurable reduce/broadcast trees: Figures 5-8, Section 5.2 (results/seed002/)"},
    {"seed003", "communicators and group maps: Tables 1-2, Section 8 sets A-C and 8.2 (results/seed003/)"},
    {"seed003-maps", "compact group maps: Tables 1-2, our cells beside the paper's (results/seed003/)"},
    {"seed004", "noncollective communicator creation: Figure 1, the failure example (results/seed004/)"},
};

static const char *data_dir(void)
{
  const char *env = g_getenv("COLLSIM_SRCDIR");
  return env && *env ? env : COLLSIM_SRCDIR;
}

static void help(void)
{
  printf("usage: collsim reproduce TARGET\n\ntargets:\n");
  for (size_t i = 0; i < G_N_ELEMENTS(targets); i++)
    printf("  %-13s %s\n", targets[i].name, targets[i].description);
}

int cs_reproduce_main(int argc, char **argv)
{
  if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--list"))) {
    help();
    return 0;
  }
  if (argc != 2 || argv[1][0] == '-') {
    fprintf(stderr, "collsim reproduce: error: expected one TARGET (run 'collsim reproduce --help')\n");
    return 2;
  }
  const target *t = NULL;
  for (size_t i = 0; i < G_N_ELEMENTS(targets); i++)
    if (!strcmp(argv[1], targets[i].name))
      t = &targets[i];
  if (!t) {
    fprintf(stderr, "collsim reproduce: error: unknown target '%s' (run 'collsim reproduce --help')\n", argv[1]);
    return 2;
  }
  char *script = g_strdup_printf("%s/scripts/reproduce-%s.sh", data_dir(), t->name);
  char *self = g_file_read_link("/proc/self/exe", NULL);
  if (access(script, R_OK) != 0 || !self) {
    fprintf(stderr, "collsim reproduce: error: cannot find %s\n", script);
    g_free(script);
    g_free(self);
    return 2;
  }
  g_setenv("COLLSIM", self, TRUE);
  g_setenv("COLLSIM_SRCDIR", data_dir(), TRUE);
  execl("/bin/bash", "bash", script, (char *)NULL);
  perror("collsim reproduce: cannot run bash");
  return 1;
}

/* The subcommands of collsim: one table.
 *
 * CS_COMMANDS below is the only list of subcommands.  It gives main its
 * dispatch and `collsim --help` its text (sim/cli/main.c), the sweep the
 * subcommands an experiment file may run (those flagged CS_CMD_ROWS:
 * sim/cli/cli_sweep.c hands them to sim/sweep/experiment.c), and every
 * front end the declaration of its entry point.
 *
 * Adding a subcommand: its front end sim/cli/cli_NAME.c (options, rules,
 * output through sim/cli/frontend.h) defining int cs_NAME_main(int argc,
 * char **argv) and including this header, its driver in sim/drivers/, one
 * line below, and the two files in Makefile.am. */
#ifndef COLLSIM_COMMANDS_H
#define COLLSIM_COMMANDS_H

#include <stddef.h>

/* Flags of a subcommand. */
enum {
  /* Prints result rows (--format csv, --with-config): an experiment file
   * may name it, and `collsim sweep` runs it point by point. */
  CS_CMD_ROWS = 1u << 0,
};

/* X(name, entry point, flags, records, description, example); records:
 * CS_RECORDS(the kinds of record it prints, sim/drivers/record.h), which
 * its --list-columns, docs/output-reference.md and compare's key columns
 * are made from, or CS_NO_RECORDS. */
#define CS_COMMANDS(X)                                                                                               \
  X("tree", cs_tree_main, CS_CMD_ROWS, CS_RECORDS(&cs_tree_record_kind),                                             \
    "build a spanning tree over a system-ranked process group (seed 000)",                                           \
    "collsim tree --algo rank-hash -n 4096 -f 0.6 -k 3")                                                             \
  X("collective", cs_collective_main, CS_CMD_ROWS, CS_RECORDS(&cs_coll_record_kind),                                 \
    "one collective on any platform: traffic per link, timed runs (seed 001)",                                       \
    "collsim collective --platform percs:64,16,16 --coll scatter --algo binomial --block 64KiB --links")             \
  X("allreduce", cs_allreduce_main, CS_CMD_ROWS, CS_RECORDS(&cs_allreduce_record_kind),                              \
    "the Allreduce benchmark with scripted reduce/broadcast trees (seed 002)",                                       \
    "collsim allreduce --cluster 4w --trees lam --iterations 1000 -n 32")                                            \
  X("tree-script", cs_tree_script_main, 0, CS_NO_RECORDS,                                                            \
    "write a reduce/broadcast tree as an editable YAML script",                                                      \
    "collsim tree-script --from lam -n 32 --out my.yaml")                                                            \
  X("groupmap", cs_groupmap_main, 0, CS_RECORDS(&cs_gm_record_kind),                                                 \
    "every representation of a group map, measured, and the strategies' picks (seed 003)",                           \
    "collsim groupmap --world 1000000 --members my-group.txt --format json")                                         \
  X("comm", cs_comm_main, CS_CMD_ROWS,                                                                               \
    CS_RECORDS(&cs_comm_split_record_kind, &cs_comm_create_record_kind, &cs_ids_record_kind, &cs_space_record_kind,   \
               &cs_comm_compare_record_kind),                                                                  \
    "communicators: split, create, context ids (seed 003); create-group (seed 004); compare split schemes",          \
    "collsim comm create-group --platform torus:8x16x16/4 -n 8192 --group-size 256 --format json")                   \
  X("mcmc", cs_mcmc_main, CS_CMD_ROWS, CS_RECORDS(&cs_mcmc_record_kind),                                             \
    "the MCMC load-balancing benchmark: none, async or collective regrouping (seed 004)",                            \
    "collsim mcmc --platform torus:8x16x16/4 -n 8192 --balance async --format json")                                 \
  X("sweep", cs_sweep_main, 0, CS_NO_RECORDS,                                                                        \
    "run an experiment file (any subcommand), one CSV row per point, resumable",                                     \
    "collsim sweep experiments/seed000-fig3.yaml --out fig3.csv")                                                    \
  X("reproduce", cs_reproduce_main, 0, CS_NO_RECORDS,                                                                \
    "recompute a paper's tables and figures into a fresh folder, compare them with results/",                        \
    "collsim reproduce seed004 --quick --out /tmp/seed004")                                                          \
  X("compare", cs_compare_main, 0, CS_NO_RECORDS,                                                                    \
    "compare two CSV files or folders of results row by row",                                                        \
    "collsim compare results/seed004 reproduce-seed004")                                                             \
  X("platform", cs_platform_main, 0, CS_RECORDS(&cs_platform_record_kind),                                           \
    "list the platform families, write one as SimGrid XML, or show its hierarchy view (--hierarchy)",               \
    "collsim platform --platform torus:8x8x16/4 --out bgp.xml")                                                      \
  X("demo", cs_demo_main, 0, CS_NO_RECORDS,                                                                          \
    "the built-in default: the three seed-000 schemes on 32,768 ranks, with a summary",                              \
    "collsim demo")                                                                                                 

/* Every entry point, declared from the table. */
#define CS_DECLARE_COMMAND(name, entry, flags, records, description, example) int entry(int argc, char **argv);
CS_COMMANDS(CS_DECLARE_COMMAND)
#undef CS_DECLARE_COMMAND

struct cs_record_kind;

typedef struct cs_command {
  const char *name;
  int (*main)(int argc, char **argv); /* argv[0] is the name */
  unsigned flags;
  const struct cs_record_kind *const *records; /* NULL-terminated; NULL: prints no records */
  const char *description;
  const char *example;
} cs_command;

extern const cs_command cs_commands[];
extern const size_t cs_ncommands;

/* The subcommand of that name, or NULL. */
const cs_command *cs_command_named(const char *name);

/* The names of the subcommands with every flag of `flags`, in table order,
 * NULL-terminated (g_free the array, not the names). */
const char **cs_command_names(unsigned flags);

#endif

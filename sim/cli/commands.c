/* The table of subcommands, built from CS_COMMANDS (commands.h). */
#include "sim/cli/commands.h"
#include "sim/cli/columns.h"
#include "sim/drivers/collective.h"
#include "sim/drivers/comm_compare.h"
#include "sim/drivers/comm_ids.h"
#include "sim/drivers/comm_run.h"
#include "sim/drivers/comm_space.h"
#include "sim/drivers/groupmap_measure.h"
#include "sim/drivers/mcmc_run.h"
#include "sim/drivers/platform_view.h"
#include "sim/drivers/spanning_tree_result.h"

#include <glib.h>
#include <string.h>

#define CS_RECORDS(...) ((const cs_record_kind *const[]){__VA_ARGS__, NULL})
#define CS_NO_RECORDS NULL
#define CS_COMMAND_ENTRY(name, entry, flags, records, description, example) \
  {name, entry, flags, records, description, example},
const cs_command cs_commands[] = {CS_COMMANDS(CS_COMMAND_ENTRY)};
#undef CS_COMMAND_ENTRY
const size_t cs_ncommands = G_N_ELEMENTS(cs_commands);

const cs_command *cs_command_named(const char *name)
{
  for (size_t i = 0; i < cs_ncommands; i++)
    if (!strcmp(name, cs_commands[i].name))
      return &cs_commands[i];
  return NULL;
}

const char **cs_command_names(unsigned flags)
{
  const char **names = g_new0(const char *, cs_ncommands + 1);
  size_t n = 0;
  for (size_t i = 0; i < cs_ncommands; i++)
    if ((cs_commands[i].flags & flags) == flags)
      names[n++] = cs_commands[i].name;
  return names;
}

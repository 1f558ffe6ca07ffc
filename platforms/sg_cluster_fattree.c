/* SimGrid 3.32's FAT_TREE clusters (sg_cluster_impl.h): a stub until the
 * emulation is written; every FAT_TREE cluster is refused. */
#include "platforms/sg_cluster_impl.h"
#include "sim/contracts/errors.h"

static bool build_stub(cs_sg_cluster *c, const char *topo_parameters, GError **err)
{
  (void)topo_parameters;
  return cs_input_error(err, "cluster %s: FAT_TREE clusters: not yet emulated", c->id);
}

const cs_sgc_topology cs_sgc_fat_tree = {.name = "FAT_TREE", .build = build_stub};

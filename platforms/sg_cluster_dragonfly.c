/* SimGrid 3.32's DRAGONFLY clusters (sg_cluster_impl.h): a stub until the
 * emulation is written; every DRAGONFLY cluster is refused. */
#include "platforms/sg_cluster_impl.h"
#include "sim/contracts/errors.h"

static bool build_stub(cs_sg_cluster *c, const char *topo_parameters, GError **err)
{
  (void)topo_parameters;
  return cs_input_error(err, "cluster %s: DRAGONFLY clusters: not yet emulated", c->id);
}

const cs_sgc_topology cs_sgc_dragonfly = {.name = "DRAGONFLY", .build = build_stub};

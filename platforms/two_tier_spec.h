/* A two-tier network (two_tier_net.h) from a whole spec, and written to a
 * file: what code outside the platform registry (the tests) uses to get a
 * cs_net itself.  Above the families: the family is chosen by the spec's
 * KIND through the registry (platforms/registry.c), among those that are
 * two-tier networks. */
#ifndef COLLSIM_TWO_TIER_SPEC_H
#define COLLSIM_TWO_TIER_SPEC_H

#include "platforms/two_tier_net.h"

/* Parse "percs:..." or "dragonfly:..."; on failure a message naming the
 * problem (domain CS_INPUT_ERROR) and *out untouched. */
bool cs_net_parse(const char *spec, cs_net *out, GError **err);

/* Write n as SimGrid XML to path, atomically. */
bool cs_net_write_xml(const cs_net *n, const char *path, GError **err);

#endif

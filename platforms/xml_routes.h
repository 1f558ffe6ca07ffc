/* collsim's own router for a user's SimGrid 3.32 platform file: the links
 * and routes SimGrid would give, without loading SimGrid (the untimed path
 * of issue 27), and the hierarchy of the file's zones.  See xml_routes.c
 * for the rules (routing, tiers, levels). */
#ifndef COLLSIM_XML_ROUTES_H
#define COLLSIM_XML_ROUTES_H

#include "platforms/xml_validate.h"
#include "sim/contracts/hierarchy.h"
#include "sim/contracts/netmap.h"

#include <glib.h>
#include <stdint.h>

/* The file's links and routes: nodes = the file's hosts in
 * cs_xml_platform_host order (natural order of names); links with
 * SimGrid's names (a split-duplex link's halves "<id>_UP", "<id>_DOWN"),
 * then the links of its <cluster> zones, then SimGrid's internal
 * "__loopback__" if a route takes it.  The route from a to b is
 * sg_host_get_route's (-1 where SimGrid has none or would abort).  x must
 * outlive the map.  NULL with err (CS_INPUT_ERROR) when the file uses what
 * this router does not know (Vivaldi, Wifi or <zone routing="Cluster">
 * zones, <include>, a <link_ctn> naming no link). */
cs_netmap *cs_xml_routes_netmap(const cs_xml_platform *x, GError **err);

/* The hierarchy of the file's zones (levels, a table of indices owned by
 * x), then node and core (`cores` per host). */
void cs_xml_routes_hierarchy(const cs_xml_platform *x, int64_t cores, cs_hierarchy *out);

#endif

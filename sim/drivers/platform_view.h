/* `collsim platform --hierarchy`: the view of a machine the algorithms read
 * (sim/contracts/hierarchy.h) and its links per tier (its netmap,
 * sim/contracts/netmap.h), as one record: no SimGrid involved. */
#ifndef COLLSIM_PLATFORM_VIEW_H
#define COLLSIM_PLATFORM_VIEW_H

#include "platforms/platform.h"
#include "sim/drivers/record.h"

extern const cs_record_kind cs_platform_record_kind;

/* The record of a resolved platform; NULL with err if its links cannot be
 * read. */
cs_record *cs_platform_view(const cs_platform *p, GError **err);

#endif

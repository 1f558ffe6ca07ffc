/* The platform families: one line per family, selected by the KIND of a
 * spec (platforms/platform.h).  `collsim platform --list` prints this table.
 * Each family is defined in the file named after it. */
#include "platforms/platform.h"

#include <string.h>

extern const cs_platform_family cs_platform_torus;
extern const cs_platform_family cs_platform_percs;
extern const cs_platform_family cs_platform_dragonfly;
extern const cs_platform_family cs_platform_smp;
extern const cs_platform_family cs_platform_cpm;
extern const cs_platform_family cs_platform_fattree;
extern const cs_platform_family cs_platform_file;

static const cs_platform_family *const families[] = {
    &cs_platform_torus,
    &cs_platform_percs,
    &cs_platform_dragonfly,
    &cs_platform_smp,
    &cs_platform_cpm,
    &cs_platform_fattree,
    &cs_platform_file,
};

size_t cs_platform_family_count(void) { return G_N_ELEMENTS(families); }

const cs_platform_family *cs_platform_family_at(size_t i)
{
  return i < cs_platform_family_count() ? families[i] : NULL;
}

const cs_platform_family *cs_platform_family_find(const char *kind)
{
  for (size_t i = 0; i < cs_platform_family_count(); i++)
    if (strcmp(families[i]->kind, kind) == 0)
      return families[i];
  return NULL;
}

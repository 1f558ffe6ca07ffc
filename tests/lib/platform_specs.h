/* Small platforms of every registered family, for the registry-wide tests:
 * the properties of the schedules (replay, pattern against brute force,
 * timed against untimed) must hold on every platform a user can name, in
 * order or spread, with a second tier or without. */
#ifndef COLLSIM_TEST_PLATFORM_SPECS_H
#define COLLSIM_TEST_PLATFORM_SPECS_H

#include "platforms/platform.h"

#include <check.h>
#include <string.h>

static const char *const TEST_PLATFORMS[] = {
    "percs:3,2,2",          "percs:2,3,1",         "percs:1,4,1",
    "dragonfly:4,2,2,1,2",  "dragonfly:3,2,1,2,1", "torus:2x2x2/2",
    "torus:3x2x2/1",        "smp:3x2@100",         "smp:2x3@100/map=inorder",
    "cpm:2,2,2",
};
#define N_TEST_PLATFORMS (sizeof TEST_PLATFORMS / sizeof TEST_PLATFORMS[0])

/* The two-tier view of a spec, every core a rank (the view is a value: the
 * platform is freed). */
static inline cs_two_tier test_platform_view(const char *spec)
{
  GError *err = NULL;
  cs_platform *p = cs_platform_parse(spec, &err);
  ck_assert_msg(p != NULL, "%s: %s", spec, err ? err->message : "?");
  ck_assert_msg(cs_platform_resolve(p, cs_platform_slots(p), &err), "%s: %s", spec, err ? err->message : "?");
  cs_two_tier tt;
  cs_platform_two_tier(p, &tt);
  cs_platform_free(p);
  return tt;
}

/* Every family of the registry that builds platforms has a spec above (the
 * file family is exercised by tests/unit/platforms.c with a written file). */
static inline void test_platforms_cover_registry(void)
{
  for (size_t i = 0; i < cs_platform_family_count(); i++) {
    const char *kind = cs_platform_family_at(i)->kind;
    bool found = strcmp(kind, "file") == 0;
    for (size_t s = 0; s < N_TEST_PLATFORMS && !found; s++)
      found = strncmp(TEST_PLATFORMS[s], kind, strlen(kind)) == 0 && TEST_PLATFORMS[s][strlen(kind)] == ':';
    ck_assert_msg(found, "platform family %s has no test platform in tests/lib/platform_specs.h", kind);
  }
}

#endif

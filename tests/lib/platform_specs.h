/* Small platforms of every registered family, for the registry-wide tests:
 * the properties of the schedules (replay, pattern against brute force,
 * timed against untimed) must hold on every platform a user can name, in
 * order or spread, with a second tier or without. */
#ifndef COLLSIM_TEST_PLATFORM_SPECS_H
#define COLLSIM_TEST_PLATFORM_SPECS_H

#include "platforms/platform.h"

#include <check.h>
#include <string.h>

/* Every family's examples (cs_platform_family.examples), in registry
 * order: a family joins the registry-wide tests by its own file. */
static inline const char *const *test_platforms(size_t *count)
{
  static const char **all;
  static size_t n;
  if (!all) {
    GPtrArray *a = g_ptr_array_new();
    for (size_t i = 0; i < cs_platform_family_count(); i++)
      for (const char *const *e = cs_platform_family_at(i)->examples; e && *e; e++)
        g_ptr_array_add(a, (gpointer)*e);
    n = a->len;
    g_ptr_array_add(a, NULL);
    all = (const char **)g_ptr_array_free(a, FALSE);
  }
  if (count)
    *count = n;
  return all;
}
#define TEST_PLATFORMS (test_platforms(NULL))
static inline size_t test_platforms_count(void)
{
  size_t n;
  test_platforms(&n);
  return n;
}
#define N_TEST_PLATFORMS (test_platforms_count())

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

/* Every family of the registry that builds platforms (it writes XML) has
 * examples, and each example is a platform of its own family. */
static inline void test_platforms_cover_registry(void)
{
  for (size_t i = 0; i < cs_platform_family_count(); i++) {
    const cs_platform_family *f = cs_platform_family_at(i);
    ck_assert_msg(!f->write_xml || (f->examples && f->examples[0]), "platform family %s has no examples", f->kind);
    for (const char *const *e = f->examples; e && *e; e++) {
      GError *err = NULL;
      cs_platform *p = cs_platform_parse(*e, &err);
      ck_assert_msg(p && p->family == f, "example %s of %s: %s", *e, f->kind, err ? err->message : "another family");
      cs_platform_free(p);
    }
  }
}

#endif

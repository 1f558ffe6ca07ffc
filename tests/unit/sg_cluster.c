/* Tests of collsim's emulation of SimGrid's cluster zones
 * (platforms/sg_cluster.h) against SimGrid itself (filled in below). */
#include "platforms/sg_cluster.h"

#include <check.h>
#include <stdlib.h>

START_TEST(test_placeholder)
{
  ck_assert(1);
}
END_TEST

int main(void)
{
  Suite *s = suite_create("sg_cluster");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, test_placeholder);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

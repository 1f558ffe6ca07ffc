/* Message-count arithmetic shared by the communicator tests
 * (check_comm.c, check_comm_layer.c). */
#ifndef COLLSIM_TESTS_COMM_FORMULAS_H
#define COLLSIM_TESTS_COMM_FORMULAS_H

#include <stdint.h>

/* ceil(lg n): Bruck's rounds. */
static inline int64_t ceil_lg(int64_t n)
{
  int64_t k = 0;
  while ((INT64_C(1) << k) < n)
    k++;
  return k;
}

/* Recursive-doubling allreduce: 2 rem + pof2 lg pof2, pof2 the largest
 * power of two <= n, rem = n - pof2. */
static inline int64_t allreduce_msgs(int64_t n)
{
  int64_t pof2 = 1, lg = 0;
  while (pof2 * 2 <= n) {
    pof2 *= 2;
    lg++;
  }
  return 2 * (n - pof2) + pof2 * lg;
}

#endif

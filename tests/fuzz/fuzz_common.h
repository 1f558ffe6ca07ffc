/* What every libFuzzer harness here shares: CHECK (a property violated
 * aborts with the harness's name, FUZZ_NAME, defined before including this)
 * and LLVMFuzzerInitialize (a g_return_if_fail or g_warning inside collsim
 * is a bug too, so GLib criticals and warnings are fatal). */
#ifndef COLLSIM_FUZZ_COMMON_H
#define COLLSIM_FUZZ_COMMON_H

#include <glib.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef FUZZ_NAME
#error "define FUZZ_NAME before including tests/fuzz/fuzz_common.h"
#endif

#define CHECK(cond, ...)                                                                                           \
  do {                                                                                                             \
    if (!(cond)) {                                                                                                 \
      fprintf(stderr, FUZZ_NAME ": property violated: %s\n  ", #cond);                                            \
      fprintf(stderr, __VA_ARGS__);                                                                                \
      fputc('\n', stderr);                                                                                         \
      abort();                                                                                                     \
    }                                                                                                              \
  } while (0)

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
  (void)argc;
  (void)argv;
  g_log_set_always_fatal(G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING);
  return 0;
}

#endif

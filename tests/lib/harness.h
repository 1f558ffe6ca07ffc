/* Helpers shared by the tests that drive the collsim binary: run it with an
 * argument vector and capture what it did, read a value out of its JSON
 * result, and manage a temporary directory.
 *
 * The binary is $COLLSIM (set by `make check`), else the collsim two folders
 * above the test program (tests/cli/NAME), else ./collsim. */
#ifndef COLLSIM_TESTS_HARNESS_H
#define COLLSIM_TESTS_HARNESS_H

#include <glib.h>
#include <stdarg.h>

typedef struct harness_result {
  int exit_status;  /* exit code, or -1 when the process was killed */
  int term_signal;  /* the signal that killed it, or 0 */
  char *out;        /* everything written on stdout (never NULL) */
  char *err;        /* everything written on stderr (never NULL), less the
                       sanitizer build's notice about stack switches */
} harness_result;

/* Path of the collsim binary under test (static storage). */
const char *harness_collsim(void);

/* Run collsim with args (NULL-terminated, without the program name) in the
 * current directory.  Fails the current Check test when it cannot start. */
/* Runs that follow (until called with FALSE) are stripped, before exec, of
 * the capabilities that let root read and search files whatever their mode
 * (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH, dropped from the bounding set):
 * a file of mode 0 is unreadable to them even when the tests run as root
 * (CI does).  Other users lack those capabilities anyway. */
void harness_obey_file_modes(gboolean on);
void harness_run(harness_result *r, const char *const *args);
/* Same, arguments given as a NULL-terminated list. */
/* The NULL-terminated string arguments from `first` on, as a NULL-terminated
 * array (free with g_ptr_array_free(args, TRUE); the strings are not copied). */
GPtrArray *harness_args_va(const char *first, va_list ap);
void harness_runl(harness_result *r, const char *first, ...) G_GNUC_NULL_TERMINATED;
void harness_result_clear(harness_result *r);
/* Bad input: runs collsim with the arguments from `first` on plus
 * "--out DIR/result.out"; fails the current test unless it exits 2 with one
 * line on stderr containing `word`, nothing on stdout and no output file. */
void harness_expect_bad(const char *dir, const char *word, const char *first, ...) G_GNUC_NULL_TERMINATED;

/* Number of '\n' in text. */
int harness_count_lines(const char *text);

/* The value at `path` in collsim's JSON result, parsed as JSON: member names
 * separated by dots from the root object down ("messages" is the top-level
 * key, "tiers.L1.links" the member "links" of "L1" of "tiers"; a key is never
 * looked for anywhere else).  Text that is not one line holding one JSON
 * document fails the current test.  Each returns FALSE when the path is absent or its value has
 * another type (harness_json_double accepts an integer too). */
gboolean harness_json_int(const char *json, const char *path, gint64 *value);
gboolean harness_json_double(const char *json, const char *path, double *value);
gboolean harness_json_bool(const char *json, const char *path, gboolean *value);
/* TRUE when the path is present, whatever its value (null included). */
gboolean harness_json_has(const char *json, const char *path);
/* The member names of the object at path, in their order (g_strfreev), or
 * NULL when there is no object there. */
char **harness_json_members(const char *json, const char *path);

/* A fresh temporary directory (free with harness_tmpdir_remove, which also
 * deletes its content, recursively). */
char *harness_tmpdir_new(void);
/* A fresh directory inside parent (e.g. one per test inside one per test
 * case: Check skips a checked teardown after a failure, an unchecked teardown
 * of the parent still cleans up). */
char *harness_tmpdir_new_in(const char *parent);
void harness_tmpdir_remove(char *dir);
/* dir/name, newly allocated. */
char *harness_path(const char *dir, const char *name);
/* Write text to dir/name; returns the path (newly allocated). */
char *harness_write_file(const char *dir, const char *name, const char *text);
/* Content of a file, or NULL when it cannot be read. */
char *harness_read_file(const char *path);

#endif

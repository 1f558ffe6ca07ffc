/* Unit tests of the paths of a run (issue 25, defects 3 and 9): reading the
 * user's input files (cs_read_user_file, cs_input_path: regular files up to
 * a cap, nothing else, without blocking), output paths and atomic writes
 * (messages name the user's path, never a temporary file), the removal of
 * tracked paths that a signal or an exit triggers, and the TMPDIR check. */
#include "sim/contracts/errors.h"
#include "sim/contracts/input_path.h"
#include "sim/contracts/output_path.h"
#include "sim/contracts/signals.h"
#include "sim/contracts/tempdir.h"
#include "sim/engine/forked.h"

#include <check.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static char *dir;

static void setup(void)
{
  dir = g_dir_make_tmp("check_paths-XXXXXX", NULL);
  ck_assert_ptr_nonnull(dir);
}

static void remove_tree(const char *path)
{
  GDir *d = g_dir_open(path, 0, NULL);
  const char *name;
  while (d && (name = g_dir_read_name(d)) != NULL) {
    char *p = g_build_filename(path, name, NULL);
    if (g_file_test(p, G_FILE_TEST_IS_DIR) && !g_file_test(p, G_FILE_TEST_IS_SYMLINK))
      remove_tree(p);
    else
      g_unlink(p);
    g_free(p);
  }
  if (d)
    g_dir_close(d);
  g_rmdir(path);
}

static void teardown(void)
{
  remove_tree(dir);
  g_free(dir);
}

static char *in_dir(const char *name) { return g_build_filename(dir, name, NULL); }

static char *write_in_dir(const char *name, const char *text)
{
  char *p = in_dir(name);
  ck_assert(g_file_set_contents(p, text, -1, NULL));
  return p;
}

/* Number of entries in a folder. */
static int entries(const char *path)
{
  GDir *d = g_dir_open(path, 0, NULL);
  int n = 0;
  while (d && g_dir_read_name(d))
    n++;
  if (d)
    g_dir_close(d);
  return n;
}

static double now_s(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* ---- cs_read_user_file ---- */

START_TEST(test_read_regular_file)
{
  char *p = write_in_dir("members.txt", "1 2 3\n");
  char *text = NULL;
  size_t len = 0;
  GError *e = NULL;
  ck_assert(cs_read_user_file("--members", p, &text, &len, &e));
  ck_assert_str_eq(text, "1 2 3\n");
  ck_assert_uint_eq(len, 6);
  g_free(text);
  g_free(p);
}
END_TEST

START_TEST(test_read_empty_file)
{
  char *p = write_in_dir("empty.txt", "");
  char *text = NULL;
  size_t len = 99;
  ck_assert(cs_read_user_file(NULL, p, &text, &len, NULL));
  ck_assert_str_eq(text, "");
  ck_assert_uint_eq(len, 0);
  g_free(text);
  g_free(p);
}
END_TEST

/* A file larger than the first read's buffer: read whole. */
START_TEST(test_read_large_file_whole)
{
  GString *s = g_string_new(NULL);
  for (int i = 0; i < 200000; i++)
    g_string_append_printf(s, "%d\n", i);
  char *p = write_in_dir("big.txt", s->str);
  char *text = NULL;
  size_t len = 0;
  ck_assert(cs_read_user_file(NULL, p, &text, &len, NULL));
  ck_assert_uint_eq(len, s->len);
  ck_assert(memcmp(text, s->str, s->len) == 0);
  g_free(text);
  g_free(p);
  g_string_free(s, TRUE);
}
END_TEST

/* The files of /proc say size 0: read to their end all the same. */
START_TEST(test_read_file_of_unknown_size)
{
  char *text = NULL;
  size_t len = 0;
  GError *e = NULL;
  ck_assert_msg(cs_read_user_file(NULL, "/proc/self/status", &text, &len, &e), "%s", e ? e->message : "");
  ck_assert(len > 0);
  ck_assert_ptr_nonnull(strstr(text, "Pid:"));
  g_free(text);
}
END_TEST

static void expect_refused(const char *what, const char *path, const char *problem)
{
  char *text = (char *)"untouched";
  GError *e = NULL;
  double t0 = now_s();
  ck_assert(!cs_read_user_file(what, path, &text, NULL, &e));
  ck_assert_msg(now_s() - t0 < 1, "refusing %s took %.1f s", path, now_s() - t0);
  ck_assert_ptr_null(text);
  ck_assert_ptr_nonnull(e);
  ck_assert(e->domain == CS_INPUT_ERROR);
  ck_assert_msg(strstr(e->message, path) && strstr(e->message, problem), "message: %s", e->message);
  ck_assert_ptr_null(strchr(e->message, '\n'));
  g_error_free(e);
}

START_TEST(test_read_refuses_character_device)
{
  expect_refused("--members", "/dev/zero", "not a regular file (a character device)");
}
END_TEST

/* A named pipe with no writer: refused at once (opening it for reading
 * would wait for a writer). */
START_TEST(test_read_refuses_named_pipe_without_blocking)
{
  char *p = in_dir("fifo");
  ck_assert_int_eq(mkfifo(p, 0644), 0);
  alarm(5); /* a blocked open ends the test instead of hanging it */
  expect_refused("--members", p, "not a regular file (a named pipe)");
  alarm(0);
  g_free(p);
}
END_TEST

START_TEST(test_read_refuses_folder)
{
  expect_refused(NULL, dir, "not a regular file (a folder)");
}
END_TEST

START_TEST(test_read_missing_file)
{
  char *p = in_dir("missing.txt");
  expect_refused(NULL, p, "No such file");
  g_free(p);
}
END_TEST

/* Above the cap: refused by its size, without reading it (a sparse file,
 * so the test writes nothing). */
START_TEST(test_read_refuses_file_above_cap)
{
  char *p = in_dir("huge.txt");
  int fd = open(p, O_WRONLY | O_CREAT, 0644);
  ck_assert_int_ge(fd, 0);
  ck_assert_int_eq(ftruncate(fd, (off_t)CS_INPUT_MAX_BYTES + 1), 0);
  close(fd);
  expect_refused(NULL, p, "more than an input file may hold (1 GiB)");
  g_free(p);
}
END_TEST

/* A file of exactly the cap is still an input (checked by size only: the
 * test must not read a GiB). */
START_TEST(test_input_path_accepts_file_at_cap)
{
  char *p = in_dir("cap.txt");
  int fd = open(p, O_WRONLY | O_CREAT, 0644);
  ck_assert_int_ge(fd, 0);
  ck_assert_int_eq(ftruncate(fd, (off_t)CS_INPUT_MAX_BYTES), 0);
  close(fd);
  char *found = cs_input_path("--members", p, NULL);
  ck_assert_ptr_nonnull(found);
  g_free(found);
  g_free(p);
}
END_TEST

/* ---- cs_input_path: the same refusals when options are parsed ---- */

static void expect_path_refused(const char *path, const char *problem)
{
  GError *e = NULL;
  char *found = cs_input_path("--members", path, &e);
  ck_assert_ptr_null(found);
  ck_assert_ptr_nonnull(e);
  ck_assert_msg(strstr(e->message, "--members") && strstr(e->message, path) && strstr(e->message, problem),
                "message: %s", e->message);
  g_error_free(e);
}

START_TEST(test_input_path_refuses_special_files)
{
  char *fifo = in_dir("fifo");
  ck_assert_int_eq(mkfifo(fifo, 0644), 0);
  expect_path_refused("/dev/zero", "a character device");
  expect_path_refused(fifo, "a named pipe");
  expect_path_refused(dir, "a folder");
  g_free(fifo);
}
END_TEST

START_TEST(test_input_path_accepts_regular_file)
{
  char *p = write_in_dir("ok.txt", "1\n");
  char *found = cs_input_path("--members", p, NULL);
  ck_assert_str_eq(found, p);
  g_free(found);
  g_free(p);
}
END_TEST

/* ---- output paths ---- */

/* "DIR/" names a folder: refused before the run, naming the path. */
START_TEST(test_output_path_ending_in_slash)
{
  char *p = g_strdup_printf("%s/new/", dir);
  GError *e = NULL;
  ck_assert(!cs_check_output_path("--out", p, true, &e));
  ck_assert_msg(strstr(e->message, "--out") && strstr(e->message, p) && strstr(e->message, "folder"), "%s",
                e->message);
  g_error_free(e);
  g_free(p);
}
END_TEST

/* A folder where no file can be made (root writes anywhere access() says
 * so, not in /proc): refused before the run. */
START_TEST(test_output_path_in_proc)
{
  GError *e = NULL;
  ck_assert(!cs_check_output_path("--trace", "/proc/t.csv", false, &e));
  ck_assert_msg(strstr(e->message, "--trace") && strstr(e->message, "/proc"), "%s", e->message);
  ck_assert_ptr_null(strstr(e->message, "XXXXXX"));
  g_error_free(e);
  ck_assert_int_eq(entries(dir), 0);
}
END_TEST

START_TEST(test_output_path_good)
{
  char *p = g_strdup_printf("%s/a/b/out.csv", dir);
  ck_assert(cs_check_output_path("--out", p, true, NULL));
  ck_assert_int_eq(entries(dir), 0); /* the probe is gone, nothing made yet */
  g_free(p);
}
END_TEST

START_TEST(test_atomic_write_and_replace)
{
  char *p = in_dir("out.csv");
  ck_assert(cs_write_file_atomic(p, "a\n", 2, NULL));
  ck_assert(cs_write_file_atomic(p, "b,c\n", 4, NULL));
  char *text = NULL;
  ck_assert(g_file_get_contents(p, &text, NULL, NULL));
  ck_assert_str_eq(text, "b,c\n");
  ck_assert_int_eq(entries(dir), 1); /* no temporary file beside it */
  g_free(text);
  g_free(p);
}
END_TEST

/* The destination cannot be written: the message names it and the problem,
 * never the temporary file or GLib's rename. */
START_TEST(test_atomic_write_failure_names_the_path)
{
  char *file = write_in_dir("plain", "x");
  char *p = g_strdup_printf("%s/out.csv", file); /* under a file */
  GError *e = NULL;
  ck_assert(!cs_write_file_atomic(p, "a\n", 2, &e));
  ck_assert_msg(strstr(e->message, p), "%s", e->message);
  ck_assert_ptr_null(strstr(e->message, ".collsim-"));
  ck_assert_ptr_null(strstr(e->message, "rename"));
  g_clear_error(&e);
  char *slash = g_strdup_printf("%s/sub/", dir);
  ck_assert(!cs_write_file_atomic(slash, "a\n", 2, &e));
  ck_assert_msg(strstr(e->message, slash) && !strstr(e->message, ".collsim-") && !strstr(e->message, "rename"),
                "%s", e->message);
  g_error_free(e);
  ck_assert_int_eq(entries(dir), 1);
  g_free(slash);
  g_free(p);
  g_free(file);
}
END_TEST

/* A file moved from the temporary folder: a failure names the destination. */
START_TEST(test_commit_failure_names_the_destination)
{
  char *tmp = cs_tempfile("commit", ".csv", NULL);
  ck_assert_ptr_nonnull(tmp);
  char *dest = g_strdup_printf("%s/gone/", dir);
  GError *e = NULL;
  ck_assert(!cs_tempfile_commit(tmp, dest, &e));
  ck_assert_msg(strstr(e->message, dest) && !strstr(e->message, tmp), "%s", e->message);
  ck_assert(!g_file_test(tmp, G_FILE_TEST_EXISTS));
  g_error_free(e);
  g_free(dest);
  g_free(tmp);
}
END_TEST

/* ---- removal of tracked paths ---- */

START_TEST(test_cleanup_removes_tracked_files_and_empty_folders)
{
  char *outer = in_dir("made"), *inner = in_dir("made/deeper"), *file = in_dir("made/deeper/tmp.csv");
  char *kept = in_dir("kept"), *kept_file = in_dir("kept/result.csv");
  ck_assert_int_eq(g_mkdir(outer, 0755), 0);
  ck_assert_int_eq(g_mkdir(inner, 0755), 0);
  ck_assert_int_eq(g_mkdir(kept, 0755), 0);
  ck_assert(g_file_set_contents(file, "x", -1, NULL));
  ck_assert(g_file_set_contents(kept_file, "x", -1, NULL));
  ck_assert(cs_signals_track(outer, true)); /* outermost first, as made */
  ck_assert(cs_signals_track(inner, true));
  ck_assert(cs_signals_track(file, false));
  ck_assert(cs_signals_track(kept, true)); /* holds an output: stays */
  cs_signals_cleanup();
  ck_assert(!g_file_test(outer, G_FILE_TEST_EXISTS));
  ck_assert(g_file_test(kept_file, G_FILE_TEST_EXISTS));
  g_free(outer);
  g_free(inner);
  g_free(file);
  g_free(kept);
  g_free(kept_file);
}
END_TEST

START_TEST(test_untracked_path_stays)
{
  char *file = write_in_dir("result.csv", "x");
  ck_assert(cs_signals_track(file, false));
  cs_signals_untrack(file);
  cs_signals_cleanup();
  ck_assert(g_file_test(file, G_FILE_TEST_EXISTS));
  g_free(file);
}
END_TEST

/* A forked child's cleanup leaves its parent's paths alone. */
START_TEST(test_child_leaves_parent_paths)
{
  char *file = write_in_dir("parent.tmp", "x");
  ck_assert(cs_signals_track(file, false));
  pid_t pid = fork();
  if (pid == 0) {
    cs_signals_cleanup();
    _exit(0);
  }
  int status;
  waitpid(pid, &status, 0);
  ck_assert(g_file_test(file, G_FILE_TEST_EXISTS));
  cs_signals_cleanup();
  ck_assert(!g_file_test(file, G_FILE_TEST_EXISTS));
  g_free(file);
}
END_TEST

/* SIGTERM: the tracked temporary file is removed and the process ends by
 * the signal (its status says so). */
START_TEST(test_sigterm_removes_and_ends_by_signal)
{
  char *file = in_dir("run.tmp");
  pid_t pid = fork();
  if (pid == 0) {
    signal(SIGTERM, SIG_DFL); /* as collsim starts (Check's runner handles it) */
    cs_signals_install("test");
    g_file_set_contents(file, "x", -1, NULL);
    cs_signals_track(file, false);
    raise(SIGTERM);
    _exit(0); /* not reached */
  }
  int status;
  waitpid(pid, &status, 0);
  ck_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM);
  ck_assert(!g_file_test(file, G_FILE_TEST_EXISTS));
  g_free(file);
}
END_TEST

/* Out of memory in a forked simulation child: the parent gets the line as
 * an internal failure (exit status 1 at the front end), not "died". */
static gboolean run_out_of_memory(void *arg, void *out, GError **err)
{
  (void)arg;
  (void)out;
  (void)err;
  cs_signals_out_of_memory("test allocation");
}

START_TEST(test_forked_child_reports_out_of_memory)
{
  int out = 0;
  GError *e = NULL;
  ck_assert(!cs_run_forked(run_out_of_memory, NULL, &out, sizeof out, &e));
  ck_assert(e->domain == CS_INTERNAL_ERROR);
  ck_assert_msg(g_str_has_prefix(e->message, "out of memory (test allocation)"), "%s", e->message);
  g_error_free(e);
}
END_TEST

/* ---- TMPDIR ---- */

static void expect_tmpdir_refused(const char *value, const char *problem)
{
  g_setenv("TMPDIR", value, TRUE);
  GError *e = NULL;
  gboolean ok = cs_tempdir_check(&e);
  g_unsetenv("TMPDIR");
  ck_assert_msg(!ok, "TMPDIR=%.40s accepted", value);
  ck_assert(e->domain == CS_INPUT_ERROR);
  ck_assert_msg(g_str_has_prefix(e->message, "TMPDIR=") && strstr(e->message, problem), "%s", e->message);
  ck_assert_ptr_null(strchr(e->message, '\n'));
  g_error_free(e);
}

START_TEST(test_tmpdir_unusable)
{
  char *file = write_in_dir("a-file", "x");
  char *missing = in_dir("missing");
  char *longer = g_strnfill(4000, 'a');
  char *too_long = g_strdup_printf("%s/%s", dir, longer);
  expect_tmpdir_refused(missing, "No such file");
  expect_tmpdir_refused(file, "not a folder");
  expect_tmpdir_refused("/proc", "cannot make a folder in it");
  expect_tmpdir_refused(too_long, "too long");
  g_free(file);
  g_free(missing);
  g_free(longer);
  g_free(too_long);
}
END_TEST

START_TEST(test_tmpdir_usable)
{
  g_setenv("TMPDIR", dir, TRUE);
  GError *e = NULL;
  gboolean ok = cs_tempdir_check(&e);
  g_unsetenv("TMPDIR");
  ck_assert_msg(ok, "%s", e ? e->message : "");
  ck_assert_int_eq(entries(dir), 0); /* the probe folder is gone */
}
END_TEST

static Suite *paths_suite(void)
{
  Suite *s = suite_create("paths");
  TCase *in = tcase_create("input");
  tcase_add_checked_fixture(in, setup, teardown);
  tcase_add_test(in, test_read_regular_file);
  tcase_add_test(in, test_read_empty_file);
  tcase_add_test(in, test_read_large_file_whole);
  tcase_add_test(in, test_read_file_of_unknown_size);
  tcase_add_test(in, test_read_refuses_character_device);
  tcase_add_test(in, test_read_refuses_named_pipe_without_blocking);
  tcase_add_test(in, test_read_refuses_folder);
  tcase_add_test(in, test_read_missing_file);
  tcase_add_test(in, test_read_refuses_file_above_cap);
  tcase_add_test(in, test_input_path_accepts_file_at_cap);
  tcase_add_test(in, test_input_path_refuses_special_files);
  tcase_add_test(in, test_input_path_accepts_regular_file);
  suite_add_tcase(s, in);
  TCase *out = tcase_create("output");
  tcase_add_checked_fixture(out, setup, teardown);
  tcase_add_test(out, test_output_path_ending_in_slash);
  tcase_add_test(out, test_output_path_in_proc);
  tcase_add_test(out, test_output_path_good);
  tcase_add_test(out, test_atomic_write_and_replace);
  tcase_add_test(out, test_atomic_write_failure_names_the_path);
  tcase_add_test(out, test_commit_failure_names_the_destination);
  suite_add_tcase(s, out);
  TCase *stop = tcase_create("stop");
  tcase_add_checked_fixture(stop, setup, teardown);
  tcase_add_test(stop, test_cleanup_removes_tracked_files_and_empty_folders);
  tcase_add_test(stop, test_untracked_path_stays);
  tcase_add_test(stop, test_child_leaves_parent_paths);
  tcase_add_test(stop, test_sigterm_removes_and_ends_by_signal);
  tcase_add_test(stop, test_forked_child_reports_out_of_memory);
  tcase_add_test(stop, test_tmpdir_unusable);
  tcase_add_test(stop, test_tmpdir_usable);
  suite_add_tcase(s, stop);
  return s;
}

int main(void)
{
  SRunner *r = srunner_create(paths_suite());
  srunner_run_all(r, CK_NORMAL);
  int failed = srunner_ntests_failed(r);
  srunner_free(r);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

/* Unit tests of the experiment parser (sim/sweep/experiment.c), the resume logic
 * and the runner of `collsim sweep` (sim/sweep/sweep.c), and the progress line.
 *
 * The end-to-end tests run cs_sweep_main in-process.  The sweep starts each
 * point as /proc/self/exe, i.e. this test program, so main() answers
 * `tests/unit/sweep tree ...` with a fake `collsim tree` that prints one CSV row
 * with the configuration columns a real run adds (its config_key computed
 * from its own arguments, as collsim's front end does; no SimGrid involved)
 * and fails on request (environment FAKE_FAIL, FAKE_BAD, FAKE_CRASH =
 * "algo:n").  tests/cli/sweep.c runs the real binary. */
#include "sim/sweep/experiment.h"
#include "sim/drivers/run_config.h"
#include "sim/contracts/progress.h"
#include "sim/drivers/spanning_tree_result.h"
#include "sim/cli/commands.h"
#include "sim/cli/frontend.h"
#include "sim/cli/option_answer.h"
#include "sim/contracts/csv.h"
#include "sim/sweep/option_query.h"
#include "sim/sweep/sweep.h"
#include "sim/sweep/point_cost.h"

#include <check.h>
#include <fcntl.h>
#include <stdarg.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* ------------------------------------------------------------ helpers ---- */

static const char *srcdir(void)
{
  const char *d = g_getenv("COLLSIM_SRCDIR");
  if (d && *d)
    return d;
#ifdef COLLSIM_SRCDIR
  return COLLSIM_SRCDIR;
#else
  return ".";
#endif
}

/* The output options the fakes below declare (as collsim's collective does:
 * --out, --trace, --per-link, ... of type CS_OPT_PATH_OUT), and one that
 * does not write a file. */
static const cs_opt FAKE_OPTIONS[] = {
    {"out", 'o', CS_OPT_PATH_OUT, NULL, "FILE", "", 0, 0, 0, 0, NULL},
    {"trace", 0, CS_OPT_PATH_OUT, NULL, "FILE", "", 0, 0, 0, 0, NULL},
    {"per-link", 0, CS_OPT_PATH_OUT, NULL, "FILE", "", 0, 0, 0, 0, NULL},
    {"script", 0, CS_OPT_PATH_IN, NULL, "FILE", "", 0, 0, 0, 0, NULL},
    {"links", 0, CS_OPT_FLAG, NULL, NULL, "", 0, 0, 0, 0, NULL},
};

/* A fake's answer to the sweep's question (sim/sweep/option_query.h). */
static void fake_answer_options(void)
{
  GPtrArray *opts = g_ptr_array_new();
  for (size_t i = 0; i < G_N_ELEMENTS(FAKE_OPTIONS); i++)
    g_ptr_array_add(opts, (gpointer)&FAKE_OPTIONS[i]);
  cs_option_query_answer(opts);
  g_ptr_array_unref(opts);
}

/* The output options the parser is told of, in the parser's tests. */
static char **test_outputs(const char *command, gpointer data, GError **err)
{
  (void)data;
  (void)err;
  (void)command;
  const char *names[] = {"out", "trace", "per-link", NULL};
  return g_strdupv((char **)names);
}

/* The host the parser's tests run under: collsim's subcommands that print
 * rows (sim/cli/commands.h) and the output options above. */
static const cs_experiment_host *test_host(void)
{
  static cs_experiment_host host = {.outputs = test_outputs};
  if (!host.commands)
    host.commands = cs_command_names(CS_CMD_ROWS);
  return &host;
}

static cs_experiment *parse(const char *text, GError **err)
{
  return cs_experiment_parse(text, strlen(text), "t.yaml", test_host(), err);
}

#define BASE "name: t\nalgorithms: [rank-hash]\nn: [64]\nf: [0.5]\nk: [3]\n"

/* Parsing must fail with a message containing `want`. */
static void expect_error(const char *text, const char *want)
{
  GError *err = NULL;
  cs_experiment *e = parse(text, &err);
  ck_assert_msg(e == NULL, "accepted:\n%s", text);
  ck_assert_ptr_nonnull(err);
  ck_assert_msg(strstr(err->message, want) != NULL, "message '%s' lacks '%s'", err->message, want);
  g_error_free(err);
}

static char *tmpdir;

static void setup_tmp(void)
{
  tmpdir = g_dir_make_tmp("check-sweep-XXXXXX", NULL);
  ck_assert_ptr_nonnull(tmpdir);
}

static void rm_rf(const char *dir)
{
  GDir *d = g_dir_open(dir, 0, NULL);
  if (!d)
    return;
  const char *name;
  while ((name = g_dir_read_name(d))) {
    char *p = g_build_filename(dir, name, NULL);
    if (g_file_test(p, G_FILE_TEST_IS_DIR) && !g_file_test(p, G_FILE_TEST_IS_SYMLINK))
      rm_rf(p);
    else
      g_remove(p);
    g_free(p);
  }
  g_dir_close(d);
  g_rmdir(dir);
}

static void teardown_tmp(void)
{
  rm_rf(tmpdir);
  g_free(tmpdir);
  tmpdir = NULL;
}

static char *tmp_path(const char *name) { return g_build_filename(tmpdir, name, NULL); }

static char *write_tmp(const char *name, const char *text)
{
  char *p = tmp_path(name);
  ck_assert(g_file_set_contents(p, text, -1, NULL));
  return p;
}

static char *slurp(const char *path)
{
  char *t = NULL;
  if (!g_file_get_contents(path, &t, NULL, NULL))
    return NULL;
  return t;
}

static int count_lines(const char *text)
{
  int n = 0;
  for (const char *s = text; s && *s; s++)
    n += *s == '\n';
  return n;
}

/* Run cs_sweep_main with these arguments (after "sweep"); stdout to a file
 * whose content is returned in *out when out is not NULL. */
static int run_sweep(char **out, ...)
{
  GPtrArray *a = g_ptr_array_new();
  g_ptr_array_add(a, (gpointer) "sweep");
  va_list ap;
  va_start(ap, out);
  const char *s;
  while ((s = va_arg(ap, const char *)))
    g_ptr_array_add(a, (gpointer)s);
  va_end(ap);
  g_ptr_array_add(a, NULL);
  char *cap = tmp_path("stdout.txt");
  fflush(stdout);
  int saved = dup(1);
  int fd = open(cap, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  dup2(fd, 1);
  close(fd);
  int rc = cs_sweep_main((int)a->len - 1, (char **)a->pdata);
  fflush(stdout);
  dup2(saved, 1);
  close(saved);
  if (out)
    *out = slurp(cap);
  g_free(cap);
  g_ptr_array_unref(a);
  return rc;
}

/* ---------------------------------------------------- the fake `tree` ---- */

/* The configuration columns of a fake run of `command` with these
 * arguments: ",platform,...,config_args,collsim_version,config_key". */
static char *fake_config(const char *command, char **args)
{
  char *cargs = cs_config_args(command, args, cs_sweep_own_options), *key = cs_config_key(cargs);
  GString *s = g_string_new(",,,,,,,");
  cs_put_csv_text(s, cargs);
  g_string_append_c(s, ',');
  cs_put_csv_text(s, cs_collsim_version());
  g_string_append_printf(s, ",%s", key);
  g_free(cargs);
  g_free(key);
  return g_string_free(s, FALSE);
}

/* The value of --name=VALUE among args, or def. */
static const char *arg_value(int argc, char **argv, const char *name, const char *def)
{
  size_t len = strlen(name);
  for (int i = 1; i < argc; i++)
    if (!strncmp(argv[i], "--", 2) && !strncmp(argv[i] + 2, name, len) && argv[i][2 + len] == '=')
      return argv[i] + 3 + len;
  return def;
}

static int fake_tree(int argc, char **argv)
{
  const char *algo = arg_value(argc, argv, "algo", "?"), *n = arg_value(argc, argv, "n", "0");
  const char *torus = arg_value(argc, argv, "torus", "auto"), *plat = arg_value(argc, argv, "platform", NULL);
  char id[128];
  snprintf(id, sizeof id, "%s:%s", algo, n);
  const char *e;
  if ((e = getenv("FAKE_FAIL")) && !strcmp(e, id)) {
    fprintf(stderr, "fake failure\n");
    return 1;
  }
  if ((e = getenv("FAKE_BAD")) && !strcmp(e, id)) {
    fprintf(stderr, "fake bad input\n");
    return 2;
  }
  if ((e = getenv("FAKE_CRASH")) && !strcmp(e, id))
    abort();
  char platform[256];
  if (plat)
    snprintf(platform, sizeof platform, "%s", plat);
  else
    snprintf(platform, sizeof platform, "torus:%s/%s", strcmp(torus, "auto") ? torus : "4x4x4",
             arg_value(argc, argv, "cores", "4"));
  char *config = fake_config("tree", argv + 1);
  /* f printed like collsim does (%g) */
  printf("%s,%s,10,9,0,%g,%s,%s,%s,%s,LV08,0.001,0.0005,100,100,200,800,1600,8,12,3.5,4,4,yes,0.010%s\n", algo, n,
         atof(arg_value(argc, argv, "f", "0")), arg_value(argc, argv, "k", "0"), arg_value(argc, argv, "colors", "1"),
         arg_value(argc, argv, "seed", "1"), platform, config);
  g_free(config);
  return 0;
}

/* ------------------------------------------------------------- parser ---- */

START_TEST(parse_minimal_defaults)
{
  GError *err = NULL;
  cs_experiment *e = parse(BASE, &err);
  ck_assert_msg(e != NULL, "%s", err ? err->message : "");
  ck_assert_str_eq(e->name, "t");
  ck_assert_str_eq(e->description, "");
  ck_assert_str_eq(e->torus, "auto");
  ck_assert_int_eq(e->cores, 0);
  ck_assert_ptr_null(e->platform_file);
  ck_assert_uint_eq(e->colors->len, 1);
  ck_assert_int_eq(g_array_index(e->colors, int, 0), 1);
  ck_assert_uint_eq(e->seeds->len, 1);
  ck_assert_uint_eq(g_array_index(e->seeds, uint64_t, 0), 1);
  ck_assert_uint_eq(cs_experiment_npoints(e), 1);
  const cs_point *p = cs_experiment_point(e, 0);
  ck_assert_str_eq(p->algo, "rank-hash");
  ck_assert_int_eq(p->n, 64);
  ck_assert_double_eq(p->f, 0.5);
  ck_assert_int_eq(p->k, 3);
  cs_experiment_free(e);
}
END_TEST

START_TEST(parse_full_and_order)
{
  const char *text = "name: full\n"
                     "description: >\n  two lines\n  of text\n"
                     "platform:\n  torus: 8x8x16\n  cores: 2\n"
                     "algorithms: [rank-hash-split, comm-split]\n"
                     "n: [128, 64]\n"
                     "f: [0.1, 1]\n"
                     "k: [2, 4]\n"
                     "colors: [1, 3]\n"
                     "seeds: [7, 18446744073709551615]\n"
                     "extra_args: [\"--cfg=network/crosstraffic:0\", --no-bracket]\n";
  GError *err = NULL;
  cs_experiment *e = parse(text, &err);
  ck_assert_msg(e != NULL, "%s", err ? err->message : "");
  ck_assert_str_eq(e->description, "two lines of text\n");
  ck_assert_str_eq(e->torus, "8x8x16");
  ck_assert_int_eq(e->cores, 2);
  ck_assert_uint_eq(e->extra_args->len, 2);
  ck_assert_uint_eq(cs_experiment_npoints(e), 2 * 2 * 2 * 2 * 2 * 2);
  /* n outermost, algorithms innermost, in file order */
  const cs_point *p0 = cs_experiment_point(e, 0), *p1 = cs_experiment_point(e, 1), *p2 = cs_experiment_point(e, 2);
  ck_assert_str_eq(p0->algo, "rank-hash-split");
  ck_assert_str_eq(p1->algo, "comm-split");
  ck_assert_int_eq(p0->n, 128);
  ck_assert_uint_eq(p0->seed, 7);
  ck_assert_uint_eq(p2->seed, UINT64_MAX);
  const cs_point *last = cs_experiment_point(e, cs_experiment_npoints(e) - 1);
  ck_assert_int_eq(last->n, 64);
  ck_assert_double_eq(last->f, 1.0);
  ck_assert_int_eq(last->k, 4);
  ck_assert_int_eq(last->colors, 3);
  for (size_t i = 0; i < cs_experiment_npoints(e); i++)
    ck_assert_uint_eq(cs_experiment_point(e, i)->index, i);
  /* the second half is n = 64 */
  ck_assert_int_eq(cs_experiment_point(e, 32)->n, 64);
  ck_assert_int_eq(cs_experiment_point(e, 31)->n, 128);
  cs_experiment_free(e);
}
END_TEST

START_TEST(parse_exclude)
{
  const char *text = "name: x\nalgorithms: [centralized, rank-hash-split, comm-split]\n"
                     "n: [64, 128, 256]\nf: [0.5]\nk: [3]\ncolors: [1, 2]\n"
                     "exclude:\n"
                     "  - {algorithms: [centralized], colors: [2]}\n"
                     "  - {algorithms: [comm-split], n: [128, 256]}\n";
  GError *err = NULL;
  cs_experiment *e = parse(text, &err);
  ck_assert_msg(e != NULL, "%s", err ? err->message : "");
  /* 3 n x 2 colours x 3 algorithms = 18; minus centralized colour 2 (3) and
   * comm-split at 128, 256 (2 x 2 colours = 4) */
  ck_assert_uint_eq(cs_experiment_npoints(e), 18 - 3 - 4);
  ck_assert_uint_eq(e->excluded, 7);
  for (size_t i = 0; i < cs_experiment_npoints(e); i++) {
    const cs_point *p = cs_experiment_point(e, i);
    ck_assert(!(strcmp(p->algo, "centralized") == 0 && p->colors == 2));
    ck_assert(!(strcmp(p->algo, "comm-split") == 0 && p->n > 64));
    ck_assert_uint_eq(p->index, i);
  }
  cs_experiment_free(e);
}
END_TEST

START_TEST(parse_errors)
{
  expect_error(BASE "colour: [1]\n", "t.yaml:6: key 'colour': unknown key");
  expect_error("name: t\nalgorithms: [rank-hash]\nn: [64]\nf: [0.5]\nk: [1]\n", "t.yaml:5: key 'k'");
  expect_error("name: t\nalgorithms: [rank-hash]\nn: [64]\nf: [0.5, 1.5]\nk: [3]\n",
               "t.yaml:4: key 'f': 1.5 is outside [0, 1]");
  expect_error("name: t\nalgorithms: [rank-hash]\nn: [64]\nf: [-0.1]\nk: [3]\n", "key 'f'");
  expect_error("name: t\nalgorithms: [rank-hash]\nn: [64]\nf: [\"0.5\"]\nk: [3]\n", "quoted");
  expect_error("name: t\nalgorithms: [rank-hsh]\nn: [64]\nf: [0.5]\nk: [3]\n",
               "t.yaml:2: key 'algorithms': unknown algorithm 'rank-hsh'");
  expect_error("name: t\nalgorithms: [rank-hash]\nn: []\nf: [0.5]\nk: [3]\n", "t.yaml:3: key 'n': the list is empty");
  expect_error("name: t\nalgorithms: [rank-hash]\nn: 64\nf: [0.5]\nk: [3]\n", "key 'n': expected a list");
  expect_error("name: t\nalgorithms: [rank-hash]\nn: [0]\nf: [0.5]\nk: [3]\n", "key 'n'");
  expect_error("name: t\nalgorithms: [rank-hash]\nn: [6.5]\nf: [0.5]\nk: [3]\n", "not an integer");
  expect_error("name: t\nalgorithms: [rank-hash]\nn: [99999999999]\nf: [0.5]\nk: [3]\n", "out of range");
  expect_error(BASE "colors: [0]\n", "t.yaml:6: key 'colors'");
  expect_error(BASE "seeds: [-1]\n", "key 'seeds'");
  expect_error(BASE "seeds: []\n", "key 'seeds': the list is empty");
  expect_error("name: t\nalgorithms: [rank-hash]\nn: [64, 32, 64]\nf: [0.5]\nk: [3]\n", "64 appears twice");
  expect_error("name: t\nalgorithms: [rank-hash]\nn: [64]\nf: [0.1, 0.1000001]\nk: [3]\n", "appears twice");
  expect_error(BASE "n: [3]\n", "t.yaml:6: key 'n': appears twice");
  expect_error("name: t\nalgorithms: [rank-hash]\nn: [64]\nf: [0.5]\n", "key 'k': missing");
  expect_error("algorithms: [rank-hash]\nn: [64]\nf: [0.5]\nk: [3]\n", "key 'name': missing");
  expect_error("name:\nalgorithms: [rank-hash]\nn: [64]\nf: [0.5]\nk: [3]\n", "key 'name'");
  expect_error("name: t\nalgorithms: [rank-hash, centralized]\nn: [64]\nf: [0.5]\nk: [3]\ncolors: [1, 2]\n",
               "t.yaml:6: key 'colors': colors = 2 with algorithm 'rank-hash'");
  expect_error(BASE "n: [64\n", "YAML syntax error");
  expect_error(BASE "platform: {torus: 8x8}\n", "key 'platform.torus'");
  expect_error(BASE "platform: {torus: 1x8x8}\n", "key 'platform.torus'");
  expect_error(BASE "platform: {torus: auto, file: x.xml}\n", "not both");
  expect_error(BASE "platform: {file: surely-not-here.xml}\n", "key 'platform.file': no such file");
  expect_error(BASE "platform: {cores: 0}\n", "key 'platform.cores'");
  expect_error(BASE "platform: {fabric: x}\n", "key 'fabric': unknown key in platform");
  expect_error(BASE "platform: auto\n", "key 'platform': expected a mapping");
  expect_error(BASE "exclude: [{algorithms: [rank-hash]}]\n", "t.yaml:6: key 'exclude': every point is excluded");
  expect_error(BASE "exclude: [{}]\n", "empty rule");
  expect_error(BASE "exclude: [{n: 64}]\n", "key 'exclude.n': expected a list");
  expect_error(BASE "exclude: [{size: [64]}]\n", "unknown key in an exclude rule");
  expect_error(BASE "extra_args: --x\n", "key 'extra_args': expected a list");
  expect_error("- a\n- b\n", "t.yaml:1: expected a mapping");
  expect_error("", "t.yaml:1: the file is empty");
  expect_error(BASE "---\nname: u\n", "only one YAML document");
}
END_TEST

START_TEST(parse_platform_file_relative)
{
  setup_tmp();
  char *xml = write_tmp("plat.xml", "<?xml version='1.0'?><platform version=\"4.1\"/>\n");
  char *yaml = write_tmp("e.yaml", BASE "platform: {file: plat.xml, cores: 2}\n");
  GError *err = NULL;
  cs_experiment *e = cs_experiment_load(yaml, test_host(), &err);
  ck_assert_msg(e != NULL, "%s", err ? err->message : "");
  ck_assert_str_eq(e->platform_file, xml);
  ck_assert_ptr_null(e->torus);
  ck_assert_int_eq(e->cores, 2);
  char **argv = cs_point_argv(e, cs_experiment_point(e, 0), "collsim");
  char *line = cs_sweep_command_line(argv);
  char *want = g_strdup_printf("--platform=%s --cores=2 ", xml);
  ck_assert_msg(strstr(line, want), "%s", line);
  ck_assert_ptr_null(strstr(line, "--torus"));
  g_free(want);
  g_free(line);
  g_strfreev(argv);
  cs_experiment_free(e);
  g_free(xml);
  g_free(yaml);
  teardown_tmp();
}
END_TEST

START_TEST(parse_shipped_experiments)
{
  struct { const char *file; size_t points; } want[] = {
      {"smoke.yaml", 28},          {"seed000-fig3.yaml", 72},   {"seed000-fig4.yaml", 33},
      {"seed000-table1.yaml", 8},  {"seed000-table2.yaml", 22}, {"seed001-table2.yaml", 23},
  };
  for (size_t i = 0; i < G_N_ELEMENTS(want); i++) {
    char *path = g_build_filename(srcdir(), "experiments", want[i].file, NULL);
    GError *err = NULL;
    cs_experiment *e = cs_experiment_load(path, test_host(), &err);
    ck_assert_msg(e != NULL, "%s: %s", path, err ? err->message : "");
    ck_assert_msg(cs_experiment_npoints(e) == want[i].points, "%s: %zu points", path, cs_experiment_npoints(e));
    cs_experiment_free(e);
    g_free(path);
  }
}
END_TEST

START_TEST(numbers_format)
{
  char buf[32];
  ck_assert_str_eq(cs_format_double(buf, sizeof buf, 0.1), "0.1");
  ck_assert_str_eq(cs_format_double(buf, sizeof buf, 0.99), "0.99");
  ck_assert_str_eq(cs_format_double(buf, sizeof buf, 1.0), "1");
  ck_assert_str_eq(cs_format_double(buf, sizeof buf, 0.0), "0");
  ck_assert_double_eq(strtod(cs_format_double(buf, sizeof buf, 1.0 / 3), NULL), 1.0 / 3);
  ck_assert(cs_same_fraction(0.1, 0.1));
  ck_assert(cs_same_fraction(0.123456789, 0.123457)); /* as %g prints it */
  ck_assert(!cs_same_fraction(0.1, 0.11));
  ck_assert(!cs_same_fraction(0.01, 0.0100001 + 0.0000001));
  ck_assert(cs_same_fraction(0, 0));
  ck_assert(!cs_same_fraction(0, 1e-9));
}
END_TEST

/* ------------------------------------------------------------- resume ---- */

START_TEST(csv_split_quotes)
{
  GPtrArray *f = cs_csv_fields("a,\"b,c\",,\"d\"\"e\"");
  ck_assert_uint_eq(f->len, 4);
  ck_assert_str_eq(g_ptr_array_index(f, 0), "a");
  ck_assert_str_eq(g_ptr_array_index(f, 1), "b,c");
  ck_assert_str_eq(g_ptr_array_index(f, 2), "");
  ck_assert_str_eq(g_ptr_array_index(f, 3), "d\"e");
  g_ptr_array_unref(f);
  f = cs_csv_fields("");
  ck_assert_uint_eq(f->len, 1);
  g_ptr_array_unref(f);
  /* malformed, or more than one record: no fields */
  ck_assert_ptr_null(cs_csv_fields("a,\"b"));
  ck_assert_ptr_null(cs_csv_fields("a,b\nc"));
  ck_assert_ptr_null(cs_csv_fields("a,b\"c"));
}
END_TEST

/* A tree row of the point p (its config_key last); key: another key. */
static char *row_of(const cs_point *p, const char *key)
{
  return g_strdup_printf("%s,%d,10,9,0,0.5,%d,%d,%" G_GUINT64_FORMAT ",\"torus:2x2x4/4,bw=1GBps\",LV08,0.001,0.0005,"
                         "100,100,200,800,1600,8,12,3.5,4,4,yes,0.01,\"torus:2x2x4/4,bw=1GBps\",LV08,1.5e-06,1.5e-06,,1,"
                         "\"tree --a=b,c\",0.1.0,%s",
                         p->algo, p->n, p->k, p->colors, p->seed, key ? key : p->config_key);
}

#define RESUME "name: t\nalgorithms: [rank-hash, centralized]\nn: [64, 128]\nf: [0.1, 0.6]\nk: [3]\n"

START_TEST(rows_resume_keys)
{
  GError *err = NULL;
  cs_experiment *e = parse(RESUME "extra_args: [\"--link-bw=100\"]\n", &err);
  cs_experiment *other = parse(RESUME "extra_args: [\"--link-bw=1000\"]\n", &err);
  ck_assert_msg(e && other, "%s", err ? err->message : "");
  char *r1 = row_of(cs_experiment_point(e, 0), NULL);
  char *r2 = row_of(cs_experiment_point(e, 5), NULL);
  char *r3 = row_of(cs_experiment_point(e, 6), "");                         /* no key */
  char *r4 = row_of(cs_experiment_point(other, 7), NULL);                   /* other extra_args */
  char *text = g_strdup_printf("%s\n%s\n%s\r\n\nbroken,row\n%s\n%s\n%s", cs_sweep_tree_header(), r1, r2, r3, r4,
                               "rank-hash,64,10,0.6,3,1,1,torus:2x2"); /* cut last line */
  size_t complete = 0;
  cs_sweep_rows *rows = cs_sweep_rows_parse(text, strlen(text), "r.csv", &complete, &err);
  ck_assert_msg(rows != NULL, "%s", err ? err->message : "");
  ck_assert_uint_eq(cs_sweep_rows_count(rows), 3);
  ck_assert_uint_eq(cs_sweep_rows_bad(rows), 2);
  ck_assert_uint_eq(complete, strlen(text) - strlen("rank-hash,64,10,0.6,3,1,1,torus:2x2"));
  for (size_t i = 0; i < cs_experiment_npoints(e); i++)
    ck_assert_msg(cs_sweep_rows_has(rows, cs_experiment_point(e, i)) == (i == 0 || i == 5), "point %zu", i);
  /* the row of the other extra_args: a stale configuration, not a point of e */
  ck_assert_uint_eq(cs_sweep_rows_foreign(rows, e), 1);
  ck_assert(!cs_sweep_rows_has(rows, cs_experiment_point(other, 0)));
  ck_assert(cs_sweep_rows_has(rows, cs_experiment_point(other, 7)));
  cs_sweep_rows_free(rows);
  g_free(text);
  g_free(r1), g_free(r2), g_free(r3), g_free(r4);
  cs_experiment_free(e);
  cs_experiment_free(other);
}
END_TEST

/* config_key: the whole configuration.  The same experiment gives the same
 * keys; a changed extra_args, parameter or platform other keys. */
START_TEST(config_keys)
{
  const char *texts[] = {
      RESUME "extra_args: [\"--link-bw=100\"]\n",
      RESUME "extra_args: [\"--link-bw=1000\"]\n",
      RESUME,
      RESUME "extra_args: [\"--link-bw=100\", \"--o-send=2\"]\n",
      RESUME "platform: {torus: 8x8x8}\n",
      RESUME "extra_args: [\"--link-bw=100\"]\n", /* the first again */
  };
  GError *err = NULL;
  cs_experiment *e[G_N_ELEMENTS(texts)];
  for (size_t i = 0; i < G_N_ELEMENTS(texts); i++) {
    e[i] = parse(texts[i], &err);
    ck_assert_msg(e[i], "%s", err ? err->message : "");
  }
  for (size_t p = 0; p < cs_experiment_npoints(e[0]); p++) {
    const char *key = cs_experiment_point(e[0], p)->config_key;
    ck_assert_uint_eq(strlen(key), 16);
    ck_assert_str_eq(key, cs_experiment_point(e[5], p)->config_key);
    for (size_t i = 1; i < 5; i++)
      ck_assert_str_ne(key, cs_experiment_point(e[i], p)->config_key);
    for (size_t q = 0; q < p; q++)
      ck_assert_str_ne(key, cs_experiment_point(e[0], q)->config_key);
    /* what the point's own run computes from the arguments it is given */
    char **opts = cs_point_options(e[0], cs_experiment_point(e[0], p));
    char *args = cs_config_args("tree", opts, cs_sweep_own_options), *mine = cs_config_key(args);
    ck_assert_str_eq(mine, key);
    ck_assert(strstr(args, " --link-bw=100 ") && !strstr(args, "--format") && !strstr(args, "--quiet"));
    g_free(mine), g_free(args);
    g_strfreev(opts);
  }
  /* the normalized list: options sorted by name, a repeatable one in its order, those left out out */
  char *toks[] = {"--n=4",        "--cfg=b:2",        "--format=csv",   "--algo=x",   "--cfg=a:1",
                  "--quiet",      "--with-config",    "--trace=t.csv",  "pos", NULL};
  const char *const leave_out[] = {"format", "quiet", "with-config", "trace", NULL};
  char *args = cs_config_args("tree", toks, leave_out);
  ck_assert_str_eq(args, "tree --algo=x --cfg=b:2 --cfg=a:1 --n=4 pos");
  g_free(args);
  args = cs_config_args("tree", toks, NULL);
  ck_assert_str_eq(args, "tree --algo=x --cfg=b:2 --cfg=a:1 --format=csv --n=4 --quiet --trace=t.csv --with-config pos");
  g_free(args);
  for (size_t i = 0; i < G_N_ELEMENTS(texts); i++)
    cs_experiment_free(e[i]);
}
END_TEST

START_TEST(rows_header)
{
  GError *err = NULL;
  size_t complete = 99;
  cs_sweep_rows *rows = cs_sweep_rows_parse("", 0, "r.csv", &complete, &err);
  ck_assert_ptr_nonnull(rows);
  ck_assert_uint_eq(complete, 0);
  ck_assert_uint_eq(cs_sweep_rows_count(rows), 0);
  cs_sweep_rows_free(rows);
  /* a cut header counts as nothing */
  rows = cs_sweep_rows_parse("algo,n,m", 8, "r.csv", &complete, &err);
  ck_assert_ptr_nonnull(rows);
  ck_assert_uint_eq(complete, 0);
  cs_sweep_rows_free(rows);
  const char *other = "algo,n,f\nx,1,0.5\n";
  rows = cs_sweep_rows_parse(other, strlen(other), "r.csv", &complete, &err);
  ck_assert_ptr_null(rows);
  ck_assert_ptr_nonnull(err);
  ck_assert(strstr(err->message, "r.csv: its header is not collsim tree's"));
  g_clear_error(&err);
  /* an older collsim's file (results/seed000/ before the configuration columns) */
  char *old = g_strdup_printf("%s\nrank-hash,64,10,0.5,3,1,1,torus:2x2x4/4,LV08,1,1,1,1,1,1,1,1,1,1,1,yes,0.1\n",
                              cs_tree_csv_header());
  rows = cs_sweep_rows_parse(old, strlen(old), "old.csv", &complete, &err);
  ck_assert_ptr_null(rows);
  ck_assert_msg(strstr(err->message, "old.csv was written by an older collsim") &&
                    strstr(err->message, "write to a new file"),
                "%s", err->message);
  g_clear_error(&err);
  g_free(old);
}
END_TEST

START_TEST(child_row_check)
{
  GError *err = NULL;
  cs_experiment *e = parse(BASE "platform: {torus: auto, cores: 4}\n", &err);
  ck_assert_ptr_nonnull(e);
  const cs_point *p = cs_experiment_point(e, 0);
  char *why = NULL;
  char *good = row_of(p, NULL);
  ck_assert_msg(cs_sweep_check_row(good, p, &why), "%s", why);
  ck_assert_ptr_null(why);
  char *other = row_of(p, "0123456789abcdef");
  ck_assert(!cs_sweep_check_row(other, p, &why));
  ck_assert(strstr(why, "config_key '0123456789abcdef' is not the point's"));
  g_free(why);
  ck_assert(!cs_sweep_check_row("a,b,c", p, &why));
  ck_assert(strstr(why, "fields"));
  g_free(why);
  ck_assert(!cs_sweep_check_row("", p, &why));
  g_free(why);
  char *two = g_strdup_printf("%s\n%s", good, good);
  ck_assert(!cs_sweep_check_row(two, p, &why));
  g_free(why);
  g_free(two), g_free(good), g_free(other);
  cs_experiment_free(e);
}
END_TEST

START_TEST(shard_and_argv)
{
  int i, n;
  ck_assert(cs_sweep_parse_shard("0/1", &i, &n) && i == 0 && n == 1);
  ck_assert(cs_sweep_parse_shard("3/16", &i, &n) && i == 3 && n == 16);
  ck_assert(!cs_sweep_parse_shard("16/16", &i, &n));
  ck_assert(!cs_sweep_parse_shard("-1/4", &i, &n));
  ck_assert(!cs_sweep_parse_shard("1/0", &i, &n));
  ck_assert(!cs_sweep_parse_shard("1", &i, &n));
  ck_assert(!cs_sweep_parse_shard("1/4x", &i, &n));
  ck_assert(!cs_sweep_parse_shard("/4", &i, &n));
  GError *err = NULL;
  cs_experiment *e = parse("name: t\nalgorithms: [comm-split]\nn: [64]\nf: [0.1]\nk: [3]\nseeds: [5]\n"
                           "platform: {torus: auto, cores: 4}\nextra_args: [\"--cfg=a:b c\"]\n",
                           &err);
  ck_assert_ptr_nonnull(e);
  char **argv = cs_point_argv(e, cs_experiment_point(e, 0), "/x/collsim");
  char *line = cs_sweep_command_line(argv);
  ck_assert_str_eq(line, "/x/collsim tree --algo=comm-split --n=64 --f=0.1 --k=3 --colors=1 --seed=5 --torus=auto "
                         "--cores=4 --no-header --format=csv --quiet --with-config '--cfg=a:b c'");
  g_free(line);
  g_strfreev(argv);
  cs_experiment_free(e);
}
END_TEST

/* ----------------------------------------------------------- progress ---- */

START_TEST(progress_text)
{
  char buf[32];
  cs_progress_duration(buf, sizeof buf, 0);
  ck_assert_str_eq(buf, "0s");
  cs_progress_duration(buf, sizeof buf, 65);
  ck_assert_str_eq(buf, "1m05s");
  cs_progress_duration(buf, sizeof buf, 2 * 3600 + 3 * 60 + 9);
  ck_assert_str_eq(buf, "2h03m");
  cs_progress_duration(buf, sizeof buf, 3 * 86400 + 4 * 3600);
  ck_assert_str_eq(buf, "3d04h");
  cs_progress_duration(buf, sizeof buf, -1);
  ck_assert_str_eq(buf, "?");
  char *s = cs_progress_format("fig3", 12, 40, 1, 2, 65, 190);
  ck_assert_str_eq(s, "fig3: 12/40 done, 1 failed, 2 running, elapsed 1m05s, ETA 3m10s");
  g_free(s);
  s = cs_progress_format("", 40, 40, 0, 0, 3, 0);
  ck_assert_str_eq(s, "40/40 done, elapsed 3s");
  g_free(s);
}
END_TEST

/* A progress line in log mode (not a terminal) on f. */
static cs_progress *log_progress(FILE *f, const char *label, size_t total, double weight)
{
  cs_progress *p = cs_progress_new(f, label, total, weight, FALSE);
  cs_progress_set_tty(p, FALSE);
  return p;
}

START_TEST(progress_streams)
{
  setup_tmp();
  char *path = tmp_path("progress.txt");
  FILE *f = fopen(path, "w");
  /* log mode: first completion and the last one */
  cs_progress *p = log_progress(f, "x", 3, 3);
  cs_progress_done(p, 1, FALSE);
  cs_progress_done(p, 1, TRUE);
  cs_progress_tick(p);
  cs_progress_message(p, "hello %d", 7);
  cs_progress_done(p, 1, FALSE);
  cs_progress_finish(p);
  /* quiet: only messages */
  p = cs_progress_new(f, "q", 2, 2, TRUE);
  cs_progress_done(p, 1, FALSE);
  cs_progress_message(p, "shown");
  cs_progress_finish(p);
  /* tty: \r redraws */
  p = cs_progress_new(f, "t", 1, 1, FALSE);
  cs_progress_set_tty(p, TRUE);
  cs_progress_done(p, 1, FALSE);
  cs_progress_finish(p);
  fclose(f);
  char *text = slurp(path);
  ck_assert_msg(g_str_has_prefix(text, "x: 1/3 done, elapsed 0s, ETA 0s\nhello 7\nx: 3/3 done, 1 failed, elapsed 0s\n"
                                       "shown\n\rt: 1/1 done, elapsed 0s"),
                "%s", text);
  ck_assert(g_str_has_suffix(text, "\n"));
  g_free(text);
  g_free(path);
  teardown_tmp();
}
END_TEST

/* A level-driven line (the engine's): cs_progress_set never moves back; an
 * open-ended one (total 0) prints "N done" with no ETA, once per interval
 * in log mode (not on every update), and a last line at the end; elapsed
 * counts from a start set in the past. */
START_TEST(progress_levels)
{
  char *s = cs_progress_format("m", 7, 0, 0, 0, 65, 1);
  ck_assert_str_eq(s, "m: 7 done, elapsed 1m05s");
  g_free(s);
  setup_tmp();
  char *path = tmp_path("levels.txt");
  FILE *f = fopen(path, "w");
  cs_progress *p = log_progress(f, "open", 0, 0);
  cs_progress_set_start(p, g_get_monotonic_time() - 5 * G_USEC_PER_SEC);
  cs_progress_set(p, 10, 10);
  cs_progress_set(p, 20, 20); /* within the log interval: no line */
  cs_progress_set(p, 15, 15); /* backwards: ignored */
  cs_progress_finish(p);
  p = log_progress(f, "known", 100, 100);
  cs_progress_set(p, 50, 50);
  cs_progress_set(p, 100, 100);
  cs_progress_finish(p);
  fclose(f);
  char *text = slurp(path);
  ck_assert_msg(g_str_equal(text, "open: 10 done, elapsed 5s\nopen: 20 done, elapsed 5s\n"
                                  "known: 50/100 done, elapsed 0s, ETA 0s\nknown: 100/100 done, elapsed 0s\n"),
                "%s", text);
  g_free(text);
  g_free(path);
  teardown_tmp();
}
END_TEST

/* A log gets a heartbeat between completions: a sweep whose point runs for
 * minutes ticks; a tick a minute after the last line draws one, a tick
 * within the minute does not, and completions draw as before (at most one
 * line per 10 s). */
START_TEST(progress_heartbeat)
{
  setup_tmp();
  char *path = tmp_path("beat.txt");
  FILE *f = fopen(path, "w");
  cs_progress *p = log_progress(f, "sweep", 4, 4);
  cs_progress_set_running(p, 2);
  cs_progress_tick(p); /* at 0 s: nothing */
  cs_progress_set_start(p, g_get_monotonic_time() - 61 * G_USEC_PER_SEC);
  cs_progress_tick(p); /* 61 s without a line */
  cs_progress_tick(p); /* just drew */
  cs_progress_done(p, 1, FALSE); /* within the log interval: no line */
  cs_progress_set_start(p, g_get_monotonic_time() - 72 * G_USEC_PER_SEC);
  cs_progress_tick(p);           /* 11 s after the last line: no heartbeat yet */
  cs_progress_done(p, 1, FALSE); /* a completion after the interval */
  fflush(f);
  char *text = slurp(path);
  ck_assert_msg(g_str_equal(text, "sweep: 0/4 done, 2 running, elapsed 1m01s, ETA ?\n"
                                  "sweep: 2/4 done, 2 running, elapsed 1m12s, ETA 1m12s\n"),
                "%s", text);
  cs_progress_finish(p);
  fclose(f);
  g_free(text);
  g_free(path);
  teardown_tmp();
}
END_TEST

/* The running items' partial weight counts in the ETA: 70 s for half of
 * the weight, nothing finished, leaves 70 s (the heartbeat line); then a
 * quarter finished and nothing running leaves 3 x 70 s. */
START_TEST(progress_partial)
{
  setup_tmp();
  char *path = tmp_path("partial.txt");
  FILE *f = fopen(path, "w");
  cs_progress *p = log_progress(f, "sweep", 2, 100);
  cs_progress_set_partial(p, 50);
  cs_progress_set_start(p, g_get_monotonic_time() - 70 * G_USEC_PER_SEC);
  cs_progress_tick(p); /* heartbeat: 70 s without a line */
  cs_progress_set_partial(p, 0);
  cs_progress_done(p, 25, FALSE); /* partial 0, done 25 of 100 after 70 s: 3 x 70 s left */
  fflush(f);
  char *text = slurp(path);
  ck_assert_msg(g_str_equal(text, "sweep: 0/2 done, elapsed 1m10s, ETA 1m10s\n"), "%s", text);
  cs_progress_finish(p);
  fclose(f);
  g_free(text);
  text = slurp(path);
  ck_assert_msg(g_str_has_suffix(text, "sweep: 1/2 done, elapsed 1m10s, ETA 3m30s\n"), "%s", text);
  g_free(text);
  g_free(path);
  teardown_tmp();
}
END_TEST

/* A point's cost: planned messages, else the planned points' messages per
 * process times its n, else (not planned, no n) the others' mean. */
START_TEST(point_costs_estimate)
{
  const int64_t planned_n[] = {100, 200, 50, 0, 0};
  const double planned_messages[] = {1000, 3000, 0, 0, 0};
  const int64_t point_n[] = {0, 0, 0, 10, 0};
  cs_point_cost c[5];
  cs_point_costs_estimate(planned_n, planned_messages, point_n, 5, c);
  double per_process = 4000.0 / 300.0, e = CS_RUN_COST_SIZE_EXPONENT;
  ck_assert_double_eq_tol(c[0].fixed, (CS_RUN_COST_PER_RUN + 100 * CS_RUN_COST_PER_PROCESS) * pow(100, e), 1e-6);
  ck_assert_double_eq_tol(c[0].variable, 1000 * pow(100, e), 1e-6);
  ck_assert_double_eq_tol(c[1].variable, 3000 * pow(200, e), 1e-6);
  ck_assert_double_eq_tol(c[2].fixed, (CS_RUN_COST_PER_RUN + 50 * CS_RUN_COST_PER_PROCESS) * pow(50, e), 1e-6);
  ck_assert_double_eq_tol(c[2].variable, 50 * per_process * pow(50, e), 1e-6);
  ck_assert_double_eq_tol(c[3].variable, 10 * per_process * pow(10, e), 1e-6);
  double mean = 0;
  for (int i = 0; i < 4; i++)
    mean += cs_point_cost_total(&c[i]) / 4;
  ck_assert_double_eq_tol(cs_point_cost_total(&c[4]), mean, 1e-6);
  /* nothing known at all: every point costs one run's start */
  const int64_t none[] = {0, 0};
  const double zero[] = {0, 0};
  cs_point_costs_estimate(none, zero, none, 2, c);
  ck_assert_double_eq_tol(cs_point_cost_total(&c[0]), CS_RUN_COST_PER_RUN, 1e-9);
}
END_TEST

/* A running point's done cost, from the last complete line of its log. */
START_TEST(point_cost_follows_log)
{
  setup_tmp();
  char *path = tmp_path("point.log");
  cs_point_cost c = {.fixed = 100, .variable = 1000};
  ck_assert_double_eq(cs_point_cost_done(&c, path), 0); /* no file yet */
  g_file_set_contents(path, "", 0, NULL);
  ck_assert_double_eq(cs_point_cost_done(&c, path), 0); /* not started */
  g_file_set_contents(path, "0.250 10 30.0 0.000000 10 40\n0.500 20 60.0 0.000000 20 40\n0.75", -1, NULL);
  ck_assert_double_eq_tol(cs_point_cost_done(&c, path), 100 + 1000 * 0.5, 1e-9); /* the torn line is skipped */
  g_file_set_contents(path, "1.000 7 0.0 0.000000 7 0\n", -1, NULL);
  ck_assert_double_eq_tol(cs_point_cost_done(&c, path), 100, 1e-9); /* total not known: the start only */
  g_free(path);
  teardown_tmp();
}
END_TEST

/* ---------------------------------------------------- end to end (fake) ---- */

static const char *SMALL = "name: small\n"
                           "platform: {torus: auto, cores: 4}\n"
                           "algorithms: [centralized, rank-hash, comm-split]\n"
                           "n: [16, 32]\nf: [0.5, 1]\nk: [3]\n";

START_TEST(sweep_run_and_resume)
{
  setup_tmp();
  char *yaml = write_tmp("small.yaml", SMALL);
  char *out = tmp_path("out.csv");
  ck_assert_int_eq(run_sweep(NULL, yaml, "--out", out, "--quiet", NULL), 0);
  char *text = slurp(out);
  ck_assert_int_eq(count_lines(text), 1 + 12);
  ck_assert(g_str_has_prefix(text, cs_sweep_tree_header()));
  g_free(text);
  /* again: nothing to do, file unchanged */
  ck_assert_int_eq(run_sweep(NULL, yaml, "--out", out, "--quiet", NULL), 0);
  text = slurp(out);
  ck_assert_int_eq(count_lines(text), 13);
  /* lose two rows and cut the last line: resume runs exactly those */
  char **lines = g_strsplit(text, "\n", -1);
  g_free(text);
  GString *cut = g_string_new(NULL);
  for (int i = 0; i < 11; i++)
    g_string_append_printf(cut, "%s\n", lines[i]);
  g_string_append(cut, "comm-split,32,10,1,3");
  g_file_set_contents(out, cut->str, -1, NULL);
  g_string_free(cut, TRUE);
  g_strfreev(lines);
  char *pending = NULL;
  ck_assert_int_eq(run_sweep(&pending, yaml, "--out", out, "--dry-run", NULL), 0);
  ck_assert_int_eq(count_lines(pending), 2);
  ck_assert(strstr(pending, " tree --algo="));
  g_free(pending);
  ck_assert_int_eq(run_sweep(NULL, yaml, "--out", out, "--quiet", "--jobs", "2", NULL), 0);
  text = slurp(out);
  ck_assert_int_eq(count_lines(text), 13);
  ck_assert(g_str_has_suffix(text, "\n"));
  g_free(text);
  g_free(yaml);
  g_free(out);
  teardown_tmp();
}
END_TEST

START_TEST(sweep_failures)
{
  setup_tmp();
  char *yaml = write_tmp("small.yaml", SMALL);
  char *out = tmp_path("out.csv");
  /* a failing point and a crashing one: the others run, status 1 */
  g_setenv("FAKE_FAIL", "rank-hash:32", TRUE);
  g_setenv("FAKE_CRASH", "comm-split:16", TRUE);
  ck_assert_int_eq(run_sweep(NULL, yaml, "--out", out, "--quiet", NULL), 1);
  char *text = slurp(out);
  ck_assert_int_eq(count_lines(text), 1 + 12 - 4);
  g_free(text);
  g_unsetenv("FAKE_FAIL");
  g_unsetenv("FAKE_CRASH");
  ck_assert_int_eq(run_sweep(NULL, yaml, "--out", out, "--quiet", NULL), 0);
  text = slurp(out);
  ck_assert_int_eq(count_lines(text), 13);
  g_free(text);
  /* bad input from a child stops the sweep with 2 */
  char *out2 = tmp_path("out2.csv");
  g_setenv("FAKE_BAD", "rank-hash:16", TRUE);
  ck_assert_int_eq(run_sweep(NULL, yaml, "--out", out2, "--quiet", NULL), 2);
  g_unsetenv("FAKE_BAD");
  text = slurp(out2);
  ck_assert_int_eq(count_lines(text), 1 + 1); /* header + the point before it */
  g_free(text);
  g_free(out2);
  g_free(yaml);
  g_free(out);
  teardown_tmp();
}
END_TEST

START_TEST(sweep_refusals)
{
  setup_tmp();
  char *yaml = write_tmp("small.yaml", SMALL);
  char *bad = write_tmp("bad.yaml", "name: b\nalgorithms: [rank-hash]\nn: [16]\nf: [2]\nk: [3]\n");
  char *out = tmp_path("out.csv");
  /* bad experiment: exit 2, no output file */
  ck_assert_int_eq(run_sweep(NULL, bad, "--out", out, "--quiet", NULL), 2);
  ck_assert(!g_file_test(out, G_FILE_TEST_EXISTS));
  /* a foreign header: exit 2, file untouched */
  g_file_set_contents(out, "a,b,c\n1,2,3\n", -1, NULL);
  ck_assert_int_eq(run_sweep(NULL, yaml, "--out", out, "--quiet", NULL), 2);
  char *text = slurp(out);
  ck_assert_str_eq(text, "a,b,c\n1,2,3\n");
  g_free(text);
  /* usage errors */
  ck_assert_int_eq(run_sweep(NULL, yaml, "--quiet", NULL), 2);                       /* no --out */
  ck_assert_int_eq(run_sweep(NULL, yaml, "--out", out, "--shard", "2/2", NULL), 2);  /* bad shard */
  ck_assert_int_eq(run_sweep(NULL, yaml, "--out", out, "--jobs", "0", NULL), 2);
  ck_assert_int_eq(run_sweep(NULL, yaml, yaml, "--out", out, NULL), 2);
  ck_assert_int_eq(run_sweep(NULL, "--out", out, NULL), 2);
  ck_assert_int_eq(run_sweep(NULL, yaml, "--out", out, "--frobnicate", NULL), 2);
  g_free(yaml);
  g_free(bad);
  g_free(out);
  teardown_tmp();
}
END_TEST

START_TEST(sweep_shards_cover_all)
{
  setup_tmp();
  char *yaml = write_tmp("small.yaml", SMALL);
  char *all = NULL;
  ck_assert_int_eq(run_sweep(&all, yaml, "--dry-run", NULL), 0);
  ck_assert_int_eq(count_lines(all), 12);
  GString *joined = g_string_new(NULL);
  for (int s = 0; s < 5; s++) {
    char shard[16];
    snprintf(shard, sizeof shard, "%d/5", s);
    char *part = NULL;
    ck_assert_int_eq(run_sweep(&part, yaml, "--dry-run", "--shard", shard, NULL), 0);
    ck_assert_int_eq(count_lines(part), s < 2 ? 3 : 2);
    g_string_append(joined, part);
    g_free(part);
  }
  /* every line of `all` is in exactly one shard */
  char **lines = g_strsplit(all, "\n", -1);
  for (int i = 0; lines[i] && *lines[i]; i++) {
    char *needle = g_strdup_printf("%s\n", lines[i]);
    char *hit = strstr(joined->str, needle);
    ck_assert_ptr_nonnull(hit);
    ck_assert_ptr_null(strstr(hit + 1, needle));
    g_free(needle);
  }
  g_strfreev(lines);
  /* sharded outputs merge into the whole */
  for (int s = 0; s < 2; s++) {
    char shard[16], name[32];
    snprintf(shard, sizeof shard, "%d/2", s);
    snprintf(name, sizeof name, "out.%d.csv", s);
    char *out = tmp_path(name);
    ck_assert_int_eq(run_sweep(NULL, yaml, "--out", out, "--shard", shard, "--quiet", NULL), 0);
    char *text = slurp(out);
    ck_assert_int_eq(count_lines(text), 1 + 6);
    g_free(text);
    g_free(out);
  }
  g_string_free(joined, TRUE);
  g_free(all);
  g_free(yaml);
  teardown_tmp();
}
END_TEST


/* ------------------------------------------- generic experiments ---- */

static const char *GEN = "name: g\ncommand: collective\n"
                         "parameters:\n  platform: \"percs:2,2,2\"\n  links: true\n  timed: false\n"
                         "  coll: [scatter, gather]\n  block: {from: 1, to: 3}\n";

static const char *point_args(const cs_experiment *e, size_t i)
{
  static char buf[512];
  char *j = g_strjoinv(" ", cs_experiment_point(e, i)->args);
  g_strlcpy(buf, j, sizeof buf);
  g_free(j);
  return buf;
}

START_TEST(parse_generic_product)
{
  GError *err = NULL;
  cs_experiment *e = parse(GEN, &err);
  ck_assert_msg(e != NULL, "%s", err ? err->message : "");
  ck_assert(e->generic);
  ck_assert_str_eq(e->command, "collective");
  ck_assert_uint_eq(cs_experiment_npoints(e), 6);
  /* keys in the order written, the last varying fastest; true a flag, false left out */
  ck_assert_str_eq(point_args(e, 0), "--platform=percs:2,2,2 --links --coll=scatter --block=1");
  ck_assert_str_eq(point_args(e, 2), "--platform=percs:2,2,2 --links --coll=scatter --block=3");
  ck_assert_str_eq(point_args(e, 3), "--platform=percs:2,2,2 --links --coll=gather --block=1");
  for (size_t i = 0; i < 6; i++)
    for (size_t j = i + 1; j < 6; j++)
      ck_assert_str_ne(cs_experiment_point(e, i)->key, cs_experiment_point(e, j)->key);
  cs_experiment_free(e);
}
END_TEST

START_TEST(parse_generic_series_points_exclude)
{
  const char *text = "name: s\ncommand: allreduce\nparameters: {cluster: 4w, iterations: 10}\n"
                     "series:\n  - label: {curve: lam, args: \"--trees lam\"}\n    parameters: {trees: lam}\n"
                     "  - label: {curve: big, args: \"x,y\"}\n    parameters: {trees: linear, iterations: 20}\n"
                     "points:\n  - {n: 2}\n  - {n: 4}\n"
                     "exclude:\n  - {trees: [linear], n: [4]}\n";
  GError *err = NULL;
  cs_experiment *e = parse(text, &err);
  ck_assert_msg(e != NULL, "%s", err ? err->message : "");
  ck_assert_uint_eq(e->label_names->len, 2);
  ck_assert_str_eq(g_ptr_array_index(e->label_names, 1), "args");
  /* 2 series x 2 points, the (linear, n = 4) point excluded */
  ck_assert_uint_eq(cs_experiment_npoints(e), 3);
  ck_assert_uint_eq(e->excluded, 1);
  ck_assert_str_eq(point_args(e, 0), "--cluster=4w --iterations=10 --trees=lam --n=2");
  ck_assert_str_eq(point_args(e, 2), "--cluster=4w --iterations=20 --trees=linear --n=2");
  ck_assert_str_eq(cs_experiment_point(e, 2)->labels[1], "x,y");
  cs_experiment_free(e);
}
END_TEST

START_TEST(parse_generic_errors)
{
  expect_error("name: x\ncommand: frobnicate\nparameters: {a: 1}\n", "unknown command 'frobnicate'");
  expect_error("name: x\nparameters: {a: 1}\n", "command");
  expect_error("name: x\ncommand: collective\nparameters: {format: csv}\n", "the sweep sets the output options itself");
  expect_error("name: x\ncommand: collective\nparameters: {--coll: x}\n", "without dashes");
  expect_error("name: x\ncommand: collective\nparameters: {n: {from: 5, to: 1}}\n", "empty or too long");
  expect_error("name: x\ncommand: collective\nparameters: {n: {from: 1}}\n", "needs from and to");
  expect_error("name: x\ncommand: collective\nparameters: {n: []}\n", "the list is empty");
  expect_error("name: x\ncommand: collective\nparameters: {n: 1}\ncolour: red\n", "unknown key");
  expect_error("name: x\ncommand: collective\nseries:\n  - label: {a: 1}\n  - label: {b: 1}\n",
               "same label columns");
  expect_error("name: x\ncommand: collective\nparameters: {n: 1}\nexclude:\n  - {n: [1]}\n", "every point is excluded");
  /* extra_args: one long option each, none the points or the sweep already give */
  expect_error("name: x\ncommand: collective\nparameters: {coll: [scatter]}\nextra_args: [\"--coll=gather\"]\n",
               "'--coll=gather' gives --coll, which the experiment already sets");
  expect_error("name: x\ncommand: collective\npoints: [{n: 2}]\nextra_args: [\"--n=4\"]\n", "already sets");
  expect_error("name: x\ncommand: collective\nparameters: {n: 1}\nextra_args: [-v]\n", "is not one long option");
  expect_error("name: x\ncommand: collective\nparameters: {n: 1}\nextra_args: [\"--cfg\", \"a:b\"]\n",
               "'a:b' is not one long option");
  expect_error("name: x\ncommand: collective\nparameters: {n: 1}\nextra_args: [\"--format=json\"]\n",
               "output options");
  expect_error(BASE "extra_args: [\"-n\", \"5\"]\n", "'-n' is not one long option");
  expect_error("name: x\ncommand: collective\nparameters: {with-config: true}\n", "the sweep sets the output");
}
END_TEST

/* Issue 25, defect 5: an output option of the command (one that writes a
 * file: --trace, --per-link, ...) anywhere a point gets options, and a
 * label named like a configuration column, are refused when the file is
 * read. */
START_TEST(parse_generic_output_options_refused)
{
  const char *want = "writes a file (an output option of collsim collective)";
  expect_error("name: x\ncommand: collective\nparameters: {coll: scatter, trace: /tmp/t.csv}\n", want);
  expect_error("name: x\nparameters: {coll: scatter, per-link: [a.csv, b.csv]}\ncommand: collective\n", want);
  expect_error("name: x\ncommand: collective\nseries:\n  - label: {c: a}\n    parameters: {trace: t.csv}\n", want);
  expect_error("name: x\ncommand: collective\npoints: [{coll: scatter, trace: t.csv}]\n", want);
  expect_error("name: x\ncommand: collective\nparameters: {coll: scatter}\nextra_args: [\"--trace=t.csv\"]\n",
               want);
  expect_error(BASE "extra_args: [\"--per-link=x.csv\"]\n", "an output option of collsim tree");
  expect_error("name: x\ncommand: collective\nseries:\n  - label: {config_key: a}\n",
               "the label 'config_key' is also the column 'config_key'");
  /* not an output option: accepted */
  GError *err = NULL;
  cs_experiment *e = parse("name: x\ncommand: collective\nparameters: {script: s.yaml, links: true}\n", &err);
  ck_assert_msg(e != NULL, "%s", err ? err->message : "");
  cs_experiment_free(e);
  /* the question and the answer (option_query.h): the fake declares these */
  char **outs = cs_option_query_output_options("collective", &err);
  ck_assert_msg(outs != NULL, "%s", err ? err->message : "");
  char *joined = g_strjoinv(" ", outs);
  ck_assert_str_eq(joined, "out trace per-link");
  g_free(joined);
  g_strfreev(outs);
  expect_error(BASE "extra_args: [\"--seed=2\"]\n", "gives --seed, which the experiment already sets");
}
END_TEST

/* The fake `collective`: a header and one row per tier (two), from --coll and --block. */
static int fake_collective(int argc, char **argv)
{
  const char *coll = "?", *block = "0";
  for (int i = 1; i < argc; i++) {
    if (g_str_has_prefix(argv[i], "--coll="))
      coll = argv[i] + 7;
    else if (g_str_has_prefix(argv[i], "--block="))
      block = argv[i] + 8;
  }
  char id[128];
  snprintf(id, sizeof id, "%s:%s", coll, block);
  const char *e = getenv("FAKE_FAIL");
  if (e && !strcmp(e, id))
    return 1;
  if ((e = getenv("FAKE_SLOW")) && !strcmp(e, id))
    g_usleep(300000);
  char *config = fake_config("collective", argv + 1), *columns = g_strjoinv(",", (char **)cs_config_columns());
  printf("net,coll,size,tier,%s\n\"p:1,1\",%s,%s,L1%s\n\"p:1,1\",%s,%s,L2%s\n", columns, coll, block, config, coll,
         block, config);
  g_free(config);
  g_free(columns);
  return 0;
}

START_TEST(sweep_generic_rows_resume_order)
{
  setup_tmp();
  char *yaml = write_tmp("g.yaml", "name: g\ncommand: collective\nparameters:\n  coll: [scatter, gather]\n"
                                   "  block: {from: 1, to: 3}\nseries:\n  - label: {c: a}\n  - label: {c: \"b,b\"}\n");
  char *out = tmp_path("g.csv"), *journal = tmp_path(".g.csv.journal");
  ck_assert_int_eq(run_sweep(NULL, yaml, "--out", out, "--quiet", NULL), 0);
  char *first = slurp(out);
  ck_assert_int_eq(count_lines(first), 1 + 12 * 2);
  ck_assert(g_str_has_prefix(first, "c,net,coll,size,tier,config_platform,"));
  ck_assert(strstr(first, "\na,\"p:1,1\",scatter,1,L1,"));
  ck_assert(strstr(first, "\na,\"p:1,1\",scatter,1,L2,"));
  ck_assert(strstr(first, "\n\"b,b\",\"p:1,1\",gather,3,L2,"));
  /* lose the last point's journal line and cut its rows short: it runs again, nothing doubled */
  char *j = slurp(journal);
  char **jl = g_strsplit(j, "\n", -1);
  GString *keep = g_string_new(NULL);
  for (int i = 0; i < 11; i++)
    g_string_append_printf(keep, "%s\n", jl[i]);
  g_file_set_contents(journal, keep->str, -1, NULL);
  GString *partial = g_string_new(first);
  g_string_truncate(partial, partial->len - 5);
  g_file_set_contents(out, partial->str, -1, NULL);
  char *pending = NULL;
  ck_assert_int_eq(run_sweep(&pending, yaml, "--out", out, "--dry-run", NULL), 0);
  ck_assert_int_eq(count_lines(pending), 1);
  ck_assert_int_eq(run_sweep(NULL, yaml, "--out", out, "--quiet", NULL), 0);
  char *again = slurp(out);
  ck_assert_str_eq(again, first);
  /* a failed point, run later, and parallel jobs: the same file in the end */
  char *out2 = tmp_path("g2.csv");
  g_setenv("FAKE_FAIL", "scatter:2", TRUE);
  g_setenv("FAKE_SLOW", "scatter:1", TRUE);
  ck_assert_int_eq(run_sweep(NULL, yaml, "--out", out2, "--quiet", "--jobs", "2", NULL), 1);
  g_unsetenv("FAKE_FAIL");
  ck_assert_int_eq(run_sweep(NULL, yaml, "--out", out2, "--quiet", "--jobs", "2", NULL), 0);
  g_unsetenv("FAKE_SLOW");
  char *second = slurp(out2);
  ck_assert_str_eq(second, first);
  /* a file with rows but no journal is not ours */
  char *out3 = write_tmp("g3.csv", "x,y\n1,2\n");
  ck_assert_int_eq(run_sweep(NULL, yaml, "--out", out3, "--quiet", NULL), 2);
  g_free(out3);
  g_free(second);
  g_free(out2);
  g_free(again);
  g_free(pending);
  g_string_free(partial, TRUE);
  g_string_free(keep, TRUE);
  g_strfreev(jl);
  g_free(j);
  g_free(first);
  g_free(journal);
  g_free(out);
  g_free(yaml);
  teardown_tmp();
}
END_TEST

/* Issue 25, defect 5: an experiment whose parameters give --trace is
 * refused before any point runs: exit 2, no output, no journal, no trace. */
START_TEST(sweep_output_option_refused_before_running)
{
  setup_tmp();
  char *trace = tmp_path("trace.csv");
  char *text = g_strdup_printf("name: g\ncommand: collective\nparameters:\n  coll: [scatter, gather]\n"
                               "  trace: %s\n", trace);
  char *yaml = write_tmp("g.yaml", text), *out = tmp_path("g.csv"), *journal = tmp_path(".g.csv.journal");
  char *printed = NULL;
  ck_assert_int_eq(run_sweep(NULL, yaml, "--out", out, "--quiet", NULL), 2);
  ck_assert_int_eq(run_sweep(&printed, yaml, "--out", out, "--dry-run", NULL), 2);
  ck_assert_str_eq(printed, ""); /* not one command line */
  ck_assert(!g_file_test(out, G_FILE_TEST_EXISTS));
  ck_assert(!g_file_test(journal, G_FILE_TEST_EXISTS));
  ck_assert(!g_file_test(trace, G_FILE_TEST_EXISTS));
  g_free(printed), g_free(journal), g_free(out), g_free(yaml), g_free(text), g_free(trace);
  teardown_tmp();
}
END_TEST

/* Issue 25, defect 5: label names and values that need quotes (a comma, a
 * quote, a line break) make a well-formed CSV, read back by the strict
 * reader; the sweep resumes from it (its quoted header read back) and
 * leaves it as it was. */
START_TEST(sweep_labels_quoted)
{
  setup_tmp();
  char *yaml = write_tmp("q.yaml", "name: q\ncommand: collective\nparameters:\n  coll: [scatter, gather]\n"
                                   "series:\n  - label: {\"a,b\": \"x\\\"y\", \"line\\nbreak\": \"v,w\"}\n"
                                   "  - label: {\"a,b\": plain, \"line\\nbreak\": \"two\\nlines\"}\n");
  char *out = tmp_path("q.csv");
  ck_assert_int_eq(run_sweep(NULL, yaml, "--out", out, "--quiet", NULL), 0);
  char *first = slurp(out);
  GPtrArray *header = NULL, *rows = NULL;
  GError *err = NULL;
  ck_assert_msg(cs_csv_read_table(first, strlen(first), out, &header, &rows, &err), "%s", err ? err->message : "");
  ck_assert_uint_eq(header->len, 2 + 4 + 9);
  ck_assert_str_eq(g_ptr_array_index(header, 0), "a,b");
  ck_assert_str_eq(g_ptr_array_index(header, 1), "line\nbreak");
  ck_assert_str_eq(g_ptr_array_index(header, 2), "net");
  ck_assert_uint_eq(rows->len, 2 * 2 * 2);
  GPtrArray *row = g_ptr_array_index(rows, 0);
  ck_assert_str_eq(g_ptr_array_index(row, 0), "x\"y");
  ck_assert_str_eq(g_ptr_array_index(row, 1), "v,w");
  ck_assert_str_eq(g_ptr_array_index(row, 3), "scatter");
  row = g_ptr_array_index(rows, 7);
  ck_assert_str_eq(g_ptr_array_index(row, 0), "plain");
  ck_assert_str_eq(g_ptr_array_index(row, 1), "two\nlines");
  ck_assert_str_eq(g_ptr_array_index(row, 3), "gather");
  /* resume: nothing pending, the file unchanged */
  char *pending = NULL;
  ck_assert_int_eq(run_sweep(&pending, yaml, "--out", out, "--dry-run", NULL), 0);
  ck_assert_str_eq(pending, "");
  ck_assert_int_eq(run_sweep(NULL, yaml, "--out", out, "--quiet", NULL), 0);
  char *again = slurp(out);
  ck_assert_str_eq(again, first);
  g_ptr_array_unref(header), g_ptr_array_unref(rows);
  g_free(again), g_free(pending), g_free(first), g_free(out), g_free(yaml);
  teardown_tmp();
}
END_TEST

/* Issue 25, defect 5: a label named like a column of the command's output
 * (the fake collective's `size`) is refused, naming both, before anything
 * is written: exit 2, no output left. */
START_TEST(sweep_label_clash_refused)
{
  setup_tmp();
  char *yaml = write_tmp("c.yaml", "name: c\ncommand: collective\nparameters:\n  coll: [scatter, gather]\n"
                                   "series:\n  - label: {size: big}\n");
  char *out = tmp_path("c.csv"), *journal = tmp_path(".c.csv.journal");
  ck_assert_int_eq(run_sweep(NULL, yaml, "--out", out, "--quiet", NULL), 2);
  ck_assert(!g_file_test(out, G_FILE_TEST_EXISTS));
  ck_assert(!g_file_test(journal, G_FILE_TEST_EXISTS));
  g_free(journal), g_free(out), g_free(yaml);
  teardown_tmp();
}
END_TEST

/* The example: extra_args --link-bw=100 changed to 1000 in a sweep
 * whose output is reused.  Unchanged, every done point is skipped; changed,
 * every point is pending again and runs, its rows told apart by
 * config_key.  Both schemas. */
static void sweep_twice(const char *text, int rows_per_point)
{
  char *yaml = write_tmp("x.yaml", text);
  char *out = tmp_path("made/for/it/x.csv"); /* missing folders are made */
  ck_assert_int_eq(run_sweep(NULL, yaml, "--out", out, "--quiet", NULL), 0);
  char *first = slurp(out), *pending = NULL;
  int lines = count_lines(first);
  ck_assert_int_eq(lines, 1 + 2 * rows_per_point);
  ck_assert_int_eq(run_sweep(&pending, yaml, "--out", out, "--dry-run", NULL), 0);
  ck_assert_str_eq(pending, ""); /* unchanged: nothing to run */
  g_free(pending);
  ck_assert_int_eq(run_sweep(NULL, yaml, "--out", out, "--quiet", NULL), 0);
  char *again = slurp(out);
  ck_assert_str_eq(again, first);
  char **halves = g_strsplit(text, "--link-bw=100\"", 2);
  ck_assert_ptr_nonnull(halves[1]);
  char *changed = g_strjoin("--link-bw=1000\"", halves[0], halves[1], NULL); /* one byte longer */
  g_strfreev(halves);
  g_free(write_tmp("x.yaml", changed));
  ck_assert_int_eq(run_sweep(&pending, yaml, "--out", out, "--dry-run", NULL), 0);
  ck_assert_int_eq(count_lines(pending), 2);
  ck_assert(strstr(pending, "--link-bw=1000"));
  ck_assert_int_eq(run_sweep(NULL, yaml, "--out", out, "--quiet", NULL), 0);
  char *both = slurp(out);
  ck_assert_int_eq(count_lines(both), lines + 2 * rows_per_point);
  ck_assert(strstr(both, "--link-bw=100,") || strstr(both, "--link-bw=100 "));
  ck_assert(strstr(both, "--link-bw=1000"));
  g_free(both), g_free(pending), g_free(changed), g_free(again), g_free(first), g_free(out), g_free(yaml);
}

START_TEST(sweep_extra_args_change)
{
  setup_tmp();
  sweep_twice("name: t\nalgorithms: [rank-hash, centralized]\nn: [16]\nf: [0.5]\nk: [3]\n"
              "extra_args: [\"--link-bw=100\"]\n", 1);
  teardown_tmp();
  setup_tmp();
  sweep_twice("name: g\ncommand: collective\nparameters:\n  coll: [scatter, gather]\n"
              "extra_args: [\"--link-bw=100\"]\n", 2);
  teardown_tmp();
}
END_TEST

/* Outputs made before the configuration columns: refused with one clear
 * message, untouched; a bad experiment leaves no folder made for --out. */
START_TEST(sweep_old_outputs)
{
  setup_tmp();
  char *tree = write_tmp("t.yaml", SMALL);
  char *gen = write_tmp("g.yaml", "name: g\ncommand: collective\nparameters: {coll: scatter}\n");
  char *old = g_strdup_printf("%s\ncentralized,16,8,0.5,3,1,1,torus:2x2x1/4,LV08,1,1,1,1,1,1,1,1,1,1,1,yes,0.1\n",
                              cs_tree_csv_header());
  char *out = write_tmp("old.csv", old);
  ck_assert_int_eq(run_sweep(NULL, tree, "--out", out, "--quiet", NULL), 2);
  char *text = slurp(out);
  ck_assert_str_eq(text, old);
  g_free(text);
  char *gout = write_tmp("oldg.csv", "net,coll,size,tier,wall_s\n\"p:1,1\",scatter,1,L1,0.1\n");
  g_free(write_tmp(".oldg.csv.journal", "51\tcoll=scatter\n"));
  ck_assert_int_eq(run_sweep(NULL, gen, "--out", gout, "--quiet", NULL), 2);
  ck_assert_int_eq(run_sweep(NULL, gen, "--out", gout, "--dry-run", NULL), 2);
  ck_assert_int_eq(run_sweep(NULL, tree, "--out", out, "--dry-run", NULL), 2);
  text = slurp(gout);
  ck_assert_str_eq(text, "net,coll,size,tier,wall_s\n\"p:1,1\",scatter,1,L1,0.1\n");
  g_free(text);
  char *bad = write_tmp("bad.yaml", "name: b\nalgorithms: [rank-hash]\nn: [16]\nf: [0.5]\nk: [3]\n"
                                    "extra_args: [\"--seed=3\"]\n");
  char *deep = tmp_path("new/folder/x.csv"), *top = tmp_path("new");
  ck_assert_int_eq(run_sweep(NULL, bad, "--out", deep, "--quiet", NULL), 2);
  ck_assert(!g_file_test(top, G_FILE_TEST_EXISTS));
  g_free(deep), g_free(top), g_free(bad), g_free(gout), g_free(out), g_free(old), g_free(gen), g_free(tree);
  teardown_tmp();
}
END_TEST

static Suite *sweep_suite(void)
{
  Suite *s = suite_create("sweep");
  TCase *tc = tcase_create("parser");
  tcase_add_test(tc, parse_minimal_defaults);
  tcase_add_test(tc, parse_full_and_order);
  tcase_add_test(tc, parse_exclude);
  tcase_add_test(tc, parse_errors);
  tcase_add_test(tc, parse_platform_file_relative);
  tcase_add_test(tc, parse_shipped_experiments);
  tcase_add_test(tc, numbers_format);
  tcase_add_test(tc, parse_generic_product);
  tcase_add_test(tc, parse_generic_series_points_exclude);
  tcase_add_test(tc, parse_generic_errors);
  tcase_add_test(tc, parse_generic_output_options_refused);
  suite_add_tcase(s, tc);
  tc = tcase_create("resume");
  tcase_add_test(tc, csv_split_quotes);
  tcase_add_test(tc, rows_resume_keys);
  tcase_add_test(tc, rows_header);
  tcase_add_test(tc, config_keys);
  tcase_add_test(tc, child_row_check);
  tcase_add_test(tc, shard_and_argv);
  suite_add_tcase(s, tc);
  tc = tcase_create("progress");
  tcase_add_test(tc, progress_text);
  tcase_add_test(tc, progress_streams);
  tcase_add_test(tc, progress_levels);
  tcase_add_test(tc, progress_heartbeat);
  tcase_add_test(tc, progress_partial);
  tcase_add_test(tc, point_costs_estimate);
  tcase_add_test(tc, point_cost_follows_log);
  suite_add_tcase(s, tc);
  tc = tcase_create("runner");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, sweep_run_and_resume);
  tcase_add_test(tc, sweep_failures);
  tcase_add_test(tc, sweep_refusals);
  tcase_add_test(tc, sweep_shards_cover_all);
  tcase_add_test(tc, sweep_generic_rows_resume_order);
  tcase_add_test(tc, sweep_output_option_refused_before_running);
  tcase_add_test(tc, sweep_labels_quoted);
  tcase_add_test(tc, sweep_label_clash_refused);
  tcase_add_test(tc, sweep_extra_args_change);
  tcase_add_test(tc, sweep_old_outputs);
  suite_add_tcase(s, tc);
  return s;
}

int main(int argc, char **argv)
{
  /* the sweep asks its commands which options write files */
  if (argc > 1 && g_getenv(CS_OPTION_QUERY_ENV) && (!strcmp(argv[1], "tree") || !strcmp(argv[1], "collective"))) {
    fake_answer_options();
    return 0;
  }
  /* the sweep re-executes this program as its `collsim tree` */
  if (argc > 1 && strcmp(argv[1], "tree") == 0)
    return fake_tree(argc - 1, argv + 1);
  if (argc > 1 && strcmp(argv[1], "collective") == 0)
    return fake_collective(argc - 1, argv + 1);
  SRunner *sr = srunner_create(sweep_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

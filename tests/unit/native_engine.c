/* Tests of the native engine's parts (issue 29):
 *  - the event queue (a radix heap with a heap of late events) pops in
 *    (time, ts) order against a sort of the same events, on random runs
 *    that push events at the current time, later, and before it (a rank's
 *    other CPU), with re-queued events that keep an older ts;
 *  - the node-pair digest is the same whatever the order and grouping of
 *    the traffic, and changes when bytes or a message move to another pair;
 *  - loggops-links' transfer: one message takes the sum of its links'
 *    serialisation, a second one over a shared link waits for it, links of
 *    no bandwidth take no time;
 *  - the streamed atomic writer leaves the whole text on commit and no file
 *    on abort;
 *  - the lowering over a packed op list (cs_lower_pack, 16 bytes an op)
 *    yields, for every rank of every registered schedule on small shapes,
 *    the ops of the list unrolled (cs_oplist_expand) with their bytes
 *    (cs_units_bytes), peers and tags, and a calc after each reducing
 *    receive; an op whose bytes do not fit the packed word keeps them; the
 *    same with the list's peers made relative to the rank
 *    (cs_packed_make_relative, as the native engine shares lists) and
 *    turned back by the cursor, for most lists; a list with a full op or a
 *    peer outside the ranks is refused and left unchanged;
 *  - the native engine keeps one op list for a dissemination barrier of
 *    4,096 ranks and one for Bruck's allgather, and nearly one a rank for
 *    recursive doubling (where it stops sharing);
 *  - cs_goal_peek_ranks reads num_ranks from a GOAL file's first statement
 *    (after comments and blank lines, plain or gzip) and nothing else: 0
 *    when the file does not start with it. */
#include "sim/contracts/output_path.h"
#include "sim/drivers/native_run.h"
#include "sim/engine/native/coll_source.h"
#include "sim/engine/native/event_queue.h"
#include "sim/engine/native/links.h"
#include "sim/contracts/goal.h"
#include "platforms/two_tier_net.h"
#include "tests/lib/algos.h"

#include <check.h>
#include <math.h>
#include <stdbool.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <gio/gio.h>
#include <stdlib.h>
#include <string.h>

static int by_time_ts(const void *a, const void *b)
{
  const ng_event *x = a, *y = b;
  if (x->time != y->time)
    return x->time < y->time ? -1 : 1;
  return (x->ts > y->ts) - (x->ts < y->ts);
}

/* A run of the queue: every pop is checked against the least of the events
 * queued (a plain array, searched). */
START_TEST(test_queue_order)
{
  GRand *rng = g_rand_new_with_seed(1000 + (guint32)_i);
  ng_queue q;
  ng_queue_init(&q);
  GArray *ref = g_array_new(FALSE, FALSE, sizeof(ng_event));
  uint64_t ts = 0, now = 0, spare_ts = 0;
  bool have_spare = false; /* the ts of the event popped last, which may come back re-queued */
  size_t pops = 0;
  for (int step = 0; step < 20000; step++) {
    int pushes = g_rand_int_range(rng, 0, 3);
    for (int k = 0; k < pushes || (ref->len == 0 && k < 1); k++) {
      ng_event e = {.ts = ts++, .host = (uint32_t)step, .op = (uint64_t)k};
      int kind = g_rand_int_range(rng, 0, 10);
      e.time = kind < 3   ? now                                              /* now: into bucket 0 */
               : kind < 9 ? now + (uint64_t)g_rand_int_range(rng, 1, 1 << kind) /* later */
                          : now - (uint64_t)g_rand_int_range(rng, 0, (int)(now < 50 ? now + 1 : 50)); /* late */
      if (kind == 8 && have_spare) { /* the event popped last, re-queued later: its older ts */
        e.ts = spare_ts;
        have_spare = false;
      }
      ng_queue_push(&q, &e);
      g_array_append_val(ref, e);
    }
    /* the least queued */
    g_array_sort(ref, by_time_ts);
    ng_event got, want = g_array_index(ref, ng_event, 0);
    ck_assert(ng_queue_pop(&q, &got));
    ck_assert_msg(got.time == want.time && got.ts == want.ts && got.host == want.host && got.op == want.op,
                  "pop %zu: (%" G_GUINT64_FORMAT ", %" G_GUINT64_FORMAT ") want (%" G_GUINT64_FORMAT
                  ", %" G_GUINT64_FORMAT ")", pops, got.time, got.ts, want.time, want.ts);
    g_array_remove_index(ref, 0);
    now = got.time > now ? got.time : now;
    spare_ts = got.ts;
    have_spare = true;
    pops++;
  }
  ng_event e;
  while (ref->len) {
    g_array_sort(ref, by_time_ts);
    ck_assert(ng_queue_pop(&q, &e));
    ck_assert(e.time == g_array_index(ref, ng_event, 0).time && e.ts == g_array_index(ref, ng_event, 0).ts);
    g_array_remove_index(ref, 0);
  }
  ck_assert(!ng_queue_pop(&q, &e));
  g_array_free(ref, TRUE);
  ng_queue_free(&q);
  g_rand_free(rng);
}
END_TEST

START_TEST(test_pair_digest)
{
  /* (src, dst, bytes) per message */
  static const int64_t msgs[][3] = {{0, 1, 8}, {1, 0, 8}, {0, 1, 100}, {2, 3, 5}, {3, 2, 0}, {0, 3, 7}};
  cs_pair_digest a = {0}, b = {0}, grouped = {0};
  for (size_t i = 0; i < G_N_ELEMENTS(msgs); i++)
    cs_pair_digest_add(&a, msgs[i][0], msgs[i][1], (uint64_t)msgs[i][2], 1);
  for (size_t i = G_N_ELEMENTS(msgs); i-- > 0;)
    cs_pair_digest_add(&b, msgs[i][0], msgs[i][1], (uint64_t)msgs[i][2], 1);
  ck_assert(cs_pair_digest_equal(&a, &b));
  /* per pair, as the pattern-generator gives them */
  cs_pair_digest_add(&grouped, 0, 1, 108, 2);
  cs_pair_digest_add(&grouped, 0, 3, 7, 1);
  cs_pair_digest_add(&grouped, 1, 0, 8, 1);
  cs_pair_digest_add(&grouped, 2, 3, 5, 1);
  cs_pair_digest_add(&grouped, 3, 2, 0, 1);
  ck_assert(cs_pair_digest_equal(&a, &grouped));
  /* the same totals on other pairs differ */
  cs_pair_digest moved = {0}, swapped = {0};
  cs_pair_digest_add(&moved, 0, 1, 107, 2);
  cs_pair_digest_add(&moved, 0, 3, 8, 1);
  cs_pair_digest_add(&moved, 1, 0, 8, 1);
  cs_pair_digest_add(&moved, 2, 3, 5, 1);
  cs_pair_digest_add(&moved, 3, 2, 0, 1);
  ck_assert(!cs_pair_digest_equal(&a, &moved));
  cs_pair_digest_add(&swapped, 1, 0, 108, 2); /* direction swapped */
  cs_pair_digest_add(&swapped, 0, 3, 7, 1);
  cs_pair_digest_add(&swapped, 0, 1, 8, 1);
  cs_pair_digest_add(&swapped, 2, 3, 5, 1);
  cs_pair_digest_add(&swapped, 3, 2, 0, 1);
  ck_assert(!cs_pair_digest_equal(&a, &swapped));
}
END_TEST

/* Routes of a line 0 - 1 - 2 - 3: link i joins i and i + 1 (both ways). */
static int line_route(void *ctx, uint32_t src, uint32_t dst, const int32_t **links)
{
  static int32_t buf[8];
  (void)ctx;
  int n = 0;
  for (uint32_t a = src < dst ? src : dst; a < (src < dst ? dst : src); a++)
    buf[n++] = (int32_t)a;
  *links = buf;
  return n;
}

START_TEST(test_links_transfer)
{
  double bw[3] = {1e9, 0.5e9, 1e9}; /* 1, 2 and 1 ns per byte */
  cs_link_net *n = cs_link_net_new(3, bw, line_route, NULL);
  ck_assert_uint_eq(cs_link_net_serialisation(n, 1, 1000), 2000);
  /* one message over the three links: 1000 + 2000 + 1000 after injection */
  ck_assert_uint_eq(cs_link_net_transfer(n, 0, 3, 1000, 500), 500 + 4000);
  /* a second one from 1 to 2 at 600 waits for link 1 (busy until 3500) */
  ck_assert_uint_eq(cs_link_net_transfer(n, 1, 2, 1000, 600), 3500 + 2000);
  /* the same rank: no link, no time */
  ck_assert_uint_eq(cs_link_net_transfer(n, 2, 2, 1000, 9), 9);
  cs_link_net_free(n);
  /* unbounded links take no time */
  double inf[3] = {1.0 / 0.0, 0, -1};
  n = cs_link_net_new(3, inf, line_route, NULL);
  ck_assert_uint_eq(cs_link_net_transfer(n, 0, 3, 1u << 30, 7), 7);
  cs_link_net_free(n);
}
END_TEST

START_TEST(test_atomic_stream)
{
  char *dir = g_dir_make_tmp("native-engine-XXXXXX", NULL);
  ck_assert(dir);
  char *path = g_build_filename(dir, "out.goal", NULL);
  GError *err = NULL;
  cs_atomic_file *f = cs_atomic_open(path, &err);
  ck_assert(f);
  ck_assert(cs_atomic_write(f, "num_ranks 1\n", 12));
  ck_assert(!g_file_test(path, G_FILE_TEST_EXISTS)); /* nothing at path before the commit */
  ck_assert(cs_atomic_write(f, "rank 0 {\n}\n", 11));
  ck_assert(cs_atomic_commit(f, &err));
  char *text = NULL;
  ck_assert(g_file_get_contents(path, &text, NULL, NULL));
  ck_assert_str_eq(text, "num_ranks 1\nrank 0 {\n}\n");
  g_free(text);
  /* abort: the old file stays, no temporary file remains */
  f = cs_atomic_open(path, &err);
  ck_assert(f);
  cs_atomic_write(f, "partial", 7);
  cs_atomic_abort(f);
  ck_assert(g_file_get_contents(path, &text, NULL, NULL));
  ck_assert_str_eq(text, "num_ranks 1\nrank 0 {\n}\n");
  g_free(text);
  GDir *d = g_dir_open(dir, 0, NULL);
  int files = 0;
  while (g_dir_read_name(d))
    files++;
  g_dir_close(d);
  ck_assert_int_eq(files, 1);
  g_unlink(path);
  g_rmdir(dir);
  g_free(path);
  g_free(dir);
}
END_TEST


/* The comm ops of a rank's list, unrolled: what the lowering must yield. */
typedef struct expected {
  const cs_sched_params *prm;
  GArray *ops; /* cs_goal_op */
  uint64_t calc_ns;
  double gamma_ns;
} expected;

static bool expect_op(const cs_op *op, void *user)
{
  expected *x = user;
  uint64_t bytes = cs_units_bytes(x->prm, op->units);
  cs_goal_op g = {.size = bytes, .peer = (uint32_t)op->peer, .tag = (uint32_t)op->tag,
                  .type = op->kind == CS_OP_SEND ? CS_GOAL_SEND : CS_GOAL_RECV};
  g_array_append_val(x->ops, g);
  if (op->kind == CS_OP_RECV_REDUCE)
    x->calc_ns += (uint64_t)llround(x->gamma_ns * (double)bytes);
  return true;
}

/* rank's list o lowered, its peers absolute (relative: rewritten relative
 * to the rank when cs_packed_make_relative takes the list; false if not). */
static bool check_lowering(const cs_sched_params *prm, const cs_oplist *o, double gamma_ns, const char *what,
                           int64_t rank, bool relative)
{
  expected x = {.prm = prm, .ops = g_array_new(FALSE, FALSE, sizeof(cs_goal_op)), .gamma_ns = gamma_ns};
  cs_oplist_expand(prm, o, expect_op, &x);
  cs_lower_ctx ctx;
  cs_lower_ctx_init(&ctx, prm, gamma_ns);
  cs_packed *packed = cs_lower_pack(&ctx, o->op, o->n);
  if (relative && !cs_packed_make_relative(packed, (uint32_t)rank, (uint32_t)prm->p)) {
    cs_packed *again = cs_lower_pack(&ctx, o->op, o->n); /* refused: the list is as it was */
    ck_assert_msg(memcmp(packed->op, again->op, packed->n * sizeof packed->op[0]) == 0, "%s: a refused list changed",
                  what);
    g_free(again);
    g_free(packed);
    g_array_free(x.ops, TRUE);
    return false;
  }
  cs_lower c;
  cs_lower_start(&c, &ctx, packed);
  if (relative)
    cs_lower_rotate(&c, (uint32_t)rank, (uint32_t)prm->p);
  guint at = 0;
  uint64_t calc_ns = 0;
  for (; !cs_lower_finished(&c); cs_lower_next(&c))
    for (uint32_t j = 0; j < cs_lower_step_size(&c); j++) {
      cs_goal_op g;
      cs_lower_op(&c, j, &g);
      if (g.type == CS_GOAL_CALC) {
        calc_ns += g.size;
        continue;
      }
      ck_assert_msg(at < x.ops->len, "%s: the lowering yields more ops than the list", what);
      const cs_goal_op *want = &g_array_index(x.ops, cs_goal_op, at++);
      ck_assert_msg(g.type == want->type && g.peer == want->peer && g.tag == want->tag && g.size == want->size,
                    "%s: op %u is %u %llu b peer %u tag %u, the list's %u %llu b peer %u tag %u", what, at, g.type,
                    (unsigned long long)g.size, g.peer, g.tag, want->type, (unsigned long long)want->size, want->peer,
                    want->tag);
    }
  ck_assert_msg(at == x.ops->len, "%s: the lowering yields %u of the list's %u ops", what, at, x.ops->len);
  ck_assert_msg(calc_ns == x.calc_ns, "%s: calc %llu ns, expected %llu", what, (unsigned long long)calc_ns,
                (unsigned long long)x.calc_ns);
  g_free(packed);
  g_array_free(x.ops, TRUE);
  return true;
}

START_TEST(test_lower_pack)
{
  int64_t shapes[][3] = {{2, 2, 2}, {3, 2, 2}, {5, 3, 2}};
  uint64_t sizes[] = {7, 1000};
  cs_oplist o;
  cs_oplist_init(&o);
  size_t lists = 0, relative = 0;
  for (size_t s = 0; s < G_N_ELEMENTS(shapes); s++)
    for (size_t z = 0; z < G_N_ELEMENTS(sizes); z++)
      for (size_t i = 0; i < cs_coll_algo_count(); i++) {
        cs_net net = cs_net_percs(shapes[s][0], shapes[s][1], shapes[s][2]);
        const cs_coll_algo *a = cs_coll_algo_at(i);
        cs_sched_params prm;
        if (!test_setup(&prm, a, &net.tt, sizes[z]))
          continue;
        for (int64_t r = 0; r < prm.p; r++) {
          cs_oplist_clear(&o);
          a->ops(&prm, r, &o);
          char *what = g_strdup_printf("%s %s p=%lld size %llu rank %lld", cs_coll_name(a->coll), a->name,
                                       (long long)prm.p, (unsigned long long)sizes[z], (long long)r);
          check_lowering(&prm, &o, 0.37, what, r, false);
          relative += check_lowering(&prm, &o, 0.37, what, r, true);
          lists++;
          g_free(what);
        }
      }
  /* the native engine shares relative lists: most schedules' lists can be */
  ck_assert_msg(relative > lists / 2, "%zu of %zu lists taken relative", relative, lists);
  /* A message of 2^60 bytes does not fit the packed word: it keeps its op. */
  cs_net net = cs_net_percs(1, 2, 1);
  cs_sched_params big = {.coll = CS_COLL_SCATTER, .tt = &net.tt, .p = 2, .block = (uint64_t)1 << 60,
                         .bytes = (uint64_t)1 << 61, .nunits = 2};
  cs_oplist_clear(&o);
  cs_ops_send(&o, 1, 3, cs_units_block(&big, 1));
  cs_ops_recv(&o, 1, 4, cs_units_block(&big, 0));
  check_lowering(&big, &o, 0, "2^60 bytes", 0, false);
  ck_assert(!check_lowering(&big, &o, 0, "2^60 bytes", 0, true)); /* a full op */
  /* A peer outside the ranks: the list is refused and left as it was. */
  cs_sched_params two = {.coll = CS_COLL_SCATTER, .tt = &net.tt, .p = 2, .block = 8, .bytes = 16, .nunits = 2};
  cs_oplist_clear(&o);
  cs_ops_send(&o, 1, 3, cs_units_block(&two, 1));
  cs_ops_send(&o, 2, 3, cs_units_block(&two, 1));
  ck_assert(!check_lowering(&two, &o, 0, "peer 2 of 2 ranks", 1, true));
  cs_oplist_free(&o);
}
END_TEST

/* The op lists the native engine keeps for a run of algorithm `name` of
 * coll on 4,096 ranks (ranks whose lists are equal up to a rotation share
 * one), and its messages. */
static uint64_t lists_kept(cs_coll coll, const char *name, uint64_t size, uint64_t *messages)
{
  cs_net net = cs_net_percs(16, 16, 16);
  const cs_coll_algo *a = NULL;
  for (size_t i = 0; i < cs_coll_algo_count(); i++)
    if (cs_coll_algo_at(i)->coll == coll && strcmp(cs_coll_algo_at(i)->name, name) == 0)
      a = cs_coll_algo_at(i);
  ck_assert_msg(a, "no %s", name);
  cs_sched_params prm;
  ck_assert(test_setup(&prm, a, &net.tt, size));
  ck_assert_int_eq(prm.p, 4096);
  cs_loggops_params m;
  cs_loggops_defaults(&m);
  cs_native_result r;
  GError *e = NULL;
  ck_assert_msg(cs_native_run_coll(a, &prm, 0, &m, NULL, NULL, &r, &e), "%s", e ? e->message : "");
  *messages = r.messages;
  return r.op_lists;
}

START_TEST(test_shared_lists)
{
  uint64_t messages;
  /* every rank's dissemination list is the same up to a rotation: one list */
  ck_assert_uint_eq(lists_kept(CS_COLL_BARRIER, "dissemination", 0, &messages), 1);
  ck_assert_uint_eq(messages, 4096 * 12);
  /* and Bruck's allgather's */
  ck_assert_uint_eq(lists_kept(CS_COLL_ALLGATHER, "bruck", 4096 * 8, &messages), 1);
  ck_assert_uint_eq(messages, 4096 * 12);
  /* recursive doubling: partners differ by rank (one list in two equals
   * another's), and the engine stops looking after its trial */
  ck_assert_uint_ge(lists_kept(CS_COLL_ALLGATHER, "recursive-doubling", 4096 * 8, &messages), 4096 - 1024);
  ck_assert_uint_eq(messages, 4096 * 12);
}
END_TEST

/* path holding text, gzip-compressed when gz (with GLib's compressor). */
static void write_goal(const char *path, const char *text, bool gz)
{
  if (!gz) {
    ck_assert(g_file_set_contents(path, text, -1, NULL));
    return;
  }
  GZlibCompressor *z = g_zlib_compressor_new(G_ZLIB_COMPRESSOR_FORMAT_GZIP, -1);
  guchar out[4096];
  gsize read = 0, written = 0;
  GConverterResult r = g_converter_convert(G_CONVERTER(z), text, strlen(text), out, sizeof out,
                                           G_CONVERTER_INPUT_AT_END, &read, &written, NULL);
  ck_assert_int_eq(r, G_CONVERTER_FINISHED);
  ck_assert(g_file_set_contents(path, (const char *)out, (gssize)written, NULL));
  g_object_unref(z);
}

START_TEST(test_goal_peek)
{
  static const struct {
    const char *text;
    uint32_t ranks;
  } cases[] = {
    {"num_ranks 65536\nrank 0 {\n", 65536},
    {"// a comment\n\n   \nnum_ranks 7\n", 7},
    {"num_ranks 4294967295\n", 4294967295u},
    {"rank 0 {\n}\nnum_ranks 3\n", 0}, /* not first: cs_goal_read says why */
    {"num_ranks\n", 0},
    {"num_ranks 0\n", 0},
    {"num_ranks 4294967296\n", 0},
    {"", 0},
  };
  char *dir = g_dir_make_tmp("peek-XXXXXX", NULL), *path = g_build_filename(dir, "s.goal", NULL);
  for (size_t i = 0; i < G_N_ELEMENTS(cases); i++)
    for (int gz = 0; gz < 2; gz++) {
      write_goal(path, cases[i].text, gz);
      ck_assert_msg(cs_goal_peek_ranks(path) == cases[i].ranks, "'%s'%s: %u, want %u", cases[i].text,
                    gz ? " (gzip)" : "", cs_goal_peek_ranks(path), cases[i].ranks);
    }
  ck_assert_uint_eq(cs_goal_peek_ranks("/nonexistent/s.goal"), 0);
  g_unlink(path);
  g_rmdir(dir);
  g_free(path);
  g_free(dir);
}
END_TEST

int main(void)
{
  Suite *s = suite_create("native_engine");
  TCase *tc = tcase_create("native_engine");
  tcase_set_timeout(tc, 120);
  tcase_add_loop_test(tc, test_queue_order, 0, 4);
  tcase_add_test(tc, test_pair_digest);
  tcase_add_test(tc, test_links_transfer);
  tcase_add_test(tc, test_atomic_stream);
  tcase_add_test(tc, test_lower_pack);
  tcase_add_test(tc, test_shared_lists);
  tcase_add_test(tc, test_goal_peek);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}

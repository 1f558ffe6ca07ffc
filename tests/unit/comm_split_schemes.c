/* Every registered split protocol (algorithms/communicators/registry.c,
 * op split) on a grid (issue 31 part 3): n in {1, 2, 3, 7, 8, 16, 33, 64},
 * colours {1, 2, 3, 8} (at most n), keys rank, reverse and random, colour
 * layouts cyclic and block, plus a split of one group with the others
 * MPI_UNDEFINED (every other rank, rank 0 included).  Each case runs the
 * code `collsim comm split --impl I` runs (cs_comm_run on cpm:1,64,1, one
 * proclet per OS process) and checks:
 *  - the run's verification passed: every proclet holds exactly its
 *    colour's members in (key, rank) order with the right rank and size,
 *    an undefined colour gets no communicator, context ids agree;
 *  - where the protocol has a messages formula, the messages counted equal
 *    it, and the formula the run reports equals the protocol's formula
 *    evaluated here on the group sizes counted here from the colours;
 *  - the schemes that claim O(1) memory per process (Moody's chains) hold
 *    at most CHAIN_BOUND bytes beyond their group map at their peak, at
 *    every n (peak minus the map bytes: the map is the layer's, built at
 *    the end, see moody_bitonic_split.c), the hash split at most HASH_BOUND
 *    (moody_hash_split.c); Sack and Gropp's, O(n/p) with p
 *    sorters, at most SLICE_BASE + 48 n/p + 24 p^2 bytes (4 records of 12
 *    bytes per n/p: a bucket of at most 2 n/p and its merge copy; 2 per
 *    sample; p^2 < n/p for p = cbrt(n)).
 * A new split protocol is covered without editing this file; one with a
 * memory claim is added to `claims`. */
#include "algorithms/communicators/protocol.h"
#include "platforms/platform.h"
#include "sim/drivers/comm_run.h"
#include "sim/engine/sg_engine.h"

#include <check.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#define SLOTS 64
#define CHAIN_BOUND 256 /* bytes: the proclet's handles and messages in flight, not growing with n */
#define HASH_BOUND 640 /* bytes: as CHAIN_BOUND, plus the hash split's log-chain (32 levels, 264 bytes) and its
                        * owner entries (16 bytes per colour owned, at most 8 colours here) */
#define SLICE_BASE 512

int cs_sack_gropp_sorters(int64_t n); /* sack_gropp_split.c */

static const int64_t sizes[] = {1, 2, 3, 7, 8, 16, 33, 64};
static const int colours[] = {1, 2, 3, 8};
static const cs_key_rule keys[] = {CS_KEY_RANK, CS_KEY_REVERSE, CS_KEY_RANDOM};
static const cs_color_layout layouts[] = {CS_LAYOUT_CYCLIC, CS_LAYOUT_BLOCK};

/* Memory claims: implementation -> bound on peak minus map bytes:
 * base + per_slice n/p + per_sample p^2, p the Sack-Gropp sorters. */
static const struct {
  const char *impl;
  int64_t base, per_slice, per_sample;
} claims[] = {{"bitonic", CHAIN_BOUND, 0, 0}, {"hash", HASH_BOUND, 0, 0}, {"sackgropp", SLICE_BASE, 48, 24}};

static GPtrArray *splits; /* the split protocols */
static char *platform_dir, *platform_path;

static void make_platform(void)
{
  GError *err = NULL;
  char *spec = g_strdup_printf("cpm:1,%d,1", SLOTS);
  cs_platform *pf = cs_platform_parse(spec, &err);
  g_assert(pf && cs_platform_resolve(pf, 0, &err));
  platform_dir = g_dir_make_tmp("check-split-XXXXXX", NULL);
  platform_path = g_build_filename(platform_dir, "platform.xml", NULL);
  g_assert(cs_platform_write_file(pf, platform_path, &err));
  cs_platform_free(pf);
  g_free(spec);
}

static int64_t claimed_bound(const char *impl, int64_t n)
{
  int64_t p = cs_sack_gropp_sorters(n);
  for (size_t i = 0; i < G_N_ELEMENTS(claims); i++)
    if (strcmp(claims[i].impl, impl) == 0)
      return claims[i].base + claims[i].per_slice * (n / p) + claims[i].per_sample * p * p;
  return -1;
}

typedef struct split_case {
  const cs_comm_protocol *proto;
  int64_t n;
  int colors;
  cs_key_rule key;
  cs_color_layout layout;
  const cs_wid *group; /* one group, the others undefined; NULL: colours by layout */
  int64_t group_size;
} split_case;

static void params_of(const split_case *k, cs_comm_params *prm)
{
  memset(prm, 0, sizeof *prm);
  prm->proto = k->proto;
  prm->n = k->n;
  prm->per_process = 1;
  prm->per_machine = SLOTS;
  prm->ranks_per_host = 1;
  prm->cpm[0] = 1;
  prm->cpm[1] = SLOTS;
  prm->cpm[2] = 1;
  prm->colors = k->colors;
  prm->layout = k->layout;
  prm->key_rule = k->key;
  prm->split_group = k->group;
  prm->split_group_size = k->group_size;
  prm->map = "ST";
  prm->share = true;
  prm->lid_bits = CS_LID_BITS_DEFAULT;
  prm->lbi_bits = CS_LBI_BITS_DEFAULT;
  prm->cpu_factor = 1;
  prm->repeat = 1;
  prm->seed = 7;
  prm->platform_desc = "cpm:1,64,1";
  cs_engine_config_defaults(&prm->engine);
  prm->engine.platform_file = platform_path;
  prm->engine.quiet = 1;
}

/* The colours comm_run draws (its make_split_inputs), counted here. */
static int32_t colour_of(const split_case *k, int64_t r)
{
  if (k->group) {
    for (int64_t i = 0; i < k->group_size; i++)
      if (k->group[i] == r)
        return 0;
    return CS_COLOR_UNDEFINED;
  }
  return k->layout == CS_LAYOUT_CYCLIC ? (int32_t)(r % k->colors) : (int32_t)(r * k->colors / k->n);
}

static GArray *group_sizes(const split_case *k)
{
  int64_t *count = g_new0(int64_t, (gsize)k->colors + 1);
  for (int64_t r = 0; r < k->n; r++) {
    int32_t c = colour_of(k, r);
    if (c != CS_COLOR_UNDEFINED)
      count[c]++;
  }
  GArray *out = g_array_new(FALSE, FALSE, sizeof(int64_t));
  for (int c = 0; c < k->colors; c++)
    if (count[c] > 0)
      g_array_append_val(out, count[c]);
  g_free(count);
  return out;
}

static char *case_name(const split_case *k)
{
  static const char *key_names[] = {"rank", "reverse", "random"};
  if (k->group)
    return g_strdup_printf("comm split --impl %s -n %lld, one group of %lld (others undefined)", k->proto->impl,
                           (long long)k->n, (long long)k->group_size);
  return g_strdup_printf("comm split --impl %s -n %lld --colors %d --key %s --layout %s", k->proto->impl,
                         (long long)k->n, k->colors, key_names[k->key],
                         k->layout == CS_LAYOUT_CYCLIC ? "cyclic" : "block");
}

static void check_formula(const split_case *k, const cs_comm_result *res, const char *name)
{
  if (!k->proto->messages) {
    ck_assert_msg(!res->has_formula, "%s: a formula without a messages callback", name);
    return;
  }
  GArray *gs = group_sizes(k);
  uint64_t want = k->proto->messages(k->n, (const int64_t *)(void *)gs->data, (int)gs->len);
  g_array_free(gs, TRUE);
  ck_assert_msg(res->has_formula, "%s: no messages_expected", name);
  ck_assert_msg(res->messages_expected == want, "%s: run's formula %llu, protocol's %llu", name,
                (unsigned long long)res->messages_expected, (unsigned long long)want);
  ck_assert_msg(res->messages == want, "%s: %llu messages, formula %llu", name, (unsigned long long)res->messages,
                (unsigned long long)want);
}

static void check_memory(const split_case *k, const cs_comm_result *res, const char *name)
{
  int64_t bound = claimed_bound(k->proto->impl, k->n);
  if (bound < 0)
    return;
  /* per_process = 1: an OS process is a proclet, its map bytes its own */
  int64_t beyond_map = res->peak_mem_bytes_per_proclet_max - (int64_t)res->map_bytes_per_process_max;
  ck_assert_msg(beyond_map <= bound, "%s: peak %lld bytes, map %llu: %lld beyond the map, claimed at most %lld",
                name, (long long)res->peak_mem_bytes_per_proclet_max,
                (unsigned long long)res->map_bytes_per_process_max, (long long)beyond_map, (long long)bound);
}

static void run_case(const split_case *k)
{
  cs_comm_params prm;
  params_of(k, &prm);
  cs_comm_result res;
  GError *err = NULL;
  char *name = case_name(k);
  int rc = cs_comm_run(&prm, &res, &err);
  ck_assert_msg(rc == 0, "%s: %s", name, err ? err->message : "failed");
  ck_assert_msg(res.verified, "%s: not verified: %s", name, res.why ? res.why : "?");
  ck_assert_msg(res.exhausted == 0, "%s: ran out of context ids", name);
  check_formula(k, &res, name);
  check_memory(k, &res, name);
  cs_comm_result_clear(&res);
  g_free(name);
}

static void run_undefined_case(const cs_comm_protocol *proto, int64_t n)
{
  cs_wid *group = g_new(cs_wid, (gsize)n);
  int64_t m = 0;
  for (int64_t r = n - 1 - (n - 1) % 2; r >= 0; r -= 2)
    group[m++] = (cs_wid)r; /* even ranks, in reverse: keys reorder them */
  split_case k = {.proto = proto, .n = n, .colors = 1, .group = group, .group_size = m};
  run_case(&k);
  g_free(group);
}

START_TEST(every_split_on_the_grid)
{
  const cs_comm_protocol *proto = g_ptr_array_index(splits, _i);
  for (size_t a = 0; a < G_N_ELEMENTS(sizes); a++) {
    for (size_t b = 0; b < G_N_ELEMENTS(colours); b++)
      for (size_t c = 0; c < G_N_ELEMENTS(keys); c++)
        for (size_t d = 0; d < G_N_ELEMENTS(layouts); d++) {
          if (colours[b] > sizes[a])
            continue;
          split_case k = {proto, sizes[a], colours[b], keys[c], layouts[d], NULL, 0};
          run_case(&k);
        }
    if (sizes[a] > 1)
      run_undefined_case(proto, sizes[a]);
  }
}
END_TEST

/* The O(1) check must be able to fail: a bound below what any proclet
 * holds (its COMM_WORLD handle) is exceeded. */
START_TEST(memory_check_can_fail)
{
  const cs_comm_protocol *proto = cs_comm_protocol_find("bitonic", CS_COMM_SPLIT);
  ck_assert_ptr_nonnull(proto);
  split_case k = {proto, 8, 2, CS_KEY_RANDOM, CS_LAYOUT_CYCLIC, NULL, 0};
  cs_comm_params prm;
  params_of(&k, &prm);
  cs_comm_result res;
  GError *err = NULL;
  ck_assert_int_eq(cs_comm_run(&prm, &res, &err), 0);
  ck_assert_int_gt(res.peak_mem_bytes_per_proclet_max - (int64_t)res.map_bytes_per_process_max, 0);
  cs_comm_result_clear(&res);
}
END_TEST

/* The chain schemes' memory beyond the map does not grow from n = 2 to 64. */
START_TEST(chain_memory_flat_in_n)
{
  for (size_t i = 0; i < G_N_ELEMENTS(claims); i++) {
    const cs_comm_protocol *proto = cs_comm_protocol_find(claims[i].impl, CS_COMM_SPLIT);
    if (!proto || claims[i].per_slice > 0)
      continue;
    int64_t at[2];
    int64_t ns[2] = {2, 64};
    for (int j = 0; j < 2; j++) {
      split_case k = {proto, ns[j], 2, CS_KEY_RANDOM, CS_LAYOUT_CYCLIC, NULL, 0};
      cs_comm_params prm;
      params_of(&k, &prm);
      cs_comm_result res;
      GError *err = NULL;
      ck_assert_int_eq(cs_comm_run(&prm, &res, &err), 0);
      at[j] = res.peak_mem_bytes_per_proclet_max - (int64_t)res.map_bytes_per_process_max;
      cs_comm_result_clear(&res);
    }
    ck_assert_msg(at[1] <= at[0] + 64, "%s: %lld bytes beyond the map at n = 2, %lld at n = 64", claims[i].impl,
                  (long long)at[0], (long long)at[1]);
  }
}
END_TEST

/* MPICH 4's eager context ids (2 words, 61 free) run out at the 62nd
 * creation: from then on a second AND-allreduce per split.  A run of more
 * creations than the registry's formula_creations reports no formula and
 * still verifies; its messages are 61 creations at one allreduce and the
 * rest at two. */
START_TEST(mpich4_beyond_the_eager_ids)
{
  const cs_comm_protocol *proto = cs_comm_protocol_find("mpich4", CS_COMM_SPLIT);
  ck_assert_ptr_nonnull(proto);
  ck_assert_int_eq(proto->formula_creations, 61);
  split_case k = {proto, 8, 2, CS_KEY_RANDOM, CS_LAYOUT_CYCLIC, NULL, 0};
  cs_comm_params prm;
  params_of(&k, &prm);
  prm.repeat = 70;
  cs_comm_result res;
  GError *err = NULL;
  ck_assert_msg(cs_comm_run(&prm, &res, &err) == 0, "%s", err ? err->message : "?");
  ck_assert(res.verified && !res.has_formula);
  uint64_t one = proto->messages(8, NULL, 0), allreduce = 2 * 0 + 8 * 3; /* n = 8: pof2 lg pof2 */
  ck_assert_uint_eq(res.messages, 70 * one + (70 - 61) * allreduce);
  cs_comm_result_clear(&res);
}
END_TEST

int main(void)
{
  make_platform();
  splits = g_ptr_array_new();
  for (size_t i = 0; i < cs_comm_protocol_count(); i++)
    if (cs_comm_protocol_at(i)->op == CS_COMM_SPLIT)
      g_ptr_array_add(splits, (gpointer)cs_comm_protocol_at(i));
  Suite *s = suite_create("comm_split_schemes");
  TCase *tc = tcase_create("grid");
  tcase_set_timeout(tc, 600);
  tcase_add_loop_test(tc, every_split_on_the_grid, 0, (int)splits->len);
  tcase_add_test(tc, memory_check_can_fail);
  tcase_add_test(tc, chain_memory_flat_in_n);
  tcase_add_test(tc, mpich4_beyond_the_eager_ids);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  g_ptr_array_free(splits, TRUE);
  g_unlink(platform_path);
  g_rmdir(platform_dir);
  g_free(platform_path);
  g_free(platform_dir);
  return failed ? 1 : 0;
}

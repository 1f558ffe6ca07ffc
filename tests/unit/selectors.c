/* Tests of the selectors (algorithms/selectors, issue 30): on the grid
 * p in {2, 3, 8, 12, 64, 1000, 16384} x size in {8 B, 1 KiB, 12 KiB, 64 KiB,
 * 512 KiB, 16 MiB}, every collective's choice equals the decision written
 * out below BY HAND from the sources (MPICH 4.2.3
 * maint/tuning/coll/mpir/generic.json; Open MPI 4.1.8
 * coll_tuned_decision_fixed.c), not computed by the selectors' rows; then
 * the map to collsim's algorithms at the points where it turns on p, count
 * or commutativity, the rule text, and coverage. */
#include "algorithms/selectors/selector.h"

#include <check.h>
#include <glib.h>
#include <string.h>

static const int64_t P[7] = {2, 3, 8, 12, 64, 1000, 16384};
static const uint64_t SIZE[6] = {8, 1024, 12288, 65536, 524288, 16777216};

/* One collective's grid: per p (rows, in P's order) six abbreviations (in
 * SIZE's order), each expanded through legend ("ab=name" pairs). */
static void check_grid(const char *sel, cs_coll c, bool commutative, const char *const legend[],
                       const char *const rows[7])
{
  const cs_selector *s = cs_selector_find(sel);
  ck_assert_ptr_nonnull(s);
  for (int i = 0; i < 7; i++) {
    char **ab = g_strsplit(rows[i], " ", -1);
    ck_assert_uint_eq(g_strv_length(ab), 6);
    for (int j = 0; j < 6; j++) {
      const char *want = NULL;
      for (int k = 0; legend[k]; k += 2)
        if (strcmp(legend[k], ab[j]) == 0)
          want = legend[k + 1];
      ck_assert_msg(want, "legend lacks %s", ab[j]);
      cs_selection out;
      ck_assert(s->select(c, P[i], SIZE[j], commutative, &out));
      ck_assert_msg(strcmp(out.lib_algo, want) == 0, "%s %s p=%lld size=%llu: got %s, the source says %s", sel,
                    cs_coll_name(c), (long long)P[i], (unsigned long long)SIZE[j], out.lib_algo, want);
    }
    g_strfreev(ab);
  }
}

/* ---- MPICH 4.2.3 ---- */

START_TEST(mpich_bcast)
{
  /* comm_size<8: binomial; pow2: <=12288 binomial, <=524288 scatter+rdb, else
   * scatter+ring; otherwise <=12288 binomial, else scatter+ring */
  static const char *const L[] = {"B", "MPIR_Bcast_intra_binomial", "D",
                                  "MPIR_Bcast_intra_scatter_recursive_doubling_allgather", "R",
                                  "MPIR_Bcast_intra_scatter_ring_allgather", NULL};
  static const char *const rows[7] = {"B B B B B B", "B B B B B B", "B B B D D R", "B B B R R R",
                                      "B B B D D R", "B B B R R R", "B B B D D R"};
  check_grid("mpich", CS_COLL_BCAST, true, L, rows);
}
END_TEST

START_TEST(mpich_allreduce)
{
  /* <=8 bytes rd; count (size/8) < pof2 rd; else reduce_scatter_allgather */
  static const char *const L[] = {"D", "MPIR_Allreduce_intra_recursive_doubling", "A",
                                  "MPIR_Allreduce_intra_reduce_scatter_allgather", NULL};
  static const char *const rows[7] = {"D A A A A A", "D A A A A A", "D A A A A A", "D A A A A A",
                                      "D A A A A A", "D D A A A A", "D D D D A A"};
  check_grid("mpich", CS_COLL_ALLREDUCE, true, L, rows);
  static const char *const nc[7] = {"D D D D D D", "D D D D D D", "D D D D D D", "D D D D D D",
                                    "D D D D D D", "D D D D D D", "D D D D D D"};
  check_grid("mpich", CS_COLL_ALLREDUCE, false, L, nc); /* user op: rd */
}
END_TEST

START_TEST(mpich_allgather)
{
  /* total = p*block; pow2: <524288 rd else ring; else <81920 bruck else ring */
  static const char *const L[] = {"D", "MPIR_Allgather_intra_recursive_doubling", "R", "MPIR_Allgather_intra_ring",
                                  "K", "MPIR_Allgather_intra_brucks", NULL};
  static const char *const rows[7] = {"D D D D R R", "K K K R R R", "D D D R R R", "K K R R R R",
                                      "D D R R R R", "K R R R R R", "D R R R R R"};
  check_grid("mpich", CS_COLL_ALLGATHER, true, L, rows);
}
END_TEST

START_TEST(mpich_reduce)
{
  /* <=2048 binomial; count < pof2 binomial; else reduce_scatter_gather */
  static const char *const L[] = {"B", "MPIR_Reduce_intra_binomial", "G", "MPIR_Reduce_intra_reduce_scatter_gather",
                                  NULL};
  static const char *const rows[7] = {"B B G G G G", "B B G G G G", "B B G G G G", "B B G G G G",
                                      "B B G G G G", "B B G G G G", "B B B B G G"};
  check_grid("mpich", CS_COLL_REDUCE, true, L, rows);
}
END_TEST

START_TEST(mpich_reduce_scatter)
{
  /* commutative, total = p*block: <524288 recursive halving, else pairwise */
  static const char *const L[] = {"H", "MPIR_Reduce_scatter_intra_recursive_halving", "P",
                                  "MPIR_Reduce_scatter_intra_pairwise", NULL};
  static const char *const rows[7] = {"H H H H P P", "H H H H P P", "H H H P P P", "H H H P P P",
                                      "H H P P P P", "H P P P P P", "H P P P P P"};
  check_grid("mpich", CS_COLL_REDUCE_SCATTER, true, L, rows);
  static const char *const Lnc[] = {"N", "MPIR_Reduce_scatter_intra_noncommutative", "D",
                                    "MPIR_Reduce_scatter_intra_recursive_doubling", NULL};
  static const char *const nc[7] = {"N N N N N N", "D D D D D D", "N N N N N N", "D D D D D D",
                                    "N N N N N N", "D D D D D D", "N N N N N N"};
  check_grid("mpich", CS_COLL_REDUCE_SCATTER, false, Lnc, nc);
}
END_TEST

START_TEST(mpich_alltoall)
{
  /* p<8: <=32768 scattered else pairwise; else <=256 brucks, <=32768
   * scattered, else pairwise */
  static const char *const L[] = {"S", "MPIR_Alltoall_intra_scattered", "P", "MPIR_Alltoall_intra_pairwise", "K",
                                  "MPIR_Alltoall_intra_brucks", NULL};
  static const char *const rows[7] = {"S S S P P P", "S S S P P P", "K S S P P P", "K S S P P P",
                                      "K S S P P P", "K S S P P P", "K S S P P P"};
  check_grid("mpich", CS_COLL_ALLTOALL, true, L, rows);
}
END_TEST

START_TEST(mpich_fixed)
{
  static const char *const G[] = {"B", "MPIR_Gather_intra_binomial", NULL};
  static const char *const S[] = {"B", "MPIR_Scatter_intra_binomial", NULL};
  static const char *const Bar[] = {"K", "MPIR_Barrier_intra_k_dissemination", NULL};
  static const char *const b[7] = {"B B B B B B", "B B B B B B", "B B B B B B", "B B B B B B",
                                   "B B B B B B", "B B B B B B", "B B B B B B"};
  static const char *const k[7] = {"K K K K K K", "K K K K K K", "K K K K K K", "K K K K K K",
                                   "K K K K K K", "K K K K K K", "K K K K K K"};
  check_grid("mpich", CS_COLL_GATHER, true, G, b);
  check_grid("mpich", CS_COLL_SCATTER, true, S, b);
  check_grid("mpich", CS_COLL_BARRIER, true, Bar, k);
}
END_TEST

/* ---- Open MPI 4.1.8 ---- */

START_TEST(ompi_allreduce)
{
  static const char *const L[] = {"D", "recursive_doubling", "S", "segmented_ring", "R", "rabenseifner", "N",
                                  "nonoverlapping", NULL};
  static const char *const rows[7] = {"D D D S R R", "D D D S R R", "D D R R R R", "D D R R R R",
                                      "D D D D R R", "N N D R R R", "N N S R R R"};
  check_grid("ompi", CS_COLL_ALLREDUCE, true, L, rows);
  static const char *const Lnc[] = {"D", "recursive_doubling", "L", "basic_linear", "N", "nonoverlapping", NULL};
  /* p<4: <131072 rd else linear; <8 rd; <16: <1M rd else nonov; <128 rd;
   * else (p >= 512): <2048 nonov else rd */
  static const char *const nc[7] = {"D D D D L L", "D D D D L L", "D D D D D N", "D D D D D N",
                                    "D D D D D D", "N N D D D D", "N N D D D D"};
  check_grid("ompi", CS_COLL_ALLREDUCE, false, Lnc, nc);
}
END_TEST

START_TEST(ompi_alltoall)
{
  static const char *const L[] = {"PW", "pairwise", "TP", "two_proc", "LS", "linear_sync", "LI", "linear", "MB",
                                  "modified_bruck", NULL};
  static const char *const rows[7] = {"PW TP PW LS TP PW", "LS LS LI LI PW LI", "LS LS LS LS LI LI",
                                      "LS LS LS LS LI LI", "MB LI LI LI PW PW", "MB LS LI LS PW PW",
                                      "MB MB LI LS LS LS"};
  check_grid("ompi", CS_COLL_ALLTOALL, true, L, rows);
}
END_TEST

START_TEST(ompi_barrier)
{
  /* <4 rd, <8 linear, <64 rd, <256 bruck, <512 tree, <1024 bruck, <4096 tree, else bruck */
  static const char *const L[] = {"D", "recursive_doubling", "B", "bruck", NULL};
  static const char *const rows[7] = {"D D D D D D", "D D D D D D", "D D D D D D", "D D D D D D",
                                      "B B B B B B", "B B B B B B", "B B B B B B"};
  check_grid("ompi", CS_COLL_BARRIER, true, L, rows);
}
END_TEST

START_TEST(ompi_bcast)
{
  static const char *const L[] = {"PL", "pipeline", "BL", "basic_linear", "BT", "binary_tree", "BN", "binomial",
                                  "KN", "knomial", "SA", "scatter_allgather", NULL};
  static const char *const rows[7] = {"PL BL BL BT BN BT", "PL BL BL BT BN BT", "BT KN BT BL BL BL",
                                      "BT KN BT BL BL BL", "KN KN KN KN KN KN", "KN KN KN KN KN KN",
                                      "KN KN BT KN SA SA"};
  check_grid("ompi", CS_COLL_BCAST, true, L, rows);
}
END_TEST

START_TEST(ompi_reduce)
{
  static const char *const L[] = {"BI", "binary", "LI", "linear", "CH", "chain", "PL", "pipeline", "BN", "binomial",
                                  "IO", "in-order_binary", NULL};
  static const char *const rows[7] = {"BI LI LI LI CH PL", "BI LI LI LI CH PL", "BI BI BN BN BN BN",
                                      "BI BI BN BN BN BN", "BN BN BN BN BN BN", "BN BN BN BN BN BN",
                                      "BN IO IO BN BN BN"};
  check_grid("ompi", CS_COLL_REDUCE, true, L, rows);
}
END_TEST

START_TEST(ompi_reduce_scatter)
{
  static const char *const L[] = {"RG", "ring", "RH", "recursive_halving", "BF", "butterfly", "NO",
                                  "non-overlapping", NULL};
  static const char *const rows[7] = {"RG RG RG RG RG RG", "RG RG RG RG RG RG", "RH RH RH RG RG RG",
                                      "RH RH RH RG RG RG", "BF BF BF BF BF BF", "BF BF BF BF BF BF",
                                      "BF BF BF BF BF BF"};
  check_grid("ompi", CS_COLL_REDUCE_SCATTER, true, L, rows);
  static const char *const nc[7] = {"NO NO NO NO NO NO", "NO NO NO NO NO NO", "NO NO NO NO NO NO",
                                    "NO NO NO NO NO NO", "NO NO NO NO NO NO", "NO NO NO NO NO NO",
                                    "NO NO NO NO NO NO"};
  check_grid("ompi", CS_COLL_REDUCE_SCATTER, false, L, nc);
}
END_TEST

START_TEST(ompi_allgather)
{
  static const char *const L[] = {"TP", "two_proc", "RD", "recursive_doubling", "NB", "neighbor", "RG", "ring",
                                  NULL};
  static const char *const rows[7] = {"TP TP TP TP TP TP", "RD RD RD RD RD RD", "RD RD RD RD RD RD",
                                      "RD RD RD RD RD RD", "RD NB NB RG RG RG", "RD RD NB NB NB NB",
                                      "RD RD NB NB NB NB"};
  check_grid("ompi", CS_COLL_ALLGATHER, true, L, rows);
}
END_TEST

START_TEST(ompi_gather_scatter)
{
  static const char *const G[] = {"BN", "binomial", "LS", "linear_sync", NULL};
  static const char *const g[7] = {"BN BN BN BN LS LS", "BN BN BN BN LS LS", "BN BN BN BN BN BN",
                                   "BN BN BN BN BN BN", "BN BN BN BN BN BN", "BN BN BN BN BN BN",
                                   "BN BN BN BN BN BN"};
  check_grid("ompi", CS_COLL_GATHER, true, G, g);
  static const char *const S[] = {"BN", "binomial", "BL", "basic_linear", "NB", "linear_nb", NULL};
  static const char *const s[7] = {"BL BL BL BL BL BL", "BL BL BL BL BL BL", "BN BN BN NB NB BL",
                                   "BN BN BN NB NB BL", "BN NB NB NB NB NB", "BN NB NB NB NB NB",
                                   "BN NB NB NB NB NB"};
  check_grid("ompi", CS_COLL_SCATTER, true, S, s);
}
END_TEST

/* ---- the map to collsim's algorithms, the rule text, coverage ---- */

static const char *collsim_algo(const char *sel, cs_coll c, int64_t p, uint64_t size)
{
  cs_selection out;
  ck_assert(cs_selector_find(sel)->select(c, p, size, true, &out));
  return out.algo;
}

START_TEST(map_to_collsim)
{
  /* every name a selector gives is in collsim's registry */
  for (size_t i = 0; i < cs_selector_count(); i++) {
    const cs_sel_data *d = cs_selector_at(i)->data;
    for (size_t k = 0; k < d->nnames; k++)
      if (d->names[k].algo)
        ck_assert_msg(cs_coll_algo_find(d->names[k].coll, d->names[k].algo), "%s: %s %s not registered",
                      cs_selector_at(i)->name, cs_coll_name(d->names[k].coll), d->names[k].algo);
  }
  ck_assert_str_eq(collsim_algo("mpich", CS_COLL_BCAST, 64, 65536), "scatter-rdb");
  ck_assert_str_eq(collsim_algo("mpich", CS_COLL_BCAST, 1000, 65536), "vandegeijn");
  /* scattered alltoall: one batch up to 32 ranks (linear), throttled beyond */
  ck_assert_str_eq(collsim_algo("mpich", CS_COLL_ALLTOALL, 12, 1024), "linear");
  ck_assert_ptr_null(collsim_algo("mpich", CS_COLL_ALLTOALL, 64, 1024));
  /* pairwise alltoall: collsim's pairs by XOR on powers of two as MPICH's
   * does, by rank +- i otherwise: every pairwise point of the grid runs */
  ck_assert_str_eq(collsim_algo("mpich", CS_COLL_ALLTOALL, 64, 65536), "pairwise");
  ck_assert_str_eq(collsim_algo("mpich", CS_COLL_ALLTOALL, 16384, 16777216), "pairwise");
  ck_assert_str_eq(collsim_algo("mpich", CS_COLL_ALLTOALL, 2, 65536), "pairwise");
  ck_assert_str_eq(collsim_algo("mpich", CS_COLL_ALLTOALL, 3, 65536), "pairwise");
  ck_assert_str_eq(collsim_algo("mpich", CS_COLL_ALLTOALL, 1000, 65536), "pairwise");
  for (int i = 0; i < 7; i++)
    for (int j = 3; j < 6; j++)
      ck_assert_str_eq(collsim_algo("mpich", CS_COLL_ALLTOALL, P[i], SIZE[j]), "pairwise");
  ck_assert_ptr_null(collsim_algo("mpich", CS_COLL_REDUCE_SCATTER, 8, 8));
  ck_assert_str_eq(collsim_algo("mpich", CS_COLL_BARRIER, 12, 0), "dissemination");
  /* Open MPI: rabenseifner switches to basic_linear when count < pof2(p) */
  ck_assert_ptr_null(collsim_algo("ompi", CS_COLL_ALLREDUCE, 16384, 65536));
  ck_assert_str_eq(collsim_algo("ompi", CS_COLL_ALLREDUCE, 16384, 524288), "rabenseifner");
  /* recursive doubling allgather switches to bruck off powers of two */
  ck_assert_str_eq(collsim_algo("ompi", CS_COLL_ALLGATHER, 12, 8), "bruck");
  ck_assert_str_eq(collsim_algo("ompi", CS_COLL_ALLGATHER, 8, 8), "recursive-doubling");
  ck_assert_str_eq(collsim_algo("ompi", CS_COLL_BCAST, 16384, 524288), "scatter-rdb");
  ck_assert_ptr_null(collsim_algo("ompi", CS_COLL_BCAST, 64, 8)); /* knomial */
  ck_assert_str_eq(collsim_algo("ompi", CS_COLL_BARRIER, 64, 0), "dissemination");
  ck_assert_str_eq(collsim_algo("ompi", CS_COLL_ALLTOALL, 64, 8), "bruck");
}
END_TEST

START_TEST(rule_text)
{
  cs_selection out;
  ck_assert(cs_selector_find("mpich")->select(CS_COLL_BCAST, 1000, 12288, true, &out));
  ck_assert_str_eq(out.rule, "MPICH 4.2.3 maint/tuning/coll/mpir/generic.json bcast: avg_msg_size<=12288 -> "
                             "MPIR_Bcast_intra_binomial (comm_size=1000, avg_msg_size=12288, count=1536)");
  ck_assert(cs_selector_find("ompi")->select(CS_COLL_REDUCE_SCATTER, 8, 1024, true, &out));
  ck_assert_str_eq(out.rule, "Open MPI 4.1.8 ompi/mca/coll/tuned/coll_tuned_decision_fixed.c reduce-scatter: "
                             "communicator_size<32, commutative (built-in op), total_dsize<262144 -> "
                             "recursive_halving (communicator_size=8, total_dsize=8192, count=128); collsim has no "
                             "recursive-halving reduce-scatter");
  /* coverage: both cover every collective collsim has; nothing beyond */
  for (size_t i = 0; i < cs_selector_count(); i++) {
    char *c = cs_selector_covered(cs_selector_at(i));
    ck_assert_str_eq(c, cs_coll_names());
    g_free(c);
    ck_assert(!cs_selector_at(i)->select(CS_NCOLLS, 8, 8, true, &out));
  }
  ck_assert_ptr_null(cs_selector_find("intel"));
}
END_TEST

int main(void)
{
  Suite *s = suite_create("selectors");
  TCase *tc = tcase_create("grid");
  tcase_add_test(tc, mpich_bcast);
  tcase_add_test(tc, mpich_allreduce);
  tcase_add_test(tc, mpich_allgather);
  tcase_add_test(tc, mpich_reduce);
  tcase_add_test(tc, mpich_reduce_scatter);
  tcase_add_test(tc, mpich_alltoall);
  tcase_add_test(tc, mpich_fixed);
  tcase_add_test(tc, ompi_allreduce);
  tcase_add_test(tc, ompi_alltoall);
  tcase_add_test(tc, ompi_barrier);
  tcase_add_test(tc, ompi_bcast);
  tcase_add_test(tc, ompi_reduce);
  tcase_add_test(tc, ompi_reduce_scatter);
  tcase_add_test(tc, ompi_allgather);
  tcase_add_test(tc, ompi_gather_scatter);
  tcase_add_test(tc, map_to_collsim);
  tcase_add_test(tc, rule_text);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}

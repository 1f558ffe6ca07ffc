/* Where Elias-Fano's S-One goes (issue 12, item 9, goal 2: "Elias-Fano's
 * S-One within 3x of ARRAY's").  For each ordered paper group (Table 1) it
 * times cs_gm_select, the path S-One times, for array and ef on two gid
 * samples of 1,000 drawn as collsim groupmap draws them (splitmix64 of seed
 * 1, uniform over the gids):
 *   random   the gids as drawn: S-One itself;
 *   aligned  each gid rounded down to a multiple of 64, the spacing of ef's
 *            select samples: ef's popcount loop never runs and every branch
 *            goes the same way, so this is ef's fixed path (the floor that no
 *            tuning of the loop can go below).
 * Each figure is the least of 5 measurements by S-One's own timing
 * (cs_gm_select_one_seconds: itself the least of 5 tries of 4 ms).
 * bench/groupmaps.sh builds this on demand and prints it under goal 2.
 *
 *   bench/select_floor [GROUP ...]     (default: every Table 1 group) */
#include "sim/contracts/groupmap.h"
#include "sim/contracts/groupmap_ops.h"
#include "sim/contracts/groupmap_strategy.h"
#include "sim/contracts/prng.h"
#include "sim/drivers/groupmap_measure.h"

#include <stdio.h>

#define SAMPLES 1000
#define TRIES 5

/* Least mean ns per cs_gm_select over TRIES of S-One's measurements. */
static double select_ns(cs_groupmap *map, const int64_t *gids)
{
  double best = 1e30;
  for (int t = 0; t < TRIES; t++) {
    double ns = cs_gm_select_one_seconds(map, gids, SAMPLES) * 1e9;
    best = ns < best ? ns : best;
  }
  return best;
}

static cs_groupmap *map_of(const cs_gm_group *g, const char *rep)
{
  GError *err = NULL;
  cs_gm_limits lim = cs_gm_limits_default();
  cs_groupmap *map = cs_gm_group_to_map(g, rep, &lim, &err);
  if (!map) {
    fprintf(stderr, "select_floor: %s: %s\n", rep, err->message);
    exit(1);
  }
  return map;
}

static void measure(const cs_gm_paper_group *pg)
{
  cs_gm_group *g = pg->make();
  int64_t random[SAMPLES], aligned[SAMPLES];
  uint64_t state = 1;
  for (int i = 0; i < SAMPLES; i++) {
    random[i] = (int64_t)(cs_splitmix_next(&state) % (uint64_t)g->m);
    aligned[i] = random[i] & ~(int64_t)63;
  }
  cs_groupmap *array = map_of(g, "array"), *ef = map_of(g, "ef");
  double ar = select_ns(array, random), aa = select_ns(array, aligned);
  double er = select_ns(ef, random), ea = select_ns(ef, aligned);
  printf("   %-13s %9.2f %9.2f %9.2f %9.2f %9.1f %9.1f\n", pg->name, ar, aa, er, ea, er / ar, ea / aa);
  cs_gm_free(array);
  cs_gm_free(ef);
  cs_gm_group_free(g);
}

int main(int argc, char **argv)
{
  printf("   %-13s %9s %9s %9s %9s %9s %9s\n", "group", "array", "array", "ef", "ef", "ef/array", "ef/array");
  printf("   %-13s %9s %9s %9s %9s %9s %9s\n", "", "random", "aligned", "random", "aligned", "random", "aligned");
  if (argc > 1) {
    for (int i = 1; i < argc; i++) {
      const cs_gm_paper_group *pg = cs_gm_paper_group_find(argv[i]);
      if (!pg || pg->table != 1) {
        fprintf(stderr, "select_floor: '%s' is not a Table 1 group\n", argv[i]);
        return 2;
      }
      measure(pg);
    }
    return 0;
  }
  for (size_t i = 0; i < cs_gm_paper_group_count(); i++)
    if (cs_gm_paper_group_at(i)->table == 1)
      measure(cs_gm_paper_group_at(i));
  return 0;
}

/* `collsim groupmap`: every representation of a group map (seed 003,
 * Sections 5-6), measured, with each strategy's pick.
 *   collsim groupmap --world 1000000 --members my-group.txt --format json
 *   collsim groupmap --world 1000000 --members perm.txt --unordered
 *   collsim groupmap --paper-groups [--group t1g4 ...] --format table
 *   collsim groupmap --list
 * The measuring is sim/drivers/groupmap_measure.c; this file reads the
 * group and the options. */
#include "sim/cli/columns.h"
#include "sim/cli/commands.h"
#include "sim/cli/frontend.h"
#include "sim/contracts/groupmap_strategy.h"
#include "sim/contracts/progress.h"
#include "sim/contracts/rank_list.h"
#include "sim/drivers/groupmap_measure.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WORLD_MAX (INT64_C(1) << 31)

typedef struct gm_opts {
  int64_t world, samples, bdd_paths, bdd_nodes, wtr_runs;
  char *members;
  bool unordered, paper, list, no_times, negative_stride, list_columns;
  GPtrArray *groups, *reps;
} gm_opts;

static void list_all(void)
{
  printf("representations (name, kind, source, description):\n");
  for (size_t i = 0; i < cs_gm_rep_count(); i++) {
    const cs_gm_rep *r = cs_gm_rep_at(i);
    printf("  %-8s %-4s %-6s %s\n", r->name, r->kind == CS_GM_SET ? "set" : "map",
           r->from_paper ? "paper" : "beyond", r->description);
  }
  const cs_perm_rep *w = cs_perm_rep_wtr();
  printf("  %-8s %-4s %-6s %s (composed as wtr+X with a set X)\n", w->name, "perm", "paper", w->description);
  printf("\nstrategies:\n");
  for (size_t i = 0; i < cs_gm_strategy_count(); i++)
    printf("  %-8s %s\n", cs_gm_strategy_at(i)->name, cs_gm_strategy_at(i)->description);
  printf("\npaper groups (--paper-groups, --group NAME; world 10^6):\n");
  for (size_t i = 0; i < cs_gm_paper_group_count(); i++) {
    const cs_gm_paper_group *g = cs_gm_paper_group_at(i);
    printf("  %-14s Table %d group %d: %s\n", g->name, g->table, g->row, g->reading);
  }
}

/* --reps and --group values, commas allowed: "bm,bdd" = "bm" "bdd". */
/* The names of a repeatable NAME,NAME option; NULL (err set) when an
 * element is empty ("--reps ," or "bm,,ef"). */
static char **split_list(const char *option, GPtrArray *values, GError **err)
{
  GPtrArray *out = g_ptr_array_new_with_free_func(g_free);
  for (guint i = 0; values && i < values->len; i++) {
    const char *value = g_ptr_array_index(values, i);
    char **parts = g_strsplit(value, ",", -1);
    for (char **p = parts; *p; p++)
      if (**p)
        g_ptr_array_add(out, g_strdup(*p));
      else if (!*err)
        cs_input_error(err, "--%s '%s': an empty name in the list", option, value);
    g_strfreev(parts);
  }
  if (*err) {
    g_ptr_array_free(out, TRUE);
    return NULL;
  }
  g_ptr_array_set_free_func(out, NULL);
  g_ptr_array_add(out, NULL);
  return (char **)g_ptr_array_free(out, FALSE);
}

static bool known_rep(const char *name)
{
  return cs_gm_rep_find(name) || (g_str_has_prefix(name, "wtr+") && cs_gm_rep_find(name + 4));
}

static int check_options(const cs_cli *c, const gm_opts *o, char **reps, char **groups)
{
  if (c->rest[0])
    return cs_cli_usage(c, "unexpected argument '%s'", c->rest[0]);
  bool paper = o->paper || groups[0];
  if (paper && o->members)
    return cs_cli_usage(c, "give either --members FILE or --paper-groups, not both");
  if (!paper && !o->members)
    return cs_cli_usage(c, "give --members FILE (with --world N), --paper-groups or --list");
  if (o->members && o->world == 0)
    return cs_cli_usage(c, "--members needs --world N (the world size, at most 2^31)");
  if (paper && o->world) /* --unordered: the rule table */
    return cs_cli_usage(c, "--world applies to --members; the paper groups have their own (world 10^6)");
  for (char **r = reps; *r; r++)
    if (!known_rep(*r))
      return cs_cli_usage(c, "--reps: unknown representation '%s' (see collsim groupmap --list)", *r);
  for (char **g = groups; *g; g++)
    if (!cs_gm_paper_group_find(*g))
      return cs_cli_usage(c, "--group: unknown paper group '%s' (see collsim groupmap --list)", *g);
  return 0;
}

static int wid_cmp(const void *a, const void *b)
{
  cs_wid x = *(const cs_wid *)a, y = *(const cs_wid *)b;
  return (x > y) - (x < y);
}

/* The members file as wids: sorted (a set) unless --unordered. */
static cs_wid *read_members(const gm_opts *o, int64_t *m, GError **err)
{
  GArray *ranks = cs_rank_list_read(o->members, o->world, false, err);
  if (!ranks)
    return NULL;
  *m = ranks->len;
  cs_wid *wids = g_new(cs_wid, MAX(*m, 1));
  for (int64_t i = 0; i < *m; i++)
    wids[i] = (cs_wid)g_array_index(ranks, int64_t, i);
  g_array_free(ranks, TRUE);
  if (!o->unordered)
    qsort(wids, (size_t)*m, sizeof *wids, wid_cmp);
  return wids;
}

static cs_gm_measure_opts measure_opts(const cs_cli *c, const gm_opts *o, char **reps)
{
  cs_gm_measure_opts mo = cs_gm_measure_defaults();
  mo.times = !o->no_times;
  mo.seed = c->seed;
  mo.one_samples = o->samples;
  mo.reps = reps[0] ? (const char *const *)reps : NULL;
  if (o->bdd_paths)
    mo.limits.bdd_max_paths = o->bdd_paths;
  if (o->bdd_nodes)
    mo.limits.bdd_max_nodes = o->bdd_nodes;
  if (o->wtr_runs)
    mo.limits.wtr_max_runs = o->wtr_runs;
  mo.limits.rs_allow_negative = o->negative_stride;
  return mo;
}

static int run_members(const cs_cli *c, const gm_opts *o, const cs_gm_measure_opts *mo)
{
  GError *e = NULL;
  int64_t m = 0;
  cs_wid *wids = read_members(o, &m, &e);
  cs_record *r = wids ? cs_gm_measure_group(o->members, NULL, wids, m, o->world, mo, &e) : NULL;
  int rc = r ? cs_cli_emit(c, &r, 1, cs_record_kind_csv(&cs_gm_record_kind), "collsim groupmap")
           : e ? cs_cli_fail(c, e)
               : cs_cli_usage(c, "--reps names no representation of this group (wtr+X is for --unordered)");
  g_clear_error(&e);
  cs_record_free(r);
  g_free(wids);
  return rc;
}

static int run_paper(const cs_cli *c, char **groups, const cs_gm_measure_opts *mo)
{
  GPtrArray *chosen = g_ptr_array_new();
  for (size_t i = 0; i < cs_gm_paper_group_count(); i++) {
    const cs_gm_paper_group *g = cs_gm_paper_group_at(i);
    bool wanted = !groups[0];
    for (char **n = groups; *n && !wanted; n++)
      wanted = strcmp(*n, g->name) == 0;
    if (wanted)
      g_ptr_array_add(chosen, (gpointer)g);
  }
  cs_record **records = g_new0(cs_record *, chosen->len);
  size_t kept = 0;
  cs_progress *pr = cs_progress_new(stderr, "collsim groupmap", chosen->len, chosen->len, c->quiet);
  int rc = 0;
  for (guint i = 0; i < chosen->len && rc == 0; i++) {
    const cs_gm_paper_group *g = g_ptr_array_index(chosen, i);
    cs_gm_group *grp = g->make();
    char *about = g_strdup_printf("Table %d group %d: %s", g->table, g->row, g->reading);
    GError *e = NULL;
    records[kept] = cs_gm_measure_group(g->name, about, grp->wids, grp->m, grp->world, mo, &e);
    if (records[kept])
      kept++;
    else if (e)
      rc = cs_cli_fail(c, e); /* a generator's bug: its groups are checked */
    g_clear_error(&e);
    g_free(about);
    cs_gm_group_free(grp);
    cs_progress_done(pr, 1, rc != 0);
  }
  cs_progress_finish(pr);
  if (rc == 0 && kept == 0)
    rc = cs_cli_usage(c, "--reps names no representation of these groups (wtr+X is for unordered ones)");
  else if (rc == 0)
    rc = cs_cli_emit(c, records, kept, cs_record_kind_csv(&cs_gm_record_kind), "collsim groupmap");
  for (guint i = 0; i < kept; i++)
    cs_record_free(records[i]);
  g_free(records);
  g_ptr_array_free(chosen, TRUE);
  return rc;
}

int cs_groupmap_main(int argc, char **argv)
{
  gm_opts o = {.samples = 1000};
  const cs_opt opts[] = {
      {"world", 'w', CS_OPT_INT, &o.world, "N", "world size (wids in [0, N); at most 2^31)", 1, (double)WORLD_MAX, 0,
       0, NULL},
      {"members", 0, CS_OPT_PATH_IN, &o.members, "FILE", "the group: wids separated by white space or commas, # "
       "comments", 0, 0, 0, 0, NULL},
      {"unordered", 0, CS_OPT_FLAG, &o.unordered, NULL, "keep the file's order as gid order (else the set is sorted)",
       0, 0, 0, 0, NULL},
      {"paper-groups", 0, CS_OPT_FLAG, &o.paper, NULL, "the groups of the paper's Tables 1 and 2 (world 10^6)", 0, 0,
       0, 0, NULL},
      {"group", 'g', CS_OPT_LIST, &o.groups, "NAME", "only this paper group (repeatable, or NAME,NAME; see --list)",
       0, 0, 0, 0, NULL},
      {"reps", 'r', CS_OPT_LIST, &o.reps, "NAME", "only these representations (repeatable, or NAME,NAME)", 0, 0, 0, 0,
       NULL},
      {"samples", 0, CS_OPT_INT, &o.samples, "K", "gids per S-One sample (default 1000, the paper's)", 1, 10000000, 0,
       0, NULL},
      {"no-times", 0, CS_OPT_FLAG, &o.no_times, NULL, "leave the times out (deterministic output)", 0, 0, 0, 0, NULL},
      {"bdd-max-paths", 0, CS_OPT_INT, &o.bdd_paths, "P", "BDD path limit (default 2^19)", 1, (double)INT32_MAX, 0, 0,
       NULL},
      {"bdd-max-nodes", 0, CS_OPT_INT, &o.bdd_nodes, "K", "BDD node limit (default 2^18)", 1, (double)INT32_MAX, 0, 0,
       NULL},
      {"wtr-max-runs", 0, CS_OPT_INT, &o.wtr_runs, "R", "WTR run limit (default 2^16)", 1, (double)INT32_MAX, 0, 0,
       NULL},
      {"negative-stride", 0, CS_OPT_FLAG, &o.negative_stride, NULL, "let rs store a decreasing progression (our "
       "extension)", 0, 0, 0, 0, NULL},
      {"list", 0, CS_OPT_FLAG, &o.list, NULL, "list representations, strategies and paper groups", 0, 0, 0, 0, NULL},
      {"list-columns", 0, CS_OPT_FLAG, &o.list_columns, NULL, CS_LIST_COLUMNS_HELP, 0, 0, 0, 0, NULL},
      {NULL, 0, 0, NULL, NULL, NULL, 0, 0, 0, 0, NULL},
  };
  cs_cli c;
  int rc = cs_cli_parse(&c, "groupmap", CS_CLI_OUTPUT | CS_CLI_SEED, opts, NULL,
                        "every representation of a group map (seed 003), measured, and each strategy's pick",
                        "Per representation: bits, KiB (1 KiB = 1,024 bytes), bpg (bits per member), create time,\n"
                        "S-All (select every gid in order, ms), S-One (mean select over --samples gids drawn\n"
                        "with --seed, us), BDD paths, WTR runs, and why a creation failed.  Then the picks of\n"
                        "the strategies S (space), T (time) and ST (the paper's hybrid).\n\n"
                        "Examples:\n"
                        "  collsim groupmap --world 1000000 --members my-group.txt --format json\n"
                        "  collsim groupmap --world 1000000 --members perm.txt --unordered\n"
                        "  collsim groupmap --paper-groups --format table\n"
                        "  collsim groupmap --list\n",
                        argc, argv);
  static const cs_opt_rule rules[] = {
      {"samples", "!no-times"},
      {"unordered", "+members"},
      {"group", "!members"},
      {NULL, NULL},
  };
  if (rc == 0)
    rc = cs_cli_check_rules(&c, rules, NULL);
  GError *e = NULL;
  char **reps = rc == 0 ? split_list("reps", o.reps, &e) : NULL;
  char **groups = rc == 0 && !e ? split_list("group", o.groups, &e) : NULL;
  if (e)
    rc = cs_cli_fail(&c, e);
  g_clear_error(&e);
  if (rc == 0 && o.list_columns)
    rc = cs_cli_list_columns(&c);
  else if (rc == 0 && o.list)
    list_all();
  else if (rc == 0 && (rc = check_options(&c, &o, reps, groups)) == 0) {
    cs_gm_measure_opts mo = measure_opts(&c, &o, reps);
    rc = o.members ? run_members(&c, &o, &mo) : run_paper(&c, groups, &mo);
  }
  g_strfreev(reps);
  g_strfreev(groups);
  cs_cli_free(&c);
  return rc;
}

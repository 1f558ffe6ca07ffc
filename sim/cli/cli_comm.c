/* `collsim comm`: communicators on [C,P,M] systems (seed 003, Sections 2-4
 * and 8).
 *   collsim comm split  --cpm C,P,M --colors K [--key rank] [--impl leader|mpich] [--map ST] [--no-share]
 *   collsim comm create --cpm C,P,M --group SPEC [--group SPEC ...] [--impl ...]
 *   collsim comm create-group --platform torus:8x16x16/4 -n 8192 --group-size 256 [--impl intercomm|direct]
 *   collsim comm create --platform torus:8x16x16/4 -n 8192 --group-size 256   (MPICH, parent-collective)
 *   collsim comm ids    --cpm C,P,M --split K --until-exhausted
 *   collsim comm bench  --set A1 [--cpm C,P,M]      (one point of Section 8.1)
 *   collsim comm space  --cpm 1000,100,10           (Section 3's space model)
 *   collsim comm compare [--impl A,B,...] -n 4096 --colors 8 [--key rank] (issue 31: one split, every scheme)
 *   collsim comm --list
 * split, create and create-group run the protocol in SimGrid on every
 * proclet and verify the result (sim/drivers/comm_run.c); ids counts
 * context ids (sim/drivers/comm_ids.c).  Bad input: one message, exit 2.
 *
 * Defaults that depend on the platform: on a cpm platform (seed 003's
 * [C,P,M] systems) --impl leader and --map ST, the proclets of an OS
 * process sharing its processor; elsewhere (an MPI library on a machine
 * such as BG/P, seed 004) --impl mpich and --map array, every rank an MPI
 * process with a core of its own.  create-group's --impl is intercomm
 * (Algorithm 1) unless given. */
#include "sim/cli/columns.h"
#include "sim/cli/commands.h"
#include "sim/cli/frontend.h"
#include "sim/contracts/errors.h"
#include "sim/contracts/groupmap_strategy.h"
#include "sim/contracts/prng.h"
#include "sim/contracts/progress.h"
#include "sim/contracts/tempdir.h"
#include "sim/drivers/comm_compare.h"
#include "sim/drivers/comm_ids.h"
#include "sim/drivers/comm_run.h"
#include "sim/drivers/comm_sets.h"
#include "sim/drivers/comm_space.h"
#include "sim/drivers/group_spec.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#define DEFAULT_CPM "cpm:6875,8,2"
/* create-group's (seed 004): the paper's two BG/P racks, as collsim mcmc;
 * without -n, every one of their 8,192 cores. */
#define DEFAULT_GROUP_PLATFORM "torus:8x16x16/4"
#define DEFAULT_GROUP_N 8192

typedef struct comm_opts {
  char *cpm, *impl, *map, *layout, *key, *set, *op, *members, *order; /* freed by cs_cli_free */
  int64_t n, group_size, concurrent, tag;
  int64_t messages, gathers, space_comms;
  GPtrArray *groups;
  int64_t colors, split, lid_bits, lbi_bits, repeat, pool, tree_k;
  double cpu_factor;
  bool no_share, list, until_exhausted, world_in_pool, list_columns;
} comm_opts;

static const char *const member_rules[] = {"first", "spread", "random", NULL};
static const char *const order_rules[] = {"rank", "reverse", "random", NULL};
static const char *const layouts[] = {"cyclic", "block", NULL};
static const char *const keys[] = {"rank", "reverse", "random", NULL};

static void list_protocols(void)
{
  printf("%-8s %-7s %-7s %s\n", "impl", "op", "ids", "description");
  for (size_t i = 0; i < cs_comm_protocol_count(); i++) {
    const cs_comm_protocol *p = cs_comm_protocol_at(i);
    printf("%-8s %-7s %-7s %s\n", p->impl, cs_comm_op_name(p->op), cs_ctxid_scheme_name(p->scheme), p->description);
  }
}

/* `comm compare --list`: the schemes it runs without --impl, in order. */
static void list_schemes(void)
{
  printf("%-16s %-7s %-6s %s\n", "scheme", "family", "keys", "messages_formula");
  for (size_t i = 0; i < cs_split_scheme_count(); i++) {
    cs_split_scheme s = cs_split_scheme_at(i);
    const char *f = cs_split_formula(&s);
    printf("%-16s %-7s %-6s %s\n", s.name, s.family == CS_SCHEME_TREE ? "tree" : "comm",
           s.family == CS_SCHEME_TREE ? "rank" : "any", f ? f : "none (no closed form)");
  }
}

/* FG-MPI's [C,P,M] systems (seed 003): a host is an OS process of proclets. */
static bool is_cpm(const cs_platform *p) { return p->family->host_is_os_process; }

static int check_map(const cs_cli *c, comm_opts *o);

/* Defaults of the options not given (see the top of the file). */
static int apply_defaults(const cs_cli *c, comm_opts *o, const cs_platform *p, cs_comm_op op)
{
  if (!o->impl)
    o->impl = g_strdup(op == CS_COMM_CREATE_GROUP ? "intercomm" : is_cpm(p) ? "leader" : "mpich");
  if (!cs_comm_protocol_find(o->impl, op)) {
    bool known = false;
    for (size_t i = 0; i < cs_comm_protocol_count(); i++)
      known |= strcmp(cs_comm_protocol_at(i)->impl, o->impl) == 0;
    return known ? cs_cli_usage(c, "--impl %s does not do %s (see collsim comm --list)", o->impl, cs_comm_op_name(op))
                 : cs_cli_usage(c, "unknown --impl '%s' (see collsim comm --list)", o->impl);
  }
  o->layout = o->layout ? o->layout : g_strdup("cyclic");
  o->key = o->key ? o->key : g_strdup("rank");
  o->members = o->members ? o->members : g_strdup("first");
  o->order = o->order ? o->order : g_strdup("rank");
  o->map = o->map ? o->map : g_strdup(is_cpm(p) ? "ST" : "array");
  return check_map(c, o);
}

/* The map option: a strategy (S, T, ST in any case, spelt as registered
 * afterwards) or a representation; 0 or 2 after one message. */
static int check_map(const cs_cli *c, comm_opts *o)
{
  for (size_t i = 0; i < cs_gm_strategy_count(); i++)
    if (g_ascii_strcasecmp(o->map, cs_gm_strategy_at(i)->name) == 0) {
      g_free(o->map);
      o->map = g_strdup(cs_gm_strategy_at(i)->name);
      return 0;
    }
  const char *base = g_str_has_prefix(o->map, "wtr+") ? o->map + 4 : o->map;
  if (cs_gm_rep_find(base))
    return 0;
  return cs_cli_usage(c, "unknown map '%s' (a strategy S, T, ST or a representation: see collsim groupmap --list)",
                      o->map);
}

/* The platform: --cpm C,P,M is short for --platform cpm:C,P,M. */
static cs_platform *comm_platform(const cs_cli *c, const comm_opts *o, cs_comm_op op, const cs_bench_set *set,
                                  GError **err)
{
  char *def = set ? g_strdup_printf("cpm:%lld,%lld,%lld", (long long)set->cpm[0], (long long)set->cpm[1],
                                    (long long)set->cpm[2])
                  : g_strdup(op == CS_COMM_CREATE_GROUP ? DEFAULT_GROUP_PLATFORM : DEFAULT_CPM);
  if (!o->cpm) {
    cs_platform *p = cs_cli_platform(c, def, err);
    g_free(def);
    return p;
  }
  g_free(def);
  char *spec = g_strdup_printf("cpm:%s", o->cpm);
  cs_platform *p = cs_platform_parse(spec, err);
  g_free(spec);
  return p;
}

/* [C,P,M] of the platform: cpm's own; elsewhere every rank is an MPI
 * process (C = 1) and the ranks of a node share its machine. */
static void shape_of(const cs_platform *p, cs_comm_params *prm)
{
  prm->ranks_per_host = p->cores;
  prm->n = cs_platform_slots(p);
  if (is_cpm(p)) {
    prm->per_process = p->cores;
    prm->per_machine = p->nodes_per_machine > 0 ? p->nodes_per_machine : 1;
    prm->cpm[0] = p->cores;
    prm->cpm[1] = prm->per_machine;
    prm->cpm[2] = p->nodes / prm->per_machine;
    return;
  }
  prm->per_process = 1;
  prm->per_machine = p->cores;
  prm->cpm[0] = 1;
  prm->cpm[1] = p->cores;
  prm->cpm[2] = p->nodes;
}

/* -n: fewer ranks than the platform's slots (the last hosts idle). */
static int apply_ranks(const cs_cli *c, const comm_opts *o, const cs_platform *p, cs_comm_params *prm)
{
  if (o->n == 0)
    return 0;
  if (o->n > prm->n)
    return cs_cli_usage(c, "-n %lld exceeds the %lld ranks of %s", (long long)o->n, (long long)prm->n,
                        p->family->kind);
  if (is_cpm(p) && o->n % p->cores != 0)
    return cs_cli_usage(c, "-n %lld is not a multiple of C = %d proclets per OS process", (long long)o->n, p->cores);
  prm->n = o->n;
  return 0;
}

static int check_lid_width(const cs_cli *c, const comm_opts *o, int64_t n)
{
  if (o->lid_bits + o->lbi_bits > 32)
    return cs_cli_usage(c, "--lid-bits + --lbi-bits = %lld exceeds the 32-bit context id",
                        (long long)(o->lid_bits + o->lbi_bits));
  if (n > (INT64_C(1) << o->lid_bits))
    return cs_cli_usage(c, "N = %lld proclets do not fit the %lld-bit LID (at most %lld)", (long long)n,
                        (long long)o->lid_bits, (long long)(INT64_C(1) << o->lid_bits));
  return 0;
}

static int by_wid(const void *a, const void *b)
{
  cs_wid x = *(const cs_wid *)a, y = *(const cs_wid *)b;
  return (x > y) - (x < y);
}

/* --group-size G [--concurrent K]: K disjoint groups of G ranks (which
 * ranks: --members; order inside a group: --order), seeded by --seed. */
static int sized_groups(const cs_cli *c, const comm_opts *o, cs_comm_params *prm)
{
  int64_t g = o->group_size, k = o->concurrent, n = prm->n;
  if (g * k > n)
    return cs_cli_usage(c, "--group-size %lld x --concurrent %lld = %lld exceeds n = %lld", (long long)g,
                        (long long)k, (long long)(g * k), (long long)n);
  cs_wid *pool = g_new(cs_wid, (gsize)n);
  for (int64_t r = 0; r < n; r++)
    pool[r] = (cs_wid)r;
  uint64_t state = c->seed * 0x9E3779B97F4A7C15ull + 4;
  if (strcmp(o->members, "random") == 0)
    for (int64_t i = 0; i < g * k; i++) { /* the first g k of a Fisher-Yates shuffle */
      int64_t j = i + (int64_t)(cs_splitmix_next(&state) % (uint64_t)(n - i));
      cs_wid t = pool[i];
      pool[i] = pool[j];
      pool[j] = t;
    }
  int64_t stride = strcmp(o->members, "spread") == 0 ? n / (g * k) : 1;
  prm->groups = g_ptr_array_new_with_free_func(g_free);
  prm->group_sizes = g_array_new(FALSE, FALSE, sizeof(int64_t));
  for (int64_t j = 0; j < k; j++) {
    cs_wid *w = g_new(cs_wid, (gsize)g);
    for (int64_t i = 0; i < g; i++)
      w[i] = stride > 1 ? (cs_wid)((i * k + j) * stride) : pool[j * g + i];
    if (strcmp(o->order, "random") != 0 && strcmp(o->members, "random") == 0)
      qsort(w, (size_t)g, sizeof *w, by_wid);
    for (int64_t i = 0; strcmp(o->order, "reverse") == 0 && i < g / 2; i++) {
      cs_wid t = w[i];
      w[i] = w[g - 1 - i];
      w[g - 1 - i] = t;
    }
    for (int64_t i = g - 1; strcmp(o->order, "random") == 0 && i > 0; i--) {
      int64_t j = (int64_t)(cs_splitmix_next(&state) % (uint64_t)(i + 1));
      cs_wid t = w[i];
      w[i] = w[j];
      w[j] = t;
    }
    g_ptr_array_add(prm->groups, w);
    g_array_append_val(prm->group_sizes, g);
  }
  g_free(pool);
  return 0;
}

static int parse_groups(const cs_cli *c, const comm_opts *o, cs_comm_params *prm)
{
  bool listed = o->groups && o->groups->len > 0;
  if (listed && o->group_size > 0)
    return cs_cli_usage(c, "give --group SPEC or --group-size G, not both");
  if (o->group_size > 0)
    return sized_groups(c, o, prm);
  if (!listed)
    return cs_cli_usage(c, "comm create needs --group SPEC (e.g. stride:0,2,50000) or --group-size G");
  guint8 *taken = g_new0(guint8, (gsize)prm->n);
  prm->groups = g_ptr_array_new_with_free_func(g_free);
  prm->group_sizes = g_array_new(FALSE, FALSE, sizeof(int64_t));
  int rc = 0;
  for (guint i = 0; rc == 0 && i < o->groups->len; i++) {
    GError *e = NULL;
    int64_t m = 0;
    cs_wid *w = cs_group_spec_parse(g_ptr_array_index(o->groups, i), prm->n, &m, &e);
    if (!w) {
      rc = cs_cli_fail(c, e);
      g_error_free(e);
      break;
    }
    for (int64_t j = 0; rc == 0 && j < m; j++)
      if (taken[w[j]]++)
        rc = cs_cli_usage(c, "groups must be disjoint: rank %u is in two of them", w[j]);
    g_ptr_array_add(prm->groups, w);
    g_array_append_val(prm->group_sizes, m);
  }
  g_free(taken);
  return rc;
}

/* comm bench: the set's group, split from the world, then the messaging. */
static int bench_inputs(const cs_cli *c, const comm_opts *o, const cs_bench_set *set, cs_comm_params *prm)
{
  if (set->m > prm->n)
    return cs_cli_usage(c, "set %s needs %lld members; the world has %lld", set->name, (long long)set->m,
                        (long long)prm->n);
  prm->split_group = set->members(set, prm->n, c->seed);
  prm->split_group_size = set->m;
  prm->bench = true;
  prm->set = set->name;
  prm->bench_messages = o->messages;
  prm->bench_gathers = (int)o->gathers;
  prm->space_comms = (int)o->space_comms;
  return 0;
}

static int run_creation(const cs_cli *c, comm_opts *o, cs_comm_op op, const cs_bench_set *set)
{
  GError *e = NULL;
  cs_comm_params prm = {.colors = (int)o->colors, .share = !o->no_share, .lid_bits = (int)o->lid_bits,
                        .lbi_bits = (int)o->lbi_bits, .cpu_factor = o->cpu_factor, .repeat = (int)o->repeat,
                        .seed = c->seed, .tag_base = (int)o->tag};
  cs_platform *p = comm_platform(c, o, op, set, &e);
  char *xml = NULL, *desc = NULL;
  bool is_temp = false;
  bool chosen = c->platform || c->torus || c->net || c->cluster || o->cpm || set;
  int64_t want = o->n ? o->n : op == CS_COMM_CREATE_GROUP && !chosen ? DEFAULT_GROUP_N : 0;
  int rc = p && cs_platform_resolve(p, want, &e) ? 0 : cs_cli_fail(c, e);
  if (rc == 0)
    rc = apply_defaults(c, o, p, op);
  if (rc == 0) {
    prm.proto = cs_comm_protocol_find(o->impl, op);
    prm.map = o->map;
    prm.layout = strcmp(o->layout, "block") == 0 ? CS_LAYOUT_BLOCK : CS_LAYOUT_CYCLIC;
    prm.key_rule = strcmp(o->key, "reverse") == 0 ? CS_KEY_REVERSE
                   : strcmp(o->key, "random") == 0 ? CS_KEY_RANDOM : CS_KEY_RANK;
    shape_of(p, &prm);
    rc = apply_ranks(c, o, p, &prm);
  }
  if (rc == 0)
    rc = check_lid_width(c, o, prm.n);
  if (rc == 0 && op == CS_COMM_SPLIT && o->colors > prm.n)
    rc = cs_cli_usage(c, "--colors %lld exceeds N = %lld", (long long)o->colors, (long long)prm.n);
  if (rc == 0 && op != CS_COMM_SPLIT)
    rc = parse_groups(c, o, &prm);
  if (rc == 0 && set)
    rc = bench_inputs(c, o, set, &prm);
  if (rc == 0 && !(cs_platform_check_size(p, &e) && cs_cli_run_size(c, prm.n, &e) &&
                   cs_cli_procs_engine(c, &prm.procs, &e) && cs_cli_engine(c, p, 1e-6, 1e-6, &prm.engine, &e) &&
                   (prm.procs.native || cs_platform_xml_for_run(p, &xml, &is_temp, &e))))
    rc = cs_cli_fail(c, e);
  g_clear_error(&e);
  if (rc == 0) {
    desc = cs_platform_describe(p);
    prm.platform_desc = desc;
    prm.engine.platform_file = xml;
    prm.engine.quiet = c->quiet;
    if (!prm.procs.native && !cs_engine_load(&prm.engine, &e)) /* platform and --cfg checked before the banner */
      rc = cs_cli_fail(c, e);
  }
  g_clear_error(&e);
  if (rc == 0) {
    if (!c->quiet)
      fprintf(stderr, "collsim comm %s: %s on %s (n = %lld) ...\n", cs_comm_op_name(op), o->impl, desc,
              (long long)prm.n);
    cs_comm_result res;
    rc = cs_comm_run(&prm, &res, &e);
    if (rc != 0)
      cs_cli_fail(c, e);
    else
      rc = cs_cli_trace_write(c);
    if (rc == 0 || res.why) {
      cs_record *r = cs_comm_result_record(&prm, &res);
      int out = cs_cli_emit(c, &r, 1, cs_record_kind_csv(cs_comm_record_kind(op)), "collsim comm");
      rc = rc ? rc : out;
      cs_record_free(r);
    }
    cs_comm_result_clear(&res);
  }
  g_clear_error(&e);
  if (is_temp)
    cs_tempfile_remove(xml);
  g_free(xml);
  g_free(desc);
  if (prm.groups)
    g_ptr_array_free(prm.groups, TRUE);
  if (prm.group_sizes)
    g_array_free(prm.group_sizes, TRUE);
  g_free((cs_wid *)prm.split_group);
  cs_cli_engine_clear(&prm.engine);
  cs_platform_free(p);
  return rc;
}

static int run_ids(const cs_cli *c, comm_opts *o)
{
  if (o->impl && !cs_comm_protocol_find(o->impl, CS_COMM_SPLIT))
    return cs_cli_usage(c, "--impl %s has no split: ids counts leader or mpich splits", o->impl);
  GError *e = NULL;
  cs_platform *p = comm_platform(c, o, CS_COMM_SPLIT, NULL, &e);
  int rc = p && cs_platform_resolve(p, 0, &e) ? 0 : cs_cli_fail(c, e);
  g_clear_error(&e);
  cs_comm_params shape = {0};
  if (rc == 0) {
    shape_of(p, &shape);
    rc = check_lid_width(c, o, shape.n);
  }
  if (rc == 0 && o->split > shape.n)
    rc = cs_cli_usage(c, "--split %lld exceeds N = %lld", (long long)o->split, (long long)shape.n);
  if (rc == 0) {
    cs_ids_params prm = {.n = shape.n, .per_process = shape.per_process, .colors = o->split,
                         .block_layout = o->layout && strcmp(o->layout, "block") == 0, .lid_bits = (int)o->lid_bits,
                         .lbi_bits = (int)o->lbi_bits, .pool = o->pool, .world_in_pool = o->world_in_pool,
                         .max_splits = o->until_exhausted ? 0 : o->repeat, .mpich = o->impl && strcmp(o->impl, "mpich") == 0};
    memcpy(prm.cpm, shape.cpm, sizeof prm.cpm);
    char *desc = cs_platform_describe(p);
    cs_ids_result res;
    cs_ids_run(&prm, &res);
    cs_record *r = cs_ids_result_record(&prm, &res, desc);
    rc = cs_cli_emit(c, &r, 1, cs_record_kind_csv(&cs_ids_record_kind), "collsim comm ids");
    cs_record_free(r);
    g_free(desc);
  }
  cs_platform_free(p);
  return rc;
}

static const char *const verbs[] = {"split", "create", "create-group", "ids", "bench", "space", "compare", NULL};

/* `collsim comm OP --help`: each operation's own summary and example. */
typedef struct op_help {
  const char *op, *summary, *example;
} op_help;

static const op_help op_helps[] = {
    {NULL, "communicators: leader-based and MPICH split/create, context ids (seed 003); group-collective creation "
           "(seed 004); one split through every scheme (compare)", "Example: collsim comm split --cpm 6875,8,2 --colors 100 --format json"},
    {"split", "MPI_Comm_split: every proclet joins the communicator of its colour (--impl leader: seed 003's "
              "Procedure 1; mpich: allgather of colour and key, local sort)",
     "Example: collsim comm split --impl mpich --cpm 6875,8,2 --colors 100 --key random"},
    {"create", "MPI_Comm_create: the groups given by --group or --group-size, every process of the parent taking "
               "part (--impl leader: seed 003's Procedure 2; mpich)",
     "Example: collsim comm create --impl leader --cpm 1000,8,2 --group-size 4000"},
    {"create-group", "MPI_Comm_create_group: only the group's members take part (seed 004: --impl intercomm, "
                     "Algorithm 1; direct, Section 5.1)",
     "Example: collsim comm create-group --impl intercomm --platform torus:8x8x8/4 -n 2048 --group-size 256"},
    {"ids", "context ids: split until --split colours each, or until an id cannot be made (seed 003, Section 6)",
     "Example: collsim comm ids --cpm 6875,8,2 --split 100 --until-exhausted"},
    {"bench", "seed 003's Section 8.1 benchmark sets: creation, point-to-point messages and gathers on the new "
              "communicators", "Example: collsim comm bench --set C1"},
    {"space", "memory saved by sharing group maps per OS process (seed 003, Section 8.2)",
     "Example: collsim comm space --cpm 1000,8,2"},
    {"compare", "one MPI_Comm_split (same members, colours, keys, seed) through every scheme named by --impl "
                "(default: all): seed 003's split protocols and seed 000's constructions, one row each with its "
                "ratios to the first",
     "Example: collsim comm compare --impl mpich,leader,rank-hash-split -n 4096 --colors 8"},
};

static const op_help *help_of(const char *op)
{
  for (size_t i = 1; op && i < G_N_ELEMENTS(op_helps); i++)
    if (strcmp(op_helps[i].op, op) == 0)
      return &op_helps[i];
  return &op_helps[0];
}

/* Which operation each option acts on (the front end refuses the rest). */
#define CREATIONS "op=split,create,create-group,bench"
static const cs_opt_rule rules[] = {
    {"colors key", "op=split,compare"},
    {"layout", "op=split,ids,compare"},
    {"tree-k", "op=compare"},
    {"group", "op=create,create-group"},
    {"group-size", "op=create,create-group"},
    {"concurrent members order", "op=create,create-group +group-size"},
    {"tag", "op=create-group"},
    {"map no-share cpu-factor n @engine", CREATIONS ",compare"},
    {"@trace", CREATIONS}, /* compare runs each scheme in a child process: one trace would hold one scheme */
    {"engine loggops", CREATIONS ",compare"},
    {CS_NATIVE_REFUSES, "engine!=native"},
    {"loggops", "engine=native"},
    {"lid-bits lbi-bits", "op=split,create,bench,ids,compare"},
    {"repeat", "op=split,create,create-group,bench,ids"},
    {"impl @platform", "op=split,create,create-group,bench,ids,compare"},
    {"@platform", "!cpm"}, /* --cpm C,P,M is the platform */
    {"split until-exhausted pool world-in-pool", "op=ids"},
    {"set messages gathers space-comms", "op=bench"},
    {NULL, NULL},
};

/* The model only: the shape need not fit a platform (M may exceed cpm's
 * 1,024 machines), so --cpm is read as three counts. */
static int run_space(const cs_cli *c, const comm_opts *o)
{
  static const char *const names[] = {"C", "P", "M"};
  int64_t cpm[3];
  GError *e = NULL;
  if (!cs_spec_counts("cpm", o->cpm ? o->cpm : "1000,100,10", ',', names, 3, 3, cpm, &e)) {
    int rc = cs_cli_fail(c, e);
    g_error_free(e);
    return rc;
  }
  cs_record *r = cs_space_model_record(cpm);
  int rc = cs_cli_emit(c, &r, 1, cs_record_kind_csv(&cs_space_record_kind), "collsim comm space");
  cs_record_free(r);
  return rc;
}

static int run_bench(const cs_cli *c, comm_opts *o)
{
  if (!o->set)
    return cs_cli_usage(c, "comm bench needs --set NAME (A1-A3, B1-B3, C1-C3: Section 8.1)");
  const cs_bench_set *set = cs_bench_set_find(o->set);
  if (!set)
    return cs_cli_usage(c, "unknown set '%s' (A1-A3, B1-B3, C1-C3)", o->set);
  return run_creation(c, o, CS_COMM_SPLIT, set);
}

/* ---- comm compare (issue 31): sim/drivers/comm_compare.h ---- */
#define DEFAULT_COMPARE_PLATFORM "torus:auto/4"
#define DEFAULT_COMPARE_N 4096
/* Seed 000's overheads on its BG/P (collsim tree's): one value for every
 * scheme, so the rows differ by the scheme alone. */
#define COMPARE_OVERHEAD_S 1.5e-6

/* Without --impl: every scheme that can run this split; the others named
 * on one line of stderr (not an error). */
static int all_schemes(const cs_cli *c, const cs_compare_params *prm, GArray *out)
{
  GString *left = g_string_new(NULL);
  const char *last_why = NULL;
  for (size_t i = 0; i < cs_split_scheme_count(); i++) {
    cs_split_scheme s = cs_split_scheme_at(i);
    const char *why = cs_split_scheme_refusal(&s, prm);
    if (!why) {
      g_array_append_val(out, s);
      continue;
    }
    if (last_why && why != last_why)
      g_string_append_printf(left, " (%s);", last_why);
    g_string_append_printf(left, "%s%s", left->len && why == last_why ? ", " : left->len ? " " : "", s.name);
    last_why = why;
  }
  if (last_why)
    fprintf(stderr, "collsim comm compare: left out %s (%s)\n", left->str, last_why);
  g_string_free(left, TRUE);
  return out->len ? 0 : cs_cli_usage(c, "no scheme can run this split");
}

/* The schemes --impl names, in its order; 0 or 2 after one message. */
static int named_schemes(const cs_cli *c, const char *impl, const cs_compare_params *prm, GArray *out)
{
  char **names = g_strsplit(impl, ",", -1);
  int rc = 0;
  for (int i = 0; rc == 0 && names[i]; i++) {
    const char *name = g_strstrip(names[i]);
    cs_split_scheme s;
    if (!cs_split_scheme_find(name, &s)) {
      char *known = cs_split_scheme_names();
      rc = cs_cli_usage(c, "unknown scheme '%s' in --impl (known: %s)", name, known);
      g_free(known);
      break;
    }
    for (guint j = 0; rc == 0 && j < out->len; j++)
      if (strcmp(g_array_index(out, cs_split_scheme, j).name, name) == 0)
        rc = cs_cli_usage(c, "--impl names %s twice", name);
    const char *why = rc ? NULL : cs_split_scheme_refusal(&s, prm);
    if (why)
      rc = cs_cli_usage(c, "%s cannot run this split (%s)", name, why);
    if (rc == 0)
      g_array_append_val(out, s);
  }
  g_strfreev(names);
  return rc;
}

/* The split and the machine; 0 or the exit status after one message. */
static int compare_params(const cs_cli *c, comm_opts *o, cs_platform *p, cs_compare_params *cp)
{
  cs_comm_params *prm = &cp->comm;
  shape_of(p, prm);
  int rc = apply_ranks(c, o, p, prm);
  if (rc == 0)
    rc = check_lid_width(c, o, prm->n);
  if (rc == 0 && o->colors > prm->n)
    rc = cs_cli_usage(c, "--colors %lld exceeds n = %lld", (long long)o->colors, (long long)prm->n);
  if (rc != 0)
    return rc;
  prm->colors = (int)o->colors;
  prm->layout = o->layout && strcmp(o->layout, "block") == 0 ? CS_LAYOUT_BLOCK : CS_LAYOUT_CYCLIC;
  prm->key_rule = !o->key || strcmp(o->key, "rank") == 0 ? CS_KEY_RANK
                  : strcmp(o->key, "reverse") == 0       ? CS_KEY_REVERSE
                                                         : CS_KEY_RANDOM;
  o->map = o->map ? o->map : g_strdup(is_cpm(p) ? "ST" : "array");
  cp->tree_k = (int)o->tree_k;
  rc = check_map(c, o);
  prm->map = o->map; /* as check_map spelt it */
  return rc;
}

static int emit_rows(const cs_cli *c, const cs_compare_params *cp, const GArray *rows)
{
  cs_record *r = cs_compare_record(cp, (const cs_compare_row *)(const void *)rows->data, rows->len);
  int rc = cs_cli_emit(c, &r, 1, cs_record_kind_csv(&cs_comm_compare_record_kind), "collsim comm compare");
  cs_record_free(r);
  return rc;
}

/* collsim sweep's planning (COLLSIM_PLAN, sim/sweep/point_cost.c): the
 * whole comparison's processes and messages (the schemes' weights), written
 * before any scheme runs, where a single run's engine writes its own. */
static int write_compare_plan(const char *path, int64_t n, double messages)
{
  if (cs_progress_plan_write(path, n, messages, 0, 0))
    return 0;
  fprintf(stderr, "collsim comm compare: cannot write the plan to %s: %s\n", path, g_strerror(errno));
  return 1;
}

/* Every scheme in turn; the rows printed when all ran (exit 1 after them
 * when one did not verify). */
static int run_schemes(const cs_cli *c, const cs_compare_params *cp, const GArray *schemes)
{
  GArray *rows = g_array_new(FALSE, TRUE, sizeof(cs_compare_row));
  int rc = 0;
  bool all_verified = true;
  double *weight = g_new(double, schemes->len), all = 0, before = 0;
  for (guint i = 0; i < schemes->len; i++)
    all += weight[i] = cs_compare_weight(cp, &g_array_index(schemes, cs_split_scheme, i));
  const char *plan = cs_progress_plan_path();
  if (plan) {
    g_array_free(rows, TRUE);
    g_free(weight);
    return write_compare_plan(plan, cp->comm.n, all);
  }
  for (guint i = 0; rc == 0 && i < schemes->len; before += weight[i++]) {
    const cs_split_scheme *s = &g_array_index(schemes, cs_split_scheme, i);
    cs_progress_log_stage(before, weight[i], all); /* a sweep's ETA follows the whole comparison */
    if (!c->quiet)
      fprintf(stderr, "collsim comm compare: %s on %s (n = %lld, %d colours) ...\n", s->name,
              cp->comm.platform_desc, (long long)cp->comm.n, cp->comm.colors);
    cs_compare_row row;
    GError *e = NULL;
    rc = cs_compare_run_one(cp, s, &row, &e);
    if (rc != 0) {
      g_prefix_error(&e, "%s: ", s->name);
      cs_cli_fail(c, e);
      g_error_free(e);
      break;
    }
    all_verified &= row.verified;
    g_array_append_val(rows, row);
  }
  cs_progress_log_stage(0, 0, 0);
  g_free(weight);
  if (rc == 0)
    rc = emit_rows(c, cp, rows);
  if (rc == 0 && !all_verified) {
    fprintf(stderr, "collsim comm compare: error: a scheme's split did not verify (verified: no)\n");
    rc = 1;
  }
  g_array_free(rows, TRUE);
  return rc;
}

static int run_compare(const cs_cli *c, comm_opts *o)
{
  GError *e = NULL;
  cs_compare_params cp = {.comm = {.share = !o->no_share, .lid_bits = (int)o->lid_bits, .lbi_bits = (int)o->lbi_bits,
                                   .cpu_factor = o->cpu_factor, .repeat = 1, .seed = c->seed}};
  bool chosen = c->platform || c->torus || c->net || c->cluster || o->cpm;
  cs_platform *p = chosen ? comm_platform(c, o, CS_COMM_SPLIT, NULL, &e) : cs_cli_platform(c, DEFAULT_COMPARE_PLATFORM, &e);
  int64_t want = o->n ? o->n : chosen ? 0 : DEFAULT_COMPARE_N;
  char *xml = NULL, *desc = NULL;
  bool is_temp = false;
  int rc = p && cs_platform_resolve(p, want, &e) ? 0 : cs_cli_fail(c, e);
  g_clear_error(&e);
  if (rc == 0 && !o->n && !chosen)
    o->n = DEFAULT_COMPARE_N;
  if (rc == 0)
    rc = compare_params(c, o, p, &cp);
  GArray *schemes = g_array_new(FALSE, FALSE, sizeof(cs_split_scheme));
  if (rc == 0)
    rc = o->impl ? named_schemes(c, o->impl, &cp, schemes) : all_schemes(c, &cp, schemes);
  if (rc == 0 && !(cs_platform_check_size(p, &e) && cs_cli_run_size(c, cp.comm.n, &e) &&
                   cs_cli_procs_engine(c, &cp.comm.procs, &e) &&
                   cs_cli_engine(c, p, COMPARE_OVERHEAD_S, COMPARE_OVERHEAD_S, &cp.comm.engine, &e) &&
                   (cp.comm.procs.native || cs_platform_xml_for_run(p, &xml, &is_temp, &e))))
    rc = cs_cli_fail(c, e);
  g_clear_error(&e);
  int *host_of = NULL;
  if (rc == 0) {
    desc = cs_platform_describe(p);
    cp.comm.platform_desc = desc;
    cp.comm.engine.platform_file = xml;
    cp.comm.engine.quiet = c->quiet;
    host_of = p->mapping == CS_MAP_IN_ORDER ? NULL : cs_platform_host_map(p, cp.comm.n);
    cp.host_of = host_of;
    rc = run_schemes(c, &cp, schemes);
  }
  g_array_free(schemes, TRUE);
  g_free(host_of);
  if (is_temp)
    cs_tempfile_remove(xml);
  g_free(xml);
  g_free(desc);
  cs_cli_engine_clear(&cp.comm.engine);
  cs_platform_free(p);
  return rc;
}

int cs_comm_main(int argc, char **argv)
{
  comm_opts o = {.concurrent = 1, .tag = 1000, .colors = 1, .split = 100, .lid_bits = CS_LID_BITS_DEFAULT, .lbi_bits = CS_LBI_BITS_DEFAULT,
                 .repeat = 1, .pool = CS_MPICH2_COMM_POOL, .cpu_factor = 1.0, .messages = 10000, .gathers = 10,
                 .space_comms = 8, .tree_k = 3};
  const cs_opt opts[] = {
      {"cpm", 0, CS_OPT_STRING, &o.cpm, "C,P,M", "proclets per OS process, OS processes per machine, machines "
       "(short for --platform cpm:C,P,M; default " DEFAULT_CPM ", create-group: " DEFAULT_GROUP_PLATFORM ")", 0, 0, 0, 0, NULL},
      {"impl", 0, CS_OPT_STRING, &o.impl, "IMPL", "a protocol of --list: leader (Procedures 1-2; default on cpm), "
       "mpich (elsewhere); create-group: intercomm (Algorithm 1, default) or direct; compare: schemes A,B,... "
       "(split protocols and collsim tree's multi-colour constructions; default: all)", 0, 0, 0, 0, NULL},
      {"colors", 0, CS_OPT_INT, &o.colors, "K", "split: colours (default 1)", 1, G_MAXINT, 0, 0, NULL},
      {"layout", 0, CS_OPT_CHOICE, &o.layout, "L", "split: colour of rank r: cyclic (r mod K, default) or block", 0,
       0, 0, 0, layouts},
      {"key", 0, CS_OPT_CHOICE, &o.key, "RULE", "split: key of rank r: rank (default), reverse or random", 0, 0, 0, 0,
       keys},
      {"group", 0, CS_OPT_LIST, &o.groups, "SPEC", "create, create-group: a group (stride:START,STRIDE,COUNT, range:FIRST,LAST, "
       "ranks:R,..., A+B); repeat for disjoint groups", 0, 0, 0, 0, NULL},
      {"n", 'n', CS_OPT_INT, &o.n, "N", "ranks (default: every slot of the platform)", 1, INT64_C(1) << 31, 0, 0,
       NULL},
      {"group-size", 0, CS_OPT_INT, &o.group_size, "G", "create, create-group: a group of G ranks (instead of "
       "--group)", 1, INT64_C(1) << 31, 0, 0, NULL},
      {"concurrent", 0, CS_OPT_INT, &o.concurrent, "K", "with --group-size: K disjoint groups created at once "
       "(default 1)", 1, 1 << 20, 0, 0, NULL},
      {"members", 0, CS_OPT_CHOICE, &o.members, "RULE", "with --group-size: which ranks: first (default), spread "
       "(evenly spaced) or random", 0, 0, 0, 0, member_rules},
      {"order", 0, CS_OPT_CHOICE, &o.order, "RULE", "with --group-size: group order: rank (default), reverse or "
       "random", 0, 0, 0, 0, order_rules},
      {"tag", 0, CS_OPT_INT, &o.tag, "T", "create-group: group i uses tag T + i on the parent (default 1000)", 0,
       (1 << 23) - (1 << 20), 0, 0, NULL},
      {"map", 0, CS_OPT_STRING, &o.map, "NAME", "group maps: strategy S, T, ST (default) or a representation", 0, 0,
       0, 0, NULL},
      {"no-share", 0, CS_OPT_FLAG, &o.no_share, NULL, "one map per proclet instead of one per OS process", 0, 0, 0, 0,
       NULL},
      {"lid-bits", 0, CS_OPT_INT, &o.lid_bits, "L", "LID width (default 21)", 1, 31, 0, 0, NULL},
      {"lbi-bits", 0, CS_OPT_INT, &o.lbi_bits, "k", "LBI width (default 6)", 1, CS_LBI_BITS_MAX, 0, 0, NULL},
      {"repeat", 0, CS_OPT_INT, &o.repeat, "R", "creations in a row (default 1)", 1, 1 << 20, 0, 0, NULL},
      {"cpu-factor", 0, CS_OPT_QUANTITY, &o.cpu_factor, "F", "simulated CPU seconds per second measured here "
       "(default 1)", 1e-3, 1e3, CS_QTY_NUMBER, 1, NULL},
      {"tree-k", 0, CS_OPT_INT, &o.tree_k, "K", "compare: tree degree of seed 000's schemes (default 3)", 2,
       1 << 20, 0, 0, NULL},
      {"split", 0, CS_OPT_INT, &o.split, "K", "ids: colours of each split (default 100)", 1, G_MAXINT, 0, 0, NULL},
      {"until-exhausted", 0, CS_OPT_FLAG, &o.until_exhausted, NULL, "ids: split until an id cannot be made", 0, 0, 0,
       0, NULL},
      {"pool", 0, CS_OPT_INT, &o.pool, "OBJ", "ids: communicator objects per OS process (MPICH2 1.3/1.4: 261896; 0: "
       "no limit)", 0, INT64_C(1) << 40, 0, 0, NULL},
      {"world-in-pool", 0, CS_OPT_FLAG, &o.world_in_pool, NULL, "ids: each proclet's COMM_WORLD and COMM_SELF take "
       "pool objects too", 0, 0, 0, 0, NULL},
      {"op", 0, CS_OPT_CHOICE, &o.op, "OP", "the operation, instead of the first argument (for experiment files)", 0,
       0, 0, 0, verbs},
      {"set", 0, CS_OPT_STRING, &o.set, "NAME", "bench: Section 8.1's set A1-A3, B1-B3 or C1-C3", 0, 0, 0, 0, NULL},
      {"messages", 0, CS_OPT_INT, &o.messages, "K", "bench: random point-to-point messages (default 10000)", 0,
       INT64_C(1) << 32, 0, 0, NULL},
      {"gathers", 0, CS_OPT_INT, &o.gathers, "G", "bench: gathers to group rank 0 (default 10)", 0, 1 << 20, 0, 0,
       NULL},
      {"space-comms", 0, CS_OPT_INT, &o.space_comms, "K", "bench: communicators of the space saving (default 8)", 1,
       1 << 20, 0, 0, NULL},
      {"list", 0, CS_OPT_FLAG, &o.list, NULL, "list the protocols and exit", 0, 0, 0, 0, NULL},
      {"list-columns", 0, CS_OPT_FLAG, &o.list_columns, NULL, CS_LIST_COLUMNS_HELP, 0, 0, 0, 0, NULL},
      {NULL, 0, 0, NULL, NULL, NULL, 0, 0, 0, 0, NULL},
  };
  const char *given = argc > 1 && argv[1][0] != '-' ? argv[1] : NULL;
  char *cmd = g_strdup_printf("comm%s%s", given ? " " : "", given ? given : "");
  cs_cli c;
  const op_help *h = help_of(given);
  int rc = cs_cli_parse(&c, cmd, CS_CLI_OUTPUT | CS_CLI_ENGINE | CS_CLI_PLATFORM | CS_CLI_SEED | CS_CLI_TRACE | CS_CLI_NATIVE,
                        opts, given && h->op ? "" : "split|create|create-group|ids|bench|space|compare", h->summary,
                        h->example,
                        argc - (given ? 1 : 0), argv + (given ? 1 : 0));
  if (rc == 0 && given && o.op)
    rc = cs_cli_usage(&c, "give the operation once: '%s' or --op %s", given, o.op);
  const char *verb = given ? given : o.op;
  if (rc == 0 && verb && g_strv_contains(verbs, verb))
    rc = cs_cli_check_rules(&c, rules, verb);
  if (rc == 0 && c.rest[0])
    rc = cs_cli_usage(&c, "unexpected argument '%s'", c.rest[0]);
  if (rc == 0 && o.list_columns)
    rc = cs_cli_list_columns(&c);
  else if (rc == 0 && o.list && verb && strcmp(verb, "compare") == 0)
    list_schemes();
  else if (rc == 0 && o.list)
    list_protocols();
  else if (rc == 0 && !verb)
    rc = cs_cli_usage(&c, "no operation given (split, create, create-group, ids, bench, space or compare)");
  else if (rc == 0 && !g_strv_contains(verbs, verb))
    rc = cs_cli_usage(&c, "unknown operation '%s' (split, create, create-group, ids, bench, space or compare)", verb);
  else if (rc == 0)
    rc = strcmp(verb, "ids") == 0            ? run_ids(&c, &o)
         : strcmp(verb, "space") == 0        ? run_space(&c, &o)
         : strcmp(verb, "bench") == 0        ? run_bench(&c, &o)
         : strcmp(verb, "compare") == 0      ? run_compare(&c, &o)
         : strcmp(verb, "split") == 0        ? run_creation(&c, &o, CS_COMM_SPLIT, NULL)
         : strcmp(verb, "create-group") == 0 ? run_creation(&c, &o, CS_COMM_CREATE_GROUP, NULL)
                                             : run_creation(&c, &o, CS_COMM_CREATE, NULL);
  cs_cli_free(&c);
  g_free(cmd);
  return rc;
}

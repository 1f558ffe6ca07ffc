/* `collsim comm compare`: one split through several schemes (see
 * comm_compare.h for the schemes, the mapping of the split onto both
 * drivers and the units), and the comparison's record. */
#include "sim/drivers/comm_compare.h"
#include "sim/drivers/members.h"
#include "sim/drivers/spanning_tree_run.h"
#include "sim/engine/forked.h"

#include <string.h>

/* ------------------------------------------------------------ schemes --- */

static size_t split_protocols(void)
{
  size_t k = 0;
  for (size_t i = 0; i < cs_comm_protocol_count(); i++)
    k += cs_comm_protocol_at(i)->op == CS_COMM_SPLIT;
  return k;
}

static size_t split_trees(void)
{
  size_t k = 0;
  for (int i = 0; i < cs_tree_algo_count; i++)
    k += cs_tree_algos[i].multicolor != 0;
  return k;
}

size_t cs_split_scheme_count(void) { return split_protocols() + split_trees(); }

cs_split_scheme cs_split_scheme_at(size_t i)
{
  cs_split_scheme s = {0};
  for (size_t j = 0; j < cs_comm_protocol_count(); j++) {
    const cs_comm_protocol *p = cs_comm_protocol_at(j);
    if (p->op == CS_COMM_SPLIT && i-- == 0)
      return (cs_split_scheme){p->impl, CS_SCHEME_PROTOCOL, p, NULL};
  }
  for (int j = 0; j < cs_tree_algo_count; j++)
    if (cs_tree_algos[j].multicolor && i-- == 0)
      return (cs_split_scheme){cs_tree_algos[j].name, CS_SCHEME_TREE, NULL, &cs_tree_algos[j]};
  return s;
}

bool cs_split_scheme_find(const char *name, cs_split_scheme *out)
{
  for (size_t i = 0; i < cs_split_scheme_count(); i++) {
    cs_split_scheme s = cs_split_scheme_at(i);
    if (strcmp(s.name, name) == 0) {
      *out = s;
      return true;
    }
  }
  return false;
}

char *cs_split_scheme_names(void)
{
  GString *s = g_string_new(NULL);
  for (size_t i = 0; i < cs_split_scheme_count(); i++)
    g_string_append_printf(s, "%s%s", i ? ", " : "", cs_split_scheme_at(i).name);
  return g_string_free(s, FALSE);
}

const char *cs_split_scheme_refusal(const cs_split_scheme *s, const cs_compare_params *prm)
{
  if (s->family != CS_SCHEME_TREE)
    return NULL;
  if (prm->comm.key_rule != CS_KEY_RANK)
    return "system-ranked: orders every group by rank and ignores keys (--key rank only)";
  if (prm->comm.per_process > 1)
    return "one MPI rank per core: no proclets sharing an OS process (not on cpm platforms)";
  return NULL;
}

/* ----------------------------------------------------------- formulas --- */

const char *cs_split_formula(const cs_split_scheme *s)
{
  return s->family == CS_SCHEME_TREE ? s->tree->messages_formula : s->proto->messages_text;
}

/* The protocol's count from its registry row, where it holds
 * (cs_comm_protocol_formula_waived). */
static void protocol_expected(const cs_compare_params *prm, const cs_split_scheme *s, cs_compare_row *row)
{
  if (!s->proto->messages || cs_comm_protocol_formula_waived(s->proto, prm->comm.per_process, prm->comm.share))
    return;
  int colors = prm->comm.colors;
  int64_t *m = g_new0(int64_t, (gsize)colors);
  for (int64_t r = 0; r < prm->comm.n; r++)
    m[cs_layout_color(&prm->comm, r)]++;
  row->has_expected = true;
  row->messages_expected = s->proto->messages(prm->comm.n, m, colors);
  row->messages_formula = cs_split_formula(s);
  g_free(m);
}

double cs_compare_weight(const cs_compare_params *prm, const cs_split_scheme *s)
{
  cs_compare_row row = {0};
  if (s->family != CS_SCHEME_TREE)
    protocol_expected(prm, s, &row);
  return row.has_expected && row.messages_expected > 0 ? (double)row.messages_expected : (double)prm->comm.n;
}

/* ---------------------------------------------------------------- runs --- */

static int run_protocol(const cs_compare_params *prm, const cs_split_scheme *s, cs_compare_row *row, GError **err)
{
  cs_comm_params cp = prm->comm;
  cp.proto = s->proto;
  cp.engine.host_of = prm->host_of;
  cs_comm_result res;
  int rc = cs_comm_run(&cp, &res, err);
  if (rc == 1 && res.why) { /* did not verify: a row that says so */
    g_clear_error(err);
    rc = 0;
  }
  if (rc == 0) {
    row->method = s->proto->method;
    row->verified = res.verified;
    row->sim_time_s = res.sim_time_s;
    row->wall_s = res.wall_s;
    row->messages = res.messages;
    row->bytes = res.bytes;
    row->max_message_bytes = res.max_message_bytes;
    row->peak_mem_bytes_max = res.peak_mem_bytes_per_proclet_max;
    row->peak_mem_bytes_mean = res.peak_mem_bytes_per_proclet_mean;
    protocol_expected(prm, s, row);
  }
  cs_comm_result_clear(&res);
  return rc;
}

/* The split as a seed 000 group: everyone joins, colours by the layout. */
static cs_group *split_group(const cs_comm_params *c)
{
  cs_group *g = g_new0(cs_group, 1);
  g->n = (int)c->n;
  g->colors = c->colors;
  g->color = g_new(int32_t, (gsize)c->n);
  g->m_color = g_new0(int64_t, (gsize)c->colors);
  for (int64_t r = 0; r < c->n; r++) {
    g->color[r] = cs_layout_color(c, r);
    g->m_color[g->color[r]]++;
  }
  g->m = c->n;
  return g;
}

static int run_tree(const cs_compare_params *prm, const cs_split_scheme *s, cs_compare_row *row, GError **err)
{
  cs_group *g = split_group(&prm->comm);
  cs_tree_params tp = {.algo = s->tree, .n = (int)prm->comm.n, .f = 1, .k = prm->tree_k, .colors = prm->comm.colors,
                       .seed = prm->comm.seed, .group = g, .bracket = FALSE, .verify = TRUE,
                       .platform_desc = prm->comm.platform_desc, .engine = prm->comm.engine,
                       .procs = prm->comm.procs};
  tp.engine.host_of = prm->host_of;
  cs_tree_result res;
  int rc = cs_tree_run(&tp, &res, err);
  if (rc == 1 && res.verified == 0) {
    g_clear_error(err);
    rc = 0;
  }
  if (rc == 0) {
    row->method = s->tree->name;
    row->verified = res.verified > 0;
    row->sim_time_s = res.sim_time_s;
    row->wall_s = res.wall_s;
    row->messages = res.messages;
    row->bytes = res.bytes;
    row->max_message_bytes = res.max_message_bytes;
    row->peak_mem_bytes_max = res.peak_mem_words_max * 8; /* words of 8 bytes */
    row->peak_mem_bytes_mean = res.peak_mem_words_mean * 8;
    row->has_expected = res.messages_expected >= 0;
    row->messages_expected = row->has_expected ? (uint64_t)res.messages_expected : 0;
    row->messages_formula = row->has_expected ? s->tree->messages_formula : NULL;
  }
  cs_group_free(g);
  return rc;
}

typedef struct child_job {
  const cs_compare_params *prm;
  const cs_split_scheme *s;
} child_job;

static gboolean run_in_child(void *arg, void *out, GError **err)
{
  const child_job *j = arg;
  cs_compare_row *row = out;
  int rc = j->s->family == CS_SCHEME_TREE ? run_tree(j->prm, j->s, row, err) : run_protocol(j->prm, j->s, row, err);
  return rc == 0;
}

int cs_compare_run_one(const cs_compare_params *prm, const cs_split_scheme *s, cs_compare_row *row, GError **err)
{
  memset(row, 0, sizeof *row);
  child_job j = {prm, s};
  if (!cs_run_forked(run_in_child, &j, row, sizeof *row, err))
    return (*err)->domain == CS_INPUT_ERROR ? 2 : 1;
  row->scheme = s->name; /* static strings: the same in parent and child */
  row->family = s->family == CS_SCHEME_TREE ? "tree" : "comm";
  return 0;
}

/* -------------------------------------------------------------- record --- */

/* One row per scheme (the record's row set: a table in the table format,
 * one CSV line each, an object per scheme in JSON). */
enum {
  Y_SCHEME, Y_FAMILY, Y_METHOD, Y_VERIFIED, Y_SIM_TIME, Y_MESSAGES, Y_MESSAGES_EXPECTED, Y_BYTES, Y_MAX_MESSAGE,
  Y_PEAK_MAX, Y_PEAK_MEAN, Y_TIME_RATIO, Y_MESSAGES_RATIO, Y_BYTES_RATIO, Y_MEMORY_RATIO, Y_WALL, Y_MESSAGES_FORMULA,
};

static const cs_column scheme_columns[] = {
    [Y_SCHEME] = {"scheme", CS_COL_TEXT, NULL, "", NULL, CS_COL_KEY | CS_COL_CSV_ONLY,
                  "the scheme: a split protocol (collsim comm --list) or a seed 000 construction (collsim tree --list)"},
    [Y_FAMILY] = {"family", CS_COL_TEXT, NULL, "", NULL, CS_COL_KEY,
                  "comm (a communicator-creation protocol) or tree (a seed 000 construction, system-ranked)"},
    [Y_METHOD] = {"method", CS_COL_TEXT, NULL, "", NULL, CS_COL_KEY, "the method in the papers' words"},
    [Y_VERIFIED] = {"verified", CS_COL_BOOL, NULL, "", NULL, 0,
                    "every rank ended in exactly its colour's group, in order: true or false"},
    [Y_SIM_TIME] = {"sim_time_s", CS_COL_NUM, "%.9g", "s", NULL, 0, "simulated time of the split alone"},
    [Y_MESSAGES] = {"messages", CS_COL_INT, NULL, "messages", NULL, 0, "messages sent by the scheme"},
    [Y_MESSAGES_EXPECTED] = {"messages_expected", CS_COL_INT, NULL, "messages", "the scheme has a closed form", 0,
                             "the scheme's exact message count (messages_formula); empty where it has none"},
    [Y_BYTES] = {"bytes", CS_COL_INT, NULL, "bytes", NULL, 0, "bytes sent by the scheme"},
    [Y_MAX_MESSAGE] = {"max_message_bytes", CS_COL_INT, NULL, "bytes", NULL, 0, "largest message"},
    [Y_PEAK_MAX] = {"peak_mem_bytes_max", CS_COL_INT, NULL, "bytes", NULL, 0,
                    "largest peak memory of a rank (seed 000's 8-byte words x 8)"},
    [Y_PEAK_MEAN] = {"peak_mem_bytes_mean", CS_COL_NUM, "%.3f", "bytes", NULL, 0, "mean peak memory of a rank"},
    [Y_TIME_RATIO] = {"time_ratio", CS_COL_NUM, "%.6g", "", NULL, 0, "sim_time_s over the first scheme's"},
    [Y_MESSAGES_RATIO] = {"messages_ratio", CS_COL_NUM, "%.6g", "", NULL, 0, "messages over the first scheme's"},
    [Y_BYTES_RATIO] = {"bytes_ratio", CS_COL_NUM, "%.6g", "", NULL, 0, "bytes over the first scheme's"},
    [Y_MEMORY_RATIO] = {"memory_ratio", CS_COL_NUM, "%.6g", "", NULL, 0,
                        "peak_mem_bytes_max over the first scheme's"},
    [Y_WALL] = {"wall_s", CS_COL_NUM, "%.3f", "s", NULL, CS_COL_MEASURED, "wall-clock time of the scheme's run"},
    [Y_MESSAGES_FORMULA] = {"messages_formula", CS_COL_TEXT, NULL, "", "the scheme has a closed form",
                            CS_COL_NO_CSV,
                            "messages_expected as a formula (m members; pof2, rem of n; s, k of seed 000's trees; "
                            "tables and JSON only)"},
};

static const cs_record_kind scheme_kind = {"comm compare scheme", "one scheme's row", scheme_columns,
                                           G_N_ELEMENTS(scheme_columns), NULL};

enum { X_OP, X_N, X_COLORS, X_LAYOUT, X_KEY, X_K, X_PLATFORM, X_MODEL, X_SEED, X_SCHEMES };

static const cs_column columns[] = {
    [X_OP] = {"op", CS_COL_TEXT, NULL, "", NULL, CS_COL_KEY, "the operation: compare"},
    [X_N] = {"n", CS_COL_INT, NULL, "processes", NULL, CS_COL_KEY, "ranks of the parent, every one a member"},
    [X_COLORS] = {"colors", CS_COL_INT, NULL, "", NULL, CS_COL_KEY, "colours of the split"},
    [X_LAYOUT] = {"layout", CS_COL_TEXT, NULL, "", NULL, CS_COL_KEY, "colour of rank r: cyclic (r mod K) or block"},
    [X_KEY] = {"key", CS_COL_TEXT, NULL, "", NULL, CS_COL_KEY, "key of rank r: rank, reverse or random"},
    [X_K] = {"k", CS_COL_INT, NULL, "", NULL, CS_COL_KEY, "tree degree of the seed 000 schemes"},
    [X_PLATFORM] = {"platform", CS_COL_TEXT, NULL, "", NULL, CS_COL_KEY, "the platform's canonical spec"},
    [X_MODEL] = {"model", CS_COL_TEXT, NULL, "", NULL, CS_COL_KEY,
                 "the timing: SimGrid's network model on the platform, or loggops L=.. o=.. g=.. G=.. S=.. O=.. "
                 "(--engine native: LogGOPS in ns and ns/byte, no links)"},
    [X_SEED] = {"seed", CS_COL_INT, NULL, "", NULL, CS_COL_KEY, "random seed (random keys)"},
    [X_SCHEMES] = {"schemes", CS_COL_RECORD, NULL, "", NULL, 0, "one row per scheme, in --impl's order",
                   &scheme_kind},
};

const cs_record_kind cs_comm_compare_record_kind = {"comm compare", "one split through several schemes", columns,
                                                    G_N_ELEMENTS(columns), NULL};

static void ratio(cs_record *r, const cs_column *col, double x, double first)
{
  if (first > 0)
    cs_col_num(r, col, x / first);
  else
    cs_col_null(r, col);
}

/* The fields in the order a table shows them (the comparison first: a
 * table of rows keeps its leftmost columns when it must fit 100 characters;
 * CSV follows the declarations' order whatever this one). */
static void scheme_row(cs_record *r, const cs_compare_row *row, const cs_compare_row *first)
{
  cs_col_bool(r, &scheme_columns[Y_VERIFIED], row->verified);
  ratio(r, &scheme_columns[Y_TIME_RATIO], row->sim_time_s, first->sim_time_s);
  ratio(r, &scheme_columns[Y_MESSAGES_RATIO], (double)row->messages, (double)first->messages);
  ratio(r, &scheme_columns[Y_BYTES_RATIO], (double)row->bytes, (double)first->bytes);
  ratio(r, &scheme_columns[Y_MEMORY_RATIO], (double)row->peak_mem_bytes_max, (double)first->peak_mem_bytes_max);
  cs_col_num(r, &scheme_columns[Y_SIM_TIME], row->sim_time_s);
  cs_col_u64(r, &scheme_columns[Y_MESSAGES], row->messages);
  if (row->has_expected)
    cs_col_u64(r, &scheme_columns[Y_MESSAGES_EXPECTED], row->messages_expected);
  else
    cs_col_null(r, &scheme_columns[Y_MESSAGES_EXPECTED]);
  cs_col_u64(r, &scheme_columns[Y_BYTES], row->bytes);
  cs_col_u64(r, &scheme_columns[Y_MAX_MESSAGE], row->max_message_bytes);
  cs_col_i64(r, &scheme_columns[Y_PEAK_MAX], row->peak_mem_bytes_max);
  cs_col_num(r, &scheme_columns[Y_PEAK_MEAN], row->peak_mem_bytes_mean);
  cs_col_str(r, &scheme_columns[Y_FAMILY], row->family);
  cs_col_str(r, &scheme_columns[Y_METHOD], row->method);
  cs_col_num(r, &scheme_columns[Y_WALL], row->wall_s);
  cs_col_str(r, &scheme_columns[Y_MESSAGES_FORMULA], row->messages_formula);
}

/* "LV08" (SimGrid's model) or "loggops L=2500 o=1500 g=1000 G=6 S=65535 O=0"
 * (no commas: one CSV field unquoted). */
static char *compare_model(const cs_compare_params *prm)
{
  const cs_loggops_params *m = &prm->comm.procs.loggops;
  if (!prm->comm.procs.native)
    return g_strdup(prm->comm.engine.model ? prm->comm.engine.model : "");
  return g_strdup_printf("loggops L=%llu o=%llu g=%llu G=%llu S=%llu O=%llu", (unsigned long long)m->L, (unsigned long long)m->o,
                         (unsigned long long)m->g, (unsigned long long)m->G, (unsigned long long)m->S,
                         (unsigned long long)m->O);
}

static const char *const layout_names[] = {"cyclic", "block"};
static const char *const key_names[] = {"rank", "reverse", "random"};

cs_record *cs_compare_record(const cs_compare_params *prm, const cs_compare_row *rows, size_t nrows)
{
  cs_record *r = cs_record_new();
  cs_col_str(r, &columns[X_OP], "compare");
  cs_col_i64(r, &columns[X_N], prm->comm.n);
  cs_col_i64(r, &columns[X_COLORS], prm->comm.colors);
  cs_col_str(r, &columns[X_LAYOUT], layout_names[prm->comm.layout]);
  cs_col_str(r, &columns[X_KEY], key_names[prm->comm.key_rule]);
  cs_col_i64(r, &columns[X_K], prm->tree_k);
  cs_col_str(r, &columns[X_PLATFORM], prm->comm.platform_desc);
  char *model = compare_model(prm);
  cs_col_str(r, &columns[X_MODEL], model);
  g_free(model);
  cs_col_u64(r, &columns[X_SEED], prm->comm.seed);
  cs_record *set = cs_col_child(r, &columns[X_SCHEMES]);
  for (size_t i = 0; i < nrows; i++)
    scheme_row(cs_rec_child(set, rows[i].scheme), &rows[i], &rows[0]);
  cs_col_set_rows(r, &columns[X_SCHEMES]);
  return r;
}

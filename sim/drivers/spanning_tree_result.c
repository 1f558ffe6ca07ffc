/* A tree-construction result as a record.  Doubles that come from the
 * simulation are printed with %.9g (times), %.6f (mean memory) and %.3f
 * (wall time); f with %g (the sweep compares it as a number). */
#include "sim/drivers/spanning_tree_result.h"

enum {
  T_ALGO, T_N, T_M, T_S, T_ROOT_JOINS, T_F, T_K, T_COLORS, T_SEED, T_PLATFORM, T_MODEL, T_SIM_TIME, T_SIM_TIME_ALG,
  T_MESSAGES, T_MESSAGES_EXPECTED, T_MESSAGES_FORMULA, T_MESSAGES_BRACKETED, T_BYTES, T_BYTES_BRACKETED, T_MAX_MESSAGE, T_PEAK_MAX, T_PEAK_MEAN, T_HEIGHT, T_MIN_HEIGHT,
  T_VERIFIED, T_WALL,
};

static const cs_column columns[] = {
    [T_ALGO] = {"algo", CS_COL_TEXT, NULL, "", NULL, CS_COL_KEY, "the construction algorithm (collsim tree --list)"},
    [T_N] = {"n", CS_COL_INT, NULL, "processes", NULL, CS_COL_KEY, "processes in the parent group"},
    [T_M] = {"m", CS_COL_INT, NULL, "processes", NULL, 0, "members over all colours"},
    [T_S] = {"s", CS_COL_INT, NULL, "processes", NULL, 0,
             "non-root vertices of the parent tree (k-ary heap) whose subtree holds a member: Rank-and-Hash's "
             "downward messages (seed 000 counts them as m; s >= m - 1)"},
    [T_ROOT_JOINS] = {"root_joins", CS_COL_INT, NULL, "", NULL, 0,
                      "1 when rank 0 joins a new group, else 0 (Centralized's count depends on it)"},
    [T_F] = {"f", CS_COL_NUM, "%g", "", NULL, CS_COL_KEY, "participation fraction asked (-1 with --members)"},
    [T_K] = {"k", CS_COL_INT, NULL, "", NULL, CS_COL_KEY, "tree degree"},
    [T_COLORS] = {"colors", CS_COL_INT, NULL, "", NULL, CS_COL_KEY, "number of colours (new groups)"},
    [T_SEED] = {"seed", CS_COL_INT, NULL, "", NULL, CS_COL_KEY, "random seed"},
    [T_PLATFORM] = {"platform", CS_COL_TEXT, NULL, "", NULL, CS_COL_KEY, "the platform's canonical spec"},
    [T_MODEL] = {"model", CS_COL_TEXT, NULL, "", NULL, CS_COL_KEY, "SimGrid network model"},
    [T_SIM_TIME] = {"sim_time_s", CS_COL_NUM, "%.9g", "s", NULL, 0,
                    "simulated time: bracketing broadcast + algorithm + bracketing reduction"},
    [T_SIM_TIME_ALG] = {"sim_time_alg_s", CS_COL_NUM, "%.9g", "s", NULL, 0, "simulated time of the algorithm alone"},
    [T_MESSAGES] = {"messages", CS_COL_INT, NULL, "messages", NULL, 0, "messages sent by the algorithm alone"},
    [T_MESSAGES_EXPECTED] = {"messages_expected", CS_COL_INT, NULL, "messages", NULL, 0,
                             "the algorithm's exact message count from the drawn group (messages_formula); "
                             "empty where there is none (shrink-balance)"},
    [T_MESSAGES_FORMULA] = {"messages_formula", CS_COL_TEXT, NULL, "", NULL, CS_COL_NO_CSV,
                            "messages_expected as a formula over this record's fields (one per algorithm: "
                            "tables and JSON only, not on every CSV row)"},
    [T_MESSAGES_BRACKETED] = {"messages_bracketed", CS_COL_INT, NULL, "messages", NULL, 0,
                              "messages sent, bracketing included"},
    [T_BYTES] = {"bytes", CS_COL_INT, NULL, "bytes", NULL, 0, "bytes sent by the algorithm alone"},
    [T_BYTES_BRACKETED] = {"bytes_bracketed", CS_COL_INT, NULL, "bytes", NULL, 0, "bytes sent, bracketing included"},
    [T_MAX_MESSAGE] = {"max_message_bytes", CS_COL_INT, NULL, "bytes", NULL, 0, "largest message"},
    [T_PEAK_MAX] = {"peak_mem_words_max", CS_COL_INT, NULL, "words", NULL, 0,
                    "largest peak memory of a process"},
    [T_PEAK_MEAN] = {"peak_mem_words_mean", CS_COL_NUM, "%.6f", "words", NULL, 0, "mean peak memory of a process"},
    [T_HEIGHT] = {"height", CS_COL_INT, NULL, "levels", NULL, 0, "tree height, largest over colours (-1: no member)"},
    [T_MIN_HEIGHT] = {"min_height", CS_COL_INT, NULL, "levels", NULL, 0, "height of a complete k-ary tree over the largest colour"},
    [T_VERIFIED] = {"verified", CS_COL_BOOL, NULL, "", NULL, 0,
                    "the tree spans exactly the members: true, false, or empty / null when unchecked (--no-verify)"},
    [T_WALL] = {"wall_s", CS_COL_NUM, "%.3f", "s", NULL, CS_COL_MEASURED,
                "wall-clock time of the run (differs between identical runs)"},
};

const cs_record_kind cs_tree_record_kind = {"tree", "one spanning-tree construction", columns, G_N_ELEMENTS(columns),
                                            NULL};

const char *cs_tree_csv_header(void)
{
  static char *header;
  if (!header)
    header = cs_csv_header(cs_record_kind_csv(&cs_tree_record_kind));
  return header;
}

cs_record *cs_tree_result_record(const cs_tree_result *r)
{
  cs_record *c = cs_record_new();
  cs_col_str(c, &columns[T_ALGO], r->algo);
  cs_col_i64(c, &columns[T_N], r->n);
  cs_col_i64(c, &columns[T_M], r->m);
  cs_col_u64(c, &columns[T_S], r->s);
  cs_col_i64(c, &columns[T_ROOT_JOINS], r->root_joins);
  cs_col_num(c, &columns[T_F], r->f);
  cs_col_i64(c, &columns[T_K], r->k);
  cs_col_i64(c, &columns[T_COLORS], r->colors);
  cs_col_u64(c, &columns[T_SEED], r->seed);
  cs_col_str(c, &columns[T_PLATFORM], r->platform);
  cs_col_str(c, &columns[T_MODEL], r->model);
  cs_col_num(c, &columns[T_SIM_TIME], r->sim_time_s);
  cs_col_num(c, &columns[T_SIM_TIME_ALG], r->sim_time_alg_s);
  cs_col_u64(c, &columns[T_MESSAGES], r->messages);
  if (r->messages_expected >= 0)
    cs_col_i64(c, &columns[T_MESSAGES_EXPECTED], r->messages_expected);
  else
    cs_col_null(c, &columns[T_MESSAGES_EXPECTED]);
  cs_col_str(c, &columns[T_MESSAGES_FORMULA], r->messages_formula);
  cs_col_u64(c, &columns[T_MESSAGES_BRACKETED], r->messages_bracketed);
  cs_col_u64(c, &columns[T_BYTES], r->bytes);
  cs_col_u64(c, &columns[T_BYTES_BRACKETED], r->bytes_bracketed);
  cs_col_u64(c, &columns[T_MAX_MESSAGE], r->max_message_bytes);
  cs_col_i64(c, &columns[T_PEAK_MAX], r->peak_mem_words_max);
  cs_col_num(c, &columns[T_PEAK_MEAN], r->peak_mem_words_mean);
  cs_col_i64(c, &columns[T_HEIGHT], r->height);
  cs_col_i64(c, &columns[T_MIN_HEIGHT], r->min_height);
  if (r->verified < 0)
    cs_col_null(c, &columns[T_VERIFIED]);
  else
    cs_col_bool(c, &columns[T_VERIFIED], r->verified > 0);
  cs_col_num(c, &columns[T_WALL], r->wall_s);
  return c;
}

/* A tree-construction result as a record.  Doubles that come from the
 * simulation are printed with %.9g (times), %.6f (mean memory) and %.3f
 * (wall time); f with %g (the sweep compares it as a number). */
#include "sim/drivers/spanning_tree_result.h"

const char *const cs_tree_csv_columns[] = {
    "algo", "n", "m", "f", "k", "colors", "seed", "platform", "model", "sim_time_s", "sim_time_alg_s", "messages",
    "messages_bracketed", "bytes", "bytes_bracketed", "max_message_bytes", "peak_mem_words_max",
    "peak_mem_words_mean", "height", "min_height", "verified", "wall_s", NULL};

const char *const CS_TREE_CSV_HEADER =
    "algo,n,m,f,k,colors,seed,platform,model,sim_time_s,sim_time_alg_s,messages,messages_bracketed,"
    "bytes,bytes_bracketed,max_message_bytes,peak_mem_words_max,peak_mem_words_mean,height,min_height,"
    "verified,wall_s";

static const char *verified_word(int v) { return v > 0 ? "yes" : v == 0 ? "no" : "unchecked"; }

cs_record *cs_tree_result_record(const cs_tree_result *r)
{
  cs_record *c = cs_record_new();
  cs_rec_str(c, "algo", r->algo);
  cs_rec_i64(c, "n", r->n);
  cs_rec_i64(c, "m", r->m);
  cs_rec_num(c, "f", r->f, "%g");
  cs_rec_i64(c, "k", r->k);
  cs_rec_i64(c, "colors", r->colors);
  cs_rec_u64(c, "seed", r->seed);
  cs_rec_str(c, "platform", r->platform);
  cs_rec_str(c, "model", r->model);
  cs_rec_num(c, "sim_time_s", r->sim_time_s, "%.9g");
  cs_rec_num(c, "sim_time_alg_s", r->sim_time_alg_s, "%.9g");
  cs_rec_u64(c, "messages", r->messages);
  cs_rec_u64(c, "messages_bracketed", r->messages_bracketed);
  cs_rec_u64(c, "bytes", r->bytes);
  cs_rec_u64(c, "bytes_bracketed", r->bytes_bracketed);
  cs_rec_u64(c, "max_message_bytes", r->max_message_bytes);
  cs_rec_i64(c, "peak_mem_words_max", r->peak_mem_words_max);
  cs_rec_num(c, "peak_mem_words_mean", r->peak_mem_words_mean, "%.6f");
  cs_rec_i64(c, "height", r->height);
  cs_rec_i64(c, "min_height", r->min_height);
  cs_rec_verdict(c, "verified", verified_word(r->verified), r->verified > 0);
  cs_rec_num(c, "wall_s", r->wall_s, "%.3f");
  return c;
}

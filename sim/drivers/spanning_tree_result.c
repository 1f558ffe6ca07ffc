/* Result output in three forms.  Numbers are printed with %.17g for doubles
 * that come from the simulation, so a CSV row round-trips exactly. */
#include "sim/drivers/spanning_tree_result.h"

#include <inttypes.h>
#include <string.h>

const char *const CS_TREE_CSV_HEADER =
    "algo,n,m,f,k,colors,seed,platform,model,sim_time_s,sim_time_alg_s,messages,messages_bracketed,"
    "bytes,bytes_bracketed,max_message_bytes,peak_mem_words_max,peak_mem_words_mean,height,min_height,"
    "verified,wall_s";

/* The platform is the only free-form text (a file name): quoted for CSV when
 * it holds a comma, a quote or a line break, escaped for JSON. */
static void put_csv_text(FILE *out, const char *s)
{
  if (strpbrk(s, ",\"\r\n") == NULL) {
    fputs(s, out);
    return;
  }
  fputc('"', out);
  for (; *s; s++) {
    if (*s == '"')
      fputc('"', out);
    fputc(*s, out);
  }
  fputc('"', out);
}

static void put_json_text(FILE *out, const char *s)
{
  fputc('"', out);
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\')
      fprintf(out, "\\%c", c);
    else if (c < 0x20)
      fprintf(out, "\\u%04x", c);
    else
      fputc(c, out);
  }
  fputc('"', out);
}

static const char *verified_word(int v) { return v > 0 ? "yes" : v == 0 ? "no" : "unchecked"; }

void cs_result_write_csv(FILE *out, const cs_tree_result *r)
{
  fprintf(out, "%s,%d,%" PRId64 ",%g,%d,%d,%" PRIu64 ",", r->algo, r->n, r->m, r->f, r->k, r->colors, r->seed);
  put_csv_text(out, r->platform);
  fprintf(out,
          ",%s,%.9g,%.9g,%" PRIu64 ",%" PRIu64 ",%" PRIu64
          ",%" PRIu64 ",%" PRIu64 ",%" PRId64 ",%.6f,%d,%d,%s,%.3f\n",
          r->model, r->sim_time_s,
          r->sim_time_alg_s, r->messages, r->messages_bracketed, r->bytes, r->bytes_bracketed,
          r->max_message_bytes, r->peak_mem_words_max, r->peak_mem_words_mean, r->height, r->min_height,
          verified_word(r->verified), r->wall_s);
}

void cs_result_write_json(FILE *out, const cs_tree_result *r)
{
  fprintf(out,
          "{\"algo\": \"%s\", \"n\": %d, \"m\": %" PRId64 ", \"f\": %g, \"k\": %d, \"colors\": %d, "
          "\"seed\": %" PRIu64 ", \"platform\": ",
          r->algo, r->n, r->m, r->f, r->k, r->colors, r->seed);
  put_json_text(out, r->platform);
  fprintf(out,
          ", \"model\": \"%s\", \"sim_time_s\": %.9g, "
          "\"sim_time_alg_s\": %.9g, \"messages\": %" PRIu64 ", \"messages_bracketed\": %" PRIu64
          ", \"bytes\": %" PRIu64 ", \"bytes_bracketed\": %" PRIu64 ", \"max_message_bytes\": %" PRIu64
          ", \"peak_mem_words_max\": %" PRId64 ", \"peak_mem_words_mean\": %.6f, \"height\": %d, "
          "\"min_height\": %d, \"verified\": %s, \"wall_s\": %.3f}\n",
          r->model, r->sim_time_s,
          r->sim_time_alg_s, r->messages, r->messages_bracketed, r->bytes, r->bytes_bracketed,
          r->max_message_bytes, r->peak_mem_words_max, r->peak_mem_words_mean, r->height, r->min_height,
          r->verified > 0 ? "true" : "false", r->wall_s);
}

void cs_result_write_table(FILE *out, const cs_tree_result *r)
{
  fprintf(out, "collsim tree: %s\n", r->algo);
  fprintf(out, "  platform            %s (network model %s)\n", r->platform, r->model);
  fprintf(out, "  parent group n      %d, k = %d, seed %" PRIu64 "\n", r->n, r->k, r->seed);
  if (r->f >= 0)
    fprintf(out, "  members m           %" PRId64 " (f = %g), colours %d\n", r->m, r->f, r->colors);
  else
    fprintf(out, "  members m           %" PRId64 " (from file), colours %d\n", r->m, r->colors);
  fprintf(out, "  simulated time      %.6f ms bracketed, %.6f ms algorithm alone\n", r->sim_time_s * 1e3,
          r->sim_time_alg_s * 1e3);
  fprintf(out, "  messages            %" PRIu64 " algorithm, %" PRIu64 " with bracket\n", r->messages,
          r->messages_bracketed);
  fprintf(out, "  bytes               %" PRIu64 " algorithm, %" PRIu64 " with bracket; largest message %" PRIu64
          " B\n", r->bytes, r->bytes_bracketed, r->max_message_bytes);
  fprintf(out, "  peak memory/process %" PRId64 " words max, %.2f words mean\n", r->peak_mem_words_max,
          r->peak_mem_words_mean);
  fprintf(out, "  tree height         %d (minimal %d)\n", r->height, r->min_height);
  fprintf(out, "  verified            %s\n", verified_word(r->verified));
  fprintf(out, "  wall time           %.2f s\n", r->wall_s);
}

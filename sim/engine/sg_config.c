/* The SimGrid engine's configuration defaults and the platform file's
 * first check, which need nothing of SimGrid: the collsim binary loads
 * SimGrid only when a run uses it (sg_lazy.c), and every run reads these.
 * The engine itself is sg_engine.c. */
#include "sim/engine/sg_engine.h"
#include "sim/contracts/errors.h"

#include <string.h>

void cs_engine_config_defaults(cs_engine_config *c)
{
  memset(c, 0, sizeof *c);
  c->cores = 4;
  c->o_send = 1.5e-6;
  c->o_recv = 1.5e-6;
  c->stack_kib = CS_DEFAULT_STACK_KIB;
  c->model = "LV08";
  c->crosstraffic = 0;
  c->semantics = CS_SEMANTICS_EAGER;
  c->mpi_detach_below = CS_MPI_DETACH_BELOW;
  c->fail_rank = -1;
}

/* ---- platform ---- */

static void precheck_start(GMarkupParseContext *ctx, const gchar *element, const gchar **names,
                           const gchar **values, gpointer user, GError **err)
{
  (void)names;
  (void)values;
  int *depth = user;
  if (*depth == 0 && strcmp(element, "platform") != 0) {
    int line, col;
    g_markup_parse_context_get_position(ctx, &line, &col);
    g_set_error(err, G_MARKUP_ERROR, G_MARKUP_ERROR_INVALID_CONTENT,
                "line %d: root element is <%s>, expected <platform>", line, element);
  }
  (*depth)++;
}

static void precheck_end(GMarkupParseContext *ctx, const gchar *element, gpointer user, GError **err)
{
  (void)ctx;
  (void)element;
  (void)err;
  (*(int *)user)--;
}

gboolean cs_xml_parse_file(const char *path, const GMarkupParser *parser, gpointer user, GError **err)
{
  gchar *text = NULL;
  gsize len = 0;
  GError *e = NULL;
  if (!g_file_get_contents(path, &text, &len, &e)) {
    g_set_error(err, CS_INPUT_ERROR, 1, "cannot read platform file: %s", e->message);
    g_error_free(e);
    return FALSE;
  }
  GMarkupParseContext *ctx = g_markup_parse_context_new(parser, G_MARKUP_IGNORE_QUALIFIED, user, NULL);
  gboolean ok = g_markup_parse_context_parse(ctx, text, (gssize)len, &e) &&
                g_markup_parse_context_end_parse(ctx, &e);
  if (!ok)
    g_set_error(err, CS_INPUT_ERROR, 1, "malformed platform XML %s: %s", path, e->message);
  g_clear_error(&e);
  g_markup_parse_context_free(ctx);
  g_free(text);
  return ok;
}

gboolean cs_platform_precheck(const char *path, GError **err)
{
  GMarkupParser parser = {precheck_start, precheck_end, NULL, NULL, NULL};
  int depth = 0;
  if (!cs_xml_parse_file(path, &parser, &depth, err))
    return FALSE;
  if (depth != 0) {
    g_set_error(err, CS_INPUT_ERROR, 1, "malformed platform XML %s: no <platform> element", path);
    return FALSE;
  }
  return TRUE;
}

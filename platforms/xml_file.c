/* A user's SimGrid XML file as a platform: the family "file".
 *
 *   file:PATH, or a path that exists or ends in .xml
 *
 * The file is used as it is (never rewritten).  Hosts are taken in natural
 * order of their names (node-2 before node-10) and rank r runs on host
 * r / cores (cores: --cores, default 4 as on the BG/P nodes of seed 000).
 * The node count is read from the file before SimGrid sees it: <host>
 * elements plus the radicals of <cluster> elements ("0-7,9" is 9 hosts);
 * SimGrid itself validates the file in a child process before the run
 * (sim/engine/sg_engine.c), because it aborts on a file it rejects.  Link
 * tiers come from each link's <prop id="tier" value=".."/>, "?" without
 * one.  The two-tier view is flat (one supernode of every host).
 */
#include "platforms/platform.h"
#include "sim/contracts/errors.h"
#include "sim/contracts/input_path.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct host_count {
  int64_t hosts;
  int depth;
  bool root_ok;
} host_count;

/* Hosts named by a cluster radical: "0-7,9,12-13". */
static int64_t radical_hosts(const char *radical)
{
  int64_t total = 0;
  char **parts = g_strsplit(radical, ",", -1);
  for (char **r = parts; *r; r++) {
    long long a, b;
    if (sscanf(*r, "%lld-%lld", &a, &b) == 2 && b >= a)
      total += b - a + 1;
    else if (sscanf(*r, "%lld", &a) == 1)
      total += 1;
  }
  g_strfreev(parts);
  return total;
}

static void on_start(GMarkupParseContext *ctx, const gchar *element, const gchar **names, const gchar **values,
                     gpointer user, GError **err)
{
  host_count *c = user;
  if (c->depth++ == 0 && strcmp(element, "platform") != 0) {
    int line, col;
    g_markup_parse_context_get_position(ctx, &line, &col);
    g_set_error(err, G_MARKUP_ERROR, G_MARKUP_ERROR_INVALID_CONTENT, "line %d: root element is <%s>, expected "
                "<platform>", line, element);
    return;
  }
  c->root_ok = true;
  if (strcmp(element, "host") == 0)
    c->hosts++;
  else if (strcmp(element, "cluster") == 0)
    for (int i = 0; names[i]; i++)
      if (strcmp(names[i], "radical") == 0)
        c->hosts += radical_hosts(values[i]);
}

static void on_end(GMarkupParseContext *ctx, const gchar *element, gpointer user, GError **err)
{
  (void)ctx;
  (void)element;
  (void)err;
  ((host_count *)user)->depth--;
}

static bool count_hosts(const char *path, int64_t *hosts, GError **err)
{
  gchar *text = NULL;
  gsize len = 0;
  GError *e = NULL;
  if (!cs_read_user_file(NULL, path, &text, &len, &e)) {
    g_set_error(err, CS_INPUT_ERROR, 1, "cannot read platform file: %s", e->message);
    g_error_free(e);
    return false;
  }
  host_count c = {0, 0, false};
  GMarkupParser parser = {on_start, on_end, NULL, NULL, NULL};
  GMarkupParseContext *ctx = g_markup_parse_context_new(&parser, G_MARKUP_IGNORE_QUALIFIED, &c, NULL);
  bool ok = g_markup_parse_context_parse(ctx, text, (gssize)len, &e) && g_markup_parse_context_end_parse(ctx, &e);
  g_markup_parse_context_free(ctx);
  g_free(text);
  if (!ok) {
    g_set_error(err, CS_INPUT_ERROR, 1, "malformed platform XML %s: %s", path, e->message);
    g_error_free(e);
    return false;
  }
  if (!c.root_ok || c.hosts == 0) {
    g_set_error(err, CS_INPUT_ERROR, 1, "platform file %s declares no host", path);
    return false;
  }
  *hosts = c.hosts;
  return true;
}

static bool file_parse(cs_platform *p, const char *path, GError **err)
{
  if (!*path) {
    g_set_error(err, CS_INPUT_ERROR, 1, "file: needs a path to a SimGrid XML file");
    return false;
  }
  if (access(path, R_OK) != 0) {
    g_set_error(err, CS_INPUT_ERROR, 1, "cannot read platform file %s: %s", path, g_strerror(errno));
    return false;
  }
  if (g_file_test(path, G_FILE_TEST_IS_DIR)) {
    g_set_error(err, CS_INPUT_ERROR, 1, "platform file %s is a folder", path);
    return false;
  }
  p->xml_path = g_strdup(path);
  p->user_file = true;
  p->cores = 4; /* as on BG/P; --cores says otherwise */
  return count_hosts(path, &p->nodes, err);
}

static char *file_describe(const cs_platform *p) { return g_strdup_printf("file:%s", p->xml_path); }

const cs_platform_family cs_platform_file = {
    .kind = "file",
    .synopsis = "file:PATH (or a path to an existing .xml file)",
    .description = "a SimGrid XML platform file, hosts in natural order of their names",
    .params = "none (ranks per host: --cores)",
    .parse = file_parse,
    .describe = file_describe,
};

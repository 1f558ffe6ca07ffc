/* A user's SimGrid XML file as a platform: the family "file".
 *
 *   file:PATH, or a path that exists or ends in .xml
 *
 * The file is used as it is (never rewritten).  Hosts are taken in natural
 * order of their names (node-2 before node-10) and rank r runs on host
 * r / cores (cores: --cores, default 4 as on the BG/P nodes of seed 000).
 * The file is read and checked before SimGrid sees it (platforms/
 * xml_validate.c: its XML, its values, and at resolve time the routes
 * between the hosts the run uses), which also gives the node count: <host>
 * and <peer> elements plus the radicals of <cluster> and <cabinet>
 * elements ("0-7,9" is 9 hosts).  SimGrid then loads the file in a child
 * process before the run (sim/engine/sg_engine.c), for what is left, because
 * it aborts on a file it rejects.  Links, routes, tiers and the hierarchy
 * come from collsim's own router of the file (platforms/xml_routes.c: no
 * SimGrid for the untimed path): tiers from each link's <prop id="tier"
 * value=".."/>, else its cluster zone, else the zones it joins, "?" where
 * the file says nothing; levels from the zones.  The two-tier view is the
 * hierarchy's projection (one supernode of every host unless the top level
 * is regular).
 */
#include "platforms/platform.h"
#include "platforms/xml_routes.h"
#include "platforms/xml_validate.h"
#include "sim/contracts/errors.h"
#include "sim/contracts/input_path.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Reads and checks the file (platforms/xml_validate.c) into p->data. */
static bool read_file(cs_platform *p, const char *path, GError **err)
{
  gchar *text = NULL;
  gsize len = 0;
  GError *e = NULL;
  if (!cs_read_user_file(NULL, path, &text, &len, &e)) {
    g_set_error(err, CS_INPUT_ERROR, 1, "cannot read platform file: %s", e->message);
    g_error_free(e);
    return false;
  }
  cs_xml_platform *x = cs_xml_platform_read(path, text, len, err);
  g_free(text);
  if (!x)
    return false;
  p->data = x;
  p->nodes = (int64_t)cs_xml_platform_host_count(x);
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
  return read_file(p, path, err);
}

/* The hosts n ranks land on (all of them for n = 0): ranks go in order,
 * `cores` a host (sim/engine/sg_engine.c), or one a host round-robin. */
static int64_t hosts_used(const cs_platform *p, int64_t n)
{
  if (n <= 0)
    return p->nodes;
  int64_t hosts = p->mapping == CS_MAP_SPREAD ? n : (n - 1) / (p->cores > 0 ? p->cores : 1) + 1;
  return hosts < p->nodes ? hosts : p->nodes;
}

/* Routes between the hosts the run uses (SimGrid aborts on a missing one). */
static bool file_resolve(cs_platform *p, int64_t n, GError **err)
{
  return cs_xml_platform_check_routes(p->data, (size_t)hosts_used(p, n), err);
}

static void file_free(void *data) { cs_xml_platform_free(data); }

static cs_netmap *file_netmap(const cs_platform *p, GError **err) { return cs_xml_routes_netmap(p->data, err); }

static void file_hierarchy(const cs_platform *p, cs_hierarchy *out)
{
  cs_xml_routes_hierarchy(p->data, p->cores, out);
}

static char *file_describe(const cs_platform *p) { return g_strdup_printf("file:%s", p->xml_path); }

const cs_platform_family cs_platform_file = {
    .kind = "file",
    .synopsis = "file:PATH (or a path to an existing .xml file)",
    .description = "a SimGrid XML platform file, hosts in natural order of their names",
    .params = "none (ranks per host: --cores)",
    .cores_option = true,
    .parse = file_parse,
    .resolve = file_resolve,
    .describe = file_describe,
    .hierarchy = file_hierarchy,
    .netmap = file_netmap,
    .free_data = file_free,
};

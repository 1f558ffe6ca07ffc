/* libFuzzer harness for the check of a user's SimGrid platform file,
 * platforms/xml_validate.h: cs_xml_platform_read and
 * cs_xml_platform_check_routes (what `--platform FILE.xml` runs before
 * SimGrid sees the file).
 *
 * The input is the file's text, bytes as they are (NUL bytes included).
 * Properties:
 *  - reading fails exactly when an error is set; errors are bad input
 *    (CS_INPUT_ERROR), one non-empty line starting "fuzz.xml: <" (the
 *    file and the element) or "fuzz.xml: malformed XML: ";
 *  - a file that reads has at least one host, the host names are distinct
 *    and in the engine's order (cs_natural_cmp never decreasing);
 *  - the route check fails exactly when an error is set, with one line
 *    "fuzz.xml: <host id=...>: no route to <host id=...> (...)"; it is
 *    deterministic (run twice: the same verdict and message) and monotonic
 *    (routes between all hosts imply routes between the first 2 and 3, a
 *    failure among the first 2 implies one among all); checking 0 or 1
 *    host always succeeds.
 *  - collsim's own router (platforms/xml_routes.h) either refuses the file
 *    with one line of bad input or builds a netmap whose routes among the
 *    first 12 hosts are deterministic, name only existing links, and
 *    whose links all have a tier; a file whose hosts all have
 *    routes (the check above) has a route of at least one link between
 *    every two of them.
 * Inputs with a number of 6 digits or more (100000 and up) just after the
 * word "radical" are skipped: a cluster of that many hosts is valid and
 * only costs time (up to 2^22 hosts: seconds). */
#include "platforms/xml_routes.h"
#include "platforms/xml_validate.h"
#include "sim/contracts/errors.h"
#include "sim/contracts/natural_order.h"

#include <glib.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FUZZ_NAME "fuzz_platform_xml"
#include "tests/fuzz/fuzz_common.h"

#define PATH "fuzz.xml"
/* Does some radical="..." of the text name many hosts (a number of 6
 * digits or more in the 64 bytes after the word)?  The text is not
 * NUL-terminated. */
static bool huge_radical(const char *text, size_t len)
{
  static const char word[] = "radical";
  for (size_t i = 0; i + sizeof word - 1 <= len; i++) {
    if (memcmp(text + i, word, sizeof word - 1) != 0)
      continue;
    size_t run = 0;
    for (size_t j = i + sizeof word - 1; j < len && j < i + 64; j++) {
      run = g_ascii_isdigit(text[j]) ? run + 1 : 0;
      if (run >= 6)
        return true;
    }
  }
  return false;
}

static void check_error_line(const char *what, const GError *err, const char *prefix)
{
  CHECK(err != NULL, "%s: failed without an error", what);
  CHECK(err->domain == CS_INPUT_ERROR, "%s: error not bad input: %s", what, err->message);
  CHECK(err->message[0] != '\0' && !strchr(err->message, '\n'), "%s: not one line: '%s'", what, err->message);
  CHECK(g_str_has_prefix(err->message, prefix), "%s: '%s' does not start with '%s'", what, err->message, prefix);
}

static void check_hosts(const cs_xml_platform *x)
{
  size_t n = cs_xml_platform_host_count(x);
  CHECK(n >= 1, "a platform that reads has no host");
  GHashTable *seen = g_hash_table_new(g_str_hash, g_str_equal);
  for (size_t i = 0; i < n; i++) {
    const char *h = cs_xml_platform_host(x, i);
    CHECK(g_hash_table_add(seen, (gpointer)h), "host '%s' twice", h);
    CHECK(i == 0 || cs_natural_cmp(cs_xml_platform_host(x, i - 1), h) <= 0, "hosts out of order: '%s' before '%s'",
          cs_xml_platform_host(x, i - 1), h);
  }
  g_hash_table_destroy(seen);
}

/* The route check among the first `used` hosts; *message: its error (g_free it). */
static bool routes(cs_xml_platform *x, size_t used, char **message)
{
  GError *err = NULL;
  bool ok = cs_xml_platform_check_routes(x, used, &err);
  CHECK(ok == (err == NULL), "check_routes(%zu) returned %d with error %s", used, ok, err ? err->message : "(none)");
  if (!ok) {
    check_error_line("check_routes", err, PATH ": <host id=\"");
    CHECK(strstr(err->message, ">: no route to <host id=\""), "'%s' names no pair", err->message);
  }
  *message = ok ? NULL : g_strdup(err->message);
  g_clear_error(&err);
  return ok;
}

static void check_routes(cs_xml_platform *x)
{
  char *m_all = NULL, *m_again = NULL, *m = NULL;
  bool all = routes(x, SIZE_MAX, &m_all);
  bool again = routes(x, SIZE_MAX, &m_again);
  CHECK(all == again && g_strcmp0(m_all, m_again) == 0, "not deterministic: '%s' then '%s'", m_all, m_again);
  for (size_t used = 0; used <= 3; used++) {
    bool ok = routes(x, used, &m);
    CHECK(used >= 2 || ok, "check_routes(%zu) failed: %s", used, m);
    CHECK(!all || ok, "routes among all hosts but not among the first %zu: %s", used, m);
    g_clear_pointer(&m, g_free);
  }
  g_free(m_all);
  g_free(m_again);
}

#define ROUTED_HOSTS 12

static void check_route(const cs_netmap *m, cs_route_buf *buf, int64_t a, int64_t b, bool connected)
{
  const int32_t *l;
  int n = cs_netmap_route(m, buf, a, b, &l);
  CHECK(n >= -1, "route %lld -> %lld: %d links", (long long)a, (long long)b, n);
  /* a host's route to itself may be missing (SimGrid crashes on it in a
   * Dijkstra zone whose routes do not name the host): only a != b counts */
  CHECK(!connected || a == b || n >= 1, "route %lld -> %lld: %d links although the hosts are connected",
        (long long)a, (long long)b, n);
  int32_t *first = n > 0 ? g_memdup2(l, sizeof *l * (size_t)n) : NULL;
  for (int i = 0; i < n; i++)
    CHECK(l[i] >= 0 && l[i] < m->nlinks, "route %lld -> %lld: link id %d of %lld", (long long)a, (long long)b, l[i],
          (long long)m->nlinks);
  int again = cs_netmap_route(m, buf, a, b, &l);
  CHECK(again == n && (n <= 0 || memcmp(first, l, sizeof *l * (size_t)n) == 0), "route %lld -> %lld not the same twice",
        (long long)a, (long long)b);
  g_free(first);
}

static void check_router(const cs_xml_platform *x, bool connected)
{
  GError *err = NULL;
  cs_netmap *m = cs_xml_routes_netmap(x, &err);
  CHECK((m == NULL) == (err != NULL), "netmap %p with error %s", (void *)m, err ? err->message : "(none)");
  if (!m) {
    check_error_line("netmap", err, PATH ": ");
    g_error_free(err);
    return;
  }
  for (int64_t l = 0; l < m->nlinks && l < 256; l++) { /* a name ("" if the file says id=""), a tier */
    char *name = cs_netmap_link_name(m, l);
    CHECK(cs_netmap_link_tier(m, l)[0] != '\0', "link '%s' has no tier", name);
    g_free(name);
  }
  int64_t hosts = m->nodes < ROUTED_HOSTS ? m->nodes : ROUTED_HOSTS;
  cs_route_buf buf = {0};
  for (int64_t a = 0; a < hosts; a++)
    for (int64_t b = 0; b < hosts; b++)
      check_route(m, &buf, a, b, connected);
  cs_route_buf_clear(&buf);
  cs_netmap_free(m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  const char *text = (const char *)data;
  if (huge_radical(text, size))
    return 0;
  GError *err = NULL;
  cs_xml_platform *x = cs_xml_platform_read(PATH, text, size, &err);
  CHECK((x == NULL) == (err != NULL), "read returned %p with error %s", (void *)x, err ? err->message : "(none)");
  if (!x) {
    check_error_line("read", err, PATH ": ");
    CHECK(g_str_has_prefix(err->message, PATH ": <") || g_str_has_prefix(err->message, PATH ": malformed XML: "),
          "'%s' names no element", err->message);
    g_error_free(err);
    return 0;
  }
  check_hosts(x);
  check_routes(x);
  GError *e = NULL;
  bool connected = cs_xml_platform_check_routes(x, ROUTED_HOSTS, &e);
  g_clear_error(&e);
  check_router(x, connected);
  cs_xml_platform_free(x);
  return 0;
}

/* The platform interface (platform.h): parsing a spec through the registry,
 * resolving, describing, the rank mapping, the two-tier view, and writing
 * the XML, with the checks every family shares. */
#include "platforms/platform.h"
#include "platforms/xml_validate.h"
#include "sim/contracts/errors.h"
#include "sim/contracts/tempdir.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Platforms larger than this are refused before anything is written: the
 * XML alone would take gigabytes and SimGrid minutes to load (percs at
 * 8,192 nodes: 77 MB of XML, 2.5 s to load). */
#define MAX_XML_BYTES ((int64_t)1 << 31)
#define MAX_LINKS ((int64_t)1 << 26)
#define MAX_NODES ((int64_t)1 << 22)

/* ---- spec helpers ---- */

void cs_spec_split(const char *args, char **shape, char **params)
{
  const char *slash = strchr(args, '/');
  *shape = slash ? g_strndup(args, (gsize)(slash - args)) : g_strdup(args);
  *params = slash ? g_strdup(slash + 1) : NULL;
}

void cs_spec_append_param(GString *s, char *sep, const char *key, double value, double def, cs_quantity q)
{
  if (value == def)
    return;
  g_string_append_printf(s, "%c%s=", *sep, key);
  cs_format_quantity(s, value, q);
  *sep = ',';
}

bool cs_spec_parse(cs_platform *p, const char *kind, const char *args, cs_spec_shape_fn shape, cs_spec_param_fn param,
                   GError **err)
{
  char *text, *params;
  cs_spec_split(args, &text, &params);
  bool ok = shape(p, text, err);
  cs_spec_item *items = ok && params ? cs_spec_items(kind, params, err) : NULL;
  if (ok && params && !items)
    ok = false;
  for (cs_spec_item *it = items; ok && it && it->key; it++)
    ok = param(p, it, err);
  cs_spec_items_free(items);
  g_free(text);
  g_free(params);
  return ok;
}

void cs_spec_items_free(cs_spec_item *items)
{
  for (cs_spec_item *it = items; it && it->key; it++) {
    g_free(it->key);
    g_free(it->value);
  }
  g_free(items);
}

cs_spec_item *cs_spec_items(const char *kind, const char *text, GError **err)
{
  if (!text || !*text) {
    cs_input_error(err, "%s: empty parameter list after '/' (e.g. /lat=100ns)", kind);
    return NULL;
  }
  char **parts = g_strsplit(text, ",", -1);
  guint n = g_strv_length(parts);
  cs_spec_item *items = g_new0(cs_spec_item, n + 1);
  bool ok = true;
  for (guint i = 0; ok && i < n; i++) {
    char *eq = strchr(parts[i], '=');
    if (!*parts[i] || eq == parts[i]) {
      ok = cs_input_error(err, "%s: parameter '%s' is not key=value", kind, parts[i]);
      break;
    }
    items[i].key = eq ? g_strndup(parts[i], (gsize)(eq - parts[i])) : g_strdup(parts[i]);
    items[i].value = eq ? g_strdup(eq + 1) : NULL;
    if (eq && !eq[1])
      ok = cs_input_error(err, "%s: parameter %s has no value", kind, items[i].key);
    for (guint j = 0; ok && j < i; j++)
      if (items[j].value && eq && strcmp(items[j].key, items[i].key) == 0)
        ok = cs_input_error(err, "%s: parameter '%s' given twice", kind, items[i].key);
  }
  g_strfreev(parts);
  if (!ok) {
    cs_spec_items_free(items);
    return NULL;
  }
  return items;
}

static bool parse_count(const char *kind, const char *name, const char *text, int64_t *out, GError **err)
{
  if (!*text)
    return cs_input_error(err, "%s: %s is missing (empty field)", kind, name);
  for (const char *c = text; *c; c++)
    if (!g_ascii_isdigit(*c))
      return cs_input_error(err, "%s: %s = '%s' is not a positive integer", kind, name, text);
  errno = 0;
  long long v = strtoll(text, NULL, 10);
  if (errno == ERANGE || v > INT32_MAX)
    return cs_input_error(err, "%s: %s = %s is too large (at most 2^31-1)", kind, name, text);
  if (v == 0)
    return cs_input_error(err, "%s: %s must be at least 1", kind, name);
  *out = v;
  return true;
}

bool cs_spec_counts(const char *kind, const char *text, char sep, const char *const *names, int min, int max,
                    int64_t *v, GError **err)
{
  char seps[2] = {sep, 0};
  char **f = g_strsplit(text, seps, -1);
  int n = (int)g_strv_length(f);
  bool ok = n >= min && n <= max;
  if (!ok) {
    GString *want = g_string_new(NULL);
    for (int i = 0; i < max; i++)
      g_string_append_printf(want, "%s%s%s", i ? seps : "", i == min ? "[" : "", names[i]);
    if (max > min)
      g_string_append(want, "]");
    cs_input_error(err, "%s needs %s (%s), got %d field%s in '%s'", kind, want->str,
               n < min ? "missing fields" : "extra fields", n, n == 1 ? "" : "s", text);
    g_string_free(want, TRUE);
  }
  for (int i = 0; ok && i < n; i++)
    ok = parse_count(kind, names[i], f[i], &v[i], err);
  g_strfreev(f);
  return ok;
}

/* ---- parsing ---- */

static bool looks_like_path(const char *spec)
{
  return g_str_has_prefix(spec, "file:") || g_str_has_suffix(spec, ".xml") || strchr(spec, '/') == spec ||
         g_str_has_prefix(spec, "./") || g_str_has_prefix(spec, "../") || g_file_test(spec, G_FILE_TEST_EXISTS);
}

static char *known_kinds(void)
{
  GString *s = g_string_new(NULL);
  for (size_t i = 0; i < cs_platform_family_count(); i++)
    g_string_append_printf(s, "%s%s", i ? ", " : "", cs_platform_family_at(i)->kind);
  return g_string_free(s, FALSE);
}

static cs_platform *platform_new(const cs_platform_family *f)
{
  cs_platform *p = g_new0(cs_platform, 1);
  p->family = f;
  p->o_send = p->o_recv = NAN;
  p->mapping = CS_MAP_IN_ORDER;
  p->cores = 1;
  p->cpu = "unspecified processor";
  p->link_bw = NAN;
  return p;
}

cs_platform *cs_platform_parse(const char *spec, GError **err)
{
  if (!spec || !*spec) {
    cs_input_error(err, "empty platform spec (e.g. torus:8x8x16/4, percs:64,16,16, smp:4w, or a SimGrid XML file)");
    return NULL;
  }
  const char *colon = strchr(spec, ':');
  char *kind = colon ? g_strndup(spec, (gsize)(colon - spec)) : NULL;
  const cs_platform_family *f = kind ? cs_platform_family_find(kind) : NULL;
  const char *args = colon ? colon + 1 : spec;
  if (!f && looks_like_path(spec)) {
    f = cs_platform_family_find("file");
    args = g_str_has_prefix(spec, "file:") ? spec + 5 : spec;
  }
  if (!f) {
    char *known = known_kinds();
    if (kind)
      cs_input_error(err, "unknown platform kind '%s' in '%s' (known: %s, or a SimGrid XML file)", kind, spec, known);
    else
      cs_input_error(err, "platform '%s' is neither KIND:ARGS (%s) nor an existing XML file", spec, known);
    g_free(known);
    g_free(kind);
    return NULL;
  }
  g_free(kind);
  cs_platform *p = platform_new(f);
  if (!f->parse(p, args, err)) {
    cs_platform_free(p);
    return NULL;
  }
  return p;
}

void cs_platform_free(cs_platform *p)
{
  if (!p)
    return;
  if (p->family->free_data && p->data)
    p->family->free_data(p->data);
  g_free(p->xml_path);
  g_free(p->label);
  g_free(p);
}

bool cs_platform_resolved(const cs_platform *p) { return p->nodes > 0; }

int64_t cs_platform_slots(const cs_platform *p) { return p->nodes * p->cores; }

bool cs_platform_resolve(cs_platform *p, int64_t n, GError **err)
{
  if (p->family->resolve && !p->family->resolve(p, n, err))
    return false;
  if (p->nodes > MAX_NODES) {
    char *d = cs_platform_describe(p);
    cs_input_error(err, "%s has %lld nodes: too many to simulate here (at most %lld)", d, (long long)p->nodes,
               (long long)MAX_NODES);
    g_free(d);
    return false;
  }
  if (n > cs_platform_slots(p)) {
    char *d = cs_platform_describe(p);
    cs_input_error(err, "n = %lld is larger than the platform: %s has %lld nodes x %d cores = %lld", (long long)n, d,
               (long long)p->nodes, p->cores, (long long)cs_platform_slots(p));
    g_free(d);
    return false;
  }
  return true;
}

char *cs_platform_describe(const cs_platform *p) { return p->family->describe(p); }

char *cs_platform_label(const cs_platform *p) { return p->label ? g_strdup(p->label) : cs_platform_describe(p); }

int64_t cs_platform_node_of(const cs_platform *p, int64_t rank)
{
  return p->mapping == CS_MAP_SPREAD ? rank % p->nodes : rank / p->cores;
}

int *cs_platform_host_map(const cs_platform *p, int64_t n)
{
  int *host = g_new(int, n > 0 ? n : 1);
  for (int64_t r = 0; r < n; r++)
    host[r] = (int)cs_platform_node_of(p, r);
  return host;
}

/* ---- the hierarchy and its two-tier projection ---- */

void cs_platform_two_tier(const cs_platform *p, cs_two_tier *out)
{
  cs_hierarchy h;
  cs_platform_hierarchy(p, &h);
  cs_hier_two_tier(&h, out);
}

char *cs_platform_host_name(const cs_platform *p, int64_t g)
{
  if (p->user_file && p->data && g >= 0 && (size_t)g < cs_xml_platform_host_count(p->data))
    return g_strdup(cs_xml_platform_host(p->data, (size_t)g));
  return g_strdup_printf("node-%lld", (long long)g);
}

void cs_platform_hierarchy(const cs_platform *p, cs_hierarchy *out)
{
  if (p->family->hierarchy)
    p->family->hierarchy(p, out);
  else
    cs_hier_flat(out, p->nodes, p->cores, "?");
  out->spread = p->mapping == CS_MAP_SPREAD;
}

cs_netmap *cs_platform_netmap(const cs_platform *p, GError **err)
{
  if (!p->family->netmap) {
    char *d = cs_platform_describe(p);
    cs_input_error(err, "platform %s has no route table of its own yet", d);
    g_free(d);
    return NULL;
  }
  return p->family->netmap(p, err);
}

/* ---- XML ---- */

bool cs_platform_check_size(const cs_platform *p, GError **err)
{
  if (!p->family->estimate)
    return true;
  int64_t links = 0, bytes = 0;
  p->family->estimate(p, &links, &bytes);
  if (links <= MAX_LINKS && bytes <= MAX_XML_BYTES)
    return true;
  char *d = cs_platform_describe(p);
  cs_input_error(err, "%s has %lld links (%.1f GB of XML): too large for a SimGrid platform here (at most %lld links, "
             "%.0f GB)", d, (long long)links, (double)bytes / 1e9, (long long)MAX_LINKS, (double)MAX_XML_BYTES / 1e9);
  g_free(d);
  return false;
}

/* Write p's XML into the open file f (buffered by 1 MiB). */
static bool write_into(const cs_platform *p, FILE *f, int *saved)
{
  char *buf = g_malloc(1 << 20);
  setvbuf(f, buf, _IOFBF, 1 << 20);
  errno = 0;
  bool ok = p->family->write_xml(p, f);
  *saved = !ok || ferror(f) ? (errno ? errno : EIO) : 0;
  if (fclose(f) != 0 && !*saved)
    *saved = errno ? errno : EIO;
  g_free(buf);
  return *saved == 0;
}

static bool ready_to_write(const cs_platform *p, GError **err)
{
  if (!cs_platform_resolved(p))
    return cs_input_error(err, "internal error: platform written before its shape is known");
  if (!p->family->write_xml)
    return cs_input_error(err, "a %s platform is a file already; it is not written", p->family->kind);
  return cs_platform_check_size(p, err);
}

bool cs_platform_write_file(const cs_platform *p, const char *path, GError **err)
{
  if (!ready_to_write(p, err))
    return false;
  char *dir = g_path_get_dirname(path), *base = g_path_get_basename(path);
  char *tmp = g_strdup_printf("%s/.%s.XXXXXX", dir, base);
  g_free(dir);
  g_free(base);
  int fd = g_mkstemp(tmp);
  FILE *f = fd < 0 ? NULL : fdopen(fd, "w");
  if (!f) {
    g_set_error(err, CS_INPUT_ERROR, 1, "cannot write %s: %s", path, g_strerror(errno));
    if (fd >= 0) {
      close(fd);
      g_unlink(tmp);
    }
    g_free(tmp);
    return false;
  }
  mode_t mask = umask(0);
  umask(mask);
  fchmod(fd, 0666 & ~mask);
  int saved;
  bool ok = write_into(p, f, &saved) && rename(tmp, path) == 0;
  if (!ok) {
    g_set_error(err, CS_INPUT_ERROR, 1, "cannot write %s: %s", path, g_strerror(saved ? saved : errno));
    g_unlink(tmp);
  }
  g_free(tmp);
  return ok;
}

bool cs_platform_write_temp(const cs_platform *p, char **path_out, GError **err)
{
  *path_out = NULL;
  if (!ready_to_write(p, err))
    return false;
  char *path = cs_tempfile(p->family->kind, ".xml", err);
  if (!path)
    return false;
  FILE *f = fopen(path, "w");
  int saved = errno;
  if (!f || !write_into(p, f, &saved)) {
    g_set_error(err, CS_INTERNAL_ERROR, 1, "cannot write the platform file %s: %s", path, g_strerror(saved));
    cs_tempfile_remove(path);
    g_free(path);
    return false;
  }
  *path_out = path;
  return true;
}

bool cs_platform_xml_for_run(const cs_platform *p, char **path_out, bool *is_temp, GError **err)
{
  if (p->xml_path) {
    *path_out = g_strdup(p->xml_path);
    *is_temp = false;
    return true;
  }
  *is_temp = true;
  return cs_platform_write_temp(p, path_out, err);
}

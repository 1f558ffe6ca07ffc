/* Experiment YAML parser (libyaml document API).  See experiment.h for the
 * schema and the point order. */
#include "sim/sweep/experiment.h"
#include "sim/contracts/formula.h"
#include "sim/drivers/run_config.h"
#include "sim/contracts/input_path.h"
#include "sim/contracts/yaml_util.h"

#include "algorithms/spanning_trees/tree_algo.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

G_DEFINE_QUARK(cs-experiment-error-quark, cs_experiment_error)

#define MAX_POINTS 1000000

typedef struct parse_ctx {
  const char *path;
  yaml_document_t *doc;
  GError **err;
  const yaml_node_t *extra_args; /* the extra_args node, when given */
  const cs_experiment_host *host; /* the subcommands and their output options (may be NULL) */
  const char *command;           /* the command, once known */
  char **outputs;                /* its output options, once known */
} parse_ctx;

G_GNUC_PRINTF(4, 5)
static gboolean fail(parse_ctx *c, const yaml_node_t *node, const char *key, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  char *what = g_strdup_vprintf(fmt, ap);
  va_end(ap);
  g_strdelimit(what, "\r\n\t", ' '); /* one line, whatever values the file holds */
  char *flat_key = key ? g_strdelimit(g_strdup(key), "\r\n\t", ' ') : NULL;
  if (key)
    g_set_error(c->err, CS_EXPERIMENT_ERROR, 1, "%s:%d: key '%s': %s", c->path, cs_yaml_line(node), flat_key, what);
  else
    g_set_error(c->err, CS_EXPERIMENT_ERROR, 1, "%s:%d: %s", c->path, cs_yaml_line(node), what);
  g_free(flat_key);
  g_free(what);
  return FALSE;
}

static gboolean is_null(const yaml_node_t *node)
{
  if (node->type != YAML_SCALAR_NODE || node->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
    return FALSE;
  const char *s = cs_yaml_scalar(node);
  return s[0] == '\0' || strcmp(s, "~") == 0 || strcmp(s, "null") == 0 || strcmp(s, "Null") == 0 ||
         strcmp(s, "NULL") == 0;
}

/* ---- scalars ---- */

static gboolean get_string(parse_ctx *c, const yaml_node_t *node, const char *key, gboolean allow_empty,
                           char **out)
{
  if (node->type != YAML_SCALAR_NODE)
    return fail(c, node, key, "expected a string, found %s", cs_yaml_type_name(node));
  if (is_null(node)) {
    if (!allow_empty)
      return fail(c, node, key, "expected a non-empty string");
    *out = g_strdup("");
    return TRUE;
  }
  *out = g_strdup(cs_yaml_scalar(node));
  return TRUE;
}

static gboolean plain_number(parse_ctx *c, const yaml_node_t *node, const char *key, const char *kind)
{
  if (node->type != YAML_SCALAR_NODE)
    return fail(c, node, key, "expected %s, found %s", kind, cs_yaml_type_name(node));
  if (node->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
    return fail(c, node, key, "expected %s, found the quoted string \"%s\"", kind, cs_yaml_scalar(node));
  if (is_null(node))
    return fail(c, node, key, "expected %s, found an empty value", kind);
  return TRUE;
}

static gboolean get_int(parse_ctx *c, const yaml_node_t *node, const char *key, long min, const char *rule,
                        int *out)
{
  if (!plain_number(c, node, key, "an integer"))
    return FALSE;
  const char *s = cs_yaml_scalar(node);
  char *end;
  errno = 0;
  long long v = strtoll(s, &end, 10);
  if (end == s || *end != '\0')
    return fail(c, node, key, "'%s' is not an integer", s);
  if (errno == ERANGE || v > G_MAXINT || v < G_MININT)
    return fail(c, node, key, "%s is out of range", s);
  if (v < min)
    return fail(c, node, key, "%s is invalid: %s", s, rule);
  *out = (int)v;
  return TRUE;
}

static gboolean get_u64(parse_ctx *c, const yaml_node_t *node, const char *key, uint64_t *out)
{
  if (!plain_number(c, node, key, "an integer"))
    return FALSE;
  const char *s = cs_yaml_scalar(node);
  if (s[0] == '-')
    return fail(c, node, key, "%s is invalid: seeds are integers >= 0", s);
  char *end;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 10);
  if (end == s || *end != '\0')
    return fail(c, node, key, "'%s' is not an integer", s);
  if (errno == ERANGE)
    return fail(c, node, key, "%s is out of range (64 bits)", s);
  *out = (uint64_t)v;
  return TRUE;
}

static gboolean get_fraction(parse_ctx *c, const yaml_node_t *node, const char *key, double *out)
{
  if (!plain_number(c, node, key, "a number"))
    return FALSE;
  const char *s = cs_yaml_scalar(node);
  char *end;
  errno = 0;
  double v = strtod(s, &end);
  if (end == s || *end != '\0' || !isfinite(v))
    return fail(c, node, key, "'%s' is not a number", s);
  if (v < 0.0 || v > 1.0)
    return fail(c, node, key, "%s is outside [0, 1] (f is the fraction of processes that join)", s);
  *out = v;
  return TRUE;
}

/* ---- lists ---- */

typedef enum { LIST_INT, LIST_U64, LIST_FRACTION, LIST_ALGO, LIST_STRING } list_kind;

typedef struct list_spec {
  list_kind kind;
  long min;         /* LIST_INT */
  const char *rule; /* LIST_INT: the rule violated below min */
  gboolean unique;
} list_spec;

static gboolean algo_name_ok(parse_ctx *c, const yaml_node_t *node, const char *key, const char *name)
{
  if (cs_tree_algo_find(name))
    return TRUE;
  GString *known = g_string_new(NULL);
  for (int i = 0; i < cs_tree_algo_count; i++)
    g_string_append_printf(known, "%s%s", i ? ", " : "", cs_tree_algos[i].name);
  fail(c, node, key, "unknown algorithm '%s' (known: %s)", name, known->str);
  g_string_free(known, TRUE);
  return FALSE;
}

/* Fills `out`: a GArray of int / uint64_t / double, or a GPtrArray of char *. */
static gboolean get_list(parse_ctx *c, const yaml_node_t *node, const char *key, const list_spec *spec,
                         gpointer out)
{
  if (node->type != YAML_SEQUENCE_NODE)
    return fail(c, node, key, "expected a list (e.g. [1, 2]), found %s", cs_yaml_type_name(node));
  yaml_node_item_t *start = node->data.sequence.items.start, *top = node->data.sequence.items.top;
  if (start == top)
    return fail(c, node, key, "the list is empty");
  for (yaml_node_item_t *it = start; it < top; it++) {
    yaml_node_t *item = yaml_document_get_node(c->doc, *it);
    switch (spec->kind) {
    case LIST_INT: {
      int v;
      if (!get_int(c, item, key, spec->min, spec->rule, &v))
        return FALSE;
      GArray *a = out;
      for (guint j = 0; spec->unique && j < a->len; j++)
        if (g_array_index(a, int, j) == v)
          return fail(c, item, key, "%d appears twice", v);
      g_array_append_val(a, v);
      break;
    }
    case LIST_U64: {
      uint64_t v;
      if (!get_u64(c, item, key, &v))
        return FALSE;
      GArray *a = out;
      for (guint j = 0; spec->unique && j < a->len; j++)
        if (g_array_index(a, uint64_t, j) == v)
          return fail(c, item, key, "%s appears twice", cs_yaml_scalar(item));
      g_array_append_val(a, v);
      break;
    }
    case LIST_FRACTION: {
      double v;
      if (!get_fraction(c, item, key, &v))
        return FALSE;
      GArray *a = out;
      for (guint j = 0; spec->unique && j < a->len; j++)
        if (cs_same_fraction(g_array_index(a, double, j), v))
          return fail(c, item, key,
                      "%s appears twice (collsim prints f with 6 significant digits, so values that close "
                      "are one point)",
                      cs_yaml_scalar(item));
      g_array_append_val(a, v);
      break;
    }
    case LIST_ALGO:
    case LIST_STRING: {
      char *s = NULL;
      if (!get_string(c, item, key, spec->kind == LIST_STRING, &s))
        return FALSE;
      GPtrArray *a = out;
      if (spec->kind == LIST_ALGO && !algo_name_ok(c, item, key, s)) {
        g_free(s);
        return FALSE;
      }
      for (guint j = 0; spec->unique && j < a->len; j++)
        if (strcmp(g_ptr_array_index(a, j), s) == 0) {
          fail(c, item, key, "'%s' appears twice", s);
          g_free(s);
          return FALSE;
        }
      g_ptr_array_add(a, s);
      break;
    }
    }
  }
  return TRUE;
}

static const list_spec SPEC_ALGOS = {LIST_ALGO, 0, NULL, TRUE};
static const list_spec SPEC_N = {LIST_INT, 1, "n is a process count >= 1", TRUE};
static const list_spec SPEC_F = {LIST_FRACTION, 0, NULL, TRUE};
static const list_spec SPEC_K = {LIST_INT, 2, "k is a tree degree >= 2", TRUE};
static const list_spec SPEC_COLORS = {LIST_INT, 1, "colors must be >= 1", TRUE};
static const list_spec SPEC_SEEDS = {LIST_U64, 0, NULL, TRUE};
static const list_spec SPEC_ARGS = {LIST_STRING, 0, NULL, FALSE};

/* ---- mappings ---- */

typedef struct map_iter {
  parse_ctx *c;
  const yaml_node_t *map;
  yaml_node_pair_t *pair;
  GHashTable *seen;
} map_iter;

static gboolean map_begin(parse_ctx *c, const yaml_node_t *node, const char *key, const char *what,
                          map_iter *it)
{
  memset(it, 0, sizeof *it);
  if (node->type != YAML_MAPPING_NODE)
    return fail(c, node, key, "expected %s, found %s", what, cs_yaml_type_name(node));
  it->c = c;
  it->map = node;
  it->pair = node->data.mapping.pairs.start;
  it->seen = g_hash_table_new(g_str_hash, g_str_equal);
  return TRUE;
}

static void map_end(map_iter *it)
{
  if (it->seen)
    g_hash_table_destroy(it->seen);
  it->seen = NULL;
}

/* Next (key, value); returns 0 at the end, -1 on error (non-scalar or repeated key). */
static int map_next(map_iter *it, const char *parent, const char **key, yaml_node_t **knode,
                    yaml_node_t **value)
{
  if (it->pair >= it->map->data.mapping.pairs.top)
    return 0;
  yaml_node_t *k = yaml_document_get_node(it->c->doc, it->pair->key);
  yaml_node_t *v = yaml_document_get_node(it->c->doc, it->pair->value);
  it->pair++;
  if (k->type != YAML_SCALAR_NODE) {
    fail(it->c, k, parent, "keys must be plain words, found %s", cs_yaml_type_name(k));
    return -1;
  }
  if (g_hash_table_contains(it->seen, cs_yaml_scalar(k))) {
    fail(it->c, k, cs_yaml_scalar(k), "appears twice%s%s", parent ? " in " : "", parent ? parent : "");
    return -1;
  }
  g_hash_table_add(it->seen, (gpointer)cs_yaml_scalar(k));
  *key = cs_yaml_scalar(k);
  *knode = k;
  *value = v;
  return 1;
}

/* ---- platform ---- */

static gboolean torus_ok(const char *s)
{
  if (strcmp(s, "auto") == 0)
    return TRUE;
  const char *p = s;
  for (int d = 0; d < 3; d++) {
    if (!g_ascii_isdigit(*p) || *p == '0')
      return FALSE;
    char *end;
    errno = 0;
    long v = strtol(p, &end, 10);
    if (errno || v < 2 || v > 1 << 20) /* collsim wants every dimension >= 2 */
      return FALSE;
    p = end;
    if (d < 2) {
      if (*p != 'x')
        return FALSE;
      p++;
    }
  }
  return *p == '\0';
}

static gboolean parse_platform(parse_ctx *c, const yaml_node_t *node, cs_experiment *e)
{
  map_iter it;
  if (!map_begin(c, node, "platform", "a mapping such as {torus: auto, cores: 4}", &it))
    return FALSE;
  const char *key;
  yaml_node_t *knode, *v;
  int r;
  const yaml_node_t *torus_node = NULL, *file_node = NULL;
  while ((r = map_next(&it, "platform", &key, &knode, &v)) > 0) {
    if (strcmp(key, "torus") == 0) {
      torus_node = knode;
      if (file_node) {
        fail(c, knode, "platform.torus", "give either torus or file, not both");
        goto out;
      }
      if (!get_string(c, v, "platform.torus", FALSE, &e->torus))
        goto out;
      if (!torus_ok(e->torus)) {
        fail(c, v, "platform.torus", "'%s' is neither 'auto' nor XxYxZ with every dimension >= 2 (e.g. 8x8x16)", cs_yaml_scalar(v));
        goto out;
      }
    } else if (strcmp(key, "cores") == 0) {
      if (!get_int(c, v, "platform.cores", 1, "cores per node must be >= 1", &e->cores))
        goto out;
    } else if (strcmp(key, "file") == 0) {
      file_node = knode;
      if (torus_node) {
        fail(c, knode, "platform.file", "give either torus or file, not both");
        goto out;
      }
      char *file = NULL;
      if (!get_string(c, v, "platform.file", FALSE, &file))
        goto out;
      if (g_path_is_absolute(file)) {
        e->platform_file = file;
      } else {
        char *dir = g_path_get_dirname(c->path);
        e->platform_file = strcmp(dir, ".") == 0 ? g_strdup(file) : g_build_filename(dir, file, NULL);
        g_free(dir);
        g_free(file);
      }
      if (!g_file_test(e->platform_file, G_FILE_TEST_IS_REGULAR)) {
        fail(c, v, "platform.file", "no such file: %s (relative paths start at the experiment's folder)",
             e->platform_file);
        goto out;
      }
    } else {
      fail(c, knode, key, "unknown key in platform (known: torus, cores, file)");
      goto out;
    }
  }
  if (r < 0)
    goto out;
  if (torus_node && file_node) {
    fail(c, file_node, "platform.file", "give either torus or file, not both");
    goto out;
  }
  if (!torus_node && !file_node)
    e->torus = g_strdup("auto");
  map_end(&it);
  return TRUE;
out:
  map_end(&it);
  return FALSE;
}

/* ---- exclusion rules ---- */

typedef struct exclude_rule {
  GPtrArray *algorithms;
  GArray *n, *f, *k, *colors, *seeds;
} exclude_rule;

static void exclude_rule_free(gpointer p)
{
  exclude_rule *r = p;
  if (r->algorithms)
    g_ptr_array_unref(r->algorithms);
  GArray **arrays[] = {&r->n, &r->f, &r->k, &r->colors, &r->seeds};
  for (size_t i = 0; i < G_N_ELEMENTS(arrays); i++)
    if (*arrays[i])
      g_array_unref(*arrays[i]);
  g_free(r);
}

static gboolean parse_exclude(parse_ctx *c, const yaml_node_t *node, GPtrArray *rules)
{
  if (node->type != YAML_SEQUENCE_NODE)
    return fail(c, node, "exclude", "expected a list of rules such as [{algorithms: [comm-split], n: [65536]}], "
                "found %s", cs_yaml_type_name(node));
  for (yaml_node_item_t *it = node->data.sequence.items.start; it < node->data.sequence.items.top; it++) {
    yaml_node_t *rn = yaml_document_get_node(c->doc, *it);
    exclude_rule *rule = g_new0(exclude_rule, 1);
    g_ptr_array_add(rules, rule);
    map_iter mi;
    if (!map_begin(c, rn, "exclude", "a mapping such as {algorithms: [comm-split], n: [65536]}", &mi))
      return FALSE;
    const char *key;
    yaml_node_t *knode, *v;
    int r;
    while ((r = map_next(&mi, "exclude", &key, &knode, &v)) > 0) {
      char *qkey = g_strdup_printf("exclude.%s", key);
      gboolean ok;
      if (strcmp(key, "algorithms") == 0)
        ok = get_list(c, v, qkey, &SPEC_ALGOS, rule->algorithms = g_ptr_array_new_with_free_func(g_free));
      else if (strcmp(key, "n") == 0)
        ok = get_list(c, v, qkey, &SPEC_N, rule->n = g_array_new(FALSE, FALSE, sizeof(int)));
      else if (strcmp(key, "f") == 0)
        ok = get_list(c, v, qkey, &SPEC_F, rule->f = g_array_new(FALSE, FALSE, sizeof(double)));
      else if (strcmp(key, "k") == 0)
        ok = get_list(c, v, qkey, &SPEC_K, rule->k = g_array_new(FALSE, FALSE, sizeof(int)));
      else if (strcmp(key, "colors") == 0)
        ok = get_list(c, v, qkey, &SPEC_COLORS, rule->colors = g_array_new(FALSE, FALSE, sizeof(int)));
      else if (strcmp(key, "seeds") == 0)
        ok = get_list(c, v, qkey, &SPEC_SEEDS, rule->seeds = g_array_new(FALSE, FALSE, sizeof(uint64_t)));
      else
        ok = fail(c, knode, qkey, "unknown key in an exclude rule (known: algorithms, n, f, k, colors, seeds)");
      g_free(qkey);
      if (!ok) {
        map_end(&mi);
        return FALSE;
      }
    }
    map_end(&mi);
    if (r < 0)
      return FALSE;
    if (rn->data.mapping.pairs.start == rn->data.mapping.pairs.top)
      return fail(c, rn, "exclude", "an empty rule would exclude every point");
  }
  return TRUE;
}

static gboolean int_in(const GArray *a, int v)
{
  if (!a)
    return TRUE;
  for (guint i = 0; i < a->len; i++)
    if (g_array_index(a, int, i) == v)
      return TRUE;
  return FALSE;
}

static gboolean excluded_by(const exclude_rule *r, const cs_point *p)
{
  if (r->algorithms) {
    gboolean found = FALSE;
    for (guint i = 0; i < r->algorithms->len && !found; i++)
      found = strcmp(g_ptr_array_index(r->algorithms, i), p->algo) == 0;
    if (!found)
      return FALSE;
  }
  if (!int_in(r->n, p->n) || !int_in(r->k, p->k) || !int_in(r->colors, p->colors))
    return FALSE;
  if (r->f) {
    gboolean found = FALSE;
    for (guint i = 0; i < r->f->len && !found; i++)
      found = cs_same_fraction(g_array_index(r->f, double, i), p->f);
    if (!found)
      return FALSE;
  }
  if (r->seeds) {
    gboolean found = FALSE;
    for (guint i = 0; i < r->seeds->len && !found; i++)
      found = g_array_index(r->seeds, uint64_t, i) == p->seed;
    if (!found)
      return FALSE;
  }
  return TRUE;
}


/* ---- generic experiments (any subcommand) ---- */

/* Is command one the host runs?  A host without a list runs any. */
static gboolean command_known(const parse_ctx *c, const char *command)
{
  return !c->host || !c->host->commands || g_strv_contains(c->host->commands, command);
}

/* "tree, collective, ...": the host's subcommands, for messages. */
static char *known_commands(const parse_ctx *c)
{
  return g_strjoinv(", ", (char **)c->host->commands);
}

/* One option and its values (each a string; "" for a flag set, NULL for a
 * flag left out). */
typedef struct param {
  char *name;
  GPtrArray *values;
} param;

static void param_free(gpointer p)
{
  param *x = p;
  g_free(x->name);
  g_ptr_array_unref(x->values);
  g_free(x);
}

/* The options the sweep gives every point itself (cs_point_options), and
 * --out, which every point leaves to the sweep. */
const char *const cs_sweep_own_options[] = {"format", "out", "no-header", "quiet", "with-config", NULL};

/* An option the points may not be given (an experiment key or extra_args):
 * the sweep's own, or one that writes a file of its own (every point would
 * write it outside the sweep's --out). */
static gboolean option_allowed(parse_ctx *c, const yaml_node_t *node, const char *key, const char *name)
{
  if (g_strv_contains(cs_sweep_own_options, name))
    return fail(c, node, key, "--%s: the sweep sets the output options itself", name);
  if (c->outputs && g_strv_contains((const char *const *)c->outputs, name))
    return fail(c, node, key, "--%s writes a file (an output option of collsim %s): every point would write it "
                "outside the sweep's --out, so a sweep refuses it", name, c->command);
  return TRUE;
}

static gboolean option_name_ok(parse_ctx *c, const yaml_node_t *knode, const char *key)
{
  if (!*key || key[0] == '-' || strspn(key, "abcdefghijklmnopqrstuvwxyz0123456789-") != strlen(key))
    return fail(c, knode, key, "an option name is written without dashes, in lower case (e.g. block, o-send)");
  return option_allowed(c, knode, key, key);
}

/* The command's output options, asked once the command is known. */
static gboolean learn_outputs(parse_ctx *c, const char *command)
{
  c->command = command;
  if (!c->host || !c->host->outputs)
    return TRUE;
  GError *e = NULL;
  c->outputs = c->host->outputs(command, c->host->data, &e);
  if (!c->outputs) {
    if (e)
      g_propagate_error(c->err, e);
    else
      g_set_error(c->err, CS_EXPERIMENT_ERROR, 1, "%s: the output options of collsim %s are not known", c->path,
                  command);
    return FALSE;
  }
  return TRUE;
}

/* The command a generic experiment names, or NULL. */
static const char *root_command(parse_ctx *c, const yaml_node_t *root)
{
  for (yaml_node_pair_t *p = root->data.mapping.pairs.start; p < root->data.mapping.pairs.top; p++) {
    yaml_node_t *k = yaml_document_get_node(c->doc, p->key), *v = yaml_document_get_node(c->doc, p->value);
    if (k->type == YAML_SCALAR_NODE && !strcmp(cs_yaml_scalar(k), "command") && v->type == YAML_SCALAR_NODE)
      return cs_yaml_scalar(v);
  }
  return NULL;
}

/* A scalar as the option's value: true -> "" (flag), false -> NULL (left out). */
static gboolean scalar_value(parse_ctx *c, const yaml_node_t *v, const char *key, char **out)
{
  if (v->type != YAML_SCALAR_NODE)
    return fail(c, v, key, "expected a value, found %s", cs_yaml_type_name(v));
  const char *s = cs_yaml_scalar(v);
  gboolean plain = v->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
  if (plain && (!strcmp(s, "true") || !strcmp(s, "false"))) {
    *out = !strcmp(s, "true") ? g_strdup("") : NULL;
    return TRUE;
  }
  if (!*s || is_null(v))
    return fail(c, v, key, "empty value");
  *out = g_strdup(s);
  return TRUE;
}

/* {from: A, to: B[, step: S]}: the integers A, A+S, ... <= B. */
static gboolean range_values(parse_ctx *c, const yaml_node_t *v, const char *key, GPtrArray *out)
{
  map_iter it;
  if (!map_begin(c, v, key, "{from: A, to: B}", &it))
    return FALSE;
  long long from = 0, to = -1, step = 1;
  gboolean have_from = FALSE, have_to = FALSE, ok = TRUE;
  const char *k;
  yaml_node_t *kn, *val;
  int r;
  while (ok && (r = map_next(&it, key, &k, &kn, &val)) > 0) {
    int x;
    if (!get_int(c, val, key, G_MININT, "an integer", &x))
      ok = FALSE;
    else if (!strcmp(k, "from"))
      from = x, have_from = TRUE;
    else if (!strcmp(k, "to"))
      to = x, have_to = TRUE;
    else if (!strcmp(k, "step"))
      step = x;
    else
      ok = fail(c, kn, key, "unknown key '%s' in a range (from, to, step)", k);
  }
  map_end(&it);
  if (ok && (r < 0 || !have_from || !have_to))
    return r < 0 ? FALSE : fail(c, v, key, "a range needs from and to");
  if (ok && (step < 1 || to < from || (to - from) / step >= MAX_POINTS))
    return fail(c, v, key, "range from %lld to %lld step %lld is empty or too long", from, to, step);
  for (long long x = from; ok && x <= to; x += step)
    g_ptr_array_add(out, g_strdup_printf("%lld", x));
  return ok;
}

static gboolean param_values(parse_ctx *c, const yaml_node_t *v, const char *key, GPtrArray *out)
{
  if (v->type == YAML_MAPPING_NODE)
    return range_values(c, v, key, out);
  if (v->type == YAML_SCALAR_NODE) {
    char *x;
    if (!scalar_value(c, v, key, &x))
      return FALSE;
    g_ptr_array_add(out, x);
    return TRUE;
  }
  yaml_node_item_t *start = v->data.sequence.items.start, *top = v->data.sequence.items.top;
  if (start == top)
    return fail(c, v, key, "the list is empty");
  for (yaml_node_item_t *it = start; it < top; it++) {
    char *x;
    if (!scalar_value(c, yaml_document_get_node(c->doc, *it), key, &x))
      return FALSE;
    g_ptr_array_add(out, x);
  }
  return TRUE;
}

/* A mapping option -> value(s), into params (an option given again replaces
 * the earlier one in place: a series overrides the shared parameters). */
static gboolean parse_params(parse_ctx *c, const yaml_node_t *node, const char *what, GPtrArray *params)
{
  map_iter it;
  if (!map_begin(c, node, what, "a mapping of option: value", &it))
    return FALSE;
  const char *key;
  yaml_node_t *kn, *v;
  int r;
  gboolean ok = TRUE;
  while (ok && (r = map_next(&it, what, &key, &kn, &v)) > 0) {
    ok = option_name_ok(c, kn, key);
    param *p = g_new0(param, 1);
    p->name = g_strdup(key);
    p->values = g_ptr_array_new_with_free_func(g_free);
    ok = ok && param_values(c, v, key, p->values);
    guint i = 0;
    while (i < params->len && strcmp(((param *)g_ptr_array_index(params, i))->name, key) != 0)
      i++;
    if (!ok)
      param_free(p);
    else if (i < params->len) {
      param_free(g_ptr_array_index(params, i));
      params->pdata[i] = p;
    } else
      g_ptr_array_add(params, p);
  }
  map_end(&it);
  return ok && r == 0;
}

typedef struct series {
  GPtrArray *label_values; /* char *, in label_names order */
  GPtrArray *params;       /* param * */
} series;

static void series_free(gpointer p)
{
  series *s = p;
  g_ptr_array_unref(s->label_values);
  g_ptr_array_unref(s->params);
  g_free(s);
}

static gboolean parse_labels(parse_ctx *c, const yaml_node_t *node, cs_experiment *e, series *s, gboolean first)
{
  map_iter it;
  if (!map_begin(c, node, "label", "a mapping of column: value", &it))
    return FALSE;
  const char *key;
  yaml_node_t *kn, *v;
  int r;
  guint i = 0;
  gboolean ok = TRUE;
  while (ok && (r = map_next(&it, "label", &key, &kn, &v)) > 0) {
    char *value = NULL;
    ok = get_string(c, v, key, TRUE, &value);
    if (ok && first && g_strv_contains(cs_config_columns(), key))
      ok = fail(c, kn, key, "the label '%s' is also the column '%s' the sweep adds to every row (the run's "
                "configuration): give the label another name", key, key);
    if (ok && first)
      g_ptr_array_add(e->label_names, g_strdup(key));
    else if (ok && (i >= e->label_names->len || strcmp(g_ptr_array_index(e->label_names, i), key) != 0))
      ok = fail(c, kn, key, "every series needs the same label columns in the same order");
    if (ok)
      g_ptr_array_add(s->label_values, value);
    else
      g_free(value);
    i++;
  }
  map_end(&it);
  if (ok && r == 0 && i != e->label_names->len)
    return fail(c, node, "label", "every series needs the same label columns in the same order");
  return ok && r == 0;
}

static gboolean parse_series(parse_ctx *c, const yaml_node_t *node, cs_experiment *e, GPtrArray *shared,
                             GPtrArray *all)
{
  if (node->type != YAML_SEQUENCE_NODE)
    return fail(c, node, "series", "expected a list of {label: {...}, parameters: {...}}");
  for (yaml_node_item_t *it = node->data.sequence.items.start; it < node->data.sequence.items.top; it++) {
    yaml_node_t *sn = yaml_document_get_node(c->doc, *it);
    series *s = g_new0(series, 1);
    s->label_values = g_ptr_array_new_with_free_func(g_free);
    s->params = g_ptr_array_new_with_free_func(param_free);
    g_ptr_array_add(all, s);
    for (guint i = 0; i < shared->len; i++) {
      const param *p = g_ptr_array_index(shared, i);
      param *q = g_new0(param, 1);
      q->name = g_strdup(p->name);
      q->values = g_ptr_array_new_with_free_func(g_free);
      for (guint j = 0; j < p->values->len; j++)
        g_ptr_array_add(q->values, g_strdup(g_ptr_array_index(p->values, j)));
      g_ptr_array_add(s->params, q);
    }
    map_iter mi;
    if (!map_begin(c, sn, "series", "a mapping {label: ..., parameters: ...}", &mi))
      return FALSE;
    const char *key;
    yaml_node_t *kn, *v;
    int r;
    gboolean ok = TRUE;
    while (ok && (r = map_next(&mi, "series", &key, &kn, &v)) > 0) {
      if (!strcmp(key, "label"))
        ok = parse_labels(c, v, e, s, all->len == 1);
      else if (!strcmp(key, "parameters"))
        ok = parse_params(c, v, "parameters", s->params);
      else
        ok = fail(c, kn, key, "unknown key in a series (label, parameters)");
    }
    map_end(&mi);
    if (!ok || r < 0)
      return FALSE;
    if (s->label_values->len != e->label_names->len)
      return fail(c, sn, "label", "every series needs the same label columns in the same order");
  }
  return TRUE;
}

/* The point's options: each parameter's chosen value, then the explicit point's. */
static void add_args(GPtrArray *args, const char *name, const char *value)
{
  if (!value)
    return;
  g_ptr_array_add(args, *value ? g_strdup_printf("--%s=%s", name, value) : g_strdup_printf("--%s", name));
}

/* Does a rule (option -> values) match the point's options?  Every option
 * of the rule must be given with one of its values (true: the flag given,
 * false: left out). */
static gboolean arg_matches(GPtrArray *args, const param *want)
{
  size_t name_len = strlen(want->name);
  for (guint w = 0; w < want->values->len; w++) {
    const char *x = g_ptr_array_index(want->values, w);
    gboolean found = FALSE, named = FALSE;
    for (guint i = 0; i < args->len && !found; i++) {
      const char *a = g_ptr_array_index(args, i); /* "--name=value" or "--name" */
      if (strncmp(a, "--", 2) != 0 || strncmp(a + 2, want->name, name_len) != 0)
        continue;
      const char *rest = a + 2 + name_len;
      if (*rest != '=' && *rest != '\0')
        continue;
      named = TRUE;
      found = x && (*x ? *rest == '=' && strcmp(rest + 1, x) == 0 : *rest == '\0');
    }
    if (found || (!x && !named))
      return TRUE;
  }
  return FALSE;
}

static gboolean generic_excluded(GPtrArray *rules, GPtrArray *args)
{
  for (guint r = 0; r < rules->len; r++) {
    GPtrArray *rule = g_ptr_array_index(rules, r);
    gboolean all = TRUE;
    for (guint i = 0; all && i < rule->len; i++)
      all = arg_matches(args, g_ptr_array_index(rule, i));
    if (all)
      return TRUE;
  }
  return FALSE;
}

static void add_point(cs_experiment *e, const series *s, const guint *pick, GPtrArray *explicit_point,
                      GPtrArray *rules)
{
  GPtrArray *args = g_ptr_array_new_with_free_func(g_free);
  for (guint j = 0; j < s->params->len; j++) {
    const param *p = g_ptr_array_index(s->params, j);
    gboolean overridden = FALSE;
    for (guint k = 0; explicit_point && k < explicit_point->len && !overridden; k++)
      overridden = strcmp(((param *)g_ptr_array_index(explicit_point, k))->name, p->name) == 0;
    if (!overridden)
      add_args(args, p->name, g_ptr_array_index(p->values, pick[j]));
  }
  for (guint k = 0; explicit_point && k < explicit_point->len; k++) {
    const param *p = g_ptr_array_index(explicit_point, k);
    add_args(args, p->name, g_ptr_array_index(p->values, 0));
  }
  if (generic_excluded(rules, args)) {
    e->excluded++;
    g_ptr_array_unref(args);
    return;
  }
  cs_point pt = {.index = e->points->len};
  g_ptr_array_add(args, NULL);
  pt.args = (char **)g_ptr_array_free(args, FALSE);
  pt.labels = g_new0(char *, s->label_values->len + 1);
  for (guint i = 0; i < s->label_values->len; i++)
    pt.labels[i] = g_strdup(g_ptr_array_index(s->label_values, i));
  g_array_append_val(e->points, pt);
}

static gboolean build_generic_points(parse_ctx *c, cs_experiment *e, GPtrArray *all_series, GPtrArray *points,
                                     GPtrArray *rules, const yaml_node_t *root)
{
  for (guint si = 0; si < all_series->len; si++) {
    const series *s = g_ptr_array_index(all_series, si);
    guint n = s->params->len, *pick = g_new0(guint, n + 1);
    guint64 total = 1;
    for (guint j = 0; j < n; j++)
      total *= ((param *)g_ptr_array_index(s->params, j))->values->len;
    if (total * (points->len ? points->len : 1) + e->points->len > MAX_POINTS) {
      g_free(pick);
      return fail(c, root, NULL, "more points than this runner takes (%d)", MAX_POINTS);
    }
    for (guint64 t = 0; t < total; t++) {
      for (guint q = 0; q < (points->len ? points->len : 1); q++)
        add_point(e, s, pick, points->len ? g_ptr_array_index(points, q) : NULL, rules);
      for (gint j = (gint)n - 1; j >= 0; j--) { /* the last key varies fastest */
        if (++pick[j] < ((param *)g_ptr_array_index(s->params, j))->values->len)
          break;
        pick[j] = 0;
      }
    }
    g_free(pick);
  }
  if (e->points->len == 0)
    return fail(c, root, "exclude", "every point is excluded");
  return TRUE;
}

static gboolean parse_generic_points(parse_ctx *c, const yaml_node_t *node, GPtrArray *points)
{
  if (node->type != YAML_SEQUENCE_NODE)
    return fail(c, node, "points", "expected a list of mappings option: value");
  for (yaml_node_item_t *it = node->data.sequence.items.start; it < node->data.sequence.items.top; it++) {
    GPtrArray *one = g_ptr_array_new_with_free_func(param_free);
    g_ptr_array_add(points, one);
    yaml_node_t *pn = yaml_document_get_node(c->doc, *it);
    if (!parse_params(c, pn, "points", one))
      return FALSE;
    for (guint i = 0; i < one->len; i++)
      if (((param *)g_ptr_array_index(one, i))->values->len != 1)
        return fail(c, pn, "points", "an explicit point gives one value per option");
  }
  return TRUE;
}

static gboolean parse_generic_exclude(parse_ctx *c, const yaml_node_t *node, GPtrArray *rules)
{
  if (node->type != YAML_SEQUENCE_NODE)
    return fail(c, node, "exclude", "expected a list of rules such as [{algo: [ring], coll: [allgather]}]");
  for (yaml_node_item_t *it = node->data.sequence.items.start; it < node->data.sequence.items.top; it++) {
    GPtrArray *rule = g_ptr_array_new_with_free_func(param_free);
    g_ptr_array_add(rules, rule);
    yaml_node_t *rn = yaml_document_get_node(c->doc, *it);
    if (!parse_params(c, rn, "exclude", rule))
      return FALSE;
    if (rule->len == 0)
      return fail(c, rn, "exclude", "an empty rule would exclude every point");
  }
  return TRUE;
}

/* expect: {messages: EXPR, bytes: EXPR}: each a formula that parses. */
static gboolean parse_expect(parse_ctx *c, const yaml_node_t *node, cs_experiment *e)
{
  map_iter it;
  if (!map_begin(c, node, "expect", "a mapping (messages: FORMULA, bytes: FORMULA)", &it))
    return FALSE;
  const char *key;
  yaml_node_t *kn, *v;
  int r;
  gboolean ok = TRUE;
  while (ok && (r = map_next(&it, "expect", &key, &kn, &v)) > 0) {
    bool msgs = !strcmp(key, "messages");
    char **slot = msgs ? &e->expect_messages : !strcmp(key, "bytes") ? &e->expect_bytes : NULL;
    cs_formula **parsed = msgs ? &e->expect_messages_f : &e->expect_bytes_f;
    if (!slot) {
      ok = fail(c, kn, "expect", "unknown count '%s' (known: messages, bytes)", key);
      break;
    }
    ok = get_string(c, v, "expect", FALSE, slot);
    GError *err = NULL;
    cs_formula_free(*parsed); /* a key given twice: the last one */
    *parsed = ok ? cs_formula_parse(*slot, &err) : NULL;
    if (ok && !*parsed) {
      ok = fail(c, v, "expect", "%s", err->message);
      g_error_free(err);
    }
  }
  map_end(&it);
  return ok && r >= 0;
}

static gboolean parse_generic(parse_ctx *c, const yaml_node_t *root, cs_experiment *e)
{
  const char *command = root_command(c, root);
  if (command && command_known(c, command) && !learn_outputs(c, command))
    return FALSE;
  map_iter it;
  if (!map_begin(c, root, NULL, "a mapping of keys (name, command, parameters, ...)", &it))
    return FALSE;
  GPtrArray *shared = g_ptr_array_new_with_free_func(param_free);
  GPtrArray *all_series = g_ptr_array_new_with_free_func(series_free);
  GPtrArray *points = g_ptr_array_new_with_free_func((GDestroyNotify)g_ptr_array_unref);
  GPtrArray *rules = g_ptr_array_new_with_free_func((GDestroyNotify)g_ptr_array_unref);
  const yaml_node_t *series_node = NULL;
  const char *key;
  yaml_node_t *kn, *v;
  int r;
  gboolean ok = TRUE;
  while (ok && (r = map_next(&it, NULL, &key, &kn, &v)) > 0) {
    if (!strcmp(key, "name"))
      ok = get_string(c, v, key, FALSE, &e->name);
    else if (!strcmp(key, "description"))
      ok = get_string(c, v, key, TRUE, &e->description);
    else if (!strcmp(key, "command")) {
      ok = get_string(c, v, key, FALSE, &e->command);
      if (ok && !command_known(c, e->command)) {
        char *known = known_commands(c);
        ok = fail(c, v, key, "unknown command '%s' (known: %s)", e->command, known);
        g_free(known);
      }
    } else if (!strcmp(key, "parameters"))
      ok = parse_params(c, v, "parameters", shared);
    else if (!strcmp(key, "series"))
      series_node = v;
    else if (!strcmp(key, "points"))
      ok = parse_generic_points(c, v, points);
    else if (!strcmp(key, "extra_args"))
      ok = get_list(c, v, key, &SPEC_ARGS, e->extra_args) && (c->extra_args = v);
    else if (!strcmp(key, "exclude"))
      ok = parse_generic_exclude(c, v, rules);
    else if (!strcmp(key, "expect"))
      ok = parse_expect(c, v, e);
    else
      ok = fail(c, kn, key, "unknown key (known: name, command, description, parameters, series, points, "
                "extra_args, exclude, expect)");
  }
  map_end(&it);
  if (ok && r < 0)
    ok = FALSE;
  if (ok && !e->name)
    ok = fail(c, root, "name", "missing");
  if (ok && !e->command)
    ok = fail(c, root, "command", "missing (the subcommand every point runs: collective, allreduce, comm, tree)");
  if (ok && series_node)
    ok = parse_series(c, series_node, e, shared, all_series);
  if (ok && !series_node) {
    series *s = g_new0(series, 1);
    s->label_values = g_ptr_array_new_with_free_func(g_free);
    s->params = g_ptr_array_ref(shared);
    g_ptr_array_add(all_series, s);
  }
  if (ok) {
    if (!e->description)
      e->description = g_strdup("");
    e->generic = TRUE;
    ok = build_generic_points(c, e, all_series, points, rules, root);
  }
  g_ptr_array_unref(shared);
  g_ptr_array_unref(all_series);
  g_ptr_array_unref(points);
  g_ptr_array_unref(rules);
  return ok;
}

/* The generic schema when the file names a command other than tree, or uses
 * parameters, series or points. */
static gboolean is_generic(parse_ctx *c, const yaml_node_t *root)
{
  if (root->type != YAML_MAPPING_NODE)
    return FALSE;
  for (yaml_node_pair_t *p = root->data.mapping.pairs.start; p < root->data.mapping.pairs.top; p++) {
    yaml_node_t *k = yaml_document_get_node(c->doc, p->key), *v = yaml_document_get_node(c->doc, p->value);
    if (k->type != YAML_SCALAR_NODE)
      continue;
    const char *key = cs_yaml_scalar(k);
    if (!strcmp(key, "parameters") || !strcmp(key, "series") || !strcmp(key, "points"))
      return TRUE;
    if (!strcmp(key, "command") && v->type == YAML_SCALAR_NODE && strcmp(cs_yaml_scalar(v), "tree") != 0)
      return TRUE;
  }
  return FALSE;
}

/* ---- the document ---- */

static void experiment_init(cs_experiment *e, const char *path)
{
  e->path = g_strdup(path);
  e->algorithms = g_ptr_array_new_with_free_func(g_free);
  e->n = g_array_new(FALSE, FALSE, sizeof(int));
  e->f = g_array_new(FALSE, FALSE, sizeof(double));
  e->k = g_array_new(FALSE, FALSE, sizeof(int));
  e->colors = g_array_new(FALSE, FALSE, sizeof(int));
  e->seeds = g_array_new(FALSE, FALSE, sizeof(uint64_t));
  e->extra_args = g_ptr_array_new_with_free_func(g_free);
  e->points = g_array_new(FALSE, FALSE, sizeof(cs_point));
  e->label_names = g_ptr_array_new_with_free_func(g_free);
}

static gboolean build_points(parse_ctx *c, cs_experiment *e, GPtrArray *rules, const yaml_node_t *root,
                             const yaml_node_t *colors_node, const yaml_node_t *exclude_node)
{
  guint64 total = (guint64)e->n->len * e->f->len * e->k->len * e->colors->len * e->seeds->len *
                  e->algorithms->len;
  if (total > MAX_POINTS)
    return fail(c, root, NULL, "%" G_GUINT64_FORMAT " points is more than this runner takes (%d)", total,
                MAX_POINTS);
  for (guint in = 0; in < e->n->len; in++)
    for (guint jf = 0; jf < e->f->len; jf++)
      for (guint jk = 0; jk < e->k->len; jk++)
        for (guint jc = 0; jc < e->colors->len; jc++)
          for (guint js = 0; js < e->seeds->len; js++)
            for (guint ja = 0; ja < e->algorithms->len; ja++) {
              cs_point p = {
                  .index = e->points->len,
                  .algo = g_ptr_array_index(e->algorithms, ja),
                  .n = g_array_index(e->n, int, in),
                  .f = g_array_index(e->f, double, jf),
                  .k = g_array_index(e->k, int, jk),
                  .colors = g_array_index(e->colors, int, jc),
                  .seed = g_array_index(e->seeds, uint64_t, js),
              };
              gboolean drop = FALSE;
              for (guint r = 0; r < rules->len && !drop; r++)
                drop = excluded_by(g_ptr_array_index(rules, r), &p);
              if (drop) {
                e->excluded++;
                continue;
              }
              if (p.colors > 1 && !cs_tree_algo_find(p.algo)->multicolor)
                return fail(c, colors_node, "colors",
                            "colors = %d with algorithm '%s', which builds a single group; exclude those "
                            "points (exclude: [{algorithms: [%s], colors: [...]}])",
                            p.colors, p.algo, p.algo);
              g_array_append_val(e->points, p);
            }
  if (e->points->len == 0)
    return fail(c, exclude_node, "exclude", "every point is excluded");
  return TRUE;
}

static const char *const KNOWN_KEYS =
    "name, command, description, platform, algorithms, n, f, k, colors, seeds, extra_args, exclude, expect";

static gboolean parse_root(parse_ctx *c, const yaml_node_t *root, cs_experiment *e)
{
  if (root->type == YAML_MAPPING_NODE && !learn_outputs(c, "tree"))
    return FALSE;
  map_iter it;
  if (!map_begin(c, root, NULL, "a mapping of keys (" "name, algorithms, n, f, k, ...)", &it))
    return FALSE;
  GPtrArray *rules = g_ptr_array_new_with_free_func(exclude_rule_free);
  const yaml_node_t *colors_node = root, *exclude_node = root;
  const char *key;
  yaml_node_t *knode, *v;
  int r;
  gboolean ok = TRUE;
  gboolean have_platform = FALSE;
  while (ok && (r = map_next(&it, NULL, &key, &knode, &v)) > 0) {
    if (strcmp(key, "name") == 0)
      ok = get_string(c, v, key, FALSE, &e->name);
    else if (strcmp(key, "description") == 0)
      ok = get_string(c, v, key, TRUE, &e->description);
    else if (strcmp(key, "command") == 0)
      ok = TRUE; /* "tree": is_generic sent any other command elsewhere */
    else if (strcmp(key, "platform") == 0)
      ok = have_platform = parse_platform(c, v, e);
    else if (strcmp(key, "algorithms") == 0)
      ok = get_list(c, v, key, &SPEC_ALGOS, e->algorithms);
    else if (strcmp(key, "n") == 0)
      ok = get_list(c, v, key, &SPEC_N, e->n);
    else if (strcmp(key, "f") == 0)
      ok = get_list(c, v, key, &SPEC_F, e->f);
    else if (strcmp(key, "k") == 0)
      ok = get_list(c, v, key, &SPEC_K, e->k);
    else if (strcmp(key, "colors") == 0) {
      colors_node = knode;
      ok = get_list(c, v, key, &SPEC_COLORS, e->colors);
    } else if (strcmp(key, "seeds") == 0)
      ok = get_list(c, v, key, &SPEC_SEEDS, e->seeds);
    else if (strcmp(key, "extra_args") == 0)
      ok = get_list(c, v, key, &SPEC_ARGS, e->extra_args) && (c->extra_args = v);
    else if (strcmp(key, "exclude") == 0) {
      exclude_node = knode;
      ok = parse_exclude(c, v, rules);
    } else if (strcmp(key, "expect") == 0)
      ok = parse_expect(c, v, e);
    else
      ok = fail(c, knode, key, "unknown key (known: %s)", KNOWN_KEYS);
  }
  map_end(&it);
  if (ok && r < 0)
    ok = FALSE;
  /* required keys */
  const struct { const char *key; gboolean present; } required[] = {
      {"name", e->name != NULL},       {"algorithms", e->algorithms->len > 0},
      {"n", e->n->len > 0},            {"f", e->f->len > 0},
      {"k", e->k->len > 0},
  };
  for (size_t i = 0; ok && i < G_N_ELEMENTS(required); i++)
    if (!required[i].present)
      ok = fail(c, root, required[i].key, "missing (required keys: name, algorithms, n, f, k)");
  if (ok) {
    if (!e->description)
      e->description = g_strdup("");
    e->command = g_strdup("tree");
    if (!have_platform)
      e->torus = g_strdup("auto");
    if (e->colors->len == 0) {
      int one = 1;
      g_array_append_val(e->colors, one);
    }
    if (e->seeds->len == 0) {
      uint64_t one = 1;
      g_array_append_val(e->seeds, one);
    }
    ok = build_points(c, e, rules, root, colors_node, exclude_node);
  }
  g_ptr_array_unref(rules);
  return ok;
}

/* ---- what each point runs with ---- */

/* The options the sweep itself gives every tree point. */
static const char *const TREE_OPTIONS[] = {"algo", "n", "f", "k", "colors", "seed", "torus", "platform", "cores",
                                           NULL};

static void add_opt(GPtrArray *a, const char *name, const char *value)
{
  g_ptr_array_add(a, g_strdup_printf("--%s=%s", name, value));
}

static void add_tree_options(GPtrArray *a, const cs_experiment *e, const cs_point *p)
{
  char buf[64];
  add_opt(a, "algo", p->algo);
  add_opt(a, "n", (g_snprintf(buf, sizeof buf, "%d", p->n), buf));
  add_opt(a, "f", cs_format_double(buf, sizeof buf, p->f));
  add_opt(a, "k", (g_snprintf(buf, sizeof buf, "%d", p->k), buf));
  add_opt(a, "colors", (g_snprintf(buf, sizeof buf, "%d", p->colors), buf));
  add_opt(a, "seed", (g_snprintf(buf, sizeof buf, "%" G_GUINT64_FORMAT, p->seed), buf));
  add_opt(a, e->platform_file ? "platform" : "torus", e->platform_file ? e->platform_file : e->torus);
  if (e->cores)
    add_opt(a, "cores", (g_snprintf(buf, sizeof buf, "%d", e->cores), buf));
  g_ptr_array_add(a, g_strdup("--no-header"));
}

char **cs_point_options(const cs_experiment *e, const cs_point *p)
{
  GPtrArray *a = g_ptr_array_new();
  if (e->generic)
    for (size_t i = 0; p->args[i]; i++)
      g_ptr_array_add(a, g_strdup(p->args[i]));
  else
    add_tree_options(a, e, p);
  g_ptr_array_add(a, g_strdup("--format=csv"));
  g_ptr_array_add(a, g_strdup("--quiet"));
  g_ptr_array_add(a, g_strdup("--with-config"));
  for (guint i = 0; i < e->extra_args->len; i++)
    g_ptr_array_add(a, g_strdup(g_ptr_array_index(e->extra_args, i)));
  g_ptr_array_add(a, NULL);
  return (char **)g_ptr_array_free(a, FALSE);
}

/* "name" of "--name" or "--name=value" (g_free it); NULL for anything else. */
static char *long_option_name(const char *arg)
{
  static const char word[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-";
  if (strncmp(arg, "--", 2) != 0)
    return NULL;
  size_t len = strspn(arg + 2, word);
  return len && (arg[2 + len] == '\0' || arg[2 + len] == '=') ? g_strndup(arg + 2, len) : NULL;
}

/* The option names every point's command line already holds. */
static GHashTable *options_taken(const cs_experiment *e)
{
  GHashTable *taken = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
  for (size_t i = 0; !e->generic && TREE_OPTIONS[i]; i++)
    g_hash_table_add(taken, g_strdup(TREE_OPTIONS[i]));
  for (guint i = 0; e->generic && i < e->points->len; i++) {
    char **args = g_array_index(e->points, cs_point, i).args;
    for (size_t j = 0; args[j]; j++) {
      char *name = long_option_name(args[j]);
      if (name)
        g_hash_table_add(taken, name);
    }
  }
  return taken;
}

/* extra_args: each one long option, none the sweep or the points already
 * set (a repeated option would be refused by every point's run). */
static gboolean check_extra_args(parse_ctx *c, const cs_experiment *e)
{
  GHashTable *taken = options_taken(e);
  gboolean ok = TRUE;
  for (guint i = 0; ok && i < e->extra_args->len; i++) {
    const char *arg = g_ptr_array_index(e->extra_args, i);
    char *name = long_option_name(arg);
    if (!name)
      ok = fail(c, c->extra_args, "extra_args", "'%s' is not one long option: give each as one item, --name=value "
                "or --name", arg);
    else if (!option_allowed(c, c->extra_args, "extra_args", name))
      ok = FALSE;
    else if (g_hash_table_contains(taken, name))
      ok = fail(c, c->extra_args, "extra_args", "'%s' gives --%s, which the experiment already sets: give it once%s",
                arg, name, e->generic ? " (in parameters)" : "");
    g_free(name);
  }
  g_hash_table_destroy(taken);
  return ok;
}

/* The labels of a generic point, "name=value ..." (escaped). */
static GString *labels_text(const cs_experiment *e, const cs_point *p)
{
  GString *k = g_string_new(NULL);
  for (size_t i = 0; p->labels && p->labels[i]; i++) {
    char *name = g_strescape(g_ptr_array_index(e->label_names, i), NULL), *v = g_strescape(p->labels[i], NULL);
    g_string_append_printf(k, "%s=%s ", name, v); /* one line: the key is a line of the sweep's journal */
    g_free(name);
    g_free(v);
  }
  return k;
}

/* Each point's config_key (run_config.h), and a generic point's key: its
 * labels and config_key. */
static void set_keys(cs_experiment *e)
{
  for (guint i = 0; i < e->points->len; i++) {
    cs_point *p = &g_array_index(e->points, cs_point, i);
    char **opts = cs_point_options(e, p);
    char *args = cs_config_args(e->command, opts, cs_sweep_own_options); /* as the point's front end records them */
    p->config_key = cs_config_key(args);
    if (e->generic) {
      GString *k = labels_text(e, p);
      g_string_append(k, p->config_key);
      p->key = g_string_free(k, FALSE);
    }
    g_free(args);
    g_strfreev(opts);
  }
}

static gboolean finish_points(parse_ctx *c, cs_experiment *e)
{
  if (!check_extra_args(c, e))
    return FALSE;
  set_keys(e);
  return TRUE;
}

cs_experiment *cs_experiment_parse(const char *text, size_t len, const char *path, const cs_experiment_host *host,
                                   GError **err)
{
  cs_experiment *e = g_new0(cs_experiment, 1);
  experiment_init(e, path);
  parse_ctx c = {.path = path, .doc = NULL, .err = err, .host = host};
  yaml_parser_t parser;
  yaml_document_t doc;
  gboolean ok = FALSE;
  int deep = cs_yaml_too_deep(text, len, CS_YAML_MAX_DEPTH);
  if (deep) {
    g_set_error(err, CS_EXPERIMENT_ERROR, 1, "%s:%d: nested more than %d levels deep", path, deep,
                CS_YAML_MAX_DEPTH);
    cs_experiment_free(e);
    return NULL;
  }
  yaml_parser_initialize(&parser);
  yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
  if (!yaml_parser_load(&parser, &doc)) {
    g_set_error(err, CS_EXPERIMENT_ERROR, 1, "%s:%d: YAML syntax error: %s%s%s", path,
                (int)parser.problem_mark.line + 1, parser.problem ? parser.problem : "unknown",
                parser.context ? " " : "", parser.context ? parser.context : "");
    yaml_parser_delete(&parser);
    cs_experiment_free(e);
    return NULL;
  }
  c.doc = &doc;
  yaml_node_t *root = yaml_document_get_root_node(&doc);
  if (!root) {
    g_set_error(err, CS_EXPERIMENT_ERROR, 1, "%s:1: the file is empty (required keys: name, algorithms, n, f, k)",
                path);
  } else {
    yaml_document_t next;
    if (!yaml_parser_load(&parser, &next)) {
      g_set_error(err, CS_EXPERIMENT_ERROR, 1, "%s:%d: YAML syntax error: %s", path,
                  (int)parser.problem_mark.line + 1, parser.problem ? parser.problem : "unknown");
    } else {
      yaml_node_t *second = yaml_document_get_root_node(&next);
      if (second)
        g_set_error(err, CS_EXPERIMENT_ERROR, 1, "%s:%d: only one YAML document is allowed", path,
                    (int)second->start_mark.line + 1);
      else if (is_generic(&c, root))
        ok = parse_generic(&c, root, e) && finish_points(&c, e);
      else
        ok = parse_root(&c, root, e) && finish_points(&c, e);
      yaml_document_delete(&next);
    }
  }
  yaml_document_delete(&doc);
  yaml_parser_delete(&parser);
  g_strfreev(c.outputs);
  if (!ok) {
    cs_experiment_free(e);
    return NULL;
  }
  return e;
}

cs_experiment *cs_experiment_load(const char *path, const cs_experiment_host *host, GError **err)
{
  char *text = NULL;
  gsize len = 0;
  GError *e = NULL;
  if (!cs_read_user_file(NULL, path, &text, &len, &e)) {
    g_set_error(err, CS_EXPERIMENT_ERROR, 2, "%s: cannot read the experiment: %s", path, e->message);
    g_error_free(e);
    return NULL;
  }
  cs_experiment *x = cs_experiment_parse(text, len, path, host, err);
  g_free(text);
  return x;
}

void cs_experiment_free(cs_experiment *e)
{
  if (!e)
    return;
  g_free(e->path);
  g_free(e->name);
  g_free(e->expect_messages);
  g_free(e->expect_bytes);
  cs_formula_free(e->expect_messages_f);
  cs_formula_free(e->expect_bytes_f);
  g_free(e->description);
  g_free(e->torus);
  g_free(e->platform_file);
  g_ptr_array_unref(e->algorithms);
  g_array_unref(e->n);
  g_array_unref(e->f);
  g_array_unref(e->k);
  g_array_unref(e->colors);
  g_array_unref(e->seeds);
  g_ptr_array_unref(e->extra_args);
  for (guint i = 0; i < e->points->len; i++) {
    cs_point *p = &g_array_index(e->points, cs_point, i);
    g_strfreev(p->args);
    g_strfreev(p->labels);
    g_free(p->key);
    g_free(p->config_key);
  }
  g_array_unref(e->points);
  g_ptr_array_unref(e->label_names);
  g_free(e->command);
  g_free(e);
}

char *cs_experiment_platform_label(const cs_experiment *e)
{
  if (e->platform_file)
    return e->cores ? g_strdup_printf("file %s, %d cores", e->platform_file, e->cores)
                    : g_strdup_printf("file %s", e->platform_file);
  return e->cores ? g_strdup_printf("torus %s, %d cores", e->torus, e->cores)
                  : g_strdup_printf("torus %s", e->torus);
}

const char *cs_format_double(char *buf, size_t size, double d)
{
  for (int prec = 1; prec <= 17; prec++) {
    snprintf(buf, size, "%.*g", prec, d);
    if (strtod(buf, NULL) == d)
      return buf;
  }
  return buf;
}

gboolean cs_same_fraction(double a, double b)
{
  if (a == b)
    return TRUE;
  return fabs(a - b) <= 6e-6 * fmax(fabs(a), fabs(b));
}

char **cs_point_argv(const cs_experiment *e, const cs_point *p, const char *exe)
{
  char **opts = cs_point_options(e, p);
  GPtrArray *a = g_ptr_array_new();
  g_ptr_array_add(a, g_strdup(exe));
  g_ptr_array_add(a, g_strdup(e->command));
  for (size_t i = 0; opts[i]; i++)
    g_ptr_array_add(a, opts[i]);
  g_free(opts); /* the strings moved into a */
  g_ptr_array_add(a, NULL);
  return (char **)g_ptr_array_free(a, FALSE);
}

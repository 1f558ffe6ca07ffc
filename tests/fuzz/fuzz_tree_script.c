/* libFuzzer harness for reduce/broadcast tree scripts (seed 002):
 * cs_ts_read and cs_ts_to_yaml (sim/contracts/tree_script.h), cs_ts_parse
 * and cs_ts_validate (sim/checks/tree_script_check.h).
 *
 * The input is the YAML text, every byte of it.  Properties:
 *  - cs_ts_read and cs_ts_parse return a script exactly when no error is
 *    set, and every error names the origin ("fuzz.yaml:LINE: ..." or
 *    "fuzz.yaml: ...");
 *  - what cs_ts_parse accepts, cs_ts_read accepts;
 *  - a script that reads is well formed: 1 <= n, root in [0, n), two phases
 *    of n command lists, every command a send or a receive, a name that is
 *    valid UTF-8;
 *  - round trip: a script that reads is written by cs_ts_to_yaml, and that
 *    text reads back (and validates back, when the script validated) into a
 *    script with the same header and commands, which is written again as
 *    the same bytes.
 * A violated property aborts (libFuzzer reports it as a crash). */
#include "sim/checks/tree_script_check.h"
#include "sim/contracts/tree_script.h"

#include <glib.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FUZZ_NAME "fuzz_tree_script"
#include "tests/fuzz/fuzz_common.h"

#define ORIGIN "fuzz.yaml"


static void check_error(const char *what, const cs_tree_script *s, GError **err)
{
  CHECK((s != NULL) == (*err == NULL), "%s returned %p with error %s", what, (const void *)s,
        *err ? (*err)->message : "(none)");
  if (*err)
    CHECK(g_str_has_prefix((*err)->message, ORIGIN ":"), "%s: the error does not name the origin: %s", what,
          (*err)->message);
  g_clear_error(err);
}

static void check_well_formed(const cs_tree_script *s)
{
  CHECK(s->n >= 1 && s->n <= (1 << 24), "n = %d", s->n);
  CHECK(s->root >= 0 && s->root < s->n, "root %d of n = %d", s->root, s->n);
  CHECK(s->order == CS_TS_SCRIPTED_ORDER || s->order == CS_TS_ARRIVAL_ORDER, "order %d", (int)s->order);
  CHECK(s->name && g_utf8_validate(s->name, -1, NULL) && s->name[0], "name is not a non-empty UTF-8 string");
  for (int ph = 0; ph < 2; ph++) {
    CHECK(s->phase[ph] != NULL, "phase %d has no lists", ph);
    for (int r = 0; r < s->n; r++) {
      const cs_ts_list *l = &s->phase[ph][r];
      CHECK(l->n >= 0 && l->n <= l->cap && (l->n == 0 || l->cmd), "phase %d rank %d: %d commands, capacity %d", ph,
            r, l->n, l->cap);
      for (int i = 0; i < l->n; i++)
        CHECK(l->cmd[i].kind == CS_TS_SEND || l->cmd[i].kind == CS_TS_RECV, "phase %d rank %d command %d: kind %d",
              ph, r, i, (int)l->cmd[i].kind);
    }
  }
}

static void check_same(const cs_tree_script *a, const cs_tree_script *b)
{
  CHECK(strcmp(a->name, b->name) == 0, "name '%s' reads back as '%s'", a->name, b->name);
  CHECK(a->n == b->n && a->root == b->root && a->order == b->order, "header n %d root %d order %d reads back as "
        "n %d root %d order %d", a->n, a->root, (int)a->order, b->n, b->root, (int)b->order);
  for (int ph = 0; ph < 2; ph++)
    for (int r = 0; r < a->n; r++) {
      const cs_ts_list *x = &a->phase[ph][r], *y = &b->phase[ph][r];
      CHECK(x->n == y->n, "phase %d rank %d: %d commands read back as %d", ph, r, x->n, y->n);
      for (int i = 0; i < x->n; i++)
        CHECK(x->cmd[i].kind == y->cmd[i].kind && x->cmd[i].peer == y->cmd[i].peer,
              "phase %d rank %d command %d: %s %d reads back as %s %d", ph, r, i, cs_ts_kind_word(x->cmd[i].kind),
              x->cmd[i].peer, cs_ts_kind_word(y->cmd[i].kind), y->cmd[i].peer);
    }
}

/* Written, read back (and validated back when s validated), written again. */
static void round_trip(const cs_tree_script *s, bool valid)
{
  char *y1 = cs_ts_to_yaml(s);
  GError *err = NULL;
  cs_tree_script *t = valid ? cs_ts_parse(y1, strlen(y1), ORIGIN, &err) : cs_ts_read(y1, strlen(y1), ORIGIN, &err);
  CHECK(t != NULL, "the script as written does not %s back: %s\n--- written:\n%s---", valid ? "validate" : "read",
        err ? err->message : "?", y1);
  check_same(s, t);
  char *y2 = cs_ts_to_yaml(t);
  CHECK(strcmp(y1, y2) == 0, "written twice, the texts differ\n--- first:\n%s--- second:\n%s---", y1, y2);
  g_free(y2);
  cs_ts_free(t);
  g_free(y1);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  /* a private copy of exactly size bytes, so that a read past the end is caught */
  char *text = g_malloc(size ? size : 1);
  memcpy(text, data, size);
  GError *err = NULL;

  cs_tree_script *read = cs_ts_read(text, size, ORIGIN, &err);
  check_error("cs_ts_read", read, &err);
  cs_tree_script *parsed = cs_ts_parse(text, size, ORIGIN, &err);
  check_error("cs_ts_parse", parsed, &err);
  CHECK(!parsed || read, "cs_ts_parse accepts a text cs_ts_read refuses");

  if (read) {
    check_well_formed(read);
    bool valid = cs_ts_validate(read, &err);
    check_error("cs_ts_validate", valid ? read : NULL, &err);
    CHECK(valid == (parsed != NULL), "cs_ts_validate says %d, cs_ts_parse %s", valid, parsed ? "accepts" : "refuses");
    round_trip(read, valid);
  }
  cs_ts_free(parsed);
  cs_ts_free(read);
  g_free(text);
  return 0;
}

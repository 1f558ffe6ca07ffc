/* libFuzzer harness for platform specs (platforms/platform.h):
 * cs_platform_parse, cs_platform_resolve, cs_platform_describe and the
 * platform's derived views.
 *
 * The input, cut at its first NUL byte, is a spec KIND:ARGS[/PARAMS].  Only
 * specs whose KIND names a registered family other than "file" are tried:
 * any other spec goes to the file family (or to the test whether such a
 * file exists), and the harness must not touch the disk.  (Rejecting every
 * spec holding a '/' would also reject every parameter list.)  Properties:
 *  - a platform is returned exactly when no error is set, and an error is
 *    bad input (CS_INPUT_ERROR) with a message;
 *  - a platform has at least one core per node and a valid rank mapping;
 *  - its description starts with its KIND and reads back as a platform with
 *    the same description (docs/platforms.md: "A description reads back as the same
 *    platform; parameters at their default are left out of it");
 *  - resolving it for one rank either fails with bad input or gives at
 *    least one node; the resolved description reads back too (and equals
 *    the first one unless the shape came from n: torus:auto); every rank
 *    of the platform lands on one of its nodes; its two-tier view has as
 *    many nodes, cores and ranks as the platform.
 * A violated property aborts (libFuzzer reports it as a crash). */
#include "platforms/platform.h"
#include "sim/contracts/errors.h"

#include <glib.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FUZZ_NAME "fuzz_platform_spec"
#include "tests/fuzz/fuzz_common.h"

/* The spec names a family that never reads a file. */
static bool in_memory_family(const char *spec)
{
  const char *colon = strchr(spec, ':');
  if (!colon)
    return false;
  char *kind = g_strndup(spec, (gsize)(colon - spec));
  const cs_platform_family *f = cs_platform_family_find(kind);
  bool ok = f && strcmp(f->kind, "file") != 0;
  g_free(kind);
  return ok;
}

static void check_error(const char *what, const char *spec, bool ok, GError **err)
{
  CHECK(ok == (*err == NULL), "%s('%s'): returned %d with error %s", what, spec, ok, *err ? (*err)->message : "(none)");
  if (*err) {
    CHECK((*err)->domain == CS_INPUT_ERROR, "%s('%s'): error outside CS_INPUT_ERROR: %s", what, spec,
          (*err)->message);
    CHECK((*err)->message[0] != '\0', "%s('%s'): empty error message", what, spec);
  }
  g_clear_error(err);
}

static void check_platform(const char *spec, const cs_platform *p)
{
  CHECK(p->family && p->family->kind, "'%s': no family", spec);
  CHECK(p->cores >= 1, "'%s': %d cores per node", spec, p->cores);
  CHECK(p->nodes >= 0, "'%s': %lld nodes", spec, (long long)p->nodes);
  CHECK(p->mapping == CS_MAP_IN_ORDER || p->mapping == CS_MAP_SPREAD, "'%s': mapping %d", spec, (int)p->mapping);
  char *label = cs_platform_label(p);
  CHECK(label && label[0], "'%s': empty label", spec);
  g_free(label);
}

/* Equal doubles, NAN equal to NAN (an unset overhead or bandwidth). */
static bool same_double(double a, double b) { return a == b || (isnan(a) && isnan(b)); }

/* What the interface shows of a platform (the family's own parameters are
 * compared through the description). */
static bool same_platform(const cs_platform *p, const cs_platform *q, bool resolved)
{
  return p->family == q->family && p->cores == q->cores && p->mapping == q->mapping &&
         (!resolved || p->nodes == q->nodes) && same_double(p->o_send, q->o_send) &&
         same_double(p->o_recv, q->o_recv) && same_double(p->header_bytes, q->header_bytes) &&
         same_double(p->link_bw, q->link_bw) && (p->model == q->model || (p->model && q->model &&
         strcmp(p->model, q->model) == 0));
}


/* The description of p reads back as a platform with the same description
 * (resolved for one rank first when `resolve`).  Returns the description. */
static char *check_reads_back(const char *spec, const cs_platform *p, bool resolve)
{
  char *d = cs_platform_describe(p);
  CHECK(d && g_str_has_prefix(d, p->family->kind) && d[strlen(p->family->kind)] == ':',
        "'%s' is described as '%s', not %s:...", spec, d ? d : "(null)", p->family->kind);
  GError *err = NULL;
  cs_platform *q = cs_platform_parse(d, &err);
  CHECK(q, "'%s' is described as '%s', which does not read back: %s", spec, d, err ? err->message : "?");
  if (resolve) {
    bool ok = cs_platform_resolve(q, 1, &err);
    CHECK(ok, "'%s' is described as '%s', which does not resolve: %s", spec, d, err ? err->message : "?");
  }
  char *e = cs_platform_describe(q);
  CHECK(strcmp(d, e) == 0, "'%s' is described as '%s', which reads back as '%s'", spec, d, e);
  CHECK(same_platform(p, q, resolve), "'%s' is described as '%s', which reads back as another platform "
        "(nodes %lld/%lld, cores %d/%d, mapping %d/%d, o_send %.17g/%.17g, o_recv %.17g/%.17g, header %.17g/%.17g, "
        "link_bw %.17g/%.17g)", spec, d, (long long)p->nodes, (long long)q->nodes, p->cores, q->cores,
        (int)p->mapping, (int)q->mapping, p->o_send, q->o_send, p->o_recv, q->o_recv, p->header_bytes,
        q->header_bytes, p->link_bw, q->link_bw);
  g_free(e);
  cs_platform_free(q);
  return d;
}

static void check_resolved(const char *spec, const cs_platform *p)
{
  CHECK(cs_platform_resolved(p) && p->nodes >= 1, "'%s' resolved to %lld nodes", spec, (long long)p->nodes);
  int64_t slots = cs_platform_slots(p);
  CHECK(slots >= 1 && slots / p->cores == p->nodes, "'%s': %lld slots for %lld nodes of %d cores", spec,
        (long long)slots, (long long)p->nodes, p->cores);
  const int64_t ranks[] = {0, 1, slots / 2, slots - 2, slots - 1};
  for (size_t i = 0; i < G_N_ELEMENTS(ranks); i++) {
    if (ranks[i] < 0 || ranks[i] >= slots)
      continue;
    int64_t node = cs_platform_node_of(p, ranks[i]);
    CHECK(node >= 0 && node < p->nodes, "'%s': rank %lld on node %lld of %lld", spec, (long long)ranks[i],
          (long long)node, (long long)p->nodes);
  }
  cs_two_tier tt;
  cs_platform_two_tier(p, &tt);
  CHECK(tt.sn >= 1 && tt.nps >= 1 && tt.sn * tt.nps == p->nodes && tt.cpn == p->cores && tt.p == slots,
        "'%s': two-tier view %lld x %lld x %lld = %lld for %lld nodes of %d cores", spec, (long long)tt.sn,
        (long long)tt.nps, (long long)tt.cpn, (long long)tt.p, (long long)p->nodes, p->cores);
  GError *err = NULL;
  bool fits = cs_platform_check_size(p, &err);
  check_error("cs_platform_check_size", spec, fits, &err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  char *spec = g_strndup((const char *)data, size);
  if (!in_memory_family(spec)) {
    g_free(spec);
    return -1; /* not added to the corpus */
  }
  GError *err = NULL;
  cs_platform *p = cs_platform_parse(spec, &err);
  check_error("cs_platform_parse", spec, p != NULL, &err);
  if (p) {
    check_platform(spec, p);
    bool automatic = !cs_platform_resolved(p);
    char *d0 = check_reads_back(spec, p, false);
    bool ok = cs_platform_resolve(p, 1, &err);
    check_error("cs_platform_resolve", spec, ok, &err);
    if (ok) {
      check_resolved(spec, p);
      char *d1 = check_reads_back(spec, p, true);
      CHECK(automatic || strcmp(d0, d1) == 0, "'%s' is described as '%s', and once resolved as '%s'", spec, d0, d1);
      g_free(d1);
    }
    g_free(d0);
    cs_platform_free(p);
  }
  g_free(spec);
  return 0;
}

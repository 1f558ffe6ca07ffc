/* The selectors: one line per library, each defined in the file named after
 * it (collsim collective --algo auto --selector NAME). */
#include "algorithms/selectors/selector.h"

#include <string.h>

extern const cs_sel_data cs_sel_mpich_data, cs_sel_ompi_data;
bool cs_select_mpich(cs_coll c, int64_t p, uint64_t size, bool commutative, cs_selection *out);
bool cs_select_ompi(cs_coll c, int64_t p, uint64_t size, bool commutative, cs_selection *out);

static const cs_selector selectors[] = {
    {"mpich", "MPICH 4.2.3's default choice for a flat intra-communicator (maint/tuning/coll/mpir/generic.json)",
     cs_select_mpich, &cs_sel_mpich_data},
    {"ompi", "Open MPI 4.1.8's coll/tuned fixed decision (coll_tuned_decision_fixed.c)", cs_select_ompi,
     &cs_sel_ompi_data},
};

size_t cs_selector_count(void) { return G_N_ELEMENTS(selectors); }

const cs_selector *cs_selector_at(size_t i) { return i < cs_selector_count() ? &selectors[i] : NULL; }

const cs_selector *cs_selector_find(const char *name)
{
  for (size_t i = 0; name && i < cs_selector_count(); i++)
    if (strcmp(selectors[i].name, name) == 0)
      return &selectors[i];
  return NULL;
}

char *cs_selector_names(void)
{
  GString *s = g_string_new(NULL);
  for (size_t i = 0; i < cs_selector_count(); i++)
    g_string_append_printf(s, "%s%s", i ? ", " : "", selectors[i].name);
  return g_string_free(s, FALSE);
}

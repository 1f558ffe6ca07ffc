/* `collsim platform`: the platform interface from the command line.
 *   collsim platform --list
 *   collsim platform --platform torus:8x8x16/4 [--out FILE]
 *   collsim platform --platform torus:auto/4 -n 4096
 *   collsim platform --net percs:64,16,16      (the older aliases work too)
 *   collsim platform --platform fattree:4,3 --hierarchy   (the view the algorithms read) */
#include "sim/cli/columns.h"
#include "sim/cli/commands.h"
#include "sim/cli/frontend.h"
#include "sim/contracts/tempdir.h"
#include "sim/drivers/platform_view.h"

#include <stdio.h>
#include <string.h>

static void list_families(void)
{
  printf("%-10s %s\n", "kind", "description");
  for (size_t i = 0; i < cs_platform_family_count(); i++) {
    const cs_platform_family *f = cs_platform_family_at(i);
    printf("%-10s %s\n%-10s   spec: %s\n%-10s   parameters: %s\n", f->kind, f->description, "", f->synopsis, "",
           f->params);
  }
}

/* Write p's XML to --out, or to stdout through a temporary file. */
static int write_xml(const cs_cli *c, const cs_platform *p)
{
  GError *e = NULL;
  if (c->out) {
    if (cs_platform_write_file(p, c->out, &e))
      return 0;
    int rc = cs_cli_fail(c, e);
    g_error_free(e);
    return rc;
  }
  char *tmp = NULL, *text = NULL;
  gsize len = 0;
  int rc = 0;
  if (!cs_platform_write_temp(p, &tmp, &e) || !g_file_get_contents(tmp, &text, &len, &e))
    rc = cs_cli_fail(c, e);
  else
    fwrite(text, 1, len, stdout);
  g_clear_error(&e);
  g_free(text);
  cs_tempfile_remove(tmp);
  g_free(tmp);
  return rc;
}

/* The hierarchy view, as a record. */
static int show_hierarchy(const cs_cli *c, const cs_platform *p)
{
  GError *e = NULL;
  cs_record *r = cs_platform_view(p, &e);
  if (!r) {
    int rc = cs_cli_fail(c, e);
    g_error_free(e);
    return rc;
  }
  int rc = cs_cli_emit(c, &r, 1, cs_record_kind_csv(&cs_platform_record_kind), NULL);
  cs_record_free(r);
  return rc;
}

int cs_platform_main(int argc, char **argv)
{
  int64_t n = 0;
  bool list = false, hierarchy = false, list_columns = false;
  const cs_opt opts[] = {
      {"list", 0, CS_OPT_FLAG, &list, NULL, "list the platform families and their parameters", 0, 0, 0, 0, NULL},
      {"list-columns", 0, CS_OPT_FLAG, &list_columns, NULL, CS_LIST_COLUMNS_HELP, 0, 0, 0, 0, NULL},
      {"n", 'n', CS_OPT_INT, &n, "N", "ranks the platform must hold (sizes torus:auto)", 1, G_MAXINT, 0, 0, NULL},
      {"hierarchy", 0, CS_OPT_FLAG, &hierarchy, NULL,
       "show the platform's hierarchy view (levels, tiers, links per tier, the two-tier projection) instead of its "
       "XML",
       0, 0, 0, 0, NULL},
      {NULL, 0, 0, NULL, NULL, NULL, 0, 0, 0, 0, NULL},
  };
  cs_cli c;
  int rc = cs_cli_parse(&c, "platform", CS_CLI_OUTPUT | CS_CLI_PLATFORM, opts, NULL,
                        "write a platform as SimGrid XML, or list the platform families",
                        "Examples:\n  collsim platform --list\n  collsim platform --platform torus:8x8x16/4 --out "
                        "bgp-2048.xml\n  collsim platform --platform torus:auto/4 -n 4096\n  collsim platform --platform "
                        "percs:64,16,16 --hierarchy\n",
                        argc, argv);
  GError *e = NULL;
  cs_platform *p = NULL;
  if (rc == 0 && c.rest[0])
    rc = cs_cli_usage(&c, "unexpected argument '%s'", c.rest[0]);
  if (rc == 0 && list_columns) {
    rc = cs_cli_list_columns(&c);
  } else if (rc == 0 && list) {
    list_families();
  } else if (rc == 0) {
    bool auto_needs_n = false;
    p = cs_cli_platform(&c, NULL, &e);
    if (p && !cs_platform_resolved(p) && n == 0)
      auto_needs_n = true;
    if (!p || (!auto_needs_n && !cs_platform_resolve(p, n, &e)))
      rc = cs_cli_fail(&c, e);
    else if (auto_needs_n)
      rc = cs_cli_usage(&c, "%s is sized from n: give -n N", p->family->kind);
    else if (hierarchy)
      rc = show_hierarchy(&c, p);
    else if (!p->family->write_xml)
      rc = cs_cli_usage(&c, "a file platform is written already (%s)", p->xml_path);
    else
      rc = write_xml(&c, p);
  }
  g_clear_error(&e);
  cs_platform_free(p);
  cs_cli_free(&c);
  return rc;
}

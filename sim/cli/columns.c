/* The columns of a subcommand's output, listed from their declarations
 * (see columns.h). */
#include "sim/cli/columns.h"
#include "sim/cli/commands.h"

#include <stdio.h>
#include <string.h>

/* One line of the listing is itself a declared record. */
enum { L_RECORD, L_FIELD, L_TYPE, L_UNIT, L_CSV, L_WHEN, L_ROLE, L_MEANING };

static const cs_column listing_columns[] = {
    [L_RECORD] = {"record", CS_COL_TEXT, NULL, "", NULL, 0, "the kind of record"},
    [L_FIELD] = {"field", CS_COL_TEXT, NULL, "", NULL, 0,
                 "the JSON field (a.b: field b of the object a; a.*: a key of the object a)"},
    [L_TYPE] = {"type", CS_COL_TEXT, NULL, "", NULL, 0, "text, integer, number, boolean, integers, record"},
    [L_UNIT] = {"unit", CS_COL_TEXT, NULL, "", NULL, 0, "the unit of its values"},
    [L_CSV] = {"csv_column", CS_COL_TEXT, NULL, "", NULL, 0, "its CSV column (null: JSON and tables only)"},
    [L_WHEN] = {"when", CS_COL_TEXT, NULL, "", NULL, 0, "when the field is there (null: always)"},
    [L_ROLE] = {"role", CS_COL_TEXT, NULL, "", NULL, 0,
                "key: names the run (collsim compare matches rows on it); measured: wall clock, compare ignores it"},
    [L_MEANING] = {"meaning", CS_COL_TEXT, NULL, "", NULL, 0, "what it is"},
};

static const cs_record_kind listing_kind = {"column", "one column of a subcommand's output", listing_columns,
                                            G_N_ELEMENTS(listing_columns), NULL};

static bool in_csv_view(const cs_record_kind *k, const cs_column *col)
{
  if (col->flags & CS_COL_NO_CSV)
    return false;
  if (!k->csv)
    return true;
  for (size_t i = 0; k->csv[i] >= 0; i++)
    if (&k->columns[k->csv[i]] == col)
      return true;
  return false;
}

static const char *role_of(const cs_column *col)
{
  return col->flags & CS_COL_KEY ? "key" : col->flags & CS_COL_MEASURED ? "measured" : NULL;
}

/* The records of kind k's columns; prefix: the enclosing field ("tiers.*."). */
static void add_lines(GPtrArray *out, const char *record, const cs_record_kind *k, const char *prefix, bool csv,
                      const char *when)
{
  for (size_t i = 0; i < k->ncolumns; i++) {
    const cs_column *col = &k->columns[i];
    bool row_key = col->flags & CS_COL_CSV_ONLY && *prefix && g_str_has_suffix(prefix, ".*.") && i == 0;
    char *field = row_key ? g_strndup(prefix, strlen(prefix) - 1) : g_strconcat(prefix, col->name, NULL);
    bool in_csv = csv && !col->rows && in_csv_view(k, col);
    cs_record *r = cs_record_new();
    cs_col_str(r, &listing_columns[L_RECORD], record);
    cs_col_str(r, &listing_columns[L_FIELD], col->flags & CS_COL_CSV_ONLY && !row_key ? NULL : field);
    cs_col_str(r, &listing_columns[L_TYPE], cs_col_type_name(col->type));
    cs_col_str(r, &listing_columns[L_UNIT], *col->unit ? col->unit : NULL);
    cs_col_str(r, &listing_columns[L_CSV], in_csv ? col->name : NULL);
    cs_col_str(r, &listing_columns[L_WHEN], col->when ? col->when : when);
    cs_col_str(r, &listing_columns[L_ROLE], role_of(col));
    cs_col_str(r, &listing_columns[L_MEANING], col->meaning);
    g_ptr_array_add(out, r);
    if (col->rows || col->fields) {
      char *inner = g_strconcat(field, col->rows ? ".*." : ".", NULL);
      add_lines(out, record, col->rows ? col->rows : col->fields, inner, csv && in_csv_view(k, col),
                col->when ? col->when : when);
      g_free(inner);
    }
    g_free(field);
  }
}

static void put_markdown_cell(GString *s, const cs_record *r, const cs_column *col)
{
  char *t = cs_record_text(r, col->name);
  g_string_append_printf(s, " %s |", t && *t ? t : "");
  g_free(t);
}

/* The Markdown table of one kind's lines. */
static void put_markdown(GString *s, const cs_record_kind *k, cs_record *const *lines, size_t n)
{
  g_string_append_printf(s, "### %s\n\n%s.\n\n", k->name, k->meaning);
  g_string_append(s, "| field | type | unit | CSV column | when | role | meaning |\n");
  g_string_append(s, "|---|---|---|---|---|---|---|\n");
  for (size_t i = 0; i < n; i++) {
    g_string_append(s, "|");
    for (int c = L_FIELD; c <= L_MEANING; c++)
      put_markdown_cell(s, lines[i], &listing_columns[c]);
    g_string_append_c(s, '\n');
  }
  g_string_append_c(s, '\n');
}

int cs_cli_list_columns(const cs_cli *c)
{
  const cs_command *cmd = cs_command_named(c->cmd);
  const cs_record_kind *const *kinds = cmd && cmd->records ? cmd->records : (const cs_record_kind *const[]){NULL};
  size_t n = 0;
  while (kinds[n])
    n++;
  GPtrArray *all = g_ptr_array_new_with_free_func((GDestroyNotify)cs_record_free);
  GString *md = g_string_new(NULL);
  for (size_t i = 0; i <= n; i++) {
    const cs_record_kind *k = i < n ? kinds[i] : &cs_config_record_kind;
    GPtrArray *lines = g_ptr_array_new();
    add_lines(lines, k->name, k, "", true, NULL);
    put_markdown(md, k, (cs_record *const *)lines->pdata, lines->len);
    for (guint j = 0; j < lines->len; j++)
      g_ptr_array_add(all, lines->pdata[j]);
    g_ptr_array_free(lines, TRUE);
  }
  int rc = c->fmt == CS_FORMAT_TABLE
               ? cs_cli_emit_text(c, md->str, md->len)
               : cs_cli_emit(c, (cs_record *const *)all->pdata, all->len, cs_record_kind_csv(&listing_kind), NULL);
  g_string_free(md, TRUE);
  g_ptr_array_unref(all);
  return rc;
}

/* ---- every kind ---- */


static void add_flagged(GPtrArray *out, const cs_record_kind *k, unsigned flag)
{
  for (size_t i = 0; i < k->ncolumns; i++) {
    const cs_column *col = &k->columns[i];
    if (col->rows)
      add_flagged(out, col->rows, flag);
    else if (col->flags & flag && !(col->flags & CS_COL_NO_CSV) &&
             !g_ptr_array_find_with_equal_func(out, col->name, g_str_equal, NULL))
      g_ptr_array_add(out, (gpointer)col->name);
  }
}

const char *const *cs_output_columns_with(unsigned flag)
{
  static GHashTable *built; /* flag -> its columns, kept for the run */
  if (!built)
    built = g_hash_table_new(g_direct_hash, g_direct_equal);
  const char *const *names = g_hash_table_lookup(built, GUINT_TO_POINTER(flag));
  if (!names) {
    GPtrArray *out = g_ptr_array_new();
    for (size_t i = 0; i < cs_ncommands; i++)
      for (size_t j = 0; cs_commands[i].records && cs_commands[i].records[j]; j++)
        add_flagged(out, cs_commands[i].records[j], flag);
    add_flagged(out, &cs_config_record_kind, flag);
    g_ptr_array_add(out, NULL);
    names = (const char *const *)g_ptr_array_free(out, FALSE);
    g_hash_table_insert(built, GUINT_TO_POINTER(flag), (gpointer)names);
  }
  return names;
}

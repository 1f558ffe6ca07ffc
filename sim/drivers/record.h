/* A result record and its three renderings (table, CSV, JSON), written once
 * for every subcommand.
 *
 * A record is an ordered list of fields: strings, integers, numbers (each
 * with its printf format, used by every rendering so that a CSV row and a
 * JSON object show the same digits), booleans (true / false in every
 * rendering: one spelling per value), integer lists and nested records.
 *
 * CSV: the subcommand declares its columns (the header never depends on the
 * data, so sweeps can append rows).  A record may name one nested record as
 * its row set (cs_record_set_rows): each field of that nested record that
 * is itself a record becomes one CSV line (its key in the column named by
 * row_key_column), the outer fields repeated (an outer field wins over a
 * row's field of the same name); without rows, one line.
 * Columns a line lacks are left empty.
 * JSON: one object per line, nested records as objects.
 * Table: "key  value" lines; a row set as a small table.
 *
 * Columns are declared once (cs_column, cs_record_kind), next to the
 * driver that fills the record: name, type, printf format, unit, when the
 * column is there (its option group) and a one-line meaning.  Drivers fill
 * records through the declarations (cs_col_*), the CSV header comes from
 * them (cs_record_kind_csv), and `collsim CMD --list-columns` and
 * docs/output-reference.md print them. */
#ifndef COLLSIM_RECORD_H
#define COLLSIM_RECORD_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

typedef struct cs_record cs_record;

cs_record *cs_record_new(void);
void cs_record_free(cs_record *r);

void cs_rec_str(cs_record *r, const char *key, const char *value); /* NULL: null / empty */
void cs_rec_i64(cs_record *r, const char *key, int64_t value);
void cs_rec_u64(cs_record *r, const char *key, uint64_t value);
/* fmt: a printf format for one double ("%.9g"); NaN prints as null / empty. */
void cs_rec_num(cs_record *r, const char *key, double value, const char *fmt);
void cs_rec_bool(cs_record *r, const char *key, bool value);
/* A nested record (owned by r); fill it after the call. */
cs_record *cs_rec_child(cs_record *r, const char *key);
/* Integers as a JSON list (CSV and tables: comma-separated). */
void cs_rec_i64_list(cs_record *r, const char *key, const int64_t *v, size_t n);

/* CSV rows: the nested record `key` holds one record per row; its field
 * names go into column `key_column`. */
void cs_record_set_rows(cs_record *r, const char *key, const char *key_column);

/* Lookup, for tests and for drivers that post-process a record. */
bool cs_record_has(const cs_record *r, const char *key);
/* The field's text as CSV would print it (g_free it); NULL if absent. */
char *cs_record_text(const cs_record *r, const char *key);

/* ---- column declarations ---- */

typedef enum {
  CS_COL_TEXT,    /* a string (null / empty when absent) */
  CS_COL_INT,     /* an integer */
  CS_COL_NUM,     /* a number, printed with the column's format */
  CS_COL_BOOL,    /* true / false in every format */
  CS_COL_INTS,    /* a list of integers (CSV and tables: comma-separated, as options spell them) */
  CS_COL_RECORD,  /* a nested record (JSON object) */
} cs_col_type;

enum {
  CS_COL_KEY = 1u << 0,      /* names a run's configuration: `collsim compare` matches rows on it */
  CS_COL_NO_CSV = 1u << 1,   /* JSON and tables only */
  CS_COL_CSV_ONLY = 1u << 2, /* a CSV column reading a nested field ("picks.S") */
  CS_COL_MEASURED = 1u << 3, /* measured on this machine: compare ignores it */
};

typedef struct cs_record_kind cs_record_kind;

typedef struct cs_column {
  const char *name;
  cs_col_type type;
  const char *fmt;     /* CS_COL_NUM: the printf format of every rendering */
  const char *unit;    /* "s", "bytes", ... ("" when none) */
  const char *when;    /* NULL: always there; else the option or mode that adds it */
  unsigned flags;      /* CS_COL_* */
  const char *meaning; /* one line */
  const cs_record_kind *rows;   /* CS_COL_RECORD: its fields are CSV rows of this kind */
  const cs_record_kind *fields; /* CS_COL_RECORD: one nested record of this kind */
} cs_column;

/* One kind of result record.  csv: the CSV columns as indices into
 * columns, ended by -1; NULL: every column in declaration order (a column
 * with rows gives its rows' columns there), CS_COL_NO_CSV ones left out.
 * A kind of rows names its row key first (the column the row's name goes
 * in, CS_COL_CSV_ONLY). */
struct cs_record_kind {
  const char *name;    /* "tree" */
  const char *meaning; /* one line: what one record is */
  const cs_column *columns;
  size_t ncolumns;
  const int *csv;
};

/* The CSV columns of a kind, NULL-terminated (built once, kept). */
const char *const *cs_record_kind_csv(const cs_record_kind *k);

/* Filling a record through its declarations. */
void cs_col_str(cs_record *r, const cs_column *col, const char *value); /* NULL: null / empty */
void cs_col_null(cs_record *r, const cs_column *col);
void cs_col_i64(cs_record *r, const cs_column *col, int64_t value);
void cs_col_u64(cs_record *r, const cs_column *col, uint64_t value);
void cs_col_num(cs_record *r, const cs_column *col, double value); /* with col->fmt */
void cs_col_bool(cs_record *r, const cs_column *col, bool value);
cs_record *cs_col_child(cs_record *r, const cs_column *col);
void cs_col_i64_list(cs_record *r, const cs_column *col, const int64_t *v, size_t n);
/* CSV rows: col (a CS_COL_RECORD with rows) holds one record per row. */
void cs_col_set_rows(cs_record *r, const cs_column *col);

/* The type's name for documentation ("text", "integer", ...). */
const char *cs_col_type_name(cs_col_type t);

typedef enum { CS_FORMAT_TABLE, CS_FORMAT_CSV, CS_FORMAT_JSON } cs_format;

/* Render records[0..n) in one format.  columns: the CSV header's fields
 * (NULL-terminated); header: print it first.  title: the table's first
 * line (may be NULL).  Tables of rows fit 100 characters unless wide:
 * columns without a value are left out, columns of long text are listed
 * under the table, and the columns that still do not fit are cut from the
 * right with a line saying so (CSV and JSON always hold everything). */
void cs_record_write(FILE *out, cs_format fmt, cs_record *const *records, size_t n, const char *const *columns,
                     bool header, const char *title, bool wide);
/* The CSV header line, without newline (g_free it). */
char *cs_csv_header(const char *const *columns);

/* CSV field quoting (RFC 4180, only when needed) and JSON string escaping. */
void cs_put_csv_text(GString *out, const char *s);
void cs_put_json_text(GString *out, const char *s);

#endif

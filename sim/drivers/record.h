/* A result record and its three renderings (table, CSV, JSON), written once
 * for every subcommand.
 *
 * A record is an ordered list of fields: strings, integers, numbers (each
 * with its printf format, used by every rendering so that a CSV row and a
 * JSON object show the same digits), booleans, verdicts (a word in CSV and
 * tables, a boolean in JSON: "yes" / true), and nested records.
 *
 * CSV: the subcommand declares its columns (the header never depends on the
 * data, so sweeps can append rows).  A record may name one nested record as
 * its row set (cs_record_set_rows): each field of that nested record that
 * is itself a record becomes one CSV line (its key in the column named by
 * row_key_column), the outer fields repeated (an outer field wins over a
 * row's field of the same name); without rows, one line.
 * Columns a line lacks are left empty.
 * JSON: one object per line, nested records as objects.
 * Table: "key  value" lines; a row set as a small table. */
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
/* A verdict: `word` in CSV and tables, `truth` in JSON. */
void cs_rec_verdict(cs_record *r, const char *key, const char *word, bool truth);
/* A nested record (owned by r); fill it after the call. */
cs_record *cs_rec_child(cs_record *r, const char *key);
/* Integers as a JSON list (CSV: space-separated). */
void cs_rec_i64_list(cs_record *r, const char *key, const int64_t *v, size_t n);

/* CSV rows: the nested record `key` holds one record per row; its field
 * names go into column `key_column`. */
void cs_record_set_rows(cs_record *r, const char *key, const char *key_column);

/* Lookup, for tests and for drivers that post-process a record. */
bool cs_record_has(const cs_record *r, const char *key);
/* The field's text as CSV would print it (g_free it); NULL if absent. */
char *cs_record_text(const cs_record *r, const char *key);

typedef enum { CS_FORMAT_TABLE, CS_FORMAT_CSV, CS_FORMAT_JSON } cs_format;

/* Render records[0..n) in one format.  columns: the CSV header's fields
 * (NULL-terminated); header: print it first.  title: the table's first
 * line (may be NULL). */
void cs_record_write(FILE *out, cs_format fmt, cs_record *const *records, size_t n, const char *const *columns,
                     bool header, const char *title);
/* The CSV header line, without newline (g_free it). */
char *cs_csv_header(const char *const *columns);

/* CSV field quoting (RFC 4180, only when needed) and JSON string escaping. */
void cs_put_csv_text(GString *out, const char *s);
void cs_put_json_text(GString *out, const char *s);

#endif

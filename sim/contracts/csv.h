/* Strict CSV (RFC 4180): the one reader of CSV in collsim (`collsim
 * compare`, `collsim sweep`'s resume and its children's rows, the demo's
 * summary).
 *
 * A record ends at LF or CRLF (the last one may lack it); fields are
 * separated by commas; a field that starts with a double quote is quoted:
 * it ends at the next lone quote, holds commas, CR and LF as they are, and
 * writes a quote as two.  Malformed input is an error naming the file, the
 * line and the problem (CS_INPUT_ERROR): an unterminated quoted field, a
 * quote inside an unquoted field, text after a closing quote, a CR not
 * followed by LF outside quotes.  A whole table (cs_csv_read_table) is also
 * text (no NUL byte, valid UTF-8), has a non-empty header, and every row
 * has as many fields as the header.
 *
 * Writing: cs_put_csv_text (sim/drivers/record.h) quotes a field when it
 * holds a comma, a quote, CR or LF. */
#ifndef COLLSIM_SWEEP_CSV_H
#define COLLSIM_SWEEP_CSV_H

#include <glib.h>
#include <stdbool.h>
#include <stddef.h>

/* Reads records one after the other from text[0..len). */
typedef struct cs_csv_reader {
  const char *text;
  size_t len;
  size_t pos;         /* where the next record starts */
  int line;           /* its line number (1-based) */
  const char *name;   /* names the text in messages */
  /* the record last read: its bytes (without the line ending) and first line */
  size_t record_start, record_end;
  int record_line;
} cs_csv_reader;

void cs_csv_reader_init(cs_csv_reader *r, const char *text, size_t len, const char *name);

/* The next record: 1 with *fields (a GPtrArray of char *, unref it), 0 at
 * the end of the text, -1 when it is malformed (err set, "NAME:LINE: ..."). */
int cs_csv_reader_next(cs_csv_reader *r, GPtrArray **fields, GError **err);

/* A whole file's text: header (GPtrArray of char *) and rows (GPtrArray of
 * such arrays), every row as wide as the header.  false with err set when
 * the text is not such a table (see above). */
bool cs_csv_read_table(const char *text, size_t len, const char *name, GPtrArray **header, GPtrArray **rows,
                       GError **err);

/* The fields of one record written as one line (no line ending outside
 * quotes): a GPtrArray of char * (unref it); "" is one empty field.  NULL
 * when the line is malformed or holds more than one record. */
GPtrArray *cs_csv_fields(const char *line);

/* The length of the first record of text[0..len) up to its LF (not
 * included), quotes understood; -1 when no complete record (no LF outside
 * quotes). */
gssize cs_csv_first_record_length(const char *text, size_t len);

#endif

/* The C API (lexlink/lexlink_c.h) tested from C: the bad-input table of every entry point
 * (tests/data/lexlink/bad-input.tsv), citations and their offsets in three units (checked against
 * this file's own decoding of the text), markup and unmark, the URN toolkit, and one extractor
 * shared by threads. Usage: c_api_test SOURCE_DIR. Exit status 0 when every check passed; each
 * failure is printed. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lexlink/lexlink_c.h"

static const char* source_dir;
static int failures;

#define CHECK(cond, ...)                                                       \
  do {                                                                         \
    if (!(cond)) {                                                             \
      ++failures;                                                              \
      fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond); \
      fprintf(stderr, __VA_ARGS__);                                            \
      fputc('\n', stderr);                                                     \
    }                                                                          \
  } while (0)

/* SOURCE_DIR/relative in a static buffer (one at a time). */
static const char* source_path(const char* relative) {
  static char path[4096];
  snprintf(path, sizeof path, "%s/%s", source_dir, relative);
  return path;
}

/* The whole of a file, NUL-terminated; *length its size. */
static char* read_file(const char* path, size_t* length) {
  FILE* f = fopen(path, "rb");
  if (f == NULL) return NULL;
  size_t cap = 4096, n = 0, got;
  char* buf = malloc(cap);
  while (buf != NULL && (got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
    n += got;
    if (cap - n - 1 == 0) buf = realloc(buf, cap *= 2);
  }
  fclose(f);
  if (buf == NULL) return NULL;
  buf[n] = '\0';
  *length = n;
  return buf;
}

/* --- The bad-input table -------------------------------------------------------------------- */

typedef struct {
  char* fields[6];
  int line;
} Row;

/* Decodes the input column's escapes in place; returns the length. */
static size_t unescape(char* s) {
  char *out = s, *in = s;
  while (*in != '\0') {
    if (in[0] == '\\' && in[1] == 'x' && in[2] != '\0' && in[3] != '\0') {
      char hex[3] = {in[2], in[3], '\0'};
      *out++ = (char)strtol(hex, NULL, 16);
      in += 4;
    } else if (in[0] == '\\' && (in[1] == 'n' || in[1] == 't' || in[1] == '\\')) {
      *out++ = in[1] == 'n' ? '\n' : in[1] == 't' ? '\t' : '\\';
      in += 2;
    } else {
      *out++ = *in++;
    }
  }
  *out = '\0';
  return (size_t)(out - s);
}

/* The value of `key=` in a space-separated options column, in a static buffer; NULL: absent. */
static const char* option(const char* options, const char* key) {
  static char value[1024];
  size_t k = strlen(key);
  for (const char* p = options; p != NULL && *p != '\0';) {
    if (strncmp(p, key, k) == 0 && p[k] == '=') {
      size_t n = strcspn(p + k + 1, " ");
      if (n >= sizeof value) n = sizeof value - 1;
      memcpy(value, p + k + 1, n);
      value[n] = '\0';
      return value;
    }
    p = strchr(p, ' ');
    if (p != NULL) ++p;
  }
  return NULL;
}

static const char* status_name(lexlink_status s) {
  switch (s) {
    case LEXLINK_OK: return "OK";
    case LEXLINK_ERROR_INVALID_ARGUMENT: return "INVALID_ARGUMENT";
    case LEXLINK_ERROR_DATA: return "DATA";
    case LEXLINK_ERROR_NOT_FOUND: return "NOT_FOUND";
    case LEXLINK_ERROR_IO: return "IO";
    case LEXLINK_ERROR_LIMIT_EXCEEDED: return "LIMIT_EXCEEDED";
    case LEXLINK_ERROR_UNSUPPORTED: return "UNSUPPORTED";
    case LEXLINK_ERROR_NO_MEMORY: return "NO_MEMORY";
    case LEXLINK_ERROR_INTERNAL: return "INTERNAL";
  }
  return "?";
}

/* Opens an extractor as the options column says (the source tree's data by default). */
static lexlink_status open_extractor(const char* options, lexlink_extractor** x,
                                     lexlink_error** err) {
  lexlink_options o;
  lexlink_options_init(&o);
  char data[4096];
  const char* d = option(options, "data");
  snprintf(data, sizeof data, "%s/%s", source_dir, d != NULL ? d : "");
  o.data_folder = data;
  char jurisdictions[256] = "";
  const char* j = option(options, "jurisdictions");
  if (j != NULL) {
    snprintf(jurisdictions, sizeof jurisdictions, "%s", j);
    o.jurisdictions = jurisdictions;
  }
  const char* max = option(options, "max");
  if (max != NULL) o.max_document_bytes = strtoull(max, NULL, 10);
  o.cache_folder = "-";
  return lexlink_extractor_open(&o, x, err);
}

/* Runs one row's call; returns its status and sets *err. */
static lexlink_status run_row(const Row* row, lexlink_error** err) {
  const char* call = row->fields[1];
  const char* options = strcmp(row->fields[2], "-") == 0 ? "" : row->fields[2];
  char* input = row->fields[3];
  int is_null = strcmp(input, "NULL") == 0;
  size_t length = strcmp(input, "-") == 0 ? 0 : unescape(input);
  const char* doc = is_null ? NULL : input;
  if (is_null) length = 16; /* a length with a NULL pointer: still refused */

  if (strncmp(call, "urn_", 4) == 0 || strcmp(call, "unmark") == 0) {
    lexlink_urn_options u;
    lexlink_urn_options_init(&u);
    const char* max_length = option(options, "max_length");
    if (max_length != NULL) u.max_length = (size_t)strtoull(max_length, NULL, 10);
    char* out = NULL;
    size_t out_length = 0;
    lexlink_status s;
    if (strcmp(call, "urn_validate") == 0) {
      s = lexlink_urn_validate(doc, length, &u, err);
    } else if (strcmp(call, "urn_normalize") == 0) {
      s = lexlink_urn_normalize(doc, length, &u, 0, &out, err);
    } else if (strcmp(call, "urn_parse") == 0) {
      s = lexlink_urn_parse(doc, length, &u, &out, err);
    } else {
      s = lexlink_unmark(doc, length, &out, &out_length, err);
    }
    CHECK(s == LEXLINK_OK || out == NULL, "%s: output set on failure", row->fields[0]);
    lexlink_string_free(out);
    return s;
  }
  lexlink_extractor* x = NULL;
  lexlink_status s = open_extractor(options, &x, err);
  if (strcmp(call, "open") == 0 || s != LEXLINK_OK) {
    CHECK(s == LEXLINK_OK || x == NULL, "%s: extractor set on failure", row->fields[0]);
    lexlink_extractor_free(x);
    return s;
  }
  lexlink_document_options d;
  lexlink_document_options_init(&d);
  char encoding[64] = "";
  const char* e = option(options, "encoding");
  if (e != NULL) {
    snprintf(encoding, sizeof encoding, "%s", e);
    d.encoding = encoding;
  }
  lexlink_citations cites;
  if (strcmp(call, "extract") == 0) {
    s = lexlink_extract(x, doc, length, &d, &cites, err);
    CHECK(s == LEXLINK_OK || cites.count == 0, "%s: citations on failure", row->fields[0]);
    lexlink_citations_free(&cites);
  } else if (strcmp(call, "extract_file") == 0) {
    s = lexlink_extract_file(x, is_null ? NULL : source_path(input), &d, &cites, err);
    CHECK(s == LEXLINK_OK || cites.count == 0, "%s: citations on failure", row->fields[0]);
    lexlink_citations_free(&cites);
  } else if (strcmp(call, "markup") == 0) {
    lexlink_markup_options m;
    lexlink_markup_options_init(&m);
    m.document = d;
    char profile[64] = "";
    const char* p = option(options, "profile");
    if (p != NULL) {
      snprintf(profile, sizeof profile, "%s", p);
      m.profile = profile;
    }
    char* out = NULL;
    size_t out_length = 0, linked = 0, found = 0;
    s = lexlink_markup(x, doc, length, &m, &out, &out_length, &linked, &found, err);
    CHECK(s == LEXLINK_OK || out == NULL, "%s: output set on failure", row->fields[0]);
    lexlink_string_free(out);
  } else {
    fprintf(stderr, "bad-input.tsv:%d: unknown call '%s'\n", row->line, call);
    ++failures;
  }
  lexlink_extractor_free(x);
  return s;
}

static void test_bad_input_table(void) {
  size_t size = 0;
  char* table = read_file(source_path("tests/data/lexlink/bad-input.tsv"), &size);
  CHECK(table != NULL, "cannot read tests/data/lexlink/bad-input.tsv");
  if (table == NULL) return;
  int line = 0, rows = 0, header = 1;
  for (char* next = table; next != NULL && *next != '\0';) {
    char* text = next;
    next = strchr(text, '\n');
    if (next != NULL) *next++ = '\0';
    ++line;
    if (text[0] == '#' || text[0] == '\0') continue;
    if (header) {
      header = 0;
      continue;
    }
    Row row = {{NULL}, line};
    int n = 0;
    for (char* f = text; n < 6 && f != NULL; ++n) {
      row.fields[n] = f;
      f = strchr(f, '\t');
      if (f != NULL) *f++ = '\0';
    }
    if (n != 6) {
      fprintf(stderr, "bad-input.tsv:%d: expected 6 fields, got %d\n", line, n);
      ++failures;
      continue;
    }
    ++rows;
    lexlink_error* err = NULL;
    lexlink_status s = run_row(&row, &err);
    const char* want = row.fields[4];
    const char* message = err != NULL ? lexlink_error_message(err) : "";
    CHECK(strcmp(status_name(s), want) == 0, "bad-input.tsv:%d: %s: status %s, expected %s (%s)",
          line, row.fields[0], status_name(s), want, message);
    if (s != LEXLINK_OK) {
      CHECK(err != NULL && lexlink_error_code(err) == s, "bad-input.tsv:%d: %s: no error object",
            line, row.fields[0]);
      CHECK(message[0] != '\0', "bad-input.tsv:%d: %s: empty message", line, row.fields[0]);
      CHECK(strcmp(row.fields[5], "-") == 0 || strstr(message, row.fields[5]) != NULL,
            "bad-input.tsv:%d: %s: message '%s' lacks '%s'", line, row.fields[0], message,
            row.fields[5]);
    } else {
      CHECK(err == NULL, "bad-input.tsv:%d: %s: error object on success", line, row.fields[0]);
    }
    lexlink_error_free(err);
  }
  CHECK(rows >= 20, "only %d rows in bad-input.tsv", rows);
  free(table);
}

/* --- Citations and their offsets ------------------------------------------------------------ */

/* Code points and UTF-16 units of the UTF-8 text [0, n): this test's own decoding. */
static void count_units(const char* s, size_t n, uint64_t* code_points, uint64_t* utf16) {
  *code_points = *utf16 = 0;
  for (size_t i = 0; i < n; ++i) {
    unsigned char c = (unsigned char)s[i];
    if ((c & 0xC0) == 0x80) continue; /* a continuation byte */
    ++*code_points;
    *utf16 += c >= 0xF0 ? 2 : 1; /* four-byte sequences lie outside the BMP */
  }
}

static lexlink_extractor* open_default(void) {
  lexlink_extractor* x = NULL;
  lexlink_error* err = NULL;
  if (open_extractor("", &x, &err) != LEXLINK_OK) {
    fprintf(stderr, "cannot open the extractor: %s\n", lexlink_error_message(err));
    lexlink_error_free(err);
    exit(1);
  }
  return x;
}

static void test_citations(lexlink_extractor* x) {
  CHECK(strcmp(lexlink_extractor_data_folder(x), source_path("")) == 0, "data folder %s",
        lexlink_extractor_data_folder(x));
  CHECK(strstr(lexlink_extractor_jurisdictions(x), "it") != NULL &&
            strstr(lexlink_extractor_jurisdictions(x), "br") != NULL,
        "jurisdictions %s", lexlink_extractor_jurisdictions(x));
  size_t n = 0;
  char* text = read_file(source_path("tests/data/lexlink/paragraph-it.txt"), &n);
  CHECK(text != NULL, "cannot read paragraph-it.txt");
  if (text == NULL) return;
  lexlink_citations from_buffer, from_file;
  lexlink_error* err = NULL;
  CHECK(lexlink_extract(x, text, n, NULL, &from_buffer, &err) == LEXLINK_OK, "extract: %s",
        lexlink_error_message(err));
  CHECK(lexlink_extract_file(x, source_path("tests/data/lexlink/paragraph-it.txt"), NULL,
                             &from_file, &err) == LEXLINK_OK,
        "extract_file: %s", lexlink_error_message(err));
  const char* want[] = {"urn:lex:it:stato:decreto.legislativo:2001-03-30;165",
                        "urn:lex:it:stato:legge:2000-04-03;56~art3-com2"};
  CHECK(from_buffer.count == 2, "%zu citations, expected 2", from_buffer.count);
  CHECK(from_file.count == from_buffer.count, "file %zu, buffer %zu citations", from_file.count,
        from_buffer.count);
  for (size_t i = 0; i < from_buffer.count && i < 2; ++i) {
    const lexlink_citation* c = &from_buffer.items[i];
    CHECK(strcmp(c->urn, want[i]) == 0, "citation %zu: %s, expected %s", i, c->urn, want[i]);
    CHECK(strncmp(c->work, want[i], strlen(c->work)) == 0, "work %s of %s", c->work, c->urn);
    CHECK(strcmp(c->jurisdiction, "it") == 0 && c->complete && c->rule[0] != '\0',
          "citation %zu: jurisdiction %s complete %d rule %s", i, c->jurisdiction, c->complete,
          c->rule);
    CHECK(c->byte_end > c->byte_start && c->byte_end <= n, "citation %zu: bytes %llu-%llu", i,
          (unsigned long long)c->byte_start, (unsigned long long)c->byte_end);
    uint64_t cp0, u0, cp1, u1;
    count_units(text, (size_t)c->byte_start, &cp0, &u0);
    count_units(text, (size_t)c->byte_end, &cp1, &u1);
    CHECK(c->cp_start == cp0 && c->cp_end == cp1 && c->utf16_start == u0 && c->utf16_end == u1,
          "citation %zu: code points %llu-%llu (expected %llu-%llu), utf16 %llu-%llu (%llu-%llu)",
          i, (unsigned long long)c->cp_start, (unsigned long long)c->cp_end,
          (unsigned long long)cp0, (unsigned long long)cp1, (unsigned long long)c->utf16_start,
          (unsigned long long)c->utf16_end, (unsigned long long)u0, (unsigned long long)u1);
    CHECK(c->text_length == strlen(c->text) && c->text_length > 0, "citation %zu: text_length", i);
    const lexlink_citation* f = &from_file.items[i];
    CHECK(i < from_file.count && strcmp(f->urn, c->urn) == 0 && f->byte_start == c->byte_start &&
              f->utf16_end == c->utf16_end,
          "citation %zu differs between file and buffer", i);
  }
  /* The second citation follows U+2019 (3 bytes, 1 unit); the text ends with U+1F600 and
   * U+20000 (4 bytes, 2 units each): the last units are checked against the end of the text. */
  uint64_t cps, units;
  count_units(text, n, &cps, &units);
  CHECK(units == cps + 2, "the paragraph has %llu code points and %llu units",
        (unsigned long long)cps, (unsigned long long)units);
  lexlink_citations_free(&from_buffer);
  lexlink_citations_free(&from_file);
  CHECK(from_buffer.count == 0 && from_buffer.items == NULL, "citations_free leaves items");
  lexlink_citations_free(&from_buffer); /* twice is harmless */
  free(text);
}

/* A NUL byte inside a citation (the US form "July 30, 1947, <NUL>ch. 392" that c_api_fuzz
 * found): the text holds it, and text_length counts past it. */
static void test_nul_in_citation(lexlink_extractor* x) {
  static const char doc[] = "(July 30, 1947, \0ch. 392, 61 Stat. 670.)\n";
  lexlink_citations cites;
  lexlink_error* err = NULL;
  CHECK(lexlink_extract(x, doc, sizeof doc - 1, NULL, &cites, &err) == LEXLINK_OK, "extract: %s",
        lexlink_error_message(err));
  int found = 0;
  for (size_t i = 0; i < cites.count; ++i) {
    const lexlink_citation* c = &cites.items[i];
    if (c->byte_start < 16 && c->byte_end > 16) {
      found = 1;
      CHECK(c->text_length > strlen(c->text) && c->text[c->text_length] == '\0',
            "a NUL inside: text_length %zu, strlen %zu", c->text_length, strlen(c->text));
    }
  }
  CHECK(found, "no citation over the NUL byte (%zu citations)", cites.count);
  lexlink_citations_free(&cites);
  lexlink_error_free(err);
}

static void test_markup_and_unmark(lexlink_extractor* x) {
  const char* html = "<p>Visto l'art. 3, comma 2, della <b>legge</b> 3 aprile 2000, n. 56.</p>";
  char* out = NULL;
  size_t length = 0, linked = 0, found = 0;
  lexlink_error* err = NULL;
  lexlink_status s =
      lexlink_markup(x, html, strlen(html), NULL, &out, &length, &linked, &found, &err);
  CHECK(s == LEXLINK_OK, "markup: %s", lexlink_error_message(err));
  if (s != LEXLINK_OK) return;
  CHECK(strlen(out) == length, "markup length %zu, string %zu", length, strlen(out));
  CHECK(found == 1 && linked == 1, "found %zu linked %zu", found, linked);
  CHECK(strstr(out, "href=\"urn:lex:it:stato:legge:2000-04-03;56~art3-com2\"") != NULL,
        "no link in %s", out);
  char* back = NULL;
  size_t back_length = 0;
  CHECK(lexlink_unmark(out, length, &back, &back_length, &err) == LEXLINK_OK, "unmark: %s",
        lexlink_error_message(err));
  CHECK(back != NULL && back_length == strlen(html) && memcmp(back, html, back_length) == 0,
        "unmark(markup(x)) != x: %s", back != NULL ? back : "(null)");
  lexlink_string_free(back);
  lexlink_string_free(out);
}

static void test_urn_toolkit(void) {
  const char* name = "URN:LEX:IT:Stato:Legge:2000-04-03;56~Art3";
  char* out = NULL;
  lexlink_error* err = NULL;
  CHECK(lexlink_urn_normalize(name, strlen(name), NULL, 0, &out, &err) == LEXLINK_OK,
        "normalize: %s", lexlink_error_message(err));
  CHECK(out != NULL && strcmp(out, "urn:lex:it:stato:legge:2000-04-03;56~Art3") == 0,
        "normalize gave %s", out != NULL ? out : "(null)");
  lexlink_string_free(out);
  const char* sanita = "urn:lex:it:ministero.sanit%C3%A0:decreto:2000-01-01;1";
  CHECK(lexlink_urn_normalize(sanita, strlen(sanita), NULL, 1, &out, &err) == LEXLINK_OK,
        "normalize fold: %s", lexlink_error_message(err));
  CHECK(out != NULL && strcmp(out, "urn:lex:it:ministero.sanita:decreto:2000-01-01;1") == 0,
        "fold gave %s", out != NULL ? out : "(null)");
  lexlink_string_free(out);
  char* json = NULL;
  CHECK(lexlink_urn_parse(name, strlen(name), NULL, &json, &err) == LEXLINK_OK, "parse: %s",
        lexlink_error_message(err));
  CHECK(json != NULL && strstr(json, "\"canonical\"") != NULL && strstr(json, "\"art3\"") == NULL,
        "parse gave %s", json != NULL ? json : "(null)");
  lexlink_string_free(json);
  /* A NULL error pointer is allowed: the status alone comes back. */
  CHECK(lexlink_urn_validate("urn:lex", 7, NULL, NULL) == LEXLINK_ERROR_INVALID_ARGUMENT,
        "validate with a NULL error pointer");
  lexlink_error_free(NULL);
  lexlink_string_free(NULL);
  lexlink_extractor_free(NULL);
  lexlink_citations_free(NULL);
  CHECK(lexlink_version()[0] >= '0' && lexlink_version()[0] <= '9', "version %s",
        lexlink_version());
}

/* --- Threads -------------------------------------------------------------------------------- */

typedef struct {
  const lexlink_extractor* x;
  const char* text;
  size_t length;
  char first[256];
  size_t count;
  int failed;
} Work;

static void* extract_many(void* arg) {
  Work* w = arg;
  for (int k = 0; k < 200 && !w->failed; ++k) {
    lexlink_citations cites;
    if (lexlink_extract(w->x, w->text, w->length, NULL, &cites, NULL) != LEXLINK_OK) {
      w->failed = 1;
      break;
    }
    if (k == 0) {
      w->count = cites.count;
      if (cites.count > 0) snprintf(w->first, sizeof w->first, "%s", cites.items[0].urn);
    } else if (cites.count != w->count ||
               (cites.count > 0 && strcmp(cites.items[0].urn, w->first) != 0)) {
      w->failed = 1;
    }
    lexlink_citations_free(&cites);
  }
  return NULL;
}

static void test_threads(lexlink_extractor* x) {
  const char* texts[] = {
      "ai sensi dell'art. 5 della legge 3 aprile 2000, n. 56, e del d.lgs. 165/2001",
      "nos termos da Lei n\xc2\xba 8.078, de 11 de setembro de 1990",
      "<p>section 6(1) of the Transport Act 1985</p>",
      "Visto il decreto del Presidente della Repubblica 28 dicembre 2000, n. 445"};
  enum { kThreads = 4 };
  pthread_t threads[kThreads];
  Work work[kThreads];
  for (int t = 0; t < kThreads; ++t) {
    memset(&work[t], 0, sizeof work[t]);
    work[t].x = x;
    work[t].text = texts[t];
    work[t].length = strlen(texts[t]);
    CHECK(pthread_create(&threads[t], NULL, extract_many, &work[t]) == 0, "pthread_create");
  }
  for (int t = 0; t < kThreads; ++t) {
    pthread_join(threads[t], NULL);
    CHECK(!work[t].failed && work[t].count > 0, "thread %d: failed %d, %zu citations", t,
          work[t].failed, work[t].count);
  }
}

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: c_api_test SOURCE_DIR\n");
    return 2;
  }
  source_dir = argv[1];
  test_bad_input_table();
  lexlink_extractor* x = open_default();
  test_citations(x);
  test_nul_in_citation(x);
  test_markup_and_unmark(x);
  test_urn_toolkit();
  test_threads(x);
  lexlink_extractor_free(x);
  if (failures > 0) {
    fprintf(stderr, "%d checks failed\n", failures);
    return 1;
  }
  puts("c_api_test: all checks passed");
  return 0;
}

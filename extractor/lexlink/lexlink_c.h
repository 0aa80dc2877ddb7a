/* lexlink/lexlink_c.h: the lexlink library's C API (C99 and later; C++ may call it too).
 *
 * lexlink finds citations of sources of law in plain text, HTML and XML, names them with
 * URN:LEX (RFC 9676), and writes documents back with links on their citations. This is the
 * interface Python, JavaScript (WebAssembly or N-API), Java (JNI/FFM) and .NET bindings call.
 *
 *   lexlink_extractor* x = NULL;
 *   lexlink_error* err = NULL;
 *   if (lexlink_extractor_open(NULL, &x, &err) != LEXLINK_OK) {
 *     fprintf(stderr, "%s\n", lexlink_error_message(err));
 *     lexlink_error_free(err);
 *     return 1;
 *   }
 *   lexlink_citations cites;
 *   if (lexlink_extract(x, text, strlen(text), NULL, &cites, &err) == LEXLINK_OK) {
 *     for (size_t i = 0; i < cites.count; ++i) puts(cites.items[i].urn);
 *     lexlink_citations_free(&cites);
 *   }
 *   lexlink_extractor_free(x);
 *
 * Errors: every function that can fail returns a lexlink_status; LEXLINK_OK is 0. On failure,
 * when `error` is not NULL, *error receives an error object the caller frees with
 * lexlink_error_free() (its message says what went wrong and, for a data file, where:
 * "file:line:col: message"). No C++ exception and no abort crosses this interface: running out of
 * memory is LEXLINK_ERROR_NO_MEMORY, a bug is LEXLINK_ERROR_INTERNAL.
 *
 * Ownership: what a function hands back (an extractor, citations, a string, an error) belongs to
 * the caller until freed with its own function; nothing returned points into the caller's
 * buffers, which are read during the call only. Every free function accepts NULL.
 *
 * Threads: an extractor is immutable once opened; any number of threads may use one extractor at
 * once. Other objects are used by one thread at a time. No global state.
 *
 * Offsets: every citation carries its span in bytes of the document as given, in Unicode code
 * points and in UTF-16 code units.
 *
 * Options structs: initialise with the matching *_init() function, which sets the defaults and
 * `struct_size` (so that later versions may add fields at the end); NULL means the defaults.
 */
#ifndef LEXLINK_LEXLINK_C_H
#define LEXLINK_LEXLINK_C_H

#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__) || defined(__clang__)
#define LEXLINK_C_API __attribute__((visibility("default")))
#else
#define LEXLINK_C_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

typedef enum lexlink_status {
  LEXLINK_OK = 0,
  LEXLINK_ERROR_INVALID_ARGUMENT = 1, /* a bad option, NULL, an empty buffer, invalid UTF-8 */
  LEXLINK_ERROR_DATA = 2,             /* a grammar or lexicon file is malformed */
  LEXLINK_ERROR_NOT_FOUND = 3,        /* no such data folder, jurisdiction or file */
  LEXLINK_ERROR_IO = 4,               /* reading a file failed */
  LEXLINK_ERROR_LIMIT_EXCEEDED = 5,   /* a document or name over the configured size */
  LEXLINK_ERROR_UNSUPPORTED = 6,      /* a file that looks binary */
  LEXLINK_ERROR_NO_MEMORY = 7,
  LEXLINK_ERROR_INTERNAL = 8 /* a bug: please report it */
} lexlink_status;

typedef struct lexlink_error lexlink_error;
typedef struct lexlink_extractor lexlink_extractor;

/* The error's code, and its message (valid until the error is freed; never NULL for a non-NULL
 * error). */
LEXLINK_C_API lexlink_status lexlink_error_code(const lexlink_error* error);
LEXLINK_C_API const char* lexlink_error_message(const lexlink_error* error);
LEXLINK_C_API void lexlink_error_free(lexlink_error* error);

/* "MAJOR.MINOR.PATCH" (static storage). */
LEXLINK_C_API const char* lexlink_version(void);

/* --- Opening an extractor ---------------------------------------------------------------- */

typedef struct lexlink_options {
  size_t struct_size;
  /* The folder holding grammars/ and lexicons/; NULL: $LEXLINK_DATA, else the installed data
   * (PREFIX/share/lexlink), else the source tree the library was built from. */
  const char* data_folder;
  /* Space- or comma-separated jurisdictions ("it", "it eu"); NULL or "auto": every jurisdiction
   * of the data folder, each document read with the one its text fits best. */
  const char* jurisdictions;
  int reference_engine; /* nonzero: RE2 alone, the slow reference path */
  /* Where compiled trigger databases are cached; NULL: the user's cache folder; "-": none. */
  const char* cache_folder;
  uint64_t max_document_bytes; /* longer documents are refused; 0: no limit (default 256 MiB) */
} lexlink_options;

LEXLINK_C_API void lexlink_options_init(lexlink_options* options);

/* Loads and compiles the grammars (tens of milliseconds; the trigger database is cached). */
LEXLINK_C_API lexlink_status lexlink_extractor_open(const lexlink_options* options,
                                                    lexlink_extractor** out, lexlink_error** error);
LEXLINK_C_API void lexlink_extractor_free(lexlink_extractor* extractor);

/* The data folder the extractor was loaded from, and the jurisdictions it loaded, space-separated
 * ("br eu fr it uk us za"): valid while the extractor lives; "" for NULL. */
LEXLINK_C_API const char* lexlink_extractor_data_folder(const lexlink_extractor* extractor);
LEXLINK_C_API const char* lexlink_extractor_jurisdictions(const lexlink_extractor* extractor);

/* --- Finding citations ------------------------------------------------------------------- */

typedef enum lexlink_format {
  LEXLINK_FORMAT_AUTO = 0,
  LEXLINK_FORMAT_TEXT = 1,
  LEXLINK_FORMAT_HTML = 2,
  LEXLINK_FORMAT_XML = 3
} lexlink_format;

typedef struct lexlink_document_options {
  size_t struct_size;
  lexlink_format format;
  /* NULL or "auto": told from the document; else utf-8, utf-16le, utf-16be, iso-8859-1,
   * windows-1252, iso-8859-15 or an alias. With "utf-8", invalid UTF-8 is refused. */
  const char* encoding;
  const char* self_urn; /* the document's own name ("del presente decreto"); NULL: none */
} lexlink_document_options;

LEXLINK_C_API void lexlink_document_options_init(lexlink_document_options* options);

typedef struct lexlink_citation {
  uint64_t byte_start, byte_end;   /* in the document's bytes as given: [start, end) */
  uint64_t cp_start, cp_end;       /* in Unicode code points */
  uint64_t utf16_start, utf16_end; /* in UTF-16 code units */
  const char* text;                /* the cited text, as read (NUL-terminated) */
  size_t text_length;              /* its bytes (it holds NUL bytes where the document does) */
  const char* urn;                 /* the act, plus "~partition" when a partition is cited */
  const char* work;                /* the act */
  const char* jurisdiction;        /* "it", "eu", ... */
  const char* rule;                /* the grammar rule that read it */
  int complete;                    /* 0 for a partial name */
  int inner;                       /* the act named inside a citation of its partition */
} lexlink_citation;

/* An array of citations: `items[0 .. count)`; its strings (UTF-8, NUL-terminated) live as long
 * as the array. */
typedef struct lexlink_citations {
  size_t count;
  const lexlink_citation* items;
  void* internal; /* the library's: do not touch */
} lexlink_citations;

/* The citations of `document` (`length` bytes), in document order. Errors: a NULL or empty
 * document, invalid UTF-8 when the encoding is "utf-8", a bad option
 * (LEXLINK_ERROR_INVALID_ARGUMENT); over max_document_bytes (LEXLINK_ERROR_LIMIT_EXCEEDED). On
 * failure `*out` is left empty (count 0), and lexlink_citations_free() may still be called. */
LEXLINK_C_API lexlink_status lexlink_extract(const lexlink_extractor* extractor,
                                             const char* document, size_t length,
                                             const lexlink_document_options* options,
                                             lexlink_citations* out, lexlink_error** error);
/* The same for a file ("-": standard input); .gz and .zst files are decompressed. */
LEXLINK_C_API lexlink_status lexlink_extract_file(const lexlink_extractor* extractor,
                                                  const char* path,
                                                  const lexlink_document_options* options,
                                                  lexlink_citations* out, lexlink_error** error);
LEXLINK_C_API void lexlink_citations_free(lexlink_citations* citations);

/* --- Linking citations ------------------------------------------------------------------- */

typedef struct lexlink_markup_options {
  size_t struct_size;
  lexlink_document_options document;
  /* "auto" (by the document), "html", "akn", "nir", "lexml", "lexml-span"; NULL: auto. */
  const char* profile;
  int resolver_href;  /* nonzero: link to the jurisdiction's resolver, not the URN itself */
  char partition_sep; /* '~' or '#'; 0: '~' for URN links, '#' for resolver links */
} lexlink_markup_options;

LEXLINK_C_API void lexlink_markup_options_init(lexlink_markup_options* options);

/* The document with a link on every citation, every other byte unchanged: `*out` (NUL-terminated,
 * `*out_length` bytes without the NUL) is freed with lexlink_string_free(). `linked` and
 * `found`, when not NULL, receive how many citations were linked and found. */
LEXLINK_C_API lexlink_status lexlink_markup(const lexlink_extractor* extractor,
                                            const char* document, size_t length,
                                            const lexlink_markup_options* options, char** out,
                                            size_t* out_length, size_t* linked, size_t* found,
                                            lexlink_error** error);

/* The document without the links lexlink inserted: unmark(markup(x)) == x. */
LEXLINK_C_API lexlink_status lexlink_unmark(const char* document, size_t length, char** out,
                                            size_t* out_length, lexlink_error** error);

LEXLINK_C_API void lexlink_string_free(char* string);

/* --- The URN:LEX toolkit ----------------------------------------------------------------- */

typedef struct lexlink_urn_options {
  size_t struct_size;
  int iri;                   /* accept raw non-ASCII letters */
  int allow_empty_authority; /* accept urn:lex:eu::... */
  int allow_unnumbered;      /* accept details without a number */
  size_t max_length;         /* longest name accepted, in bytes (default 65536) */
} lexlink_urn_options;

LEXLINK_C_API void lexlink_urn_options_init(lexlink_urn_options* options);

/* LEXLINK_OK when `name` is a valid URN:LEX name; else LEXLINK_ERROR_INVALID_ARGUMENT (or
 * LIMIT_EXCEEDED) and an error saying at which byte and what was expected. */
LEXLINK_C_API lexlink_status lexlink_urn_validate(const char* name, size_t length,
                                                  const lexlink_urn_options* options,
                                                  lexlink_error** error);
/* The canonical form (`fold` nonzero: non-ASCII folded to ASCII first); freed with
 * lexlink_string_free(). */
LEXLINK_C_API lexlink_status lexlink_urn_normalize(const char* name, size_t length,
                                                   const lexlink_urn_options* options, int fold,
                                                   char** out, lexlink_error** error);
/* The structure of the name as a JSON object (as `lexlink urn parse` prints it, with
 * "canonical"); freed with lexlink_string_free(). */
LEXLINK_C_API lexlink_status lexlink_urn_parse(const char* name, size_t length,
                                               const lexlink_urn_options* options, char** json,
                                               lexlink_error** error);

#ifdef __cplusplus
}
#endif

#endif /* LEXLINK_LEXLINK_C_H */

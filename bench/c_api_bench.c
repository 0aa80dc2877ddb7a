/* The C API as an editorial plugin calls it: how long lexlink_extractor_open takes (every
 * grammar of the data folder), and how long lexlink_extract takes on one paragraph, after
 * loading. Built by bench/c_api_bench.sh against an installed tree (cc + pkg-config), so that
 * the figures are those of the installed shared library.
 * Usage: c_api_bench PARAGRAPH_FILE [LOADS [CALLS [JURISDICTIONS]]] (default: every one)
 * Prints: the paragraph's size and citations; every load's milliseconds (the first after the
 * cache folder was emptied: a cold start compiles the trigger database) and their median
 * without the first; the microseconds per extract call (median, min and max of batches of 100). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <lexlink/lexlink_c.h>

static double now_us(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

static int by_value(const void* a, const void* b) {
  const double x = *(const double*)a, y = *(const double*)b;
  return x < y ? -1 : x > y;
}

static double median(double* v, size_t n) {
  qsort(v, n, sizeof *v, by_value);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static lexlink_extractor* open_or_die(const char* jurisdictions) {
  lexlink_options o;
  lexlink_options_init(&o);
  o.jurisdictions = jurisdictions;
  lexlink_extractor* x = NULL;
  lexlink_error* err = NULL;
  if (lexlink_extractor_open(&o, &x, &err) != LEXLINK_OK) {
    fprintf(stderr, "open: %s\n", lexlink_error_message(err));
    exit(1);
  }
  return x;
}

int main(int argc, char** argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: c_api_bench PARAGRAPH_FILE [LOADS [CALLS [JURISDICTIONS]]]\n");
    return 2;
  }
  const int loads = argc > 2 ? atoi(argv[2]) : 11;
  const int calls = argc > 3 ? atoi(argv[3]) : 10000;
  const char* jurisdictions = argc > 4 ? argv[4] : NULL;
  FILE* f = fopen(argv[1], "rb");
  if (f == NULL) return 1;
  static char text[1 << 16];
  const size_t n = fread(text, 1, sizeof text, f);
  fclose(f);

  double load_ms[64];
  const int nl = loads < 64 ? loads : 64;
  lexlink_extractor* x = NULL;
  for (int i = 0; i < nl; ++i) {
    lexlink_extractor_free(x);
    const double t0 = now_us();
    x = open_or_die(jurisdictions);
    load_ms[i] = (now_us() - t0) / 1e3;
  }
  printf("jurisdictions: %s\n", lexlink_extractor_jurisdictions(x));
  printf("load (ms):");
  for (int i = 0; i < nl; ++i) printf(" %.1f", load_ms[i]);
  printf("\nload warm median (ms): %.1f (first, cold: %.1f)\n",
         nl > 1 ? median(load_ms + 1, (size_t)(nl - 1)) : load_ms[0], load_ms[0]);

  lexlink_citations c;
  if (lexlink_extract(x, text, n, NULL, &c, NULL) != LEXLINK_OK) return 1;
  printf("paragraph: %zu bytes, %zu citations\n", n, c.count);
  for (size_t i = 0; i < c.count; ++i) printf("  %s\n", c.items[i].urn);
  lexlink_citations_free(&c);

  enum { kBatch = 100 };
  const int batches = calls / kBatch > 0 ? calls / kBatch : 1;
  double* per_call = malloc(sizeof(double) * (size_t)batches);
  for (int b = 0; b < batches; ++b) {
    const double t0 = now_us();
    for (int k = 0; k < kBatch; ++k) {
      if (lexlink_extract(x, text, n, NULL, &c, NULL) != LEXLINK_OK) return 1;
      lexlink_citations_free(&c);
    }
    per_call[b] = (now_us() - t0) / kBatch;
  }
  const double med = median(per_call, (size_t)batches);
  printf("extract (us/call): median %.1f, min %.1f, max %.1f over %d batches of %d\n", med,
         per_call[0], per_call[batches - 1], batches, kBatch);
  free(per_call);
  lexlink_extractor_free(x);
  return 0;
}

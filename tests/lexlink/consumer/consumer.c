/* A C program using the installed library (lexlink/lexlink_c.h), built with plain
 * `cc consumer.c $(pkg-config --cflags --libs lexlink)`: the same output as consumer.cpp. */
#include <stdio.h>
#include <string.h>

#include <lexlink/lexlink_c.h>

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  lexlink_extractor* x = NULL;
  lexlink_error* err = NULL;
  if (lexlink_extractor_open(NULL, &x, &err) != LEXLINK_OK) {
    fprintf(stderr, "%s\n", lexlink_error_message(err));
    lexlink_error_free(err);
    return 1;
  }
  printf("data %s\n", lexlink_extractor_data_folder(x));
  lexlink_citations cites;
  if (lexlink_extract(x, argv[1], strlen(argv[1]), NULL, &cites, &err) != LEXLINK_OK) {
    fprintf(stderr, "%s\n", lexlink_error_message(err));
    lexlink_error_free(err);
    lexlink_extractor_free(x);
    return 1;
  }
  for (size_t i = 0; i < cites.count; ++i) {
    const lexlink_citation* c = &cites.items[i];
    printf("%llu %llu %llu %llu %s\n", (unsigned long long)c->byte_start,
           (unsigned long long)c->byte_end, (unsigned long long)c->utf16_start,
           (unsigned long long)c->utf16_end, c->urn);
  }
  lexlink_citations_free(&cites);
  lexlink_extractor_free(x);
  return 0;
}

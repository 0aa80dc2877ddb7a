// A C++17 program using the installed library (lexlink/lexlink.h): loads the extractor from the
// installed data folder (no data folder named; linked statically, the package's
// lexlink_DATA_DIR), prints the folder, then one line per citation of
// its argument: "BYTE_START BYTE_END UTF16_START UTF16_END URN".
#include <cstdio>

#include <lexlink/lexlink.h>

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  lexlink::ExtractorOptions options;
#ifdef LEXLINK_CONSUMER_DATA
  options.data_folder = LEXLINK_CONSUMER_DATA;
#endif
  auto x = lexlink::Extractor::load(options);
  if (!x) {
    std::fprintf(stderr, "%s\n", x.error().to_string().c_str());
    return 1;
  }
  std::printf("data %s\n", x->data_folder().c_str());
  auto cites = x->extract(argv[1]);
  if (!cites) {
    std::fprintf(stderr, "%s\n", cites.error().to_string().c_str());
    return 1;
  }
  for (const lexlink::Citation& c : *cites) {
    std::printf("%llu %llu %llu %llu %s\n", static_cast<unsigned long long>(c.bytes.begin),
                static_cast<unsigned long long>(c.bytes.end),
                static_cast<unsigned long long>(c.utf16.begin),
                static_cast<unsigned long long>(c.utf16.end), c.urn.c_str());
  }
  return 0;
}

#include "rewrite/splice.h"

namespace lexlink::rewrite {
void Insertions::add(std::uint64_t offset, std::string_view bytes) {
  items_.push_back(Item{offset, bytes_.size(), bytes.size()});
  bytes_.append(bytes);
}

Status splice(std::string_view original, std::uint64_t base, const Insertions& insertions,
              io::Sink& sink) {
  const std::uint64_t end = base + original.size();
  std::uint64_t previous = base;
  for (const Insertions::Item& item : insertions.items()) {
    if (item.offset < previous || item.offset > end) {
      return make_error(ErrorCode::kInvalidArgument,
                        "insertion at byte " + std::to_string(item.offset) +
                            " is out of order or outside [" + std::to_string(base) + ", " +
                            std::to_string(end) + "]");
    }
    previous = item.offset;
  }
  std::uint64_t at = base;
  for (const Insertions::Item& item : insertions.items()) {
    if (item.offset > at) {
      if (Status s = sink.write(original.substr(at - base, item.offset - at)); !s) return s;
      at = item.offset;
    }
    if (Status s = sink.write(insertions.bytes(item)); !s) return s;
  }
  if (at < end) return sink.write(original.substr(at - base));
  return Status::Ok();
}

}  // namespace lexlink::rewrite

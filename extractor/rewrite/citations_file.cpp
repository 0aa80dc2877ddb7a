#include "rewrite/citations_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <optional>

#include <nlohmann/json.hpp>

namespace lexlink::rewrite {
namespace {

constexpr std::size_t kBlockBytes = 1 << 20;  // read at a time from a citations file

Error line_error(const std::string& path, std::uint32_t line, std::uint32_t col,
                 std::string message) {
  Error e = make_error(ErrorCode::kInvalidArgument, std::move(message));
  e.file = path;
  e.line = line;
  e.col = col;
  return e;
}

// The fields of one line's object that a request needs, read as the parser goes (SAX): no
// document tree is built, and the values of other keys ("text", "work", ...) are not kept.
class LineFields final : public nlohmann::json_sax<nlohmann::json> {
 public:
  bool object = false;  // the line's value is an object
  bool has_start = false, has_end = false;
  std::uint64_t start = 0, end = 0;
  std::optional<std::string> urn, href, rule;
  std::size_t error_byte = 0;
  std::string error_message;  // set when the line is not JSON

  bool null() override { return other(); }
  bool boolean(bool) override { return other(); }
  bool number_integer(number_integer_t) override { return other(); }
  bool number_unsigned(number_unsigned_t v) override {
    clear_top_value();
    if (depth_ == 1 && key_ == "start") has_start = true, start = v;
    if (depth_ == 1 && key_ == "end") has_end = true, end = v;
    return true;
  }
  bool number_float(number_float_t, const string_t&) override { return other(); }
  bool string(string_t& v) override {
    clear_top_value();
    if (depth_ == 1 && key_ == "urn") urn = std::move(v);
    if (depth_ == 1 && key_ == "href") href = std::move(v);
    if (depth_ == 1 && key_ == "rule") rule = std::move(v);
    return true;
  }
  bool binary(binary_t&) override { return other(); }
  bool start_object(std::size_t) override {
    if (depth_ == 0) object = true;
    clear_top_value();
    ++depth_;
    return true;
  }
  bool key(string_t& k) override {
    if (depth_ == 1) key_ = std::move(k);
    return true;
  }
  bool end_object() override {
    --depth_;
    return true;
  }
  bool start_array(std::size_t) override {
    clear_top_value();
    ++depth_;
    return true;
  }
  bool end_array() override {
    --depth_;
    return true;
  }
  bool parse_error(std::size_t position, const std::string&,
                   const nlohmann::detail::exception& e) override {
    error_byte = position;
    error_message = e.what();
    return false;
  }

 private:
  // A value at depth 1 is the value of the top object's key_: it replaces what an earlier
  // value of the same key set (the last wins, as in a parsed tree), and sets the field only
  // when it has the field's type.
  bool other() {
    clear_top_value();
    return true;
  }
  void clear_top_value() {
    if (depth_ != 1) return;
    if (key_ == "start") has_start = false;
    if (key_ == "end") has_end = false;
    if (key_ == "urn") urn.reset();
    if (key_ == "href") href.reset();
    if (key_ == "rule") rule.reset();
  }
  int depth_ = 0;
  std::string key_;
};

// Line `number` of the file: false for a blank line, else the request in `r`.
Result<bool> parse_line(const std::string& path, std::uint32_t number, std::string_view line,
                        Request& r) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  if (line.find_first_not_of(" \t") == std::string_view::npos) return false;
  LineFields f;
  if (!nlohmann::json::sax_parse(line, &f)) {
    return line_error(path, number, static_cast<std::uint32_t>(f.error_byte),
                      "not a JSON object: " + f.error_message);
  }
  if (!f.object) return line_error(path, number, 1, "expected a JSON object");
  if (!f.has_start || !f.has_end) {
    return line_error(path, number, 1,
                      "\"start\" and \"end\" (original byte offsets, integers >= 0) are required");
  }
  if (f.end < f.start) return line_error(path, number, 1, "\"end\" is before \"start\"");
  if (!f.urn || f.urn->empty()) {
    return line_error(path, number, 1, "\"urn\" (a string) is required");
  }
  r = Request{};
  r.original = Span{f.start, f.end};
  r.urn = std::move(*f.urn);
  if (f.href) r.href = std::move(*f.href);
  if (f.rule) r.rule = std::move(*f.rule);
  r.id = number;
  return true;
}

// The requests of an open file, a line at a time (blank lines skipped, lines numbered from 1);
// the file is read a block at a time, and a line longer than a block is held whole.
class RequestReader {
 public:
  RequestReader(int fd, const std::string& path) : fd_(fd), path_(path) {}

  // The next request in `r`; false at the end of the file.
  Result<bool> next(Request& r) {
    std::string_view line;
    while (true) {
      auto got = next_line(line);
      if (!got || !*got) return got;
      auto parsed = parse_line(path_, ++number_, line, r);
      if (!parsed || *parsed) return parsed;
    }
  }
  // The number of the line `next` read last.
  std::uint32_t line_number() const { return number_; }
  const std::string& path() const { return path_; }

 private:
  // The next line (without its '\n') in `line`, valid until the next call; false at the end.
  Result<bool> next_line(std::string_view& line) {
    while (true) {
      // From where the last search stopped: a line of many blocks is searched once.
      const std::size_t nl = buf_.find('\n', std::max(pos_, searched_));
      if (nl != std::string::npos) {
        line = std::string_view(buf_).substr(pos_, nl - pos_);
        pos_ = nl + 1;
        return true;
      }
      searched_ = buf_.size();
      if (eof_) {
        if (pos_ == buf_.size()) return false;
        line = std::string_view(buf_).substr(pos_);
        pos_ = buf_.size();
        return true;
      }
      searched_ -= pos_;
      buf_.erase(0, pos_);
      pos_ = 0;
      const std::size_t had = buf_.size();
      buf_.resize(had + kBlockBytes);
      ssize_t n;
      do {
        n = ::read(fd_, buf_.data() + had, kBlockBytes);
      } while (n < 0 && errno == EINTR);
      if (n < 0) {
        const int err = errno;
        buf_.resize(had);
        return io_error("cannot read", path_, err);
      }
      buf_.resize(had + static_cast<std::size_t>(n));
      if (n == 0) eof_ = true;
    }
  }

  int fd_;
  std::string path_;
  std::uint32_t number_ = 0;  // lines read
  std::string buf_;
  std::size_t pos_ = 0;       // where the next line starts in buf_
  std::size_t searched_ = 0;  // buf_ holds no '\n' in [pos_, searched_)
  bool eof_ = false;
};

// Sorts requests by original start (stable: equal starts keep the file's order).
void sort_by_start(std::vector<Request>& requests) {
  std::stable_sort(requests.begin(), requests.end(), [](const Request& a, const Request& b) {
    return a.original->begin < b.original->begin;
  });
}

// Closes a descriptor when it goes out of scope.
struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace

// The second reading of a file already checked whole and found in order: one request ahead.
class CitationsFile::Stream {
 public:
  Stream(int fd, const std::string& path) : fd_(fd), reader_(fd, path) {}
  ~Stream() { ::close(fd_); }

  Result<bool> peek(const Request*& next) {
    if (!has_pending_) {
      auto got = reader_.next(pending_);
      if (!got || !*got) return got;
      // Checked in order on the first reading: a line out of order now means the file changed.
      if (pending_.original->begin < last_start_) {
        return line_error(reader_.path(), reader_.line_number(), 1,
                          "the file changed while it was being applied");
      }
      last_start_ = pending_.original->begin;
      has_pending_ = true;
    }
    next = &pending_;
    return true;
  }
  Request take() {
    has_pending_ = false;
    return std::move(pending_);
  }

 private:
  int fd_;
  RequestReader reader_;
  Request pending_;
  bool has_pending_ = false;
  std::uint64_t last_start_ = 0;
};

CitationsFile::CitationsFile() = default;
CitationsFile::CitationsFile(CitationsFile&&) noexcept = default;
CitationsFile& CitationsFile::operator=(CitationsFile&&) noexcept = default;
CitationsFile::~CitationsFile() = default;

Result<CitationsFile> CitationsFile::parse(std::string path, std::string_view content) {
  CitationsFile out;
  std::uint32_t number = 0;
  std::size_t at = 0;
  while (at < content.size()) {
    std::size_t nl = content.find('\n', at);
    if (nl == std::string_view::npos) nl = content.size();
    const std::string_view line = content.substr(at, nl - at);
    at = nl + 1;
    Request r;
    auto parsed = parse_line(path, ++number, line, r);
    if (!parsed) return parsed.error();
    if (*parsed) out.requests_.push_back(std::move(r));
  }
  sort_by_start(out.requests_);
  out.count_ = out.requests_.size();
  return out;
}

Result<CitationsFile> CitationsFile::load(const std::string& path) {
  Fd file;
  file.fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (file.fd < 0) return io_error("cannot open", path, errno);
  struct stat st;
  if (::fstat(file.fd, &st) != 0) return io_error("cannot read", path, errno);
  // Held whole: every request read from the descriptor as it stands, then sorted.
  auto whole = [&]() -> Result<CitationsFile> {
    CitationsFile out;
    RequestReader reader(file.fd, path);
    Request r;
    while (true) {
      auto got = reader.next(r);
      if (!got) return got.error();
      if (!*got) break;
      out.requests_.push_back(std::move(r));
    }
    sort_by_start(out.requests_);
    out.count_ = out.requests_.size();
    return out;
  };
  if (!S_ISREG(st.st_mode)) return whole();  // a pipe: read once

  // First reading: every line checked, nothing kept but whether the starts are in order.
  std::size_t count = 0;
  bool in_order = true;
  {
    RequestReader reader(file.fd, path);
    std::uint64_t last_start = 0;
    Request r;
    while (true) {
      auto got = reader.next(r);
      if (!got) return got.error();
      if (!*got) break;
      ++count;
      if (r.original->begin < last_start) in_order = false;
      last_start = r.original->begin;
    }
  }
  if (::lseek(file.fd, 0, SEEK_SET) != 0) return io_error("cannot read", path, errno);
  if (!in_order) return whole();

  CitationsFile out;
  out.count_ = count;
  out.stream_ = std::make_unique<Stream>(file.fd, path);
  file.fd = -1;  // the stream closes it
  return out;
}

Result<bool> CitationsFile::peek(const Request*& next) {
  if (stream_) return stream_->peek(next);
  if (next_ == requests_.size()) return false;
  next = &requests_[next_];
  return true;
}

Status CitationsFile::take_until(std::optional<std::uint64_t> end, std::vector<Request>& out) {
  while (true) {
    const Request* next = nullptr;
    auto got = peek(next);
    if (!got) return got.error();
    if (!*got || (end && next->original->begin >= *end)) return Status::Ok();
    out.push_back(stream_ ? stream_->take() : std::move(requests_[next_++]));
  }
}

Status CitationsFile::find(const text::TextView& chunk, std::vector<Request>& out) {
  return take_until(chunk.orig_end, out);
}

Status CitationsFile::finish(std::vector<Request>& leftover) {
  return take_until(std::nullopt, leftover);
}

}  // namespace lexlink::rewrite

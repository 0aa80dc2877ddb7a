#include "cli/document_io.h"

namespace lexlink::cli {

Status OutputFile::open(const std::string& path) {
  if (path.empty() || path == "-") {
    name_ = "standard output";
    stdout_.emplace(1, name_);
    return Status::Ok();
  }
  name_ = path;
  if (Status s = file_.open(path, batch::Destination::kMayExist, batch::Folders::kMustExist); !s)
    return s;
  stream_.emplace(file_.fd(), io::compression_of(path), path);
  return Status::Ok();
}

io::Sink& OutputFile::sink() {
  if (stdout_) return *stdout_;
  return *stream_;
}

Status OutputFile::commit() {
  if (stdout_) return stdout_->flush();
  if (!stream_) return make_error(ErrorCode::kInternal, "output not open");
  if (Status s = stream_->finish(); !s) return s;
  return file_.commit(/*sync=*/true);
}

}  // namespace lexlink::cli

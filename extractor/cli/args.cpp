#include "cli/args.h"

namespace lexlink::cli {

Args& Args::flag(const std::string& name) {
  flags_[name] = false;
  return *this;
}

Args& Args::option(const std::string& name, const std::string& default_value) {
  options_[name] = default_value;
  return *this;
}

Args& Args::alias(const std::string& short_name, const std::string& name) {
  aliases_[short_name] = name;
  return *this;
}

Args& Args::multi(const std::string& name) {
  multi_[name];
  return *this;
}

const std::vector<std::string>& Args::all(const std::string& name) const {
  static const std::vector<std::string> kNone;
  auto m = multi_.find(name);
  return m == multi_.end() ? kNone : m->second;
}

bool Args::parse(const std::vector<std::string>& args) {
  bool options_done = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    auto al = options_done ? aliases_.end() : aliases_.find(args[i]);
    const std::string a = al == aliases_.end() ? args[i] : "--" + al->second;
    if (options_done || a.size() < 2 || a[0] != '-' || (a[1] != '-' && a != "-h")) {
      positional_.push_back(a);
      continue;
    }
    if (a == "--") {
      options_done = true;
      continue;
    }
    std::string name = a == "-h" ? "help" : a.substr(2);
    std::string value;
    bool has_value = false;
    if (std::size_t eq = name.find('='); eq != std::string::npos) {
      value = name.substr(eq + 1);
      name = name.substr(0, eq);
      has_value = true;
    }
    if (auto f = flags_.find(name); f != flags_.end()) {
      if (has_value) {
        error_ = "--" + name + " takes no value";
        return false;
      }
      f->second = true;
    } else if (auto m = multi_.find(name); m != multi_.end()) {
      if (!has_value) {
        if (i + 1 >= args.size()) {
          error_ = "--" + name + " needs a value";
          return false;
        }
        value = args[++i];
      }
      m->second.push_back(value);
      given_[name] = true;
    } else if (auto o = options_.find(name); o != options_.end()) {
      if (!has_value) {
        if (i + 1 >= args.size()) {
          error_ = "--" + name + " needs a value";
          return false;
        }
        value = args[++i];
      }
      o->second = value;
      given_[name] = true;
    } else {
      error_ = "unknown option '" + a + "'";
      return false;
    }
  }
  return true;
}

bool Args::has(const std::string& name) const {
  auto f = flags_.find(name);
  return f != flags_.end() && f->second;
}

const std::string& Args::get(const std::string& name) const {
  static const std::string kEmpty;
  auto o = options_.find(name);
  return o == options_.end() ? kEmpty : o->second;
}

bool Args::given(const std::string& name) const {
  return given_.count(name) != 0;
}

}  // namespace lexlink::cli

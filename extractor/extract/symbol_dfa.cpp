#include "extract/symbol_dfa.h"

#include <algorithm>
#include <array>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>

namespace lexlink::extract {
namespace {

using ByteSet = std::array<std::uint64_t, 4>;

bool has(const ByteSet& s, unsigned b) {
  return (s[b >> 6] >> (b & 63) & 1) != 0;
}
void add(ByteSet& s, unsigned b) {
  s[b >> 6] |= std::uint64_t{1} << (b & 63);
}

// The expression as a tree.
struct Node {
  enum class Op { kSet, kSeq, kAlt, kRepeat } op = Op::kSeq;
  ByteSet bytes{};       // kSet
  int min = 0, max = 0;  // kRepeat (max -1: no bound)
  std::vector<Node> children;
};

constexpr int kMaxRepeat = 1000;  // as RE2's own bound

// A parser of the subset symbol_dfa.h names; anything else is an error (the caller keeps RE2).
class Parser {
 public:
  explicit Parser(std::string_view s) : s_(s) {}

  Result<Node> parse() {
    Node n;
    if (Status st = alternation(n, 0); !st) return st.error();
    if (i_ != s_.size()) return fail("unexpected ')'");
    return n;
  }

 private:
  Error fail(const std::string& why) const {
    return make_error(ErrorCode::kUnsupported,
                      "symbol expression, byte " + std::to_string(i_) + ": " + why);
  }
  bool at(char c) const { return i_ < s_.size() && s_[i_] == c; }

  Status alternation(Node& out, int depth) {
    if (depth > 200) return fail("nested too deeply");
    std::vector<Node> branches(1);
    if (Status st = sequence(branches.back(), depth); !st) return st;
    while (at('|')) {
      ++i_;
      branches.emplace_back();
      if (Status st = sequence(branches.back(), depth); !st) return st;
    }
    if (branches.size() == 1) {
      out = std::move(branches.front());
    } else {
      out.op = Node::Op::kAlt;
      out.children = std::move(branches);
    }
    return Status::Ok();
  }

  Status sequence(Node& out, int depth) {
    out.op = Node::Op::kSeq;
    while (i_ < s_.size() && !at('|') && !at(')')) {
      Node atom;
      if (Status st = this->atom(atom, depth); !st) return st;
      for (;;) {  // postfix operators
        int mn = 0, mx = 0;
        if (at('?')) {
          mn = 0, mx = 1, ++i_;
        } else if (at('*')) {
          mn = 0, mx = -1, ++i_;
        } else if (at('+')) {
          mn = 1, mx = -1, ++i_;
        } else if (at('{')) {
          if (Status st = counts(mn, mx); !st) return st;
        } else {
          break;
        }
        if (at('?')) return fail("non-greedy repetition");
        Node rep;
        rep.op = Node::Op::kRepeat;
        rep.min = mn;
        rep.max = mx;
        rep.children.push_back(std::move(atom));
        atom = std::move(rep);
      }
      out.children.push_back(std::move(atom));
    }
    return Status::Ok();
  }

  Status counts(int& mn, int& mx) {
    ++i_;  // '{'
    auto number = [&](int& v) {
      const std::size_t from = i_;
      v = 0;
      while (i_ < s_.size() && s_[i_] >= '0' && s_[i_] <= '9' && v <= kMaxRepeat) {
        v = v * 10 + (s_[i_++] - '0');
      }
      return i_ > from && v <= kMaxRepeat;
    };
    if (!number(mn)) return fail("bad repetition count");
    mx = mn;
    if (at(',')) {
      ++i_;
      if (at('}')) {
        mx = -1;
      } else if (!number(mx) || mx < mn) {
        return fail("bad repetition count");
      }
    }
    if (!at('}')) return fail("'}' expected");
    ++i_;
    return Status::Ok();
  }

  // One byte as `\xNN`.
  Status byte(unsigned& b) {
    if (i_ + 4 > s_.size() || s_[i_] != '\\' || s_[i_ + 1] != 'x') return fail("\\xNN expected");
    b = 0;
    for (std::size_t k = i_ + 2; k < i_ + 4; ++k) {
      const char c = s_[k];
      const int d = c >= '0' && c <= '9'   ? c - '0'
                    : c >= 'a' && c <= 'f' ? c - 'a' + 10
                    : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                           : -1;
      if (d < 0) return fail("\\xNN expected");
      b = b * 16 + static_cast<unsigned>(d);
    }
    i_ += 4;
    return Status::Ok();
  }

  Status atom(Node& out, int depth) {
    if (at('(')) {
      if (s_.compare(i_, 3, "(?:") == 0) {
        i_ += 3;
      } else if (s_.compare(i_, 4, "(?P<") == 0) {
        const std::size_t close = s_.find('>', i_);
        if (close == std::string_view::npos) return fail("unterminated group name");
        i_ = close + 1;
      } else {
        return fail("group kind");
      }
      if (Status st = alternation(out, depth + 1); !st) return st;
      if (!at(')')) return fail("')' expected");
      ++i_;
      return Status::Ok();
    }
    out.op = Node::Op::kSet;
    if (at('[')) {
      ++i_;
      if (at('^')) return fail("negated set");
      while (!at(']')) {
        unsigned lo = 0, hi = 0;
        if (Status st = byte(lo); !st) return st;
        hi = lo;
        if (at('-')) {
          ++i_;
          if (Status st = byte(hi); !st) return st;
          if (hi < lo) return fail("bad range");
        }
        for (unsigned b = lo; b <= hi; ++b) add(out.bytes, b);
      }
      ++i_;
      return Status::Ok();
    }
    unsigned b = 0;
    if (Status st = byte(b); !st) return st;
    add(out.bytes, b);
    return Status::Ok();
  }

  std::string_view s_;
  std::size_t i_ = 0;
};

// A Thompson automaton: a state reads one byte of its set into `out`, or moves on `eps`.
struct Nfa {
  struct State {
    bool reads = false;
    ByteSet bytes{};
    int out = -1;
    std::vector<int> eps;
  };
  std::vector<State> states;
  int start = 0, final = 0;

  int add_state() {
    states.emplace_back();
    return static_cast<int>(states.size()) - 1;
  }
  // The fragment of `n` (read backwards when `reverse`): its entry and exit states.
  std::pair<int, int> build(const Node& n, bool reverse) {
    switch (n.op) {
      case Node::Op::kSet: {
        const int s = add_state(), e = add_state();
        states[static_cast<std::size_t>(s)].reads = true;
        states[static_cast<std::size_t>(s)].bytes = n.bytes;
        states[static_cast<std::size_t>(s)].out = e;
        return {s, e};
      }
      case Node::Op::kSeq: {
        const int s = add_state();
        int e = s;
        const std::size_t count = n.children.size();
        for (std::size_t k = 0; k < count; ++k) {
          const Node& c = n.children[reverse ? count - 1 - k : k];
          const auto [cs, ce] = build(c, reverse);
          states[static_cast<std::size_t>(e)].eps.push_back(cs);
          e = ce;
        }
        return {s, e};
      }
      case Node::Op::kAlt: {
        const int s = add_state(), e = add_state();
        for (const Node& c : n.children) {
          const auto [cs, ce] = build(c, reverse);
          states[static_cast<std::size_t>(s)].eps.push_back(cs);
          states[static_cast<std::size_t>(ce)].eps.push_back(e);
        }
        return {s, e};
      }
      case Node::Op::kRepeat: {
        const int s = add_state();
        int e = s;
        const Node& c = n.children.front();
        for (int k = 0; k < n.min; ++k) {  // the required copies
          const auto [cs, ce] = build(c, reverse);
          states[static_cast<std::size_t>(e)].eps.push_back(cs);
          e = ce;
        }
        if (n.max < 0) {  // then any number more
          const int loop = add_state(), out = add_state();
          const auto [cs, ce] = build(c, reverse);
          states[static_cast<std::size_t>(e)].eps.push_back(loop);
          states[static_cast<std::size_t>(loop)].eps.push_back(cs);
          states[static_cast<std::size_t>(loop)].eps.push_back(out);
          states[static_cast<std::size_t>(ce)].eps.push_back(loop);
          return {s, out};
        }
        // then up to max - min more, each optional
        const int out = add_state();
        for (int k = n.min; k < n.max; ++k) {
          const auto [cs, ce] = build(c, reverse);
          states[static_cast<std::size_t>(e)].eps.push_back(cs);
          states[static_cast<std::size_t>(e)].eps.push_back(out);
          e = ce;
        }
        states[static_cast<std::size_t>(e)].eps.push_back(out);
        return {s, out};
      }
    }
    return {0, 0};
  }
};

// The automaton of `nfa` over byte classes: its states are the NFA states that read (and the
// final state), each with the states that reading it leads to without reading more.
SymbolDfa::Automaton make_automaton(const Nfa& nfa, bool unanchored,
                                    const std::uint8_t* byte_class) {
  SymbolDfa::Automaton a;
  a.unanchored = unanchored;
  std::vector<std::int32_t> id(nfa.states.size(), -1);
  std::vector<std::size_t> nfa_of;
  for (std::size_t s = 0; s < nfa.states.size(); ++s) {
    if (!nfa.states[s].reads) continue;
    id[s] = static_cast<std::int32_t>(nfa_of.size());
    nfa_of.push_back(s);
  }
  a.final = static_cast<std::uint32_t>(nfa_of.size());
  id[static_cast<std::size_t>(nfa.final)] = static_cast<std::int32_t>(a.final);
  std::vector<std::uint32_t> mark(nfa.states.size(), 0);
  std::uint32_t epoch = 0;
  auto closure = [&](int from) {
    ++epoch;
    std::vector<std::uint32_t> out;
    std::vector<int> stack{from};
    while (!stack.empty()) {
      const int s = stack.back();
      stack.pop_back();
      auto& m = mark[static_cast<std::size_t>(s)];
      if (m == epoch) continue;
      m = epoch;
      if (id[static_cast<std::size_t>(s)] >= 0) {
        out.push_back(static_cast<std::uint32_t>(id[static_cast<std::size_t>(s)]));
      }
      for (int e : nfa.states[static_cast<std::size_t>(s)].eps) stack.push_back(e);
    }
    std::sort(out.begin(), out.end());
    return out;
  };
  a.start = closure(nfa.start);
  a.reads.resize(nfa_of.size() + 1);
  a.follow.resize(nfa_of.size() + 1);
  std::map<ByteSet, std::vector<std::uint8_t>> classes_of;  // each distinct set's classes
  for (std::size_t k = 0; k < nfa_of.size(); ++k) {
    const Nfa::State& st = nfa.states[nfa_of[k]];
    auto [it, inserted] = classes_of.try_emplace(st.bytes);
    if (inserted) {
      for (unsigned b = 0; b < 256; ++b) {
        if (has(st.bytes, b)) it->second.push_back(byte_class[b]);
      }
      std::sort(it->second.begin(), it->second.end());
      it->second.erase(std::unique(it->second.begin(), it->second.end()), it->second.end());
    }
    a.reads[k] = it->second;
    a.follow[k] = closure(st.out);
  }
  return a;
}

}  // namespace

Result<SymbolDfa> SymbolDfa::build(std::string_view regex) {
  Result<Node> tree = Parser(regex).parse();
  if (!tree) return tree.error();
  Nfa forward, reverse;
  for (auto* nfa : {&forward, &reverse}) {
    const auto [s, e] = nfa->build(*tree, nfa == &reverse);
    nfa->start = s;
    nfa->final = e;
  }
  SymbolDfa d;
  // Bytes that every set of the expression holds alike are one class: each distinct set splits
  // the classes so far into the bytes it holds and the others.
  std::vector<ByteSet> distinct;
  for (const auto& st : forward.states) {
    if (st.reads) distinct.push_back(st.bytes);
  }
  std::sort(distinct.begin(), distinct.end());
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  std::array<std::uint16_t, 256> cls{};
  std::size_t count = 1;
  std::vector<std::int32_t> split;
  for (const ByteSet& set : distinct) {
    split.assign(2 * count, -1);
    std::size_t next = 0;
    for (unsigned b = 0; b < 256; ++b) {
      std::int32_t& id = split[2 * cls[b] + (has(set, b) ? 1 : 0)];
      if (id < 0) id = static_cast<std::int32_t>(next++);
      cls[b] = static_cast<std::uint16_t>(id);
    }
    count = next;
  }
  for (unsigned b = 0; b < 256; ++b) d.byte_class_[b] = static_cast<std::uint8_t>(cls[b]);
  d.classes_ = count;
  auto fw = std::make_shared<Automaton>(make_automaton(forward, false, d.byte_class_));
  auto rv = std::make_shared<Automaton>(make_automaton(reverse, true, d.byte_class_));
  if (std::binary_search(fw->start.begin(), fw->start.end(), fw->final)) {
    return make_error(ErrorCode::kUnsupported, "symbol expression matches the empty string");
  }
  d.forward_ = std::move(fw);
  d.reverse_ = std::move(rv);
  return d;
}

std::uint32_t SymbolDfa::intern(States& s, const Automaton& a,
                                const std::vector<std::uint32_t>& set) const {
  std::string key(reinterpret_cast<const char*>(set.data()), set.size() * sizeof(std::uint32_t));
  auto [it, inserted] = s.ids.emplace(std::move(key), static_cast<std::uint32_t>(s.sets.size()));
  if (inserted) {
    s.sets.push_back(set);
    s.accepts.push_back(std::binary_search(set.begin(), set.end(), a.final) ? 1 : 0);
    s.next.resize(s.next.size() + classes_, kUnknown);
  }
  return it->second;
}

void SymbolDfa::ready(const Automaton& a, States& s) const {
  if (!s.sets.empty() && s.sets.size() <= kMaxCachedStates) return;
  s.next.clear();
  s.accepts.clear();
  s.sets.clear();
  s.ids.clear();
  intern(s, a, {});       // kDead
  intern(s, a, a.start);  // kStart
  // The dead state stays dead.
  for (std::size_t c = 0; c < classes_; ++c) s.next[c] = kDead;
}

// The state after `state` reads a byte of class `cls`, built now if it was not yet.
std::uint32_t SymbolDfa::step(const Automaton& a, States& s, std::uint32_t state,
                              std::uint8_t cls) const {
  std::vector<std::uint32_t>& set = s.scratch;
  set.clear();
  for (std::uint32_t m : s.sets[state]) {
    const std::vector<std::uint8_t>& r = a.reads[m];
    if (std::binary_search(r.begin(), r.end(), cls)) {
      set.insert(set.end(), a.follow[m].begin(), a.follow[m].end());
    }
  }
  if (a.unanchored) set.insert(set.end(), a.start.begin(), a.start.end());
  std::sort(set.begin(), set.end());
  set.erase(std::unique(set.begin(), set.end()), set.end());
  const std::uint32_t to = intern(s, a, set);
  s.next[state * classes_ + cls] = to;
  return to;
}

// One search over an automaton: the state after each symbol, from the cached states or built
// now. The tables move only when step() adds a state: their addresses are kept between.
class SymbolDfa::Walk {
 public:
  Walk(const SymbolDfa& d, const Automaton& a, States& s) : d_(d), a_(a), s_(s) {
    d.ready(a, s);
    refresh();
  }
  std::uint32_t next(std::uint32_t state, std::uint8_t symbol) {
    const std::uint8_t c = classes_of_[symbol];
    const std::uint32_t to = next_[state * k_ + c];
    if (to != kUnknown) return to;
    const std::uint32_t built = d_.step(a_, s_, state, c);
    refresh();
    return built;
  }
  bool accepts(std::uint32_t state) const { return accepts_[state] != 0; }

 private:
  void refresh() {
    next_ = s_.next.data();
    accepts_ = s_.accepts.data();
  }
  const SymbolDfa& d_;
  const Automaton& a_;
  States& s_;
  // Copied here: a caller's stores (the marks) could alias `d_`, which would be read again.
  const std::uint8_t* const classes_of_ = d_.byte_class_;
  const std::size_t k_ = d_.classes_;
  const std::uint32_t* next_ = nullptr;
  const std::uint8_t* accepts_ = nullptr;
};

void SymbolDfa::mark_starts(std::string_view symbols, std::vector<std::uint8_t>& starts,
                            Cache& cache) const {
  Walk walk(*this, *reverse_, cache.reverse);
  const std::size_t n = symbols.size();
  starts.resize(n);
  const auto* sym = reinterpret_cast<const std::uint8_t*>(symbols.data());
  std::uint8_t* const out = starts.data();
  std::uint32_t state = kStart;
  for (std::size_t i = n; i-- > 0;) {
    state = walk.next(state, sym[i]);
    out[i] = walk.accepts(state) ? 1 : 0;
  }
}

std::size_t SymbolDfa::longest_from(std::string_view symbols, std::size_t begin,
                                    Cache& cache) const {
  Walk walk(*this, *forward_, cache.forward);
  const auto* sym = reinterpret_cast<const std::uint8_t*>(symbols.data());
  std::uint32_t state = kStart;
  std::size_t last = kNoMatch;
  for (std::size_t i = begin; i < symbols.size(); ++i) {
    state = walk.next(state, sym[i]);
    if (state == kDead) break;
    if (walk.accepts(state)) last = i + 1;
  }
  return last;
}

}  // namespace lexlink::extract

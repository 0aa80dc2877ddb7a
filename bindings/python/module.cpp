// bindings/python/module.cpp: the Python module lexlink._lexlink, a thin layer over the public C++
// API (lexlink/lexlink.h); lexlink/__init__.py re-exports it, lexlink/*.pyi type it.
//
// What it adds to the C++ API is only what Python needs: str or bytes in, the same type out;
// offsets in the unit the caller indexes with (str: code points, which are Python's string
// indices; bytes: bytes), every unit available; errors raised as lexlink.Error with the
// library's code, message and file:line:col. The GIL is released while a document is read, so
// threads sharing one Extractor run at once (the C++ Extractor is immutable and thread-safe).
// Nothing here throws a C++ exception into Python: pybind11 turns the few it may meet
// (std::bad_alloc) into Python exceptions.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lexlink/lexlink.h"

namespace py = pybind11;

namespace {

// lexlink.Error, created when the module loads.
PyObject* g_error = nullptr;

// The data folder installed with the package (PREFIX/share/lexlink beside
// PREFIX/lib/python3/dist-packages/lexlink), set by __init__.py when it is there: the package's
// default, after $LEXLINK_DATA, before the library's own (the source tree it was built from).
std::string g_package_data;

std::string data_or_default(const std::optional<std::string>& data) {
  if (data) return *data;
  const char* env = std::getenv("LEXLINK_DATA");
  if ((env == nullptr || *env == 0) && !g_package_data.empty()) return g_package_data;
  return lexlink::default_data_folder();
}

// Raises lexlink.Error for `e`: str(exc) is "file:line:col: message" (or the message), and the
// attributes code, message, file, line, col hold the parts.
[[noreturn]] void raise_error(const lexlink::Error& e) {
  py::object cls = py::reinterpret_borrow<py::object>(g_error);
  py::object exc = cls(e.to_string());
  exc.attr("code") = lexlink::to_string(e.code);
  exc.attr("message") = e.message;
  exc.attr("file") = e.file.empty() ? py::object(py::none()) : py::object(py::str(e.file));
  exc.attr("line") = e.line;
  exc.attr("col") = e.col;
  PyErr_SetObject(g_error, exc.ptr());
  throw py::error_already_set();
}

template <class T>
T value_or_raise(lexlink::Result<T>&& r) {
  if (!r) raise_error(r.error());
  return std::move(*r);
}

// A document as the library reads it: the bytes of a bytes object, or a str as UTF-8.
struct Document {
  bool is_str = false;
  std::string utf8;        // the encoded str
  std::string_view bytes;  // what is read: utf8, or the bytes object's buffer (kept alive by
                           // the caller's reference while the GIL is released)
};

Document read_document(const py::handle& doc) {
  Document d;
  if (PyUnicode_Check(doc.ptr())) {
    Py_ssize_t size = 0;
    const char* data = PyUnicode_AsUTF8AndSize(doc.ptr(), &size);  // raises on lone surrogates
    if (data == nullptr) throw py::error_already_set();
    d.is_str = true;
    d.utf8.assign(data, static_cast<std::size_t>(size));
    d.bytes = d.utf8;
  } else if (PyBytes_Check(doc.ptr())) {
    char* data = nullptr;
    Py_ssize_t size = 0;
    if (PyBytes_AsStringAndSize(doc.ptr(), &data, &size) != 0) throw py::error_already_set();
    d.bytes = std::string_view(data, static_cast<std::size_t>(size));
  } else {
    throw py::type_error("the document must be str or bytes, not " +
                         std::string(py::str(py::type::handle_of(doc).attr("__name__"))));
  }
  return d;
}

// The same type as the input: str for a str (the output is UTF-8), bytes for bytes.
py::object same_type(const Document& d, const std::string& out) {
  if (!d.is_str) return py::bytes(out);
  return py::reinterpret_steal<py::object>(
      PyUnicode_DecodeUTF8(out.data(), static_cast<Py_ssize_t>(out.size()), "surrogateescape"));
}

lexlink::Format format_of(const std::string& name) {
  if (name == "auto") return lexlink::Format::kAuto;
  if (name == "text") return lexlink::Format::kText;
  if (name == "html") return lexlink::Format::kHtml;
  if (name == "xml") return lexlink::Format::kXml;
  throw py::value_error("format is 'auto', 'text', 'html' or 'xml', not '" + name + "'");
}

lexlink::DocumentOptions document_options(const Document& d, const std::string& format,
                                          const std::optional<std::string>& encoding,
                                          const std::optional<std::string>& self_urn) {
  lexlink::DocumentOptions o;
  o.format = format_of(format);
  if (d.is_str) {
    if (encoding && *encoding != "utf-8" && *encoding != "auto") {
      throw py::value_error("a str document is read as UTF-8: encoding applies to bytes only");
    }
    o.encoding = "utf-8";
  } else {
    o.encoding = encoding.value_or("auto");
  }
  if (self_urn) o.self_urn = *self_urn;
  return o;
}

// A citation as Python sees it: start and end in the unit of the input (str indices or bytes),
// and every unit under its own name.
struct PyCitation {
  lexlink::Citation c;
  bool str_input = false;
  std::uint64_t start() const { return str_input ? c.code_points.begin : c.bytes.begin; }
  std::uint64_t end() const { return str_input ? c.code_points.end : c.bytes.end; }
};

// What became of one citation in markup; start and end as for citations.
struct PyOutcome {
  lexlink::LinkOutcome o;
  std::uint64_t start = 0, end = 0;
};

// Code-point indices of sorted UTF-8 byte offsets of `text`, counted in one pass.
class CodePointCounter {
 public:
  explicit CodePointCounter(std::string_view text) : text_(text) {}
  // Offsets must not decrease from one call to the next.
  std::uint64_t at(std::uint64_t byte) {
    const std::size_t to = std::min<std::uint64_t>(byte, text_.size());
    for (; pos_ < to; ++pos_) {
      if ((static_cast<unsigned char>(text_[pos_]) & 0xC0) != 0x80) ++count_;
    }
    return count_;
  }

 private:
  std::string_view text_;
  std::size_t pos_ = 0;
  std::uint64_t count_ = 0;
};

std::vector<PyOutcome> outcomes_of(const Document& d, std::vector<lexlink::LinkOutcome>&& in) {
  std::vector<PyOutcome> out;
  out.reserve(in.size());
  for (lexlink::LinkOutcome& o : in) {
    PyOutcome p;
    p.start = o.bytes.begin;
    p.end = o.bytes.end;
    p.o = std::move(o);
    out.push_back(std::move(p));
  }
  if (d.is_str) {
    // Begins come in document order; ends may not (a citation inside another), so each sorted.
    std::vector<std::pair<std::uint64_t, std::uint64_t*>> offsets;
    for (PyOutcome& p : out) {
      offsets.emplace_back(p.start, &p.start);
      offsets.emplace_back(p.end, &p.end);
    }
    std::sort(offsets.begin(), offsets.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    CodePointCounter count(d.bytes);
    for (auto& [byte, slot] : offsets) *slot = count.at(byte);
  }
  return out;
}

class PyExtractor {
 public:
  PyExtractor(const py::object& jurisdiction, const std::optional<std::string>& data,
              bool reference_engine, const std::optional<std::string>& cache,
              std::uint64_t max_document_bytes)
      : x_(load(jurisdiction, data, reference_engine, cache, max_document_bytes)) {}

  std::vector<PyCitation> extract(const py::handle& doc, const std::string& format,
                                  const std::optional<std::string>& encoding,
                                  const std::optional<std::string>& self_urn) const {
    const Document d = read_document(doc);
    const lexlink::DocumentOptions o = document_options(d, format, encoding, self_urn);
    auto r = [&] {
      py::gil_scoped_release unlocked;
      return x_.extract(d.bytes, o);
    }();
    return citations_of(value_or_raise(std::move(r)), d.is_str);
  }

  std::vector<PyCitation> extract_file(const std::string& path, const std::string& format,
                                       const std::optional<std::string>& encoding,
                                       const std::optional<std::string>& self_urn) const {
    const lexlink::DocumentOptions o = document_options(Document{}, format, encoding, self_urn);
    auto r = [&] {
      py::gil_scoped_release unlocked;
      return x_.extract_file(path, o);
    }();
    return citations_of(value_or_raise(std::move(r)), false);
  }

  py::object markup(const py::handle& doc, const std::string& format,
                    const std::optional<std::string>& encoding,
                    const std::optional<std::string>& self_urn, const std::string& profile,
                    const std::string& href, const std::optional<std::string>& partition_sep,
                    bool outcomes) const {
    const Document d = read_document(doc);
    lexlink::MarkupOptions o;
    o.document = document_options(d, format, encoding, self_urn);
    o.profile = profile;
    if (href == "urn") {
      o.href = lexlink::Href::kUrn;
    } else if (href == "resolver") {
      o.href = lexlink::Href::kResolver;
    } else {
      throw py::value_error("href is 'urn' or 'resolver', not '" + href + "'");
    }
    if (partition_sep) {
      if (*partition_sep != "~" && *partition_sep != "#") {
        throw py::value_error("partition_sep is '~' or '#', not '" + *partition_sep + "'");
      }
      o.partition_sep = (*partition_sep)[0];
    }
    auto r = [&] {
      py::gil_scoped_release unlocked;
      return x_.markup(d.bytes, o);
    }();
    lexlink::MarkupResult m = value_or_raise(std::move(r));
    py::object marked = same_type(d, m.document);
    if (!outcomes) return marked;
    return py::make_tuple(marked, outcomes_of(d, std::move(m.outcomes)));
  }

  const std::vector<std::string>& jurisdictions() const { return x_.jurisdictions(); }
  const std::string& data_folder() const { return x_.data_folder(); }

 private:
  static lexlink::Extractor load(const py::object& jurisdiction,
                                 const std::optional<std::string>& data, bool reference_engine,
                                 const std::optional<std::string>& cache,
                                 std::uint64_t max_document_bytes) {
    lexlink::ExtractorOptions o;
    if (py::isinstance<py::str>(jurisdiction)) {
      o.jurisdictions = {jurisdiction.cast<std::string>()};
    } else {
      o.jurisdictions = jurisdiction.cast<std::vector<std::string>>();
    }
    o.data_folder = data_or_default(data);
    o.reference_engine = reference_engine;
    if (cache) o.cache_folder = *cache;
    o.max_document_bytes = max_document_bytes;
    auto r = [&] {
      py::gil_scoped_release unlocked;
      return lexlink::Extractor::load(o);
    }();
    return value_or_raise(std::move(r));
  }

  static std::vector<PyCitation> citations_of(std::vector<lexlink::Citation>&& cs, bool str_input) {
    std::vector<PyCitation> out;
    out.reserve(cs.size());
    for (lexlink::Citation& c : cs) out.push_back(PyCitation{std::move(c), str_input});
    return out;
  }

  lexlink::Extractor x_;
};

py::object unmark(const py::handle& doc) {
  const Document d = read_document(doc);
  auto r = [&] {
    py::gil_scoped_release unlocked;
    return lexlink::unmark(d.bytes);
  }();
  return same_type(d, value_or_raise(std::move(r)));
}

lexlink::UrnOptions urn_options(bool iri, bool allow_empty_authority, bool allow_unnumbered,
                                std::size_t max_length) {
  lexlink::UrnOptions o;
  o.iri = iri;
  o.allow_empty_authority = allow_empty_authority;
  o.allow_unnumbered = allow_unnumbered;
  o.max_length = max_length;
  return o;
}

std::string repr_citation(const PyCitation& p) {
  return "<lexlink.Citation " + std::to_string(p.start()) + ".." + std::to_string(p.end()) + " " +
         p.c.urn + (p.c.complete ? "" : " (partial)") + ">";
}

void bind_citation(py::module_& m) {
  py::class_<PyCitation>(m, "Citation",
                         "A citation found in a document: where it is, what it cites, who read "
                         "it. start and end are str indices for a str document, byte offsets "
                         "for bytes; byte_*, char_* (code points) and utf16_* give every unit.")
      .def_property_readonly("start", &PyCitation::start)
      .def_property_readonly("end", &PyCitation::end)
      .def_property_readonly("byte_start", [](const PyCitation& p) { return p.c.bytes.begin; })
      .def_property_readonly("byte_end", [](const PyCitation& p) { return p.c.bytes.end; })
      .def_property_readonly("char_start",
                             [](const PyCitation& p) { return p.c.code_points.begin; })
      .def_property_readonly("char_end", [](const PyCitation& p) { return p.c.code_points.end; })
      .def_property_readonly("utf16_start", [](const PyCitation& p) { return p.c.utf16.begin; })
      .def_property_readonly("utf16_end", [](const PyCitation& p) { return p.c.utf16.end; })
      .def_property_readonly("text", [](const PyCitation& p) { return p.c.text; })
      .def_property_readonly("urn", [](const PyCitation& p) { return p.c.urn; })
      .def_property_readonly("work", [](const PyCitation& p) { return p.c.work; })
      .def_property_readonly("jurisdiction", [](const PyCitation& p) { return p.c.jurisdiction; })
      .def_property_readonly("rule", [](const PyCitation& p) { return p.c.rule; })
      .def_property_readonly("complete", [](const PyCitation& p) { return p.c.complete; })
      .def_property_readonly("inner", [](const PyCitation& p) { return p.c.inner; })
      .def("__repr__", &repr_citation);
}

void bind_outcome(py::module_& m) {
  py::class_<PyOutcome>(m, "LinkOutcome",
                        "What markup made of one citation: linked, or not and why. start and end "
                        "as for Citation; byte_start and byte_end in the input's bytes.")
      .def_readonly("start", &PyOutcome::start)
      .def_readonly("end", &PyOutcome::end)
      .def_property_readonly("byte_start", [](const PyOutcome& p) { return p.o.bytes.begin; })
      .def_property_readonly("byte_end", [](const PyOutcome& p) { return p.o.bytes.end; })
      .def_property_readonly("urn", [](const PyOutcome& p) { return p.o.urn; })
      .def_property_readonly("rule", [](const PyOutcome& p) { return p.o.rule; })
      .def_property_readonly("linked", [](const PyOutcome& p) { return p.o.linked; })
      .def_property_readonly("reason", [](const PyOutcome& p) { return p.o.reason; })
      .def_property_readonly("detail", [](const PyOutcome& p) { return p.o.detail; })
      .def_property_readonly("href", [](const PyOutcome& p) { return p.o.href; })
      .def("__repr__", [](const PyOutcome& p) {
        return "<lexlink.LinkOutcome " + std::to_string(p.start) + ".." + std::to_string(p.end) +
               " " + p.o.urn + " " + p.o.reason + ">";
      });
}

void bind_extractor(py::module_& m) {
  py::class_<PyExtractor>(m, "Extractor",
                          "The grammars and lexicons of a data folder, loaded and compiled once; "
                          "immutable, shared by any number of threads.")
      .def(py::init<const py::object&, const std::optional<std::string>&, bool,
                    const std::optional<std::string>&, std::uint64_t>(),
           py::arg("jurisdiction") = "auto", py::arg("data") = py::none(), py::kw_only(),
           py::arg("reference_engine") = false, py::arg("cache") = py::none(),
           py::arg("max_document_bytes") = std::uint64_t{256} << 20)
      .def("extract", &PyExtractor::extract, py::arg("document"), py::kw_only(),
           py::arg("format") = "auto", py::arg("encoding") = py::none(),
           py::arg("self_urn") = py::none(), "The citations of a document, in document order.")
      .def("extract_file", &PyExtractor::extract_file, py::arg("path"), py::kw_only(),
           py::arg("format") = "auto", py::arg("encoding") = py::none(),
           py::arg("self_urn") = py::none(),
           "The citations of a file (.gz and .zst decompressed); offsets in its bytes.")
      .def("markup", &PyExtractor::markup, py::arg("document"), py::kw_only(),
           py::arg("format") = "auto", py::arg("encoding") = py::none(),
           py::arg("self_urn") = py::none(), py::arg("profile") = "auto", py::arg("href") = "urn",
           py::arg("partition_sep") = py::none(), py::arg("outcomes") = false,
           "The document with a link on every citation, every other byte unchanged.")
      .def(
          "unmark", [](const PyExtractor&, const py::handle& doc) { return unmark(doc); },
          py::arg("document"), "The document without the links lexlink inserted.")
      .def_property_readonly("jurisdictions", &PyExtractor::jurisdictions)
      .def_property_readonly("data_folder", &PyExtractor::data_folder);
}

void bind_urn(py::module_& m) {
  py::module_ u = m.def_submodule("urn", "The URN:LEX toolkit (RFC 9676).");
#define LEXLINK_URN_ARGS                                                           \
  py::kw_only(), py::arg("iri") = false, py::arg("allow_empty_authority") = false, \
                 py::arg("allow_unnumbered") = false,                              \
                 py::arg("max_length") = std::size_t{64 * 1024}
  u.def(
      "validate",
      [](std::string_view name, bool iri, bool e, bool n, std::size_t max) {
        if (auto s = lexlink::urn_validate(name, urn_options(iri, e, n, max)); !s)
          raise_error(s.error());
      },
      py::arg("name"), LEXLINK_URN_ARGS, "Raises lexlink.Error unless the name is valid.");
  u.def(
      "is_valid",
      [](std::string_view name, bool iri, bool e, bool n, std::size_t max) {
        return lexlink::urn_validate(name, urn_options(iri, e, n, max)).ok();
      },
      py::arg("name"), LEXLINK_URN_ARGS, "Whether the name is a valid URN:LEX name.");
  u.def(
      "parse",
      [](std::string_view name, bool iri, bool e, bool n, std::size_t max) {
        lexlink::UrnParts p = value_or_raise(lexlink::urn_parse(name, urn_options(iri, e, n, max)));
        py::dict d;
        d["canonical"] = p.canonical;
        d["jurisdiction"] = p.jurisdiction;
        d["work"] = p.work;
        d["document_name"] = p.document_name;
        d["partition"] = p.partition;
        d["year"] = p.year;
        d["year_only"] = p.year_only;
        d["json"] = p.json;
        return d;
      },
      py::arg("name"), LEXLINK_URN_ARGS, "The parts of a name (lexlink.urn.UrnParts).");
  u.def(
      "normalize",
      [](std::string_view name, bool fold, bool iri, bool e, bool n, std::size_t max) {
        return value_or_raise(lexlink::urn_normalize(name, urn_options(iri, e, n, max), fold));
      },
      py::arg("name"), py::kw_only(), py::arg("fold") = false, py::arg("iri") = false,
      py::arg("allow_empty_authority") = false, py::arg("allow_unnumbered") = false,
      py::arg("max_length") = std::size_t{64 * 1024}, "The canonical form of a name.");
  u.def(
      "equal",
      [](std::string_view a, std::string_view b, bool iri, bool e, bool n, std::size_t max) {
        return value_or_raise(lexlink::urn_equal(a, b, urn_options(iri, e, n, max)));
      },
      py::arg("a"), py::arg("b"), LEXLINK_URN_ARGS, "Whether two names are the same name.");
#undef LEXLINK_URN_ARGS
  u.def(
      "resolve",
      [](std::string_view name, const std::string& sep, const std::optional<std::string>& data) {
        if (sep != "#" && sep != "~") {
          throw py::value_error("partition_sep is '#' or '~', not '" + sep + "'");
        }
        return value_or_raise(lexlink::urn_resolve(name, sep[0], data_or_default(data)));
      },
      py::arg("name"), py::kw_only(), py::arg("partition_sep") = "#", py::arg("data") = py::none(),
      "The resolver URL of a name.");
}

}  // namespace

PYBIND11_MODULE(_lexlink, m) {
  m.doc() = "lexlink: citations of sources of law found, named with URN:LEX and linked.";
  g_error = PyErr_NewExceptionWithDoc(
      "lexlink.Error",
      "An error of the lexlink library: code (invalid_argument, data_error, not_found, io_error, "
      "limit_exceeded, unsupported, internal), message, and file, line, col when a data file is "
      "at fault.",
      PyExc_Exception, nullptr);
  if (g_error == nullptr) throw py::error_already_set();
  m.add_object("Error", py::handle(g_error));
  m.attr("__version__") = lexlink::version();
  m.def(
      "default_data_folder", [] { return data_or_default(std::nullopt); },
      "The data folder used when none is named: $LEXLINK_DATA, else the data installed with the "
      "package, else the library's default.");
  m.def(
      "jurisdictions",
      [](const std::optional<std::string>& data) {
        return lexlink::jurisdictions(data_or_default(data));
      },
      py::arg("data") = py::none(), "The jurisdictions a data folder holds.");
  m.def(
      "_set_package_data", [](const std::string& folder) { g_package_data = folder; },
      py::arg("folder"), "(private: __init__.py names the data installed with the package)");
  m.def("unmark", &unmark, py::arg("document"), "The document without the links lexlink inserted.");
  bind_citation(m);
  bind_outcome(m);
  bind_extractor(m);
  bind_urn(m);
}

// MjcfTranslation (sim/mjcf_translation.hpp): MuJoCo 3's MJCF for MuJoCo 2.2.2, in memory.
//
// The files are read by a small XML reader of our own that keeps every attribute's offsets, so each
// translation is a local edit of the original text (an attribute added, removed or given a new
// value, never a line added or removed): MuJoCo's line numbers still point into the files on disk,
// and everything the translation does not touch reaches MuJoCo byte for byte.
#include "praxis/sim/mjcf_translation.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <sstream>
#include <system_error>
#include <utility>

namespace praxis::sim {

namespace {

constexpr std::size_t k_none = static_cast<std::size_t>(-1);

struct Attribute {
  std::string name;
  std::string value;            // entities decoded
  std::size_t name_begin = 0;   // offsets in the file's text
  std::size_t value_begin = 0;  // the raw value, inside the quotes
  std::size_t value_end = 0;
};

struct Element {
  std::string name;
  std::vector<Attribute> attributes;
  std::size_t file = 0;
  int line = 0;
  std::size_t name_begin = 0;       // the name in the start tag
  std::size_t start_tag_close = 0;  // the '>' or "/>" ending the start tag: where attributes are added
  std::size_t start_tag_end = 0;    // just past the start tag
  std::size_t end_tag_name = k_none;  // the name in its end tag, if it has one (renaming an element)
  std::size_t parent = k_none;
  std::vector<std::size_t> children;  // an <include>'s children are the included file's top elements

  [[nodiscard]] const Attribute* find(std::string_view n) const {
    for (const auto& a : attributes) {
      if (a.name == n) return &a;
    }
    return nullptr;
  }
  [[nodiscard]] std::string get(std::string_view n) const {
    const Attribute* a = find(n);
    return a ? a->value : std::string{};
  }
};

struct Source {
  std::filesystem::path path;
  std::string text;
  std::vector<std::size_t> line_starts;

  [[nodiscard]] int line_of(std::size_t offset) const {
    return static_cast<int>(std::upper_bound(line_starts.begin(), line_starts.end(), offset) - line_starts.begin());
  }
};

struct Edit {
  std::size_t file = 0;
  std::size_t begin = 0;
  std::size_t end = 0;
  std::string text;
  std::size_t order = 0;
};

std::string quoted(const std::filesystem::path& p) { return "'" + p.string() + "'"; }

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

std::string decode_entities(std::string_view raw) {
  std::string out;
  out.reserve(raw.size());
  for (std::size_t i = 0; i < raw.size(); ++i) {
    if (raw[i] != '&') {
      out += raw[i];
      continue;
    }
    const auto semi = raw.find(';', i);
    if (semi == std::string_view::npos) {
      out += raw[i];
      continue;
    }
    const std::string_view e = raw.substr(i + 1, semi - i - 1);
    if (e == "lt") out += '<';
    else if (e == "gt") out += '>';
    else if (e == "amp") out += '&';
    else if (e == "quot") out += '"';
    else if (e == "apos") out += '\'';
    else if (e.size() > 1 && e[0] == '#') {
      unsigned code = 0;
      const bool hex = e[1] == 'x' || e[1] == 'X';
      const std::string_view digits = e.substr(hex ? 2 : 1);
      const auto r = std::from_chars(digits.data(), digits.data() + digits.size(), code, hex ? 16 : 10);
      if (r.ec != std::errc{} || code > 0x7f) {
        out.append(raw.substr(i, semi - i + 1));  // only names and numbers matter here: kept as written
      } else {
        out += static_cast<char>(code);
      }
    } else {
      out.append(raw.substr(i, semi - i + 1));
    }
    i = semi;
  }
  return out;
}

std::string escape(std::string_view value) {
  std::string out;
  for (const char c : value) {
    if (c == '&') out += "&amp;";
    else if (c == '<') out += "&lt;";
    else if (c == '"') out += "&quot;";
    else out += c;
  }
  return out;
}

// "-88 88" -> {-88, 88}; nullopt unless exactly `n` finite numbers.
std::optional<std::vector<double>> numbers(std::string_view text, std::size_t n) {
  std::vector<double> out;
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && is_space(text[i])) ++i;
    if (i == text.size()) break;
    std::size_t j = i;
    while (j < text.size() && !is_space(text[j])) ++j;
    double v = 0.0;
    const auto r = std::from_chars(text.data() + i, text.data() + j, v);
    if (r.ec != std::errc{} || r.ptr != text.data() + j || !std::isfinite(v)) return std::nullopt;
    out.push_back(v);
    i = j;
  }
  if (out.size() != n) return std::nullopt;
  return out;
}

std::string number_text(double v) {
  std::array<char, 32> buffer{};
  const auto r = std::to_chars(buffer.data(), buffer.data() + buffer.size(), v);
  return std::string(buffer.data(), r.ptr);
}

std::string range_text(double lo, double hi) { return number_text(lo) + " " + number_text(hi); }

const std::array<std::string_view, 9> k_actuator_tags{"general",  "motor",  "position", "velocity", "intvelocity",
                                                      "damper",   "cylinder", "muscle", "adhesion"};
bool is_actuator_tag(std::string_view tag) {
  return std::find(k_actuator_tags.begin(), k_actuator_tags.end(), tag) != k_actuator_tags.end();
}

// Attributes 2.2.2 does not know, dropped when they say what MuJoCo 3 does without them.
struct Droppable {
  std::string_view element;  // "*": any actuator
  std::string_view attribute;
  std::string_view default_value;
  std::string_view meaning;  // what a value other than the default asks for
};
constexpr std::array<Droppable, 8> k_droppable{{
    {"freejoint", "align", "false", "a free joint aligned to the body's inertia frame (MuJoCo 3.2.3)"},
    {"compiler", "alignfree", "false", "free joints aligned to their bodies' inertia frames (MuJoCo 3.2.3)"},
    {"joint", "actuatorgravcomp", "false", "gravity compensation applied through the actuators (MuJoCo 3)"},
    {"body", "gravcomp", "0", "gravity compensation of the body (MuJoCo 2.3.1)"},
    {"*", "actearly", "false", "actuator activation used in the same step (MuJoCo 3)"},
    {"position", "kv", "0", "a position actuator's damping gain kv (MuJoCo 3.1)"},
    {"position", "dampratio", "0", "a position actuator's damping ratio (MuJoCo 3.1.6)"},
    {"position", "inheritrange", "0", "a ctrlrange taken from the joint's range (MuJoCo 3.1.3)"},
}};

// Elements of MuJoCo 3 with nothing like them in 2.2.2.
constexpr std::array<std::pair<std::string_view, std::string_view>, 7> k_untranslatable_elements{{
    {"frame", "a <frame> (MuJoCo 3.1): its bodies would have to be written out in full"},
    {"replicate", "a <replicate> (MuJoCo 3.1.5): its copies would have to be written out in full"},
    {"attach", "an <attach> of another model (MuJoCo 3.2)"},
    {"flexcomp", "deformable objects (MuJoCo 3)"},
    {"flex", "deformable objects (MuJoCo 3)"},
    {"extension", "engine plugins (MuJoCo 2.3)"},
    {"plugin", "engine plugins (MuJoCo 2.3)"},
}};

}  // namespace

struct MjcfTranslation::Parsed {
  std::vector<Source> sources;
  std::vector<Element> elements;
  std::size_t root = k_none;
  std::vector<Edit> edits;
  std::vector<File> files;
  std::vector<std::string> changes;
  bool autolimits = true;
  std::string meshdir, texturedir;

  // ---------------- reading ----------------

  [[nodiscard]] std::string short_where(const Element& e) const {
    return sources[e.file].path.filename().string() + ":" + std::to_string(e.line);
  }

  // Names the element, and the attribute with its own line when there is one.
  [[noreturn]] void fail(const Element& e, const std::string& what, std::string_view attribute = {}) const {
    const Attribute* a = attribute.empty() ? nullptr : e.find(attribute);
    const int line = a ? sources[e.file].line_of(a->name_begin) : e.line;
    throw ModelError("MuJoCo model " + quoted(sources.front().path) + ": " + quoted(sources[e.file].path) + " line " +
                     std::to_string(line) + ", <" + e.name + (a ? " " + a->name : std::string{}) + ">: " + what);
  }

  std::size_t read_file(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw ModelError("MuJoCo model " + quoted(path) + ": cannot be read");
    Source s;
    s.path = path;
    s.text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    s.line_starts.push_back(0);
    for (std::size_t i = 0; i < s.text.size(); ++i) {
      if (s.text[i] == '\n') s.line_starts.push_back(i + 1);
    }
    sources.push_back(std::move(s));
    return parse(sources.size() - 1);
  }

  // The file's elements; returns its root element.
  std::size_t parse(std::size_t file) {
    const std::string& t = sources[file].text;
    const auto error = [&](std::size_t at, const std::string& what) {
      throw ModelError("MuJoCo model " + quoted(sources.front().path) + ": XML parse error in " +
                       quoted(sources[file].path) + " line " + std::to_string(sources[file].line_of(at)) + ": " + what);
    };
    const auto starts = [&](std::size_t at, std::string_view s) { return t.compare(at, s.size(), s) == 0; };
    const auto skip_to = [&](std::size_t at, std::string_view end, const char* what) {
      const auto found = t.find(end, at);
      if (found == std::string::npos) error(at, std::string("unterminated ") + what);
      return found + end.size();
    };
    const auto name_end = [&](std::size_t at) {
      while (at < t.size() && !is_space(t[at]) && t[at] != '/' && t[at] != '>' && t[at] != '=') ++at;
      return at;
    };
    std::vector<std::size_t> open;
    std::size_t root_element = k_none;
    std::size_t pos = 0;
    while ((pos = t.find('<', pos)) != std::string::npos) {
      if (starts(pos, "<?")) {
        pos = skip_to(pos, "?>", "processing instruction");
      } else if (starts(pos, "<!--")) {
        pos = skip_to(pos, "-->", "comment");
      } else if (starts(pos, "<![CDATA[")) {
        pos = skip_to(pos, "]]>", "CDATA section");
      } else if (starts(pos, "<!")) {
        pos = skip_to(pos, ">", "declaration");
      } else if (starts(pos, "</")) {
        const std::size_t b = pos + 2;
        const std::size_t e = name_end(b);
        const std::string name = t.substr(b, e - b);
        std::size_t close = e;
        while (close < t.size() && is_space(t[close])) ++close;
        if (close >= t.size() || t[close] != '>') error(pos, "malformed end tag </" + name + ">");
        if (open.empty()) error(pos, "</" + name + "> closes nothing");
        const Element& top = elements[open.back()];
        if (top.name != name) {
          error(pos, "</" + name + "> closes <" + top.name + "> (opened at line " + std::to_string(top.line) + ")");
        }
        elements[open.back()].end_tag_name = b;
        open.pop_back();
        pos = close + 1;
      } else {
        Element el;
        el.file = file;
        el.line = sources[file].line_of(pos);
        std::size_t at = name_end(pos + 1);
        el.name = t.substr(pos + 1, at - pos - 1);
        el.name_begin = pos + 1;
        if (el.name.empty()) error(pos, "an element without a name");
        bool self_closing = false;
        for (;;) {
          while (at < t.size() && is_space(t[at])) ++at;
          if (at >= t.size()) error(pos, "unterminated start tag <" + el.name + ">");
          if (starts(at, "/>")) {
            self_closing = true;
            el.start_tag_close = at;
            el.start_tag_end = at + 2;
            break;
          }
          if (t[at] == '>') {
            el.start_tag_close = at;
            el.start_tag_end = at + 1;
            break;
          }
          Attribute a;
          a.name_begin = at;
          const std::size_t ne = name_end(at);
          a.name = t.substr(at, ne - at);
          at = ne;
          while (at < t.size() && is_space(t[at])) ++at;
          if (a.name.empty() || at >= t.size() || t[at] != '=') {
            error(at, "attribute '" + a.name + "' of <" + el.name + "> has no value");
          }
          ++at;
          while (at < t.size() && is_space(t[at])) ++at;
          if (at >= t.size() || (t[at] != '"' && t[at] != '\'')) error(at, "attribute '" + a.name + "' of <" + el.name + "> is not quoted");
          const char quote = t[at];
          const auto end = t.find(quote, at + 1);
          if (end == std::string::npos) error(at, "attribute '" + a.name + "' of <" + el.name + "> is not closed");
          a.value_begin = at + 1;
          a.value_end = end;
          a.value = decode_entities(std::string_view(t).substr(a.value_begin, end - a.value_begin));
          if (el.find(a.name)) error(at, "attribute '" + a.name + "' of <" + el.name + "> is given twice");
          el.attributes.push_back(std::move(a));
          at = end + 1;
        }
        const std::size_t index = elements.size();
        if (open.empty()) {
          if (root_element != k_none) error(pos, "a second top-level element <" + el.name + ">");
          root_element = index;
        } else {
          el.parent = open.back();
          elements[open.back()].children.push_back(index);
        }
        pos = el.start_tag_end;
        elements.push_back(std::move(el));
        if (!self_closing) open.push_back(index);
      }
    }
    if (!open.empty()) {
      const Element& top = elements[open.back()];
      error(t.size(), "<" + top.name + "> (opened at line " + std::to_string(top.line) + ") is never closed");
    }
    if (root_element == k_none) error(0, "no element");
    if (elements[root_element].name != "mujoco") fail(elements[root_element], "the top element must be <mujoco>");
    return root_element;
  }

  // MuJoCo 2.2.2 finds an included file in the main file's folder, and puts its top element's
  // children where the <include> is.
  void resolve_includes(std::size_t root_element) {
    const std::filesystem::path folder = sources.front().path.parent_path();
    std::vector<std::size_t> includes;
    for_each(root_element, [&](std::size_t i) {
      if (elements[i].name == "include") includes.push_back(i);
    });
    for (const std::size_t inc : includes) {
      const Element& e = elements[inc];
      const std::string file = e.get("file");
      if (file.empty()) fail(e, "no file attribute");
      const std::filesystem::path path = folder / file;
      std::error_code ec;
      if (!std::filesystem::is_regular_file(path, ec)) fail(e, "the included file " + quoted(path) + " does not exist", "file");
      for (const auto& s : sources) {
        if (std::filesystem::equivalent(s.path, path, ec)) fail(e, quoted(path) + " is included twice", "file");
      }
      const std::size_t included_root = read_file(path);
      const std::vector<std::size_t> children = elements[included_root].children;
      for (const std::size_t c : children) elements[c].parent = inc;
      elements[inc].children = children;
      resolve_includes(included_root);
    }
  }

  template <typename F>
  void for_each(std::size_t from, F&& f) const {
    std::vector<std::size_t> todo{from};
    while (!todo.empty()) {
      const std::size_t i = todo.back();
      todo.pop_back();
      f(i);
      const auto& c = elements[i].children;
      todo.insert(todo.end(), c.rbegin(), c.rend());
    }
  }

  [[nodiscard]] bool inside(std::size_t i, std::string_view ancestor) const {
    for (std::size_t p = elements[i].parent; p != k_none; p = elements[p].parent) {
      if (elements[p].name == ancestor) return true;
    }
    return false;
  }
  [[nodiscard]] std::string_view parent_name(std::size_t i) const {
    const std::size_t p = elements[i].parent;
    if (p == k_none) return {};
    // An <include>'s children stand where the include stands.
    if (elements[p].name == "include") return parent_name(p);
    return elements[p].name;
  }

  // ---------------- default classes ----------------

  struct DefaultClass {
    std::string parent;                  // empty for "main"
    std::vector<std::size_t> joints;     // <joint> elements of this class, in order
    std::vector<std::size_t> actuators;  // <motor>, <position>, ...: they share one actuator default
  };
  std::map<std::string, DefaultClass> classes;

  void read_defaults(std::size_t root_element) {
    for_each(root_element, [&](std::size_t i) {
      const Element& e = elements[i];
      if (e.name != "default") return;
      const bool nested = parent_name(i) == "default";
      std::string name = nested ? e.get("class") : "main";
      if (name.empty()) name = "main";
      auto& c = classes[name];
      if (nested) {
        std::size_t p = e.parent;
        while (elements[p].name == "include") p = elements[p].parent;
        const std::string parent = parent_name(p) == "default" ? elements[p].get("class") : "main";
        c.parent = parent.empty() ? "main" : parent;
      }
      for (const std::size_t k : e.children) {
        if (elements[k].name == "joint") c.joints.push_back(k);
        if (is_actuator_tag(elements[k].name)) c.actuators.push_back(k);
      }
    });
  }

  struct Found {
    std::string value;
    std::size_t element = k_none;
  };

  // The attribute as MuJoCo sees it on element i: its own, else its class's, else the class's
  // parents' up to "main".
  [[nodiscard]] std::optional<Found> lookup(std::size_t i, std::string_view attribute, bool actuator) const {
    const Element& e = elements[i];
    if (const Attribute* a = e.find(attribute)) return Found{a->value, i};
    std::string cls = e.get("class");
    if (cls.empty() && !actuator) {
      for (std::size_t p = e.parent; p != k_none && cls.empty(); p = elements[p].parent) cls = elements[p].get("childclass");
    }
    if (cls.empty()) cls = "main";
    for (int guard = 0; guard < 1000 && !cls.empty(); ++guard) {
      const auto it = classes.find(cls);
      if (it == classes.end()) return std::nullopt;  // MuJoCo names an unknown class itself
      const auto& list = actuator ? it->second.actuators : it->second.joints;
      for (auto k = list.rbegin(); k != list.rend(); ++k) {
        if (const Attribute* a = elements[*k].find(attribute)) return Found{a->value, *k};
      }
      cls = it->second.parent;
    }
    return std::nullopt;
  }

  // A limited / ctrllimited / ... flag: "true", "false", or "auto" (and absent) which a range
  // turns on when autolimits holds.
  [[nodiscard]] bool limited(const std::optional<Found>& flag, bool has_range) const {
    if (!flag || flag->value == "auto") return autolimits && has_range;
    return flag->value == "true";
  }

  // ---------------- editing ----------------

  void edit(std::size_t file, std::size_t begin, std::size_t end, std::string text) {
    edits.push_back({file, begin, end, std::move(text), edits.size()});
  }
  void set_attribute(std::size_t i, std::string_view name, const std::string& value) {
    const Element& e = elements[i];
    if (const Attribute* a = e.find(name)) {
      edit(e.file, a->value_begin, a->value_end, escape(value));
    } else {
      edit(e.file, e.start_tag_close, e.start_tag_close, " " + std::string(name) + "=\"" + escape(value) + "\"");
    }
  }
  // The attribute and its value go; the white space before it stays, so no line moves.
  void remove_attribute(std::size_t i, const Attribute& a) {
    edit(elements[i].file, a.name_begin, a.value_end + 1, "");
  }
  void note(const Element& e, const std::string& what) { changes.push_back(short_where(e) + ": " + what); }

  // ---------------- translating ----------------

  void translate() {
    const std::size_t top = root;
    std::vector<std::size_t> compilers;
    for_each(top, [&](std::size_t i) {
      if (elements[i].name == "compiler" && parent_name(i) == "mujoco") compilers.push_back(i);
    });
    std::optional<std::string> autolimits_given;
    for (const std::size_t c : compilers) {
      const Element& e = elements[c];
      if (const Attribute* a = e.find("autolimits")) autolimits_given = a->value;
      if (const Attribute* a = e.find("meshdir")) meshdir = a->value;
      if (const Attribute* a = e.find("texturedir")) texturedir = a->value;
    }
    if (autolimits_given) {
      autolimits = *autolimits_given == "true";
    } else {
      const Element& r = elements[top];
      edit(r.file, r.start_tag_end, r.start_tag_end, "<compiler autolimits=\"true\"/>");
      note(r, "<compiler autolimits=\"true\"> added: MuJoCo 3 limits a joint, tendon or actuator that has a range; "
              "2.2.2 only with autolimits");
    }
    for (const std::size_t c : compilers) {
      const Element& e = elements[c];
      const Attribute* a = e.find("assetdir");
      if (!a) continue;
      std::string added;
      if (meshdir.empty()) {
        meshdir = a->value;
        added += " meshdir=\"" + escape(a->value) + "\"";
      }
      if (texturedir.empty()) {
        texturedir = a->value;
        added += " texturedir=\"" + escape(a->value) + "\"";
      }
      edit(e.file, a->name_begin, a->value_end + 1, added.empty() ? std::string{} : added.substr(1));
      note(e, "assetdir \"" + a->value + "\" became" + (added.empty() ? std::string(" nothing (meshdir and texturedir are given)") : added));
    }

    read_defaults(top);
    refuse_untranslatable(top);
    translate_actuator_force_ranges(top);
    translate_joint_actuator_force_sensors(top);
    check_asset_files(top);
  }

  void refuse_untranslatable(std::size_t top) {
    for_each(top, [&](std::size_t i) {
      const Element& e = elements[i];
      for (const auto& [name, why] : k_untranslatable_elements) {
        if (e.name == name) fail(e, "MuJoCo 2.2.2 has no <" + e.name + ">: " + std::string(why) + "; cannot be translated");
      }
      for (const auto& d : k_droppable) {
        const bool applies = d.element == "*" ? is_actuator_tag(e.name) : e.name == d.element;
        const Attribute* a = applies ? e.find(d.attribute) : nullptr;
        if (!a) continue;
        const auto value = numbers(a->value, 1);
        const bool is_default = a->value == d.default_value || (d.default_value == "0" && value && (*value)[0] == 0.0);
        if (!is_default) {
          fail(e, std::string(d.attribute) + "=\"" + a->value + "\" asks for " + std::string(d.meaning) +
                      ", which MuJoCo 2.2.2 does not have; cannot be translated", d.attribute);
        }
        remove_attribute(i, *a);
        note(e, std::string(d.attribute) + "=\"" + a->value + "\" dropped (MuJoCo 3's default; 2.2.2 lacks the attribute)");
      }
      if (e.name == "option" && e.get("integrator") == "implicitfast") {
        fail(e, "integrator=\"implicitfast\" (MuJoCo 2.3.3) is not in MuJoCo 2.2.2, which has Euler, RK4 and "
                "implicit, each integrating differently; cannot be translated", "integrator");
      }
    });
  }

  // The actuators (in <actuator>, not in defaults) that drive joint `name`.
  [[nodiscard]] std::vector<std::size_t> drivers_of(std::size_t top, const std::string& name) const {
    std::vector<std::size_t> drivers;
    if (name.empty()) return drivers;
    for_each(top, [&](std::size_t i) {
      const Element& e = elements[i];
      if (!is_actuator_tag(e.name) || parent_name(i) != "actuator") return;
      if (e.get("joint") == name || e.get("jointinparent") == name) drivers.push_back(i);
    });
    return drivers;
  }

  // MuJoCo 2.3.7's <jointactuatorfrc joint="j"> (the actuators' total force at the joint) is the force of
  // the joint's one actuator when its gear is 1: 2.2.2's <actuatorfrc actuator="a">.
  void translate_joint_actuator_force_sensors(std::size_t top) {
    for_each(top, [&](std::size_t i) {
      const Element& e = elements[i];
      if (e.name != "jointactuatorfrc" || parent_name(i) != "sensor") return;
      const Attribute* joint = e.find("joint");
      const std::string name = joint ? joint->value : std::string{};
      const auto drivers = drivers_of(top, name);
      if (drivers.size() != 1) {
        fail(e, "the sensor reads the total actuator force at joint '" + name + "', which " +
                    std::to_string(drivers.size()) +
                    " actuators drive; MuJoCo 2.2.2 can only read one actuator's force (<actuatorfrc>); cannot be "
                    "translated",
             "joint");
      }
      const Element& act = elements[drivers.front()];
      const auto gear = lookup(drivers.front(), "gear", true);
      const auto g = gear ? numbers(gear->value, 1) : std::optional<std::vector<double>>{std::vector<double>{1.0}};
      const std::string actuator = act.get("name");
      if (!g || (*g)[0] != 1.0 || actuator.empty()) {
        fail(e, "the sensor reads joint '" + name + "', whose actuator " +
                    (actuator.empty() ? std::string("has no name") : "'" + actuator + "' has a gear other than 1") +
                    ": MuJoCo 2.2.2's <actuatorfrc> cannot stand in for it; cannot be translated",
             "joint");
      }
      edit(e.file, e.name_begin, e.name_begin + e.name.size(), "actuatorfrc");
      if (e.end_tag_name != k_none) edit(e.file, e.end_tag_name, e.end_tag_name + e.name.size(), "actuatorfrc");
      edit(e.file, joint->name_begin, joint->name_begin + joint->name.size(), "actuator");
      edit(e.file, joint->value_begin, joint->value_end, escape(actuator));
      note(e, "<jointactuatorfrc joint=\"" + name + "\"> became <actuatorfrc actuator=\"" + actuator +
                  "\">: the joint's one actuator, gear 1, gives the same force");
    });
  }

  void translate_actuator_force_ranges(std::size_t top) {
    std::vector<std::size_t> joints, actuators;
    for_each(top, [&](std::size_t i) {
      const Element& e = elements[i];
      if (inside(i, "default")) return;
      if ((e.name == "joint" || e.name == "freejoint") && inside(i, "worldbody")) joints.push_back(i);
      if (is_actuator_tag(e.name) && parent_name(i) == "actuator") actuators.push_back(i);
    });
    for (const std::size_t j : joints) {
      const Element& joint = elements[j];
      const auto range = lookup(j, "actuatorfrcrange", false);
      const auto flag = lookup(j, "actuatorfrclimited", false);
      if (!range && !flag) continue;
      const std::string name = joint.get("name");
      const std::string label = "joint '" + name + "'";
      if (!limited(flag, range.has_value())) continue;
      if (!range) fail(elements[flag->element], "actuatorfrclimited=\"true\" without an actuatorfrcrange", "actuatorfrclimited");
      const auto bounds = numbers(range->value, 2);
      if (!bounds || (*bounds)[0] > (*bounds)[1]) {
        fail(elements[range->element], "actuatorfrcrange=\"" + range->value + "\" is not two numbers, lower first",
             "actuatorfrcrange");
      }
      std::vector<std::size_t> drivers;
      for (const std::size_t a : actuators) {
        const Element& act = elements[a];
        if (!name.empty() && (act.get("joint") == name || act.get("jointinparent") == name)) drivers.push_back(a);
      }
      if (drivers.empty()) {
        note(joint, label + ": actuatorfrcrange " + range->value + " dropped: no actuator drives the joint");
        continue;
      }
      if (drivers.size() > 1) {
        fail(elements[range->element], "actuatorfrcrange=\"" + range->value + "\" of " + label + " clamps the sum of the " +
                                           std::to_string(drivers.size()) +
                                           " actuators driving it; MuJoCo 2.2.2 can only clamp each actuator alone, "
                                           "which is not the same; cannot be translated",
             "actuatorfrcrange");
      }
      clamp_actuator(joint, label, drivers.front(), (*bounds)[0], (*bounds)[1]);
    }
    // The attributes go wherever they are written, joints and default classes alike.
    for_each(top, [&](std::size_t i) {
      for (const auto& a : elements[i].attributes) {
        if (a.name == "actuatorfrcrange" || a.name == "actuatorfrclimited") remove_attribute(i, a);
      }
    });
  }

  // The joint's force clamp [lo, hi] moved onto its one actuator.
  void clamp_actuator(const Element& joint, const std::string& label, std::size_t a, double lo, double hi) {
    const Element& act = elements[a];
    const std::string act_label = act.name + (act.get("name").empty() ? std::string{} : " '" + act.get("name") + "'");
    double gear = 1.0;
    if (const auto g = lookup(a, "gear", true)) {
      const auto values = numbers(g->value, 1);
      const auto six = numbers(g->value, 6);
      if (!values && !six) fail(elements[g->element], "gear=\"" + g->value + "\" is not a number", "gear");
      gear = values ? (*values)[0] : (*six)[0];
    }
    if (gear == 0.0) fail(act, "gear 0 cannot carry the actuatorfrcrange of " + label, "gear");
    // The joint feels gear * the actuator's force: the actuator's own bounds are the joint's / gear.
    double a_lo = lo / gear, a_hi = hi / gear;
    if (a_lo > a_hi) std::swap(a_lo, a_hi);
    // A motor's force is its ctrl (unit gain, no bias), so its ctrlrange is the clamp the motor law
    // of MujocoWorld needs; any other actuator keeps its own law and gets a forcerange.
    const bool motor = act.name == "motor";
    const std::string range_name = motor ? "ctrlrange" : "forcerange";
    const std::string flag_name = motor ? "ctrllimited" : "forcelimited";
    const auto own = lookup(a, range_name, true);
    const bool own_limited = limited(lookup(a, flag_name, true), own.has_value());
    std::string how;
    if (own && own_limited) {
      const auto b = numbers(own->value, 2);
      if (!b) fail(elements[own->element], range_name + "=\"" + own->value + "\" is not two numbers", range_name);
      const double n_lo = std::max(a_lo, (*b)[0]);
      const double n_hi = std::min(a_hi, (*b)[1]);
      if (n_lo > n_hi) {
        fail(elements[own->element],
             range_name + " " + own->value + " and the actuatorfrcrange of " + label + " (" + range_text(a_lo, a_hi) +
                 " at the actuator) do not overlap: the actuator could exert no force at all",
             range_name);
      }
      how = " (its own " + range_name + " " + own->value + " also holds: both clamp in MuJoCo 3)";
      a_lo = n_lo;
      a_hi = n_hi;
    }
    set_attribute(a, range_name, range_text(a_lo, a_hi));
    set_attribute(a, flag_name, "true");
    note(joint, label + ": actuatorfrcrange " + range_text(lo, hi) + " became the " + range_name + " " +
                    range_text(a_lo, a_hi) + " of " + act_label + how);
  }

  // A missing asset is named with the path MuJoCo 2.2.2 would open: the model file's folder, then
  // meshdir (meshes, skins) or texturedir (textures), then the file.
  void check_asset_files(std::size_t top) {
    const std::filesystem::path folder = sources.front().path.parent_path();
    for_each(top, [&](std::size_t i) {
      const Element& e = elements[i];
      if (parent_name(i) != "asset") return;
      const bool mesh = e.name == "mesh" || e.name == "skin";
      if (!mesh && e.name != "texture") return;
      const std::filesystem::path dir = folder / (mesh ? meshdir : texturedir);
      for (const char* attribute : {"file", "fileright", "fileleft", "fileup", "filedown", "filefront", "fileback"}) {
        const Attribute* a = e.find(attribute);
        if (!a || a->value.empty()) continue;
        const std::filesystem::path path = (dir / a->value).lexically_normal();
        std::error_code ec;
        if (!std::filesystem::is_regular_file(path, ec)) {
          const std::string name = e.get("name");
          fail(e, e.name + (name.empty() ? std::string{} : " '" + name + "'") + ": no file " + quoted(path), attribute);
        }
      }
    });
  }

  void write_files() {
    for (std::size_t f = 0; f < sources.size(); ++f) {
      std::vector<const Edit*> mine;
      for (const auto& e : edits) {
        if (e.file == f) mine.push_back(&e);
      }
      // From the end, so earlier offsets stay valid; at one offset, the earlier edit ends up first.
      std::sort(mine.begin(), mine.end(), [](const Edit* a, const Edit* b) {
        return a->begin != b->begin ? a->begin > b->begin : a->order > b->order;
      });
      File out{sources[f].path, sources[f].text, !mine.empty()};
      for (const Edit* e : mine) out.text.replace(e->begin, e->end - e->begin, e->text);
      files.push_back(std::move(out));
    }
  }

  // ---------------- locating MuJoCo's errors ----------------

  [[nodiscard]] std::string describe(std::size_t i, std::string_view attribute = {}) const {
    const Element& e = elements[i];
    std::string s = quoted(sources[e.file].path) + " line " + std::to_string(e.line) + ", <" + e.name;
    if (!attribute.empty()) s += " " + std::string(attribute);
    else if (!e.get("name").empty()) s += " name=\"" + e.get("name") + "\"";
    return s + ">";
  }
};

namespace {

// The text between `open` and the next `close` after `key`; empty when `key` is absent.
std::string after(std::string_view text, std::string_view key, std::string_view close) {
  const auto at = text.find(key);
  if (at == std::string_view::npos) return {};
  const auto b = at + key.size();
  const auto e = text.find_first_of(close, b);
  return std::string(text.substr(b, e == std::string_view::npos ? std::string_view::npos : e - b));
}

}  // namespace

MjcfTranslation::MjcfTranslation(const std::filesystem::path& model_file) : parsed_(std::make_unique<Parsed>()) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(model_file, ec)) {
    throw ModelError("MuJoCo model " + quoted(model_file) + ": no such file");
  }
  Parsed& p = *parsed_;
  p.root = p.read_file(model_file);
  p.resolve_includes(p.root);
  p.translate();
  p.write_files();
}

MjcfTranslation::~MjcfTranslation() = default;
MjcfTranslation::MjcfTranslation(MjcfTranslation&&) noexcept = default;
MjcfTranslation& MjcfTranslation::operator=(MjcfTranslation&&) noexcept = default;

const std::vector<MjcfTranslation::File>& MjcfTranslation::files() const noexcept { return parsed_->files; }
bool MjcfTranslation::changed() const noexcept {
  return std::any_of(parsed_->files.begin(), parsed_->files.end(), [](const File& f) { return f.changed; });
}
const std::vector<std::string>& MjcfTranslation::changes() const noexcept { return parsed_->changes; }

std::string MjcfTranslation::locate(std::string_view message) const {
  const Parsed& p = *parsed_;
  const std::string element = after(message, "Element '", "'");
  const std::string attribute = after(message, "unrecognized attribute: '", "'");
  const std::string keyword = after(message, "invalid keyword: '", "'");
  const std::string object = after(message, "Object name = ", ",");
  int line = 0;
  std::string line_text = after(message, "line = ", ",");
  if (line_text.empty()) line_text = after(message, "', line ", "\n");
  (void)std::from_chars(line_text.data(), line_text.data() + line_text.size(), line);
  const bool named = !element.empty() || !object.empty();

  // Included elements come with line 0 from MuJoCo 2.2.2; a line above 0 is in the model file
  // itself, whose lines the translation keeps. So the line is tried first, then the names alone.
  for (int pass = 0; pass < 2; ++pass) {
    if (pass == 1 && !named) break;
    for (std::size_t i = 0; i < p.elements.size(); ++i) {
      const Element& e = p.elements[i];
      if (pass == 0 && (line <= 0 || e.file != 0 || e.line != line)) continue;
      if (!element.empty() && e.name != element) continue;
      if (!attribute.empty()) {
        if (e.find(attribute)) return p.describe(i, attribute);
        continue;
      }
      if (!keyword.empty()) {
        for (const auto& a : e.attributes) {
          if (a.value == keyword) return p.describe(i, a.name + "=\"" + a.value + "\"");
        }
        continue;
      }
      if (!object.empty() && e.get("name") != object) continue;
      return p.describe(i);
    }
  }
  return {};
}

}  // namespace praxis::sim

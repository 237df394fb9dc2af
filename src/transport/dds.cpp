#include "praxis/transport/dds.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <iterator>
#include <memory>
#include <mutex>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <boost/property_tree/ptree.hpp>
#include <boost/property_tree/xml_parser.hpp>

namespace praxis::transport {

namespace {
// Names go into the XML verbatim; markup characters would change the configuration's meaning.
void require_plain(const std::string& value, const char* what) {
  if (value.find_first_of("<>&\"'") != std::string::npos) {
    throw DdsError(std::string("DDS ") + what + " \"" + value + "\": must not contain < > & \" or '");
  }
}

// How praxis writes its interface next to the user's configuration: Cyclone refuses
// General/Interfaces together with the deprecated options that also describe interfaces
// (General/NetworkInterfaceAddress, General/PreferMulticast, Internal/AssumeMulticastCapable).
enum class InterfaceForm { interfaces, deprecated, none };

std::string praxis_xml(const std::string& interface, InterfaceForm form, const std::string& tag) {
  std::string xml = "<CycloneDDS><Domain Id=\"any\">";
  if (form == InterfaceForm::interfaces) {
    xml += "<General><Interfaces>";
    if (interface.empty()) {
      xml += "<NetworkInterface autodetermine=\"true\" priority=\"default\" multicast=\"default\"/>";
    } else {
      xml += "<NetworkInterface name=\"" + interface + "\" priority=\"default\" multicast=\"default\"/>";
    }
    xml += "</Interfaces></General>";
  } else if (form == InterfaceForm::deprecated && !interface.empty()) {
    xml += "<General><NetworkInterfaceAddress>" + interface + "</NetworkInterfaceAddress></General>";
  }
  if (!tag.empty()) xml += "<Discovery><Tag>" + tag + "</Tag></Discovery>";
  xml += "</Domain></CycloneDDS>";
  return xml;
}

// ---- reading CYCLONEDDS_URI the way Cyclone 0.10 reads a configuration list ----
// Entries are separated by commas and white space. One starting with '<' is inline XML, a single
// element (Cyclone parses one element and goes on after it); any other runs to the next comma and
// is a file, opened by that name or else, after a `file://` prefix, by the rest. Element and
// attribute names compare case-insensitively. A file's root must be CycloneDDS; inline XML may
// leave out CycloneDDS and Domain. A Domain element applies when its id is absent, "any" or this
// domain's. General and Discovery directly under CycloneDDS are the older spelling of the same.

using Tree = boost::property_tree::ptree;

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

bool is_space(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

std::string trimmed(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return std::string(s);
}

[[noreturn]] void uri_error(const std::string& what) { throw DdsError(std::string(k_cyclone_uri_env) + ": " + what); }

// The first XML element of `s` (comments, CDATA, processing instructions and quoted attribute
// values skipped): its length, or what keeps it from being one. Tag names must match exactly, as
// Cyclone's parser requires; the parser praxis reads the values with (Boost.PropertyTree's) does
// not check closing tags, so this scan does.
struct ElementScan {
  bool found = false;  // false: no element at all (Cyclone accepts an empty file)
  std::size_t length = 0;
  std::string error;  // with the line, e.g. "line 3: </Domai> closes <Domain>"
};

ElementScan scan_element(std::string_view s) {
  ElementScan scan;
  std::vector<std::string_view> open;
  std::size_t i = 0;
  const auto line = [&](std::size_t at) {
    return "line " + std::to_string(1 + std::count(s.begin(), s.begin() + static_cast<std::ptrdiff_t>(at), '\n')) +
           ": ";
  };
  const auto skip_past = [&](std::string_view end) {
    const std::size_t at = s.find(end, i);
    if (at == std::string_view::npos) scan.error = line(i) + "\"" + std::string(s.substr(i, 4)) + "...\" is not closed";
    i = at == std::string_view::npos ? s.size() : at + end.size();
    return at != std::string_view::npos;
  };
  while (i < s.size()) {
    if (s[i] != '<') {
      ++i;
      continue;
    }
    const std::string_view rest = s.substr(i);
    if (rest.starts_with("<!--")) {
      if (!skip_past("-->")) return scan;
    } else if (rest.starts_with("<![CDATA[")) {
      if (!skip_past("]]>")) return scan;
    } else if (rest.starts_with("<?")) {
      if (!skip_past("?>")) return scan;
    } else if (rest.starts_with("<!")) {
      if (!skip_past(">")) return scan;
    } else {
      scan.found = true;
      const bool closing = rest.starts_with("</");
      const std::size_t name_start = i + (closing ? 2 : 1);
      std::size_t j = name_start;
      while (j < s.size() && !is_space(s[j]) && s[j] != '/' && s[j] != '>') ++j;
      const std::string_view name = s.substr(name_start, j - name_start);
      char quote = 0;
      for (; j < s.size(); ++j) {
        if (quote != 0) {
          if (s[j] == quote) quote = 0;
        } else if (s[j] == '"' || s[j] == '\'') {
          quote = s[j];
        } else if (s[j] == '>') {
          break;
        }
      }
      if (j == s.size()) {
        scan.error = line(i) + "the tag <" + std::string(closing ? "/" : "") + std::string(name) + " is not closed";
        return scan;
      }
      if (closing) {
        if (open.empty() || open.back() != name) {
          scan.error = line(i) + "</" + std::string(name) + "> " +
                       (open.empty() ? std::string("closes no element") : "closes <" + std::string(open.back()) + ">");
          return scan;
        }
        open.pop_back();
      } else if (s[j - 1] != '/') {
        open.push_back(name);
      }
      i = j + 1;
      if (open.empty()) {
        scan.length = i;
        return scan;
      }
    }
  }
  if (!open.empty()) scan.error = line(s.size()) + "<" + std::string(open.back()) + "> is not closed";
  return scan;
}

struct Entry {
  std::string label;  // `file "<path>"` or `inline XML`
  std::string xml;
  bool file = false;
};

Entry read_file_entry(const std::string& token) {
  // Cyclone tries the entry as written first, so a path that happens to start with file:// works.
  std::string path = token;
  struct Close {
    void operator()(std::FILE* f) const { std::fclose(f); }
  };
  std::unique_ptr<std::FILE, Close> f(std::fopen(path.c_str(), "rb"));
  int error = errno;
  if (!f && token.starts_with("file://")) {
    path = token.substr(7);
    f.reset(std::fopen(path.c_str(), "rb"));
    error = errno;
  }
  const std::string label = "file \"" + path + "\"";
  Entry entry{label, {}, true};
  if (f) {
    char buffer[4096];
    std::size_t n = 0;
    while ((n = std::fread(buffer, 1, sizeof buffer, f.get())) > 0) entry.xml.append(buffer, n);
    if (!std::ferror(f.get())) return entry;
    error = errno;
  }
  uri_error("cannot read the Cyclone configuration " + label + " (entry \"" + token + "\"): " + std::strerror(error));
}

std::vector<Entry> split_entries(std::string_view uri) {
  std::vector<Entry> entries;
  std::size_t i = 0;
  const auto skip_separators = [&] {
    while (i < uri.size() && (is_space(uri[i]) || uri[i] == ',')) ++i;
  };
  skip_separators();
  while (i < uri.size()) {
    if (uri[i] == '<') {
      const ElementScan scan = scan_element(uri.substr(i));
      if (!scan.error.empty() || !scan.found) {
        uri_error("the inline XML at character " + std::to_string(i + 1) +
                  " is not well-formed: " + (scan.error.empty() ? std::string("no element") : scan.error) +
                  " (praxis reads the user's configuration as XML, each inline entry one element)");
      }
      const std::size_t length = scan.length;
      entries.push_back({"inline XML", std::string(uri.substr(i, length)), false});
      i += length;
    } else {
      const std::size_t comma = uri.find(',', i);
      const std::size_t end = comma == std::string_view::npos ? uri.size() : comma;
      entries.push_back(read_file_entry(std::string(uri.substr(i, end - i))));
      i = end;
    }
    skip_separators();
  }
  return entries;
}

// What one entry sets of what praxis sets too.
struct UserSettings {
  std::vector<std::string> interfaces;        // General/Interfaces/NetworkInterface, described
  std::optional<std::string> address;         // General/NetworkInterfaceAddress (the older form)
  bool deprecated_interface_options = false;  // General/PreferMulticast, Internal/AssumeMulticastCapable
  std::optional<std::string> tag;             // Discovery/Tag
};

std::optional<std::string> attribute(const Tree& element, std::string_view name) {
  if (const auto attributes = element.get_child_optional("<xmlattr>")) {
    for (const auto& [key, value] : *attributes) {
      if (iequals(key, name)) return trimmed(value.data());
    }
  }
  return std::nullopt;
}

std::string describe_interface(const Tree& element) {
  const auto automatic = attribute(element, "autodetermine");
  if (automatic && iequals(*automatic, "true")) return {};
  if (const auto name = attribute(element, "name"); name && !name->empty()) return *name;
  if (const auto address = attribute(element, "address"); address && !address->empty()) return "address " + *address;
  return {};
}

void read_domain_group(std::string_view name, const Tree& group, UserSettings& out) {
  if (iequals(name, "General")) {
    for (const auto& [key, child] : group) {
      if (iequals(key, "Interfaces")) {
        for (const auto& [k, element] : child) {
          if (iequals(k, "NetworkInterface")) out.interfaces.push_back(describe_interface(element));
        }
      } else if (iequals(key, "NetworkInterfaceAddress") && !trimmed(child.data()).empty()) {
        out.address = trimmed(child.data());
      } else if (iequals(key, "PreferMulticast") && iequals(trimmed(child.data()), "true")) {
        out.deprecated_interface_options = true;
      }
    }
  } else if (iequals(name, "Internal") || iequals(name, "Unsupported")) {
    for (const auto& [key, child] : group) {
      if (iequals(key, "AssumeMulticastCapable") && !trimmed(child.data()).empty())
        out.deprecated_interface_options = true;
    }
  } else if (iequals(name, "Discovery")) {
    for (const auto& [key, child] : group) {
      // Cyclone skips an element without text, so an empty Tag leaves an earlier one in force.
      if (iequals(key, "Tag") && !trimmed(child.data()).empty()) out.tag = trimmed(child.data());
    }
  }
}

bool applies(const Tree& domain_element, std::uint32_t domain) {
  std::optional<std::string> id = attribute(domain_element, "Id");
  for (const auto& [key, child] : domain_element) {
    if (!id && iequals(key, "Id")) id = trimmed(child.data());
  }
  if (!id || iequals(*id, "any")) return true;
  std::uint32_t value = 0;
  const auto [end, error] = std::from_chars(id->data(), id->data() + id->size(), value);
  return error == std::errc{} && end == id->data() + id->size() && value == domain;
}

void read_domain(const Tree& domain_element, std::uint32_t domain, UserSettings& out) {
  if (!applies(domain_element, domain)) return;
  for (const auto& [key, child] : domain_element) read_domain_group(key, child, out);
}

UserSettings read_settings(const Entry& entry, std::uint32_t domain) {
  const auto not_xml = [&](const std::string& why) {
    uri_error("the Cyclone configuration in " + entry.label + " is not well-formed XML: " + why);
  };
  if (entry.file) {
    const ElementScan scan = scan_element(entry.xml);
    if (!scan.error.empty()) not_xml(scan.error);
    if (!scan.found) return {};
  }
  Tree document;
  std::istringstream in(entry.xml);
  try {
    boost::property_tree::read_xml(in, document, boost::property_tree::xml_parser::no_comments);
  } catch (const boost::property_tree::xml_parser_error& e) {
    not_xml("line " + std::to_string(e.line()) + ": " + e.message());
  }
  UserSettings settings;
  for (const auto& [name, element] : document) {
    if (iequals(name, "CycloneDDS")) {
      for (const auto& [key, child] : element) {
        if (iequals(key, "Domain"))
          read_domain(child, domain, settings);
        else
          read_domain_group(key, child, settings);
      }
    } else if (entry.file) {
      uri_error("the Cyclone configuration " + entry.label + " has the root element <" + name +
                ">; Cyclone expects <CycloneDDS> (and refuses the file otherwise)");
    } else if (iequals(name, "Domain")) {
      read_domain(element, domain, settings);
    } else {
      read_domain_group(name, element, settings);
    }
    if (entry.file) break;  // Cyclone reads a file's first element only
  }
  return settings;
}

std::string joined(const std::vector<std::string>& parts) {
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : ", ") + p;
  return out;
}

std::string quoted_or(const std::string& value, const char* otherwise) {
  return value.empty() ? std::string(otherwise) : "\"" + value + "\"";
}
}  // namespace

std::string discovery_tag() {
  const char* env = std::getenv(k_discovery_tag_env);
  return env ? std::string(env) : std::string();
}

std::string cyclone_config(const DdsOptions& options, const std::string& tag) {
  require_plain(options.interface, "interface");
  require_plain(tag, "discovery tag (PRAXIS_DDS_TAG)");
  return praxis_xml(options.interface, InterfaceForm::interfaces, tag);
}

CycloneConfig merged_cyclone_config(const DdsOptions& options, const std::string& tag, std::string_view user_uri) {
  CycloneConfig config;
  config.xml = cyclone_config(options, tag);
  config.interface = {options.interface, options.interface, {}};
  config.tag = {tag, tag, {}};
  // Separators alone name nothing, for Cyclone as here.
  if (user_uri.find_first_not_of(", \t\n\v\f\r") == std::string_view::npos) return config;
  config.user_uri = std::string(user_uri);

  std::vector<std::string> interfaces;
  std::vector<std::string> interface_sources;
  std::optional<std::string> address;
  std::string address_source;
  bool deprecated_options = false;
  for (const Entry& entry : split_entries(user_uri)) {
    config.user_sources.push_back(entry.label);
    const UserSettings s = read_settings(entry, options.domain);
    if (!s.interfaces.empty()) {  // lists add up across entries, as in Cyclone
      interfaces.insert(interfaces.end(), s.interfaces.begin(), s.interfaces.end());
      interface_sources.push_back(entry.label);
    }
    if (s.address) {  // single values: the later entry wins, as in Cyclone
      address = s.address;
      address_source = entry.label;
    }
    deprecated_options = deprecated_options || s.deprecated_interface_options;
    if (s.tag) config.tag = {*s.tag, tag, entry.label};
  }

  InterfaceForm form = InterfaceForm::interfaces;
  if (!interfaces.empty()) {
    // Entries that leave the choice to Cyclone are described as empty; naming the others is enough.
    std::vector<std::string> named;
    std::copy_if(interfaces.begin(), interfaces.end(), std::back_inserter(named),
                 [](const auto& i) { return !i.empty(); });
    config.interface = {joined(named), options.interface, joined(interface_sources)};
    form = InterfaceForm::none;
  } else if (address) {
    config.interface = {iequals(*address, "auto") ? std::string() : *address, options.interface, address_source};
    form = InterfaceForm::none;
  } else if (deprecated_options) {
    form = InterfaceForm::deprecated;
  }
  // The user's entries come last and verbatim, so Cyclone reads them exactly as it would have
  // read the variable itself, and their single values override praxis' (later entries win).
  config.xml = praxis_xml(options.interface, form, tag) + "," + config.user_uri;
  return config;
}

CycloneConfig merged_cyclone_config(const DdsOptions& options) {
  const char* uri = std::getenv(k_cyclone_uri_env);
  return merged_cyclone_config(options, discovery_tag(), uri ? std::string_view(uri) : std::string_view());
}

std::string CycloneConfig::describe() const {
  const auto origin = [](const CycloneSetting& s, const char* praxis_name, const char* praxis_none) {
    if (!s.from_user()) return std::string(" (") + praxis_name + ")";
    std::string text = std::string(" (") + k_cyclone_uri_env + ": " + s.user_source;
    if (s.value != s.praxis_value)
      text += std::string("; praxis' ") + praxis_name + " " + quoted_or(s.praxis_value, praxis_none) + " is not used";
    return text + ")";
  };
  std::string text = interface.value.empty() ? "interface chosen by Cyclone" : "interface \"" + interface.value + "\"";
  text += origin(interface, "DdsOptions::interface", "(Cyclone's choice)");
  text += tag.value.empty() ? ", no discovery tag" : ", discovery tag \"" + tag.value + "\"";
  text += origin(tag, k_discovery_tag_env, "(none)");
  if (!user_uri.empty()) {
    text += "; " + std::string(k_cyclone_uri_env) +
            " merged after praxis' settings, its values win: " + joined(user_sources);
  }
  return text;
}

Participant::Participant(const DdsOptions& options) : options_(options), config_(merged_cyclone_config(options)) {
  const CycloneSetting& iface = config_.interface;
  const CycloneSetting& tag = config_.tag;
  const std::string from_user_file = std::string(" (from ") + k_cyclone_uri_env + ", ";
  const std::string where =
      "DDS domain " + std::to_string(options.domain) +
      (iface.value.empty() ? std::string(" (interface chosen by Cyclone)") : " on interface \"" + iface.value + "\"") +
      (iface.from_user() ? from_user_file + iface.user_source + ")" : std::string()) +
      (tag.value.empty() ? std::string() : " with discovery tag \"" + tag.value + "\"") +
      (tag.from_user() ? from_user_file + tag.user_source + ")" : std::string());
  domain_ = dds_create_domain(options.domain, config_.xml.c_str());
  if (domain_ < 0 && domain_ != DDS_RETCODE_PRECONDITION_NOT_MET) {
    // PRECONDITION_NOT_MET: the domain exists in this process already; join it as configured.
    std::string why = dds_strretcode(domain_);
    if (!config_.user_uri.empty()) {
      // Whether praxis' settings alone are accepted tells the user where to look. Only on this
      // error path, so the extra domain costs nothing otherwise.
      const dds_entity_t alone = dds_create_domain(options.domain, cyclone_config(options, tag.praxis_value).c_str());
      if (alone > 0) {
        dds_delete(alone);
        why += std::string("; Cyclone accepts praxis' settings alone, so it refused what ") + k_cyclone_uri_env +
               " adds (" + joined(config_.user_sources) + "): Cyclone's messages on stderr name the setting";
      } else {
        why += std::string("; ") + k_cyclone_uri_env + " is merged in (" + joined(config_.user_sources) +
               "): Cyclone's messages on stderr name the setting";
      }
    }
    if (!iface.value.empty() && !iface.from_user()) why += " (does the interface exist? see `ip link`)";
    throw DdsError("cannot create " + where + ": " + why);
  }
  if (domain_ > 0 && !config_.user_uri.empty()) {
    std::fprintf(stderr, "praxis dds: domain %u: %s\n", static_cast<unsigned>(options.domain),
                 config_.describe().c_str());
  }
  participant_ = dds_create_participant(options.domain, nullptr, nullptr);
  if (participant_ < 0) {
    throw DdsError("cannot create a participant in " + where + ": " + dds_strretcode(participant_));
  }
}

Participant::~Participant() {
  if (participant_ > 0) dds_delete(participant_);
  if (domain_ > 0) dds_delete(domain_);
}

const dds_topic_descriptor_t* with_type_name(const dds_topic_descriptor_t* descriptor, std::string_view type_name) {
  if (type_name.empty() || type_name == descriptor->m_typename) return descriptor;
  struct Renamed {
    const dds_topic_descriptor_t* original;
    std::string name;
    dds_topic_descriptor_t copy;
  };
  static std::mutex mutex;
  static std::deque<Renamed> renamed;  // a deque: elements never move, so the pointers stay valid
  std::lock_guard lock(mutex);
  for (const auto& r : renamed) {
    if (r.original == descriptor && r.name == type_name) return &r.copy;
  }
  auto& r = renamed.emplace_back(Renamed{descriptor, std::string(type_name), *descriptor});
  r.copy.m_typename = r.name.c_str();
  return &r.copy;
}

std::vector<DiscoveredWriter> discovered_writers(const Participant& participant) {
  std::vector<DiscoveredWriter> out;
  const dds_entity_t reader = dds_create_reader(participant.handle(), DDS_BUILTIN_TOPIC_DCPSPUBLICATION, nullptr, nullptr);
  if (reader < 0) return out;
  // The built-in reader starts with every writer already discovered.
  constexpr std::size_t k_batch = 32;
  std::array<void*, k_batch> samples{};
  std::array<dds_sample_info_t, k_batch> infos{};
  for (;;) {
    samples.fill(nullptr);
    const dds_return_t n = dds_take(reader, samples.data(), infos.data(), k_batch, static_cast<uint32_t>(k_batch));
    if (n <= 0) break;
    for (dds_return_t i = 0; i < n; ++i) {
      const auto idx = static_cast<std::size_t>(i);
      if (!infos[idx].valid_data) continue;
      const auto* e = static_cast<const dds_builtintopic_endpoint_t*>(samples[idx]);
      out.push_back({e->topic_name != nullptr ? e->topic_name : "", e->type_name != nullptr ? e->type_name : ""});
    }
    dds_return_loan(reader, samples.data(), n);
    if (static_cast<std::size_t>(n) < k_batch) break;
  }
  dds_delete(reader);
  return out;
}

std::string near_misses(const std::vector<DiscoveredWriter>& writers, std::string_view topic, std::string_view type,
                        std::string_view fix) {
  const auto last_element = [](std::string_view name) {
    const auto slash = name.rfind('/');
    return slash == std::string_view::npos ? name : name.substr(slash + 1);
  };
  std::vector<std::string> seen;
  for (const auto& w : writers) {
    const bool same_topic = w.topic == topic;
    if (same_topic && w.type == type) continue;  // the right writer (its samples were refused, or it is slow)
    if (!same_topic && last_element(w.topic) != last_element(topic)) continue;
    std::string line = "\"" + w.topic + "\" (type " + w.type + ")";
    if (std::find(seen.begin(), seen.end(), line) == seen.end()) seen.push_back(std::move(line));
  }
  if (seen.empty()) return {};
  std::string out = "writers seen for another name or type: ";
  for (std::size_t i = 0; i < seen.size(); ++i) out += (i > 0 ? ", " : "") + seen[i];
  out += "; expected \"" + std::string(topic) + "\" (type " + std::string(type) + ")";
  if (!fix.empty()) out += ": " + std::string(fix);
  return out;
}

namespace detail {

[[noreturn]] void fail(std::string_view what, std::string_view topic, dds_return_t rc) {
  throw DdsError(std::string(what) + " for topic \"" + std::string(topic) + "\": " + dds_strretcode(rc));
}

dds_entity_t create_topic(const Participant& p, std::string_view name, const dds_topic_descriptor_t* descriptor) {
  const std::string topic(name);
  const dds_entity_t t = dds_create_topic(p.handle(), descriptor, topic.c_str(), nullptr, nullptr);
  if (t < 0) fail("cannot create the topic (type " + std::string(descriptor->m_typename) + ")", name, t);
  return t;
}

dds_qos_t* make_qos(const TopicQos& q) {
  dds_qos_t* qos = dds_create_qos();
  if (q.reliable) {
    dds_qset_reliability(qos, *q.reliable ? DDS_RELIABILITY_RELIABLE : DDS_RELIABILITY_BEST_EFFORT, DDS_MSECS(100));
  }
  if (q.depth) dds_qset_history(qos, DDS_HISTORY_KEEP_LAST, *q.depth);
  if (q.transient_local) dds_qset_durability(qos, DDS_DURABILITY_TRANSIENT_LOCAL);
  return qos;
}

}  // namespace detail
}  // namespace praxis::transport

#include "praxis/transport/dds.hpp"

#include <cstdlib>
#include <deque>
#include <mutex>
#include <string>

namespace praxis::dds {

namespace {
// Names go into the XML verbatim; markup characters would change the configuration's meaning.
void require_plain(const std::string& value, const char* what) {
  if (value.find_first_of("<>&\"'") != std::string::npos) {
    throw DdsError(std::string("DDS ") + what + " \"" + value + "\": must not contain < > & \" or '");
  }
}
}  // namespace

std::string discovery_tag() {
  const char* env = std::getenv(k_discovery_tag_env);
  return env ? std::string(env) : std::string();
}

std::string cyclone_config(const DdsOptions& options, const std::string& tag) {
  require_plain(options.interface, "interface");
  require_plain(tag, "discovery tag (PRAXIS_DDS_TAG)");
  std::string xml = "<CycloneDDS><Domain Id=\"any\"><General><Interfaces>";
  if (options.interface.empty()) {
    xml += "<NetworkInterface autodetermine=\"true\" priority=\"default\" multicast=\"default\"/>";
  } else {
    xml += "<NetworkInterface name=\"" + options.interface + "\" priority=\"default\" multicast=\"default\"/>";
  }
  xml += "</Interfaces></General>";
  if (!tag.empty()) xml += "<Discovery><Tag>" + tag + "</Tag></Discovery>";
  xml += "</Domain></CycloneDDS>";
  return xml;
}

Participant::Participant(const DdsOptions& options) : options_(options) {
  const std::string tag = discovery_tag();
  const std::string where = "DDS domain " + std::to_string(options.domain) +
                            (options.interface.empty() ? std::string(" (interface chosen by Cyclone)")
                                                       : " on interface \"" + options.interface + "\"") +
                            (tag.empty() ? std::string() : " with discovery tag \"" + tag + "\"");
  const std::string config = cyclone_config(options, tag);
  domain_ = dds_create_domain(options.domain, config.c_str());
  if (domain_ < 0 && domain_ != DDS_RETCODE_PRECONDITION_NOT_MET) {
    // PRECONDITION_NOT_MET: the domain exists in this process already; join it as configured.
    throw DdsError("cannot create " + where + ": " + dds_strretcode(domain_) +
                   (options.interface.empty() ? "" : " (does the interface exist? see `ip link`)"));
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
}  // namespace praxis::dds

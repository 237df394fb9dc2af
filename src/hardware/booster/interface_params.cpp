#include "praxis/hardware/booster/interface_params.hpp"

#include <cmath>
#include <fstream>
#include <initializer_list>
#include <iterator>
#include <limits>

#include <nlohmann/json.hpp>

#include "praxis/io/detail/json_text.hpp"
#include "praxis/io/params.hpp"

namespace praxis::booster {

namespace {

using Json = nlohmann::json;

std::string join(std::initializer_list<std::string_view> names) {
  std::string out;
  for (const auto n : names) {
    if (!out.empty()) out += ", ";
    out += n;
  }
  return out;
}

class Reader {
 public:
  explicit Reader(const std::string& origin) : origin_(origin) {}

  [[noreturn]] void fail(const std::string& key, std::string_view expected, const std::string& found) const {
    throw io::ParamError(origin_ + ": key \"" + key + "\": expected " + std::string(expected) + ", found " + found);
  }

  // Checks that `object` is an object whose keys are all in `known`, then hands each present
  // member with its dotted key to `read`.
  template <class Read>
  void members(const Json& object, const std::string& prefix, std::initializer_list<std::string_view> known,
               Read&& read) const {
    if (!object.is_object()) fail(prefix, "an object with keys " + join(known), io::detail::describe_json(object));
    for (const auto& [key, value] : object.items()) {
      bool listed = false;
      for (const auto k : known) listed = listed || k == key;
      if (!listed) {
        throw io::ParamError(origin_ + ": unknown key \"" + dotted(prefix, key) + "\" (known keys" +
                         (prefix.empty() ? std::string() : " of \"" + prefix + "\"") + ": " + join(known) + ")");
      }
      read(std::string_view(key), value, dotted(prefix, key));
    }
  }

  double number(const Json& v, const std::string& key) const {
    if (!v.is_number()) fail(key, "a number", io::detail::describe_json(v));
    const double x = v.get<double>();
    if (!std::isfinite(x)) fail(key, "a finite number", "a non-finite number");
    return x;
  }

  Duration duration(const Json& v, const std::string& key) const {
    constexpr std::string_view expected = R"(a duration {"secs": <whole seconds>, "nanos": <0..999999999>})";
    if (!v.is_object()) fail(key, expected, io::detail::describe_json(v));
    long long secs = 0, nanos = 0;
    bool has_secs = false, has_nanos = false;
    members(v, key, {"secs", "nanos"}, [&](std::string_view name, const Json& part, const std::string& dk) {
      if (!part.is_number_integer()) fail(dk, "a whole number", io::detail::describe_json(part));
      if (part.is_number_unsigned() && part.get<unsigned long long>() >
                                           static_cast<unsigned long long>(std::numeric_limits<std::int32_t>::max())) {
        fail(dk, "a number of a sensible size", part.dump());
      }
      (name == "secs" ? secs : nanos) = part.get<long long>();
      (name == "secs" ? has_secs : has_nanos) = true;
    });
    if (!has_secs || !has_nanos) fail(key, expected, "an object without \"" + std::string(has_secs ? "nanos" : "secs") + "\"");
    if (secs < 0 || nanos < 0) fail(key, "a non-negative duration", "secs " + std::to_string(secs) + ", nanos " + std::to_string(nanos));
    if (nanos > 999'999'999) fail(dotted(key, "nanos"), "0..999999999", std::to_string(nanos));
    return std::chrono::duration_cast<Duration>(std::chrono::seconds(secs) + std::chrono::nanoseconds(nanos));
  }

  std::int32_t version(const Json& v, const std::string& key) const {
    if (!v.is_number_integer()) fail(key, "0 or 1", io::detail::describe_json(v));
    const auto x = v.get<long long>();
    if (x != 0 && x != 1) fail(key, "0 or 1", std::to_string(x));
    return static_cast<std::int32_t>(x);
  }

  Mode any_mode(const Json& v, const std::string& key) const {
    constexpr std::string_view expected = R"("Damping", "Prepare", "Walking", "Custom" or "Soccer")";
    if (!v.is_string()) fail(key, expected, io::detail::describe_json(v));
    const auto s = v.get<std::string>();
    for (const Mode m : {Mode::damping, Mode::prepare, Mode::walking, Mode::custom, Mode::soccer}) {
      if (s == to_string(m)) return m;
    }
    fail(key, expected, "\"" + s + "\"");
  }

  std::uint32_t attempts(const Json& v, const std::string& key) const {
    if (!v.is_number_integer()) fail(key, "a whole number 1..100", io::detail::describe_json(v));
    const auto x = v.get<long long>();
    if (x < 1 || x > 100) fail(key, "a whole number 1..100", std::to_string(x));
    return static_cast<std::uint32_t>(x);
  }

  Mode locomotion_mode(const Json& v, const std::string& key) const {
    constexpr std::string_view expected = R"("Soccer" or "Walking")";
    if (!v.is_string()) fail(key, expected, io::detail::describe_json(v));
    const auto s = v.get<std::string>();
    if (s == "Soccer") return Mode::soccer;
    if (s == "Walking") return Mode::walking;
    fail(key, expected, "\"" + s + "\"");
  }

 private:
  static std::string dotted(const std::string& prefix, std::string_view key) {
    return prefix.empty() ? std::string(key) : prefix + "." + std::string(key);
  }
  const std::string& origin_;
};

InterfaceParams read(const Json& root, const std::string& origin) {
  const Reader in(origin);
  InterfaceParams p;
  if (!root.is_object()) throw io::ParamError(origin + ": expected a JSON object at the top level, found " + io::detail::describe_json(root));
  // HULKs binds the node's parameters under its name; accept that layout as well as the bare object.
  const Json& top = root.size() == 1 && root.contains("booster_interface") ? root.at("booster_interface") : root;
  const std::string prefix;
  in.members(top, prefix,
             {"walking", "move_robot_message_interval", "kicking", "rotate_head_message_interval",
              "sdk_request_timeout", "startup_wait", "locomotion_mode", "visual_kick_version", "get_up_version",
              "damping_request", "retry", "initial_mode"},
             [&](std::string_view name, const Json& v, const std::string& key) {
               if (name == "walking") {
                 in.members(v, key, {"hybrid_align_distance", "max_alignment_rate", "deceleration_distance"},
                            [&](std::string_view n, const Json& w, const std::string& k) {
                              const double x = in.number(w, k);
                              if (x < 0.0) in.fail(k, "a non-negative number", std::to_string(x));
                              if (n == "hybrid_align_distance") p.walking.hybrid_align_distance = x;
                              if (n == "max_alignment_rate") p.walking.max_alignment_rate = x;
                              if (n == "deceleration_distance") p.walking.deceleration_distance = x;
                            });
               } else if (name == "kicking") {
                 in.members(v, key, {"kick_message_interval", "kick_power"},
                            [&](std::string_view n, const Json& k, const std::string& kk) {
                              if (n == "kick_message_interval") {
                                p.kicking.kick_message_interval = in.duration(k, kk);
                                return;
                              }
                              in.members(k, kk, {"rumpelstilzchen", "schlong"},
                                         [&](std::string_view pn, const Json& pv, const std::string& pk) {
                                           const double x = in.number(pv, pk);
                                           (pn == "schlong" ? p.kicking.kick_power.strong
                                                            : p.kicking.kick_power.soft) = x;
                                         });
                            });
               } else if (name == "move_robot_message_interval") {
                 p.move_robot_message_interval = in.duration(v, key);
               } else if (name == "rotate_head_message_interval") {
                 p.rotate_head_message_interval = in.duration(v, key);
               } else if (name == "sdk_request_timeout") {
                 p.sdk_request_timeout = in.duration(v, key);
               } else if (name == "startup_wait") {
                 p.startup_wait = in.duration(v, key);
               } else if (name == "locomotion_mode") {
                 p.locomotion_mode = in.locomotion_mode(v, key);
               } else if (name == "visual_kick_version") {
                 p.visual_kick_version = in.version(v, key);
               } else if (name == "get_up_version") {
                 p.get_up_version = in.version(v, key);
               } else if (name == "damping_request") {
                 in.members(v, key, {"deadline", "attempt_timeout", "backoff"},
                            [&](std::string_view n, const Json& d, const std::string& k) {
                              const auto x = in.duration(d, k);
                              if (n != "backoff" && x <= Duration::zero()) in.fail(k, "a positive duration", "zero");
                              (n == "deadline"          ? p.damping_request.deadline
                               : n == "attempt_timeout" ? p.damping_request.attempt_timeout
                                                        : p.damping_request.backoff) = x;
                            });
               } else if (name == "retry") {
                 in.members(v, key, {"max_attempts", "backoff"}, [&](std::string_view n, const Json& r, const std::string& k) {
                   if (n == "max_attempts") {
                     p.retry.max_attempts = in.attempts(r, k);
                   } else {
                     p.retry.backoff = in.duration(r, k);
                   }
                 });
               } else if (name == "initial_mode") {
                 p.initial_mode = in.any_mode(v, key);
               }
             });
  return p;
}

}  // namespace

InterfaceParams parse_interface_params(std::string_view text, const std::string& origin) {
  Json root;
  try {
    root = Json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/true, /*ignore_comments=*/true);
  } catch (const Json::parse_error& e) {
    throw io::ParamError(origin + ": not valid JSON (" + e.what() + ")");
  } catch (const Json::out_of_range& e) {
    // The parser's other failure: a number beyond a double's range (1e999), which it reports by value.
    throw io::ParamError(origin + ": not valid JSON (a number does not fit in a double: " + e.what() + ")");
  }
  return read(root, origin);
}

InterfaceParams load_interface_params(const std::filesystem::path& file) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(file, ec)) {
    throw io::ParamError(file.string() + ": parameter file not found (expected the booster_interface parameters)");
  }
  std::ifstream in(file);
  if (!in) throw io::ParamError(file.string() + ": cannot be opened for reading");
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return parse_interface_params(text, file.string());
}

}  // namespace praxis::booster

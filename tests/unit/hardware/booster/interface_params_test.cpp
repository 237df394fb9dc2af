// Booster interface parameters: defaults, a full file with comments, and errors naming file and key.
#include <catch2/catch.hpp>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include "praxis/hardware/booster/interface_params.hpp"
#include "praxis/io/params.hpp"

namespace booster_interface_params_test {

namespace b = praxis::booster;
namespace fs = std::filesystem;
using namespace std::chrono_literals;

namespace {

// A file in a fresh temporary folder, removed with the object.
struct TempFile {
  explicit TempFile(const std::string& text, const std::string& name = "booster_interface.json5") {
    folder = fs::temp_directory_path() /
             ("praxis_booster_params_" + std::to_string(reinterpret_cast<std::uintptr_t>(this)) + "_" +
              std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()));
    fs::create_directories(folder);
    path = folder / name;
    std::ofstream(path) << text;
  }
  ~TempFile() {
    std::error_code ec;
    fs::remove_all(folder, ec);
  }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  fs::path folder, path;
};

std::string error_of(const std::string& text) {
  try {
    (void)b::parse_interface_params(text, "booster_interface.json5");
  } catch (const praxis::io::ParamError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("booster interface params: the defaults are the fact sheet's and praxis' own") {
  const b::InterfaceParams p;
  CHECK(p.walking.hybrid_align_distance == 1.0);
  CHECK(p.walking.max_alignment_rate == 1.0);
  CHECK(p.walking.deceleration_distance == 0.5);
  CHECK(p.move_robot_message_interval == 20ms);
  CHECK(p.kicking.kick_message_interval == 20ms);
  CHECK(p.kicking.kick_power.soft == 1.5);
  CHECK(p.kicking.kick_power.strong == 6.0);
  CHECK(p.rotate_head_message_interval == 20ms);
  CHECK(p.sdk_request_timeout == 100ms);
  CHECK(p.startup_wait == 3s);
  CHECK(p.startup_wait > p.sdk_request_timeout);  // discovery settles before the first call can time out
  CHECK(p.locomotion_mode == b::Mode::soccer);
  CHECK(p.visual_kick_version == 1);
  CHECK(p.get_up_version == 0);
  CHECK(p.damping_request.deadline == 2s);
  CHECK(p.damping_request.attempt_timeout == 400ms);
  CHECK(p.damping_request.backoff == 50ms);
  CHECK(p.retry.max_attempts == 3);
  CHECK(p.retry.backoff == 100ms);
  CHECK(p.initial_mode == b::Mode::damping);

  // An empty object keeps all of them; a partial one only changes what it names.
  const auto empty = b::parse_interface_params("{}", "x");
  CHECK(empty.move_robot_message_interval == 20ms);
  const auto partial = b::parse_interface_params(R"({"kicking": {"kick_power": {"schlong": 5.0}}})", "x");
  CHECK(partial.kicking.kick_power.strong == 5.0);
  CHECK(partial.kicking.kick_power.soft == 1.5);
  CHECK(partial.kicking.kick_message_interval == 20ms);
}

TEST_CASE("booster interface params: a full file with // and /* */ comments is read, durations as {secs, nanos}") {
  const TempFile file(R"(// every key, none at its default
{
  /* HULKs' keys */
  "walking": {"hybrid_align_distance": 2.0, "max_alignment_rate": 0.75, "deceleration_distance": 0.25},
  "move_robot_message_interval": {"secs": 0, "nanos": 33000000},  // the old 30 Hz
  "kicking": {
    "kick_message_interval": {"secs": 0, "nanos": 25000000},
    "kick_power": {"rumpelstilzchen": 2.0, "schlong": 5.5}
  },
  "rotate_head_message_interval": {"secs": 0, "nanos": 40000000},
  "sdk_request_timeout": {"secs": 1, "nanos": 500000000},
  // praxis' own
  "startup_wait": {"secs": 5, "nanos": 0},
  "locomotion_mode": "Walking",
  "visual_kick_version": 0,
  "get_up_version": 1
}
)");
  const auto p = b::load_interface_params(file.path);
  CHECK(p.walking.hybrid_align_distance == 2.0);
  CHECK(p.walking.max_alignment_rate == 0.75);
  CHECK(p.walking.deceleration_distance == 0.25);
  CHECK(p.move_robot_message_interval == 33ms);
  CHECK(p.kicking.kick_message_interval == 25ms);
  CHECK(p.kicking.kick_power.soft == 2.0);
  CHECK(p.kicking.kick_power.strong == 5.5);
  CHECK(p.rotate_head_message_interval == 40ms);
  CHECK(p.sdk_request_timeout == 1500ms);
  CHECK(p.startup_wait == 5s);
  CHECK(p.locomotion_mode == b::Mode::walking);
  CHECK(p.visual_kick_version == 0);
  CHECK(p.get_up_version == 1);
}

TEST_CASE("booster interface params: the shipped example file holds every key at its default") {
  const auto p = b::load_interface_params(fs::path(PRAXIS_SOURCE_DIR) / "examples/booster/booster_interface.json5");
  const b::InterfaceParams d;
  CHECK(p.walking.hybrid_align_distance == d.walking.hybrid_align_distance);
  CHECK(p.walking.max_alignment_rate == d.walking.max_alignment_rate);
  CHECK(p.walking.deceleration_distance == d.walking.deceleration_distance);
  CHECK(p.move_robot_message_interval == d.move_robot_message_interval);
  CHECK(p.kicking.kick_message_interval == d.kicking.kick_message_interval);
  CHECK(p.kicking.kick_power.soft == d.kicking.kick_power.soft);
  CHECK(p.kicking.kick_power.strong == d.kicking.kick_power.strong);
  CHECK(p.rotate_head_message_interval == d.rotate_head_message_interval);
  CHECK(p.sdk_request_timeout == d.sdk_request_timeout);
  CHECK(p.startup_wait == d.startup_wait);
  CHECK(p.locomotion_mode == d.locomotion_mode);
  CHECK(p.visual_kick_version == d.visual_kick_version);
  CHECK(p.get_up_version == d.get_up_version);
  CHECK(p.damping_request.deadline == d.damping_request.deadline);
  CHECK(p.damping_request.attempt_timeout == d.damping_request.attempt_timeout);
  CHECK(p.damping_request.backoff == d.damping_request.backoff);
  CHECK(p.retry.max_attempts == d.retry.max_attempts);
  CHECK(p.retry.backoff == d.retry.backoff);
  CHECK(p.initial_mode == d.initial_mode);
}

TEST_CASE("booster interface params: the end request, retry and initial mode keys are read and checked") {
  const auto p = b::parse_interface_params(R"({
    "damping_request": {"deadline": {"secs": 3, "nanos": 0}, "attempt_timeout": {"secs": 0, "nanos": 250000000},
                        "backoff": {"secs": 0, "nanos": 0}},
    "retry": {"max_attempts": 5, "backoff": {"secs": 0, "nanos": 40000000}},
    "initial_mode": "Prepare"})", "x.json5");
  CHECK(p.damping_request.deadline == 3s);
  CHECK(p.damping_request.attempt_timeout == 250ms);
  CHECK(p.damping_request.backoff == 0ms);
  CHECK(p.retry.max_attempts == 5);
  CHECK(p.retry.backoff == 40ms);
  CHECK(p.initial_mode == b::Mode::prepare);
  CHECK_THROWS_WITH(b::parse_interface_params(R"({"retry": {"max_attempts": 0}})", "x.json5"),
                    R"(x.json5: key "retry.max_attempts": expected a whole number 1..100, found 0)");
  CHECK_THROWS_WITH(b::parse_interface_params(R"({"initial_mode": "Standing"})", "x.json5"),
                    R"(x.json5: key "initial_mode": expected "Damping", "Prepare", "Walking", "Custom" or "Soccer", found "Standing")");
  CHECK_THROWS_WITH(b::parse_interface_params(R"({"damping_request": {"deadline": {"secs": 0, "nanos": 0}}})", "x.json5"),
                    R"(x.json5: key "damping_request.deadline": expected a positive duration, found zero)");
  CHECK_THROWS_WITH(b::parse_interface_params(R"({"damping_request": {"timeout": {"secs": 1, "nanos": 0}}})", "x.json5"),
                    Catch::StartsWith(R"(x.json5: unknown key "damping_request.timeout")"));
}

TEST_CASE("booster interface params: the object may sit under a top-level \"booster_interface\" key") {
  const auto p = b::parse_interface_params(
      R"({"booster_interface": {"sdk_request_timeout": {"secs": 0, "nanos": 250000000}, "walking": {"max_alignment_rate": 0.5}}})",
      "x");
  CHECK(p.sdk_request_timeout == 250ms);
  CHECK(p.walking.max_alignment_rate == 0.5);
  CHECK(error_of(R"({"booster_interface": {"walking": {"max_alignment_speed": 1.0}}})") ==
        R"(booster_interface.json5: unknown key "walking.max_alignment_speed" (known keys of "walking": hybrid_align_distance, max_alignment_rate, deceleration_distance))");
}

TEST_CASE("booster interface params: an unknown key is an error naming the file and the dotted key") {
  CHECK(error_of(R"({"walking": {"max_alignment_speed": 1.0}})") ==
        R"(booster_interface.json5: unknown key "walking.max_alignment_speed" (known keys of "walking": hybrid_align_distance, max_alignment_rate, deceleration_distance))");
  CHECK_THAT(error_of(R"({"move_robot_interval": {"secs": 0, "nanos": 1}})"),
             Catch::StartsWith(R"(booster_interface.json5: unknown key "move_robot_interval" (known keys: walking, move_robot_message_interval,)"));
  CHECK_THAT(error_of(R"({"kicking": {"kick_power": {"medium": 3.0}}})"),
             Catch::StartsWith(R"(booster_interface.json5: unknown key "kicking.kick_power.medium")"));
  CHECK_THAT(error_of(R"({"sdk_request_timeout": {"secs": 0, "nanos": 1, "millis": 3}})"),
             Catch::StartsWith(R"(booster_interface.json5: unknown key "sdk_request_timeout.millis")"));
}

TEST_CASE("booster interface params: a wrong type is an error saying what was expected and found") {
  CHECK(error_of(R"({"kicking": {"kick_power": {"schlong": "strong"}}})") ==
        R"(booster_interface.json5: key "kicking.kick_power.schlong": expected a number, found a string ("strong"))");
  CHECK(error_of(R"({"walking": 1.0})") ==
        R"(booster_interface.json5: key "walking": expected an object with keys hybrid_align_distance, max_alignment_rate, deceleration_distance, found 1.0)");
  CHECK(error_of(R"({"move_robot_message_interval": 0.02})") ==
        R"(booster_interface.json5: key "move_robot_message_interval": expected a duration {"secs": <whole seconds>, "nanos": <0..999999999>}, found 0.02)");
  CHECK(error_of(R"({"rotate_head_message_interval": {"secs": 0.5, "nanos": 0}})") ==
        R"(booster_interface.json5: key "rotate_head_message_interval.secs": expected a whole number, found 0.5)");
  CHECK(error_of(R"({"sdk_request_timeout": {"secs": 1}})") ==
        R"(booster_interface.json5: key "sdk_request_timeout": expected a duration {"secs": <whole seconds>, "nanos": <0..999999999>}, found an object without "nanos")");
  CHECK(error_of(R"({"locomotion_mode": "Running"})") ==
        R"(booster_interface.json5: key "locomotion_mode": expected "Soccer" or "Walking", found "Running")");
  CHECK(error_of(R"({"get_up_version": 2})") == R"(booster_interface.json5: key "get_up_version": expected 0 or 1, found 2)");
  CHECK(error_of(R"({"visual_kick_version": true})") ==
        R"(booster_interface.json5: key "visual_kick_version": expected 0 or 1, found true)");
}

TEST_CASE("booster interface params: a negative duration is an error") {
  CHECK(error_of(R"({"kicking": {"kick_message_interval": {"secs": -1, "nanos": 0}}})") ==
        R"(booster_interface.json5: key "kicking.kick_message_interval": expected a non-negative duration, found secs -1, nanos 0)");
  CHECK(error_of(R"({"startup_wait": {"secs": 0, "nanos": -5}})") ==
        R"(booster_interface.json5: key "startup_wait": expected a non-negative duration, found secs 0, nanos -5)");
  CHECK(error_of(R"({"startup_wait": {"secs": 0, "nanos": 1000000000}})") ==
        R"(booster_interface.json5: key "startup_wait.nanos": expected 0..999999999, found 1000000000)");
}

TEST_CASE("booster interface params: missing files and broken JSON are errors naming the file") {
  CHECK_THROWS_WITH(b::load_interface_params("/nonexistent/booster_interface.json5"),
                    Catch::StartsWith("/nonexistent/booster_interface.json5: parameter file not found"));
  const TempFile broken("{\"walking\": {\"max_alignment_rate\": 1.0,}}");
  CHECK_THROWS_WITH(b::load_interface_params(broken.path),
                    Catch::StartsWith(broken.path.string() + ": not valid JSON"));
  CHECK_THAT(error_of("[1, 2]"), Catch::StartsWith("booster_interface.json5: expected a JSON object at the top level, found an array"));
}

}  // namespace booster_interface_params_test

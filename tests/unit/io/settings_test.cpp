// praxis::io::apply_settings: "a.b=value" settings over a reflected struct, the command line's way of
// changing what a parameters file would: nested keys, JSON values and bare text, all or nothing, and
// errors that name the origin and the key.

#include <catch2/catch.hpp>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include <boost/hana/define_struct.hpp>

#include "praxis/io/reflect_load.hpp"

namespace settings_test {

struct Qos {
  BOOST_HANA_DEFINE_STRUCT(Qos, (std::optional<bool>, reliable), (int, depth));
};
struct Options {
  BOOST_HANA_DEFINE_STRUCT(Options, (std::string, topic), (std::chrono::milliseconds, timeout), (Qos, qos),
                           (std::uint32_t, domain));
};

}  // namespace settings_test

using settings_test::Options;

TEST_CASE("settings: nested keys, numbers, seconds, bare text and JSON strings", "[io][settings]") {
  Options o{"rt/lowstate", std::chrono::milliseconds(100), {std::nullopt, 1}, 0};
  const std::vector<std::string> set{"topic=gr2/SN1/aurora_state", "timeout=0.3", "qos.reliable=true", "qos.depth=10",
                                     "domain=123"};
  praxis::io::apply_settings(o, set, "--set");
  CHECK(o.topic == "gr2/SN1/aurora_state");
  CHECK(o.timeout == std::chrono::milliseconds(300));
  CHECK(o.qos.reliable == true);
  CHECK(o.qos.depth == 10);
  CHECK(o.domain == 123);

  // A quoted value is a JSON string (a name that looks like a number), null resets an optional, and
  // the later of two settings of one key wins.
  praxis::io::apply_settings(o, std::vector<std::string>{"topic=\"42\"", "qos.reliable=null", "domain=1", "domain=2"},
                             "--set");
  CHECK(o.topic == "42");
  CHECK(!o.qos.reliable.has_value());
  CHECK(o.domain == 2);
}

TEST_CASE("settings: a bad one names the origin and the key, and nothing is applied", "[io][settings]") {
  Options o{"rt/lowstate", std::chrono::milliseconds(100), {std::nullopt, 1}, 0};
  const Options before = o;
  const auto unchanged = [&] {
    CHECK(o.topic == before.topic);
    CHECK(o.timeout == before.timeout);
    CHECK(o.qos.depth == before.qos.depth);
    CHECK(o.domain == before.domain);
  };
  // A good setting before a bad one is not applied either.
  CHECK_THROWS_WITH(praxis::io::apply_settings(o, std::vector<std::string>{"topic=x", "qos.depth=ten"}, "--set"),
                    Catch::Contains("--set") && Catch::Contains("qos.depth") && Catch::Contains("found a string"));
  unchanged();
  CHECK_THROWS_WITH(praxis::io::apply_settings(o, std::vector<std::string>{"qos.deph=3"}, "--set"),
                    Catch::Contains("deph") && Catch::Contains("depth"));
  unchanged();
  CHECK_THROWS_WITH(praxis::io::apply_settings(o, std::vector<std::string>{"domain"}, "--set"),
                    Catch::Contains("--set: \"domain\": expected KEY=VALUE"));
  CHECK_THROWS_WITH(praxis::io::apply_settings(o, std::vector<std::string>{"=3"}, "--set"),
                    Catch::Contains("expected KEY=VALUE"));
  CHECK_THROWS_WITH(praxis::io::apply_settings(o, std::vector<std::string>{"qos..depth=3"}, "--set"),
                    Catch::Contains("expected KEY=VALUE"));
  CHECK_THROWS_WITH(praxis::io::apply_settings(o, std::vector<std::string>{"domain=-1"}, "--set"),
                    Catch::Contains("domain"));
  unchanged();
}

// Unit tests for include/praxis/hardware/tienkung/walking_params.hpp: a walking Tienkung's settings by
// field name (the backend's, the handler's and the HRIC wire's), the enum names they accept, and the
// errors that list the choices. The names are the documented ones (docs/backends/tienkung.md,
// "Walking by itself"; the header's own examples).

#include <catch2/catch.hpp>

#include <chrono>
#include <string>
#include <vector>

#include "praxis/hardware/tienkung/walking_params.hpp"

namespace tienkung_walking_params_test {

namespace tk = praxis::tienkung;
using namespace std::chrono_literals;

TEST_CASE("tienkung walking params: the header's examples reach the backend - the handler and the HRIC wire",
          "[tienkung][params][walking]") {
  tk::WalkingParams p;
  CHECK(p.hric.wire == tk::ServiceWire::fastrtps);
  CHECK(p.walking.console == tk::ConsoleMeaning::program_steers);
  praxis::io::apply_settings(p,
                             std::vector<std::string>{"backend.dds.domain=2", "walking.console=remote_steers",
                                                      "hric.wire=cyclonedds", "hric.names.status=rt/x/status",
                                                      "walking.max_vx=0.3", "walking.transition_timeout=2.5",
                                                      "walking.swing_arms=false", "hric.status_qos.depth=5",
                                                      "backend.topics.imu=rt/imu"},
                             "--set");
  CHECK(p.backend.dds.domain == 2);
  CHECK(p.walking.console == tk::ConsoleMeaning::remote_steers);
  CHECK(p.hric.wire == tk::ServiceWire::cyclonedds);
  CHECK(p.hric.names.status == "rt/x/status");
  CHECK(p.hric.names.cmd_vel == "rt/hric/robot/cmd_vel");  // the other names kept
  CHECK(p.walking.max_vx == 0.3);
  CHECK(p.walking.max_vy == 0.3);  // the defaults kept
  CHECK(p.walking.transition_timeout == 2500ms);
  CHECK_FALSE(p.walking.swing_arms);
  CHECK(p.hric.status_qos.depth == 5);
  CHECK(p.hric.status_qos.reliable == true);
  CHECK(p.backend.topics.imu == "rt/imu");

  tk::WalkingParams q;
  praxis::io::apply_settings(q, std::vector<std::string>{"walking.console=ignore"}, "--set");
  CHECK(q.walking.console == tk::ConsoleMeaning::ignore);
  praxis::io::apply_settings(q, std::vector<std::string>{"walking.console=program_steers", "hric.wire=fastrtps"},
                             "--set");
  CHECK(q.walking.console == tk::ConsoleMeaning::program_steers);
  CHECK(q.hric.wire == tk::ServiceWire::fastrtps);
}

TEST_CASE("tienkung walking params: an unknown enum value names the choices and changes nothing",
          "[tienkung][params][walking]") {
  tk::WalkingParams p;
  CHECK_THROWS_WITH(praxis::io::apply_settings(p, std::vector<std::string>{"hric.wire=rmw_fastrtps"}, "--set"),
                    Catch::Contains("hric.wire") && Catch::Contains("\"fastrtps\"") &&
                        Catch::Contains("\"cyclonedds\""));
  CHECK(p.hric.wire == tk::ServiceWire::fastrtps);
  CHECK_THROWS_WITH(
      praxis::io::apply_settings(p, std::vector<std::string>{"walking.max_vx=0.2", "walking.console=remote"}, "--set"),
      Catch::Contains("walking.console") && Catch::Contains("\"program_steers\"") &&
          Catch::Contains("\"remote_steers\"") && Catch::Contains("\"ignore\""));
  CHECK(p.walking.console == tk::ConsoleMeaning::program_steers);
  CHECK(p.walking.max_vx == 0.5);  // nothing half-applied
  CHECK_THROWS_WITH(praxis::io::apply_settings(p, std::vector<std::string>{"walking.max_speed=1"}, "--set"),
                    Catch::Contains("max_speed"));
}

}  // namespace tienkung_walking_params_test

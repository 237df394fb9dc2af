// policy/command_timeline.hpp: the text form (one constant command, items with start and end),
// evaluation at a time (inside an item its command, at an item's end the next one or zero, zero
// before the first and after the last) without allocating, and every bad item refused with a
// message that quotes it: not three finite numbers, times out of range or reversed, an item that
// lasts no time, two that overlap.

#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <stdexcept>
#include <string>

#include "praxis/policy/command_timeline.hpp"

#ifdef PRAXIS_COUNT_ALLOCATIONS
#include "../../support/alloc_counter.hpp"
#endif

namespace command_timeline_test {

using Command = std::array<double, 3>;

std::string error_of(const std::string& text) {
  try {
    (void)praxis::policy::CommandTimeline::parse(text);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  FAIL("no error for " << text);
  return {};
}

}  // namespace command_timeline_test

TEST_CASE("command timeline: one command without times holds from 0 to the end", "[policy][command_timeline]") {
  using Command = command_timeline_test::Command;
  const auto t = praxis::policy::CommandTimeline::parse("0.3,-0.1,0.25");
  CHECK(!t.empty());
  REQUIRE(t.segments().size() == 1);
  CHECK(t.segments()[0].text == "0.3,-0.1,0.25");
  CHECK(t.at(0.0) == Command{0.3, -0.1, 0.25});
  CHECK(t.at(123.4) == Command{0.3, -0.1, 0.25});
  CHECK(t.at(1e9) == Command{0.3, -0.1, 0.25});
  CHECK(t.at(-1.0) == Command{0.0, 0.0, 0.0});
  CHECK(praxis::policy::CommandTimeline().empty());
  CHECK(praxis::policy::CommandTimeline().at(5.0) == Command{0.0, 0.0, 0.0});
}

TEST_CASE("command timeline: items in force from their start to their end, zero outside, in any order written",
          "[policy][command_timeline]") {
  using Command = command_timeline_test::Command;
  // Written out of order, with a gap between 12 and 13 s and an open end.
  const auto t = praxis::policy::CommandTimeline::parse("0,0,0.3@13-20;0.5,0,0@2-12;0.1,0.1,0@0.1-1.5;0,0.2,0@20");
  REQUIRE(t.segments().size() == 4);
  CHECK(t.segments()[0].from == 0.1);  // by start time
  CHECK(t.segments()[3].from == 20.0);
  CHECK(t.at(0.0) == Command{0, 0, 0});
  CHECK(t.at(0.0999) == Command{0, 0, 0});
  CHECK(t.at(0.1) == Command{0.1, 0.1, 0});
  CHECK(t.at(1.4999) == Command{0.1, 0.1, 0});
  CHECK(t.at(1.5) == Command{0, 0, 0});
  CHECK(t.at(2.0) == Command{0.5, 0, 0});
  CHECK(t.at(11.999) == Command{0.5, 0, 0});
  CHECK(t.at(12.0) == Command{0, 0, 0});
  CHECK(t.at(12.5) == Command{0, 0, 0});
  CHECK(t.at(13.0) == Command{0, 0, 0.3});
  CHECK(t.at(19.99) == Command{0, 0, 0.3});
  CHECK(t.at(20.0) == Command{0, 0.2, 0});
  CHECK(t.at(1e5) == Command{0, 0.2, 0});
}

TEST_CASE("command timeline: back to back, the next item takes over at the instant the first ends",
          "[policy][command_timeline]") {
  using Command = command_timeline_test::Command;
  const auto t = praxis::policy::CommandTimeline::parse("0.5,0,0@2-12;0,0,0.3@12-16");
  CHECK(t.at(1.99) == Command{0, 0, 0});
  CHECK(t.at(2.0) == Command{0.5, 0, 0});
  CHECK(t.at(12.0) == Command{0, 0, 0.3});
  CHECK(t.at(15.99) == Command{0, 0, 0.3});
  CHECK(t.at(16.0) == Command{0, 0, 0});
  CHECK(t.at(1e6) == Command{0, 0, 0});
}

TEST_CASE("command timeline: a bad item is refused, quoting it", "[policy][command_timeline]") {
  using command_timeline_test::error_of;
  CHECK(error_of("") == "--command: no command given: expected VX,VY,WZ[@START[-END]], items separated by ';'");
  CHECK(error_of("0.5,0") == "--command: \"0.5,0\": expected VX,VY,WZ[@START[-END]] (m/s, m/s, rad/s; seconds)");
  CHECK(error_of("0.5,0,0,0") == "--command: \"0.5,0,0,0\": expected VX,VY,WZ[@START[-END]] (m/s, m/s, rad/s; seconds)");
  CHECK(error_of("0.5,0,0;") == "--command: \"\": expected VX,VY,WZ[@START[-END]] (m/s, m/s, rad/s; seconds)");
  CHECK(error_of("0.5 0 0") == "--command: \"0.5 0 0\": expected VX,VY,WZ[@START[-END]] (m/s, m/s, rad/s; seconds)");
  CHECK(error_of("x,0,0") == "--command: \"x,0,0\": the vx value \"x\" is not a finite number");
  CHECK(error_of("0,nan,0") == "--command: \"0,nan,0\": the vy value \"nan\" is not a finite number");
  CHECK(error_of("0,0,inf@1") == "--command: \"0,0,inf@1\": the wz value \"inf\" is not a finite number");
  CHECK(error_of("0,0,1e999") == "--command: \"0,0,1e999\": the wz value \"1e999\" is not a finite number");
  CHECK(error_of("0,,0") == "--command: \"0,,0\": the vy value \"\" is not a finite number");
  CHECK(error_of("0.5,0,0@") == "--command: \"0.5,0,0@\": the start time \"\" is not a number of seconds from 0 to 1000000");
  CHECK(error_of("0.5,0,0@1e7") ==
        "--command: \"0.5,0,0@1e7\": the start time \"1e7\" is not a number of seconds from 0 to 1000000");
  CHECK(error_of("0.5,0,0@-1").find("the start time \"\"") != std::string::npos);  // a dash starts the end
  CHECK(error_of("0.5,0,0@2-x") == "--command: \"0.5,0,0@2-x\": the end time \"x\" is not a number of seconds from 0 "
                                   "to 1000000");
  CHECK(error_of("0.5,0,0@12-2") == "--command: \"0.5,0,0@12-2\": the end time comes before the start time");
  CHECK(error_of("0.5,0,0@3-3") == "--command: \"0.5,0,0@3-3\": the end time is the start time: the item lasts no time");
  CHECK(error_of("0.5,0,0@2-12;0,0,0.3@11-16") ==
        "--command: \"0,0,0.3@11-16\": overlaps \"0.5,0,0@2-12\"");
  CHECK(error_of("0.5,0,0;0,0,0.3@100") == "--command: \"0,0,0.3@100\": overlaps \"0.5,0,0\"");  // the first has no end
}

#ifdef PRAXIS_COUNT_ALLOCATIONS
TEST_CASE("command timeline: evaluating allocates nothing", "[policy][command_timeline]") {
  const auto t = praxis::policy::CommandTimeline::parse("0.5,0,0@2-12;0,0,0.3@12-16;0.1,0.1,0.1@20");
  double sum = 0.0;
  const praxis::test::AllocationScope scope;
  for (int k = 0; k < 15000; ++k) {
    const auto c = t.at(0.002 * k);
    sum += c[0] + c[1] + c[2];
  }
  CHECK(scope.allocations() == 0);
  CHECK(std::isfinite(sum));
  CHECK(sum > 0.0);
}
#endif

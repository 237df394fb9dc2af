// praxis::io::to_json_text (io/reflect_save.hpp): what it writes is what load_struct_into reads back,
// for every kind of field (numbers at their extremes, bools, named and plain enums, strings that need
// escaping, durations, optionals empty and set, fixed-size arrays, Eigen vectors, lists, nested
// structs), and the text is valid JSON.

#include <catch2/catch.hpp>

#include <array>
#include <chrono>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <Eigen/Core>
#include <boost/hana/define_struct.hpp>
#include <nlohmann/json.hpp>

#include "praxis/io/reflect_load.hpp"
#include "praxis/io/reflect_save.hpp"

namespace reflect_save_test {

enum class Named : std::uint8_t { low = 1, high = 7 };
enum class Plain : std::int16_t { a = -3, b = 12 };

struct Inner {
  BOOST_HANA_DEFINE_STRUCT(Inner, (std::string, name), (std::optional<double>, gain));
};

struct Everything {
  BOOST_HANA_DEFINE_STRUCT(Everything, (double, x), (float, f), (std::int64_t, big), (std::uint8_t, byte), (bool, on),
                           (Named, named), (Plain, plain), (std::string, text), (std::chrono::nanoseconds, timeout),
                           (std::chrono::duration<double>, seconds), (std::optional<std::uint8_t>, maybe),
                           (std::optional<std::uint8_t>, empty), (std::array<int, 3>, ids),
                           (Eigen::Vector3d, gains), (std::vector<Inner>, inners), (Inner, one));
};

}  // namespace reflect_save_test

template <>
struct praxis::io::EnumNames<reflect_save_test::Named> {
  static constexpr std::array<std::pair<reflect_save_test::Named, std::string_view>, 2> values{
      {{reflect_save_test::Named::low, "low"}, {reflect_save_test::Named::high, "high"}}};
};

namespace reflect_save_test {

TEST_CASE("to_json_text: every kind of field reads back as it was saved", "[io][reflect]") {
  Everything v{};
  v.x = 0.1 + 0.2;  // not a short decimal: needs all 17 digits
  v.f = 1.0f / 3.0f;
  v.big = std::numeric_limits<std::int64_t>::min();
  v.byte = 255;
  v.on = true;
  v.named = Named::high;
  v.plain = Plain::a;
  v.text = "rt/\"lowcmd\"\\\n\t\x01";
  v.timeout = std::chrono::nanoseconds(123456789);
  v.seconds = std::chrono::duration<double>(2.5e-3);
  v.maybe = 5;
  v.empty = std::nullopt;
  v.ids = {-1, 0, 42};
  v.gains = {1.5, -2.25, 1e-300};
  v.inners = {{"left", 3.0}, {"right", std::nullopt}};
  v.one = {"", 0.0};

  const std::string text = praxis::io::to_json_text(v);
  INFO(text);
  const auto json = nlohmann::json::parse(text);  // valid JSON
  CHECK(json["named"] == "high");
  CHECK(json["plain"] == -3);
  CHECK(json["empty"].is_null());
  CHECK(json["timeout"].get<double>() == Approx(0.123456789));

  Everything back{};
  back.empty = 9;  // overwritten by the saved null
  praxis::io::load_struct_into(back, json, "saved");
  CHECK(back.x == v.x);
  CHECK(back.f == v.f);
  CHECK(back.big == v.big);
  CHECK(back.byte == v.byte);
  CHECK(back.on);
  CHECK(back.named == Named::high);
  CHECK(back.plain == Plain::a);
  CHECK(back.text == v.text);
  CHECK(back.timeout == v.timeout);
  CHECK(back.seconds == v.seconds);
  CHECK(back.maybe == std::optional<std::uint8_t>(5));
  CHECK_FALSE(back.empty.has_value());
  CHECK(back.ids == v.ids);
  CHECK(back.gains == v.gains);
  REQUIRE(back.inners.size() == 2);
  CHECK(back.inners[0].name == "left");
  CHECK(back.inners[0].gain == std::optional<double>(3.0));
  CHECK_FALSE(back.inners[1].gain.has_value());
  CHECK(praxis::io::to_json_text(back) == text);  // and saves to the same text
}

}  // namespace reflect_save_test

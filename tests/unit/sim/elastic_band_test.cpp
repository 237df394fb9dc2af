// praxis-sim's elastic band (examples/sim/elastic_band.hpp) on a 10 kg box, so the physics is known:
// "feet" holds the body at its start height with its weight all on the band, and "off" lowers a
// body hanging in the air onto the floor and lets go only once the floor carries it, where switching
// the band off at once drops it.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <memory>
#include <string>

#include <mujoco/mujoco.h>

#include "../../../examples/sim/elastic_band.hpp"
#include "model_files.hpp"

namespace elastic_band_test {

using sim::ElasticBand;

constexpr double k_mass = 10.0;
constexpr double k_half_height = 0.1;

const std::string k_box = R"(<mujoco>
  <worldbody>
    <geom type="plane" size="0 0 0.05"/>
    <body name="box" pos="0 0 Z">
      <freejoint/>
      <geom type="box" size="0.2 0.2 0.1" mass="10"/>
    </body>
  </worldbody>
</mujoco>
)";

struct Box {
  sim_test_files::ModelFolder folder;
  std::unique_ptr<mjModel, void (*)(mjModel*)> model{nullptr, mj_deleteModel};
  std::unique_ptr<mjData, void (*)(mjData*)> data{nullptr, mj_deleteData};

  Box(const std::string& name, double z) : folder(name) {
    std::string xml = k_box;
    xml.replace(xml.find('Z'), 1, std::to_string(z));
    const auto file = folder.write("box.xml", xml);
    std::array<char, 1000> error{};
    model.reset(mj_loadXML(file.c_str(), nullptr, error.data(), 1000));
    REQUIRE(model);
    data.reset(mj_makeData(model.get()));
    mj_forward(model.get(), data.get());
  }
  [[nodiscard]] double z() const { return data->qpos[2]; }
  [[nodiscard]] double vz() const { return data->qvel[2]; }
  [[nodiscard]] double t() const { return data->time; }
  void step(ElasticBand& band) {
    band.apply(model.get(), data.get(), praxis::from_seconds(data->time));
    mj_step(model.get(), data.get());
  }
};

TEST_CASE("band: scripts of lengths, feet, off and cut are read in time order, anything else is refused", "[sim][band]") {
  const auto changes = ElasticBand::parse("0:feet,1.5:0.6,3:off,4:cut");
  REQUIRE(changes.size() == 4);
  CHECK(changes[0].feet);
  CHECK(changes[0].on);
  CHECK(changes[1].at == praxis::from_seconds(1.5));
  CHECK(changes[1].length == 0.6);
  CHECK_FALSE(changes[1].feet);
  CHECK_FALSE(changes[2].on);
  CHECK_FALSE(changes[2].cut);
  CHECK_FALSE(changes[3].on);
  CHECK(changes[3].cut);
  CHECK_THROWS_WITH(ElasticBand::parse("0:foot"),
                    Catch::Contains("\"0:foot\" is not TIME:LENGTH, TIME:feet, TIME:off or TIME:cut"));
  CHECK_THROWS_WITH(ElasticBand::parse("0:3.5"), Catch::Contains("from 0 to 3"));
  CHECK_THROWS_WITH(ElasticBand::parse("2:0.5,1:off"), Catch::Contains("comes before"));
}

TEST_CASE("band: 'feet' holds the body at its start height with the band carrying all of its weight", "[sim][band]") {
  Box box("band_feet", k_half_height);  // standing on the floor
  ElasticBand band(box.model.get(), box.data.get(), ElasticBand::parse("0:feet"));
  const double weight = k_mass * 9.81;
  CHECK(band.feet_length() == Approx(ElasticBand::k_anchor_height - k_half_height - weight / ElasticBand::k_stiffness));
  while (box.t() < 2.0) box.step(band);
  CHECK(box.z() == Approx(k_half_height).margin(0.002));
  CHECK(band.force() == Approx(weight).epsilon(0.01));
  CHECK(band.on());
}

TEST_CASE("band: 'cut' lets a held body go at once, in the first step at its time", "[sim][band]") {
  Box box("band_cut", k_half_height + 0.2);  // hanging 0.2 m above the floor
  ElasticBand band(box.model.get(), box.data.get(), ElasticBand::parse("0:feet,1:cut"));
  while (box.t() < 1.0 - 1e-9) box.step(band);
  const double held = box.z();
  REQUIRE(band.on());
  box.step(band);
  CHECK_FALSE(band.on());
  CHECK(band.force() == 0.0);
  CHECK(box.data->xfrc_applied[6 * 1 + 2] == 0.0);  // no force left on the body
  while (box.t() < 1.5) box.step(band);
  CHECK(box.z() < held - 0.15);  // it fell: nothing lowered it
}

TEST_CASE("band: 'off' lowers a hanging body onto the floor and lets go once the floor carries it", "[sim][band]") {
  // Rest length 0: the box hangs 2.41 m above the floor, as a G1 hangs at Unitree's starting length.
  const double weight = k_mass * 9.81;
  const double hanging = ElasticBand::k_anchor_height - weight / ElasticBand::k_stiffness;

  SECTION("released by the script: lowered, then let go standing") {
    Box box("band_release", hanging);
    ElasticBand band(box.model.get(), box.data.get(), ElasticBand::parse("0:0,0.5:off"));
    double fastest = 0.0;
    double released_at = -1.0, z_at_release = 0.0, vz_at_release = 0.0;
    while (box.t() < 8.0) {
      box.step(band);
      fastest = std::max(fastest, -box.vz());
      if (released_at < 0.0 && !band.on()) {
        released_at = box.t();
        z_at_release = box.z();
        vz_at_release = box.vz();
      }
      if (box.t() < 0.5) CHECK_FALSE(band.releasing());
    }
    INFO("released at " << released_at << " s at z " << z_at_release << " m, fastest descent " << fastest << " m/s");
    REQUIRE(released_at > 0.5);
    // Paid out at 0.5 m/s: 2.41 m down, then the weight taken off the band, about 6 s in all.
    CHECK(released_at > 0.5 + (hanging - k_half_height) / ElasticBand::k_release_speed);
    CHECK(released_at < 0.5 + (hanging - k_half_height + 0.6) / ElasticBand::k_release_speed);
    // Never faster than the band is paid out: it was lowered, not dropped.
    CHECK(fastest < 1.2 * ElasticBand::k_release_speed);
    // Let go resting on the floor, and it stays there.
    CHECK(z_at_release == Approx(k_half_height).margin(0.005));
    CHECK(std::abs(vz_at_release) < 0.05);
    CHECK(box.z() == Approx(k_half_height).margin(0.005));
    CHECK_FALSE(band.releasing());
    CHECK(band.force() == 0.0);
    CHECK(box.data->xfrc_applied[6 + 2] == 0.0);
  }
  SECTION("switched off by hand (Unitree's key): dropped at once") {
    Box box("band_toggle", hanging);
    ElasticBand band(box.model.get(), box.data.get(), ElasticBand::parse("0:0"));
    while (box.t() < 0.5) box.step(band);
    band.toggle();
    double fastest = 0.0;
    while (box.t() < 1.5) {
      box.step(band);
      fastest = std::max(fastest, -box.vz());
    }
    // Free fall from 2.3 m: nearly 7 m/s at the floor.
    CHECK(fastest > 5.0);
    CHECK_FALSE(band.on());
  }
}

}  // namespace elastic_band_test

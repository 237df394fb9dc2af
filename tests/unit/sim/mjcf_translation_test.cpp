// MjcfTranslation (sim/mjcf_translation.hpp): models written in MuJoCo 3's style, as the vendors
// publish them, load in MuJoCo 2.2.2 unchanged on disk. The stand-ins are written here: a scene that
// includes a robot file, meshes in a folder beside it, ranges without `limited`, joint force ranges
// from a default class and on joints, a free joint saying actuatorfrclimited="false"; and what cannot
// be translated, each refused with its file, line, element and attribute.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>

#include <mujoco/mujoco.h>

#include "praxis/hardware/unitree/go2.hpp"
#include "praxis/sim/mjcf_translation.hpp"
#include "praxis/sim/mujoco_world.hpp"
#include "model_files.hpp"

namespace mjcf_translation_test {

using praxis::sim::MjcfTranslation;
using praxis::sim::ModelError;
using praxis::sim::MujocoWorld;
using sim_test_files::line_of;
using sim_test_files::ModelFolder;
using sim_test_files::read;

constexpr std::array<std::string_view, 3> k_joints{"hip", "knee", "ankle"};

const std::string k_scene = R"(<mujoco model="scene">
  <include file="robot.xml"/>
  <worldbody>
    <geom name="floor" type="plane" size="0 0 0.05"/>
  </worldbody>
</mujoco>
)";

// In MuJoCo 3's style: no autolimits (a range implies limited), torque limits as the joints'
// actuatorfrcrange (the hip's from its default class through childclass, the knee's its own, the
// ankle none: its motor's ctrlrange is its limit), motors without ctrlrange, meshes in meshes/, the
// joints' actuator forces read by MuJoCo 2.3.7's jointactuatorfrc (as unitree_mujoco's models do).
const std::string k_robot = R"(<mujoco model="standin">
  <compiler angle="radian" meshdir="meshes/"/>
  <default>
    <joint damping="0.1" armature="0.01"/>
    <default class="leg">
      <joint actuatorfrcrange="-30 30"/>
    </default>
  </default>
  <asset>
    <mesh name="shell" file="shell.stl"/>
  </asset>
  <worldbody>
    <body name="pelvis" pos="0 0 0.6" childclass="leg">
      <joint name="floating_base_joint" type="free" limited="false" actuatorfrclimited="false"/>
      <geom type="mesh" mesh="shell" density="0" contype="0" conaffinity="0"/>
      <geom type="box" size="0.1 0.1 0.05" mass="5"/>
      <body name="thigh" pos="0 0 -0.1">
        <joint name="hip_joint" axis="0 1 0" range="-1 1"/>
        <geom type="capsule" fromto="0 0 0 0 0 -0.2" size="0.03" mass="1"/>
        <body name="shin" pos="0 0 -0.2">
          <joint name="knee_joint" axis="0 1 0" range="0 2"
                 actuatorfrcrange="-50 50"/>
          <geom type="capsule" fromto="0 0 0 0 0 -0.2" size="0.03" mass="1"/>
          <body name="foot" pos="0 0 -0.2">
            <joint name="ankle_joint" class="main" axis="0 1 0" range="-0.5 0.5"/>
            <geom type="box" size="0.08 0.04 0.01" mass="0.5"/>
            <body name="wheel" pos="0.05 0 0">
              <joint name="spin_joint" axis="0 1 0" actuatorfrcrange="-1 1"/>
              <geom type="sphere" size="0.01" mass="0.01"/>
            </body>
          </body>
        </body>
      </body>
    </body>
  </worldbody>
  <actuator>
    <motor name="hip" joint="hip_joint"/>
    <motor name="knee" joint="knee_joint" ctrlrange="-40 60"/>
    <motor name="ankle" joint="ankle_joint" ctrlrange="-10 10"/>
  </actuator>
  <sensor>
    <jointactuatorfrc name="knee_torque" joint="knee_joint"/>
    <jointactuatorfrc name="hip_torque" joint="hip_joint"></jointactuatorfrc>
  </sensor>
</mujoco>
)";

int count_lines(const std::string& text) { return static_cast<int>(std::count(text.begin(), text.end(), '\n')); }

// The folder of the stand-in: scene.xml including robot.xml, meshes/shell.stl.
struct Standin {
  ModelFolder folder;
  std::filesystem::path scene;
  explicit Standin(const std::string& name, const std::string& robot = k_robot) : folder(name) {
    scene = folder.write("scene.xml", k_scene);
    folder.write("robot.xml", robot);
    folder.write_stl("meshes/shell.stl");
  }
};

// `text` with `from` replaced by `to` (which must occur).
std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

// The ModelError message translating `file` gives.
std::string refusal(const std::filesystem::path& file) {
  try {
    const MjcfTranslation t(file);
  } catch (const ModelError& e) {
    return e.what();
  }
  FAIL("translating " << file << " was not refused");
  return {};
}

TEST_CASE("translation: a scene for MuJoCo 3 becomes loadable by 2.2.2 in memory, every edit on its own line",
          "[sim][mjcf]") {
  const Standin s("translate");
  const MjcfTranslation t(s.scene);
  REQUIRE(t.changed());
  REQUIRE(t.files().size() == 2);
  CHECK(t.files()[0].path == s.scene);
  CHECK(t.files()[1].path == s.folder.path() / "robot.xml");
  for (const auto& f : t.files()) {
    INFO(f.path);
    CHECK(f.changed);
    // MuJoCo's line numbers keep pointing into the files on disk, which are left as they were.
    CHECK(count_lines(f.text) == count_lines(read(f.path)));
    CHECK(f.text.find("actuatorfrcrange") == std::string::npos);
    CHECK(f.text.find("actuatorfrclimited") == std::string::npos);
    CHECK(f.text.find("jointactuatorfrc") == std::string::npos);
  }
  CHECK(read(s.scene) == k_scene);
  CHECK(read(s.folder.path() / "robot.xml") == k_robot);
  CHECK(t.files()[0].text.find("<compiler autolimits=\"true\"/>") != std::string::npos);

  const std::string robot = t.files()[1].text;
  CHECK(robot.find(R"(<motor name="hip" joint="hip_joint" ctrlrange="-30 30" ctrllimited="true"/>)") != std::string::npos);
  // Both clamps hold in MuJoCo 3 (ctrl to -40..60, then the joint's force to -50..50): -40..50.
  CHECK(robot.find(R"(<motor name="knee" joint="knee_joint" ctrlrange="-40 50" ctrllimited="true"/>)") != std::string::npos);
  CHECK(robot.find(R"(<motor name="ankle" joint="ankle_joint" ctrlrange="-10 10"/>)") != std::string::npos);
  CHECK(robot.find(R"(<actuatorfrc name="knee_torque" actuator="knee"/>)") != std::string::npos);
  CHECK(robot.find(R"(<actuatorfrc name="hip_torque" actuator="hip"></actuatorfrc>)") != std::string::npos);

  const auto& changes = t.changes();
  const auto said = [&](const std::string& what) {
    return std::any_of(changes.begin(), changes.end(), [&](const std::string& c) { return c.find(what) != std::string::npos; });
  };
  CAPTURE(changes);
  CHECK(said("scene.xml:1: <compiler autolimits=\"true\"> added"));
  CHECK(said("robot.xml:" + std::to_string(line_of(k_robot, "hip_joint")) +
             ": joint 'hip_joint': actuatorfrcrange -30 30 became the ctrlrange -30 30 of motor 'hip'"));
  CHECK(said("joint 'knee_joint': actuatorfrcrange -50 50 became the ctrlrange -40 50 of motor 'knee' (its own ctrlrange -40 60 also holds"));
  CHECK(said("joint 'spin_joint': actuatorfrcrange -1 1 dropped: no actuator drives the joint"));
  CHECK(said("<jointactuatorfrc joint=\"knee_joint\"> became <actuatorfrc actuator=\"knee\">"));
  CHECK_FALSE(said("ankle_joint"));

  // What 2.2.2 makes of it: limits from the ranges, the motors' clamps, the mesh from meshes/.
  const MujocoWorld world(s.scene, k_joints);
  CHECK(world.translations() == changes);
  const mjModel* m = world.model();
  CHECK(m->nmesh == 1);
  CHECK(m->mesh_vertnum[0] == 4);
  for (std::size_t j = 0; j < 3; ++j) CHECK(m->jnt_limited[world.joint_id(j)] == 1);
  CHECK(m->jnt_limited[mj_name2id(m, mjOBJ_JOINT, "spin_joint")] == 0);
  CHECK(m->jnt_range[2 * world.joint_id(1) + 1] == 2.0);
  const auto range = [&](std::size_t j) {
    const int a = world.actuator_id(j);
    return std::array<double, 2>{m->actuator_ctrlrange[2 * a], m->actuator_ctrlrange[2 * a + 1]};
  };
  CHECK(range(0) == std::array<double, 2>{-30, 30});
  CHECK(range(1) == std::array<double, 2>{-40, 50});
  CHECK(range(2) == std::array<double, 2>{-10, 10});
  const int knee_torque = mj_name2id(m, mjOBJ_SENSOR, "knee_torque");
  REQUIRE(knee_torque >= 0);
  CHECK(m->sensor_type[knee_torque] == mjSENS_ACTUATORFRC);
  CHECK(m->sensor_objid[knee_torque] == world.actuator_id(1));
}

TEST_CASE("translation: a geared motor's ctrlrange is the joint's force range over the gear; other actuators get "
          "a forcerange", "[sim][mjcf]") {
  const ModelFolder folder("geared");
  const auto file = folder.write("geared.xml", R"(<mujoco>
  <default>
    <motor gear="2"/>
  </default>
  <worldbody>
    <body>
      <joint name="a" axis="0 1 0" actuatorfrcrange="-30 30"/>
      <geom size="0.1" mass="1"/>
      <body pos="0 0 -0.3">
        <joint name="b" axis="0 1 0" actuatorfrcrange="-20 24" actuatorfrclimited="true"/>
        <geom size="0.1" mass="1"/>
        <body pos="0 0 -0.3">
          <joint name="c" axis="0 1 0" actuatorfrcrange="-20 24" actuatorfrclimited="false"/>
          <geom size="0.1" mass="1"/>
        </body>
      </body>
    </body>
  </worldbody>
  <actuator>
    <motor name="ma" joint="a"/>
    <position name="pb" joint="b" kp="10" gear="1" forcerange="-100 10"/>
    <motor name="mc" joint="c" gear="1"/>
  </actuator>
</mujoco>
)");
  const MjcfTranslation t(file);
  // The translated text, compiled by MuJoCo 2.2.2 itself.
  const auto translated = folder.write("translated.xml", t.files().front().text);
  std::array<char, 1000> error{};
  std::unique_ptr<mjModel, void (*)(mjModel*)> m(mj_loadXML(translated.c_str(), nullptr, error.data(), 1000),
                                                 mj_deleteModel);
  INFO(error.data());
  REQUIRE(m);
  // gear 2: the joint feels twice the motor's ctrl, so -30..30 at the joint is -15..15 of ctrl.
  CHECK(m->actuator_ctrllimited[0] == 1);
  CHECK(m->actuator_ctrlrange[0] == -15.0);
  CHECK(m->actuator_ctrlrange[1] == 15.0);
  // A position servo keeps its own law (gear 1: the main default's gear 2 is every actuator's); its
  // force is clamped to both ranges: -20..10.
  CHECK(m->actuator_forcelimited[1] == 1);
  CHECK(m->actuator_forcerange[2] == -20.0);
  CHECK(m->actuator_forcerange[3] == 10.0);
  CHECK(m->actuator_ctrllimited[1] == 0);
  // actuatorfrclimited="false": nothing to clamp.
  CHECK(m->actuator_ctrllimited[2] == 0);
  CHECK(m->actuator_forcelimited[2] == 0);
}

TEST_CASE("translation: attributes 2.2.2 lacks are dropped where they say what MuJoCo 3 does anyway",
          "[sim][mjcf]") {
  const Standin s("defaults", replaced(replaced(replaced(k_robot, R"(type="free" limited="false")", R"(type="free" limited="false" actuatorgravcomp="false")"),
                                               R"(<body name="thigh" pos="0 0 -0.1">)", R"(<body name="thigh" pos="0 0 -0.1" gravcomp="0">)"),
                                      R"(<compiler angle="radian" meshdir="meshes/"/>)",
                                      R"(<compiler angle="radian" assetdir="meshes/" alignfree="false"/>)"));
  const MjcfTranslation t(s.scene);
  const std::string robot = t.files()[1].text;
  for (const char* gone : {"actuatorgravcomp", "gravcomp", "alignfree", "assetdir"}) {
    CHECK(robot.find(gone) == std::string::npos);
  }
  CHECK(robot.find(R"(<compiler angle="radian" meshdir="meshes/" texturedir="meshes/" />)") != std::string::npos);
  const MujocoWorld world(s.scene, k_joints);
  CHECK(world.model()->nmesh == 1);
}

TEST_CASE("translation: what 2.2.2 cannot express is refused, naming the file, line, element and attribute",
          "[sim][mjcf]") {
  // `at` finds the line in the robot file; `tag` is how the message names the element and attribute.
  const auto check = [](const std::string& name, const std::string& robot, const std::string& at, const std::string& tag,
                        const std::string& what) {
    const Standin s(name, robot);
    const std::string message = refusal(s.scene);
    INFO(message);
    CHECK_THAT(message, Catch::Contains(s.scene.string()));
    CHECK_THAT(message, Catch::Contains("'" + (s.folder.path() / "robot.xml").string() + "' line " +
                                       std::to_string(line_of(robot, at)) + ", " + tag + ": "));
    CHECK_THAT(message, Catch::Contains(what));
  };
  check("two_actuators", replaced(k_robot, "</actuator>", R"(<motor joint="hip_joint" ctrlrange="-1 1"/></actuator>)"),
        R"(<joint actuatorfrcrange="-30 30"/>)", "<joint actuatorfrcrange>",
        "actuatorfrcrange=\"-30 30\" of joint 'hip_joint' clamps the sum of the 2 actuators driving it");
  check("gravcomp", replaced(k_robot, R"(<body name="shin" pos="0 0 -0.2">)", R"(<body name="shin" pos="0 0 -0.2" gravcomp="1">)"),
        "gravcomp", "<body gravcomp>", "gravcomp=\"1\" asks for gravity compensation");
  check("align", replaced(k_robot, R"(<body name="foot" pos="0 0 -0.2">)", R"(<body name="foot" pos="0 0 -0.2"><freejoint align="true"/>)"),
        "align", "<freejoint align>", "align=\"true\"");
  check("implicitfast", replaced(k_robot, "<default>", R"(<option integrator="implicitfast"/><default>)"), "implicitfast",
        "<option integrator>", "integrator=\"implicitfast\"");
  check("frame", replaced(k_robot, R"(<body name="foot" pos="0 0 -0.2">)", R"(<frame pos="0 0 0"/><body name="foot" pos="0 0 -0.2">)"),
        "<frame", "<frame>", "MuJoCo 2.2.2 has no <frame>");
  // The attribute's own line, not its element's.
  check("bad_range", replaced(k_robot, R"(actuatorfrcrange="-50 50")", R"(actuatorfrcrange="-50")"), "actuatorfrcrange=\"-50\"",
        "<joint actuatorfrcrange>", "is not two numbers");
  check("jointactuatorfrc", replaced(k_robot, R"(joint="knee_joint"/>)", R"(joint="spin_joint"/>)"), "spin_joint\"/>",
        "<jointactuatorfrc joint>", "which 0 actuators drive");
  check("disjoint", replaced(k_robot, R"(ctrlrange="-40 60")", R"(ctrlrange="60 70")"), R"(ctrlrange="60 70")", "<motor ctrlrange>",
        "do not overlap");
}

TEST_CASE("translation: a missing mesh or include is named with the path it was looked for at", "[sim][mjcf]") {
  SECTION("mesh") {
    const Standin s("missing_mesh", replaced(k_robot, R"(file="shell.stl")", R"(file="torso_link_23dof_rev_1_0.STL")"));
    const std::string message = refusal(s.scene);
    INFO(message);
    CHECK_THAT(message, Catch::Contains("line " + std::to_string(line_of(k_robot, "shell.stl")) + ", <mesh file>: mesh 'shell'"));
    CHECK_THAT(message,
               Catch::Contains("no file '" + (s.folder.path() / "meshes" / "torso_link_23dof_rev_1_0.STL").string() + "'"));
    CHECK_THROWS_WITH(MujocoWorld(s.scene, k_joints), Catch::Contains("torso_link_23dof_rev_1_0.STL"));
  }
  SECTION("include") {
    const ModelFolder folder("missing_include");
    const auto scene = folder.write("scene.xml", k_scene);
    const std::string message = refusal(scene);
    CHECK_THAT(message, Catch::Contains("line 2, <include file>") &&
                            Catch::Contains("the included file '" + (folder.path() / "robot.xml").string() + "' does not exist"));
  }
}

TEST_CASE("translation: malformed XML is refused with its file and line", "[sim][mjcf]") {
  const Standin s("malformed", replaced(k_robot, "<geom type=\"box\" size=\"0.1 0.1 0.05\" mass=\"5\"/>",
                                        "<geom type=\"box\" size=\"0.1 0.1 0.05\" mass=\"5\">"));
  CHECK_THAT(refusal(s.scene), Catch::Contains("XML parse error in '" + (s.folder.path() / "robot.xml").string() + "' line ") &&
                                   Catch::Contains("</body> closes <geom>"));
}

TEST_CASE("translation: what MuJoCo 2.2.2 itself refuses is located in the file that says it", "[sim][mjcf]") {
  // An attribute of MuJoCo 3 outside the translation's table: MuJoCo names it (line 0 for an
  // included file), the translation finds where it is written.
  const std::string robot = replaced(k_robot, "<default>", "<option ls_iterations=\"5\"/>\n  <default>");
  const Standin s("mujoco_refuses", robot);
  CHECK_THROWS_WITH(MujocoWorld(s.scene, k_joints),
                    Catch::Contains("rejected it: XML Error: Schema violation: unrecognized attribute: 'ls_iterations'") &&
                        Catch::Contains("(at '" + (s.folder.path() / "robot.xml").string() + "' line " +
                                        std::to_string(line_of(robot, "ls_iterations")) + ", <option ls_iterations>)"));
}

TEST_CASE("translation: a model written for MuJoCo 2.2.2 is given to MuJoCo as it is", "[sim][mjcf]") {
  const auto go2 = std::filesystem::path(PRAXIS_MODELS_DIR) / "go2.xml";
  const MjcfTranslation t(go2);
  CHECK_FALSE(t.changed());
  CHECK(t.changes().empty());
  REQUIRE(t.files().size() == 1);
  CHECK(t.files()[0].text == read(go2));
}

}  // namespace mjcf_translation_test

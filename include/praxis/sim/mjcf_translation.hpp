#pragma once
// MjcfTranslation: a published MJCF model, as written for MuJoCo 3, made loadable by MuJoCo 2.2.2
// in memory. The files on disk are never changed; MujocoWorld hands the translated texts to MuJoCo
// through its virtual file system under the original names, so meshes and textures still resolve
// against the original file's folder.
//
// What is translated (docs/simulation.md, "Loading a published model"):
//   - no <compiler autolimits>: autolimits="true" is added (MuJoCo 3's default; 2.2.2's is false,
//     and it refuses a range without `limited`);
//   - <compiler assetdir>: becomes meshdir and texturedir where those are not given;
//   - a joint's actuatorfrcrange (with actuatorfrclimited, also from default classes): the one
//     actuator driving the joint clamps to it instead. A <motor> gets it as its ctrlrange divided by
//     its gear (intersected with a ctrlrange it already has: both clamps held in MuJoCo 3); any other
//     actuator as its forcerange. Where it clamps nothing (no actuator, or not limited) it is dropped;
//   - a <jointactuatorfrc joint="j"> sensor: <actuatorfrc> of the joint's one gear-1 actuator;
//   - attributes 2.2.2 lacks whose value is MuJoCo 3's default (freejoint align="false",
//     actuatorgravcomp="false", gravcomp="0", ...) are dropped.
// Every edit stays on its line, so MuJoCo's line numbers still point into the original files.
//
// What is refused, with a ModelError naming the file, the line, the element and the attribute:
// features 2.2.2 cannot express (e.g. actuatorfrcrange on a joint two actuators drive, gravity
// compensation, the implicitfast integrator), malformed XML, an <include> or a mesh, skin or
// texture file that does not exist (the message names the path it looked for).

#include <cstddef>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace praxis::sim {

// A model that cannot be used: the message names the file and what was expected.
class ModelError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class MjcfTranslation {
 public:
  struct File {
    std::filesystem::path path;  // as MuJoCo opens it: the model file, or an <include> beside it
    std::string text;            // translated
    bool changed = false;        // differs from the file on disk
  };

  // Reads `model_file` and the files it includes and translates them. Throws ModelError.
  explicit MjcfTranslation(const std::filesystem::path& model_file);
  ~MjcfTranslation();
  MjcfTranslation(MjcfTranslation&&) noexcept;
  MjcfTranslation& operator=(MjcfTranslation&&) noexcept;
  MjcfTranslation(const MjcfTranslation&) = delete;
  MjcfTranslation& operator=(const MjcfTranslation&) = delete;

  // The model file first, then every included file once, in the order they are included.
  [[nodiscard]] const std::vector<File>& files() const noexcept;
  [[nodiscard]] bool changed() const noexcept;
  // What was translated, one line per edit: "g1_12dof.xml:46: joint 'left_hip_pitch_joint':
  // actuatorfrcrange -88 88 became the ctrlrange of motor 'left_hip_pitch_joint'".
  [[nodiscard]] const std::vector<std::string>& changes() const noexcept;

  // Where in the files an error of MuJoCo's points ("Element 'joint', line 0" with an unrecognized
  // attribute, "Object name = x"): "g1_12dof.xml line 46, <joint actuatorfrcrange>"; empty when the
  // message names nothing that can be found.
  [[nodiscard]] std::string locate(std::string_view mujoco_error) const;

 private:
  struct Parsed;
  std::unique_ptr<Parsed> parsed_;
};

}  // namespace praxis::sim

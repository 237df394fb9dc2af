#pragma once
// A published config file (YAML, read as JSON with its keys in the file's order) and the checks of
// its values, each refusal naming the file, the key as a JSON pointer and what was expected:
//   g1.yaml: key "/kps/3": expected a number >= 0, found a string ("x")

#include <cstddef>
#include <filesystem>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "praxis/policy/network.hpp"

namespace praxis::policy_tool {

using Json = nlohmann::ordered_json;

class SourceDoc {
 public:
  SourceDoc(std::filesystem::path file, Json root) : file_(std::move(file)), root_(std::move(root)) {}

  [[nodiscard]] const std::filesystem::path& file() const { return file_; }
  [[nodiscard]] std::string name() const { return file_.string(); }
  [[nodiscard]] const Json& root() const { return root_; }

  // Throws policy::PolicyError: "<file>: key "<key>": expected <expected>, found <found>".
  [[noreturn]] void fail(const std::string& key, std::string_view expected, std::string_view found) const;
  // Throws policy::PolicyError: "<file>: key "<key>": <message>".
  [[noreturn]] void refuse(const std::string& key, std::string_view message) const;
  // How a value reads in a message: `a string ("x")`, `1.5`, `an array of 3`.
  [[nodiscard]] static std::string found(const Json& value);

  [[nodiscard]] const Json* find(const Json& object, std::string_view key) const;
  // The key's value, or a refusal "expected <expected>, found no such key".
  [[nodiscard]] const Json& require(const Json& object, const std::string& at, std::string_view key,
                                    std::string_view expected) const;
  [[nodiscard]] const Json& object(const Json& value, const std::string& key) const;
  // Refuses any key outside `allowed` (what praxis does not map would otherwise be dropped silently).
  void only_keys(const Json& object, const std::string& at, std::initializer_list<std::string_view> allowed) const;

  [[nodiscard]] double number(const Json& value, const std::string& key, std::string_view expected = "a number") const;
  [[nodiscard]] double positive(const Json& value, const std::string& key) const;
  [[nodiscard]] std::string text(const Json& value, const std::string& key, std::string_view expected) const;
  [[nodiscard]] std::size_t whole(const Json& value, const std::string& key, std::string_view expected) const;
  // An array of numbers; `count` 0 takes any non-empty length. With `non_negative` each is >= 0.
  [[nodiscard]] std::vector<double> numbers(const Json& value, const std::string& key, std::size_t count,
                                            std::string_view what, bool non_negative = false) const;
  // An array of whole numbers >= 0 (indices).
  [[nodiscard]] std::vector<std::size_t> indices(const Json& value, const std::string& key, std::string_view what) const;

 private:
  std::filesystem::path file_;
  Json root_;
};

}  // namespace praxis::policy_tool

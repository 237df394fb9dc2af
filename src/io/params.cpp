#include "praxis/io/params.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "praxis/io/detail/json_text.hpp"

namespace praxis::io {

struct ParamFile::Json {
  nlohmann::json value;
};


ParamFile::ParamFile(std::filesystem::path path, std::unique_ptr<Json> json)
    : path_(std::move(path)), json_(std::move(json)) {}
ParamFile::ParamFile(const ParamFile& other)
    : path_(other.path_), json_(std::make_unique<Json>(*other.json_)) {}
ParamFile::ParamFile(ParamFile&&) noexcept = default;
ParamFile& ParamFile::operator=(const ParamFile& other) {
  if (this != &other) {
    path_ = other.path_;
    json_ = std::make_unique<Json>(*other.json_);
  }
  return *this;
}
ParamFile& ParamFile::operator=(ParamFile&&) noexcept = default;
ParamFile::~ParamFile() = default;

ParamFile ParamFile::load(const std::filesystem::path& file) {
  std::error_code ec;
  if (!std::filesystem::exists(file, ec)) {
    throw ParamError(file.string() + ": parameter file not found");
  }
  if (std::filesystem::is_directory(file, ec)) {
    throw ParamError(file.string() + ": is a folder, expected a JSON parameter file");
  }
  std::ifstream in(file, std::ios::binary);
  if (!in) throw ParamError(file.string() + ": cannot be opened for reading");
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return parse(text, file);
}

ParamFile ParamFile::parse(std::string_view text, const std::filesystem::path& origin) {
  auto json = std::make_unique<Json>();
  try {
    json->value = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    // e.byte is the offset of the error; translate it to a line for the reader.
    const auto upto = std::min<std::size_t>(e.byte == 0 ? 0 : e.byte - 1, text.size());
    const auto line = 1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(upto), '\n');
    throw ParamError(origin.string() + ":" + std::to_string(line) + ": not valid JSON (" + e.what() + ")");
  } catch (const nlohmann::json::out_of_range& e) {
    // The parser's other failure: a number beyond a double's range (1e999), which it reports by value.
    throw ParamError(origin.string() + ": not valid JSON (a number does not fit in a double: " + e.what() + ")");
  }
  if (!json->value.is_object()) {
    throw ParamError(origin.string() + ": expected a JSON object with parameters at the top level, found " +
                     detail::describe_json(json->value));
  }
  return ParamFile(origin, std::move(json));
}

ParamFile ParamFile::load_folder(const std::filesystem::path& folder) {
  std::error_code ec;
  if (!std::filesystem::is_directory(folder, ec)) {
    throw ParamError(folder.string() + ": parameter folder not found (expected a folder with params.json)");
  }
  return load(folder / "params.json");
}

bool ParamFile::has(std::string_view key) const { return json_->value.contains(std::string(key)); }

bool ParamFile::is_number(std::string_view key) const {
  const auto it = json_->value.find(std::string(key));
  return it != json_->value.end() && it->is_number();
}

bool ParamFile::is_text(std::string_view key) const {
  const auto it = json_->value.find(std::string(key));
  return it != json_->value.end() && it->is_string();
}

void ParamFile::fail(std::string_view key, std::string_view expected, std::string_view found) const {
  throw ParamError(path_.string() + ": key \"" + std::string(key) + "\": expected " + std::string(expected) +
                   ", found " + std::string(found));
}

double ParamFile::number(std::string_view key) const {
  const auto it = json_->value.find(std::string(key));
  if (it == json_->value.end()) fail(key, "a number", "no such key");
  if (!it->is_number()) fail(key, "a number", detail::describe_json(*it));
  const double v = it->get<double>();
  if (!std::isfinite(v)) fail(key, "a finite number", "a non-finite number");
  return v;
}

bool ParamFile::boolean(std::string_view key) const {
  const auto it = json_->value.find(std::string(key));
  if (it == json_->value.end()) fail(key, "true or false", "no such key");
  if (!it->is_boolean()) fail(key, "true or false", detail::describe_json(*it));
  return it->get<bool>();
}

std::string ParamFile::text(std::string_view key) const {
  const auto it = json_->value.find(std::string(key));
  if (it == json_->value.end()) fail(key, "a string", "no such key");
  if (!it->is_string()) fail(key, "a string", detail::describe_json(*it));
  return it->get<std::string>();
}

std::vector<double> ParamFile::numbers(std::string_view key, std::size_t expected_length) const {
  const std::string expected = "an array of " + std::to_string(expected_length) + " numbers";
  const auto it = json_->value.find(std::string(key));
  if (it == json_->value.end()) fail(key, expected, "no such key");
  if (!it->is_array()) fail(key, expected, detail::describe_json(*it));
  if (it->size() != expected_length) fail(key, expected, detail::describe_json(*it));
  std::vector<double> out;
  out.reserve(expected_length);
  for (std::size_t i = 0; i < it->size(); ++i) {
    const auto& v = (*it)[i];
    if (!v.is_number() || !std::isfinite(v.get<double>())) {
      fail(key, expected, "element " + std::to_string(i) + " is " + detail::describe_json(v));
    }
    out.push_back(v.get<double>());
  }
  return out;
}

}  // namespace praxis::io

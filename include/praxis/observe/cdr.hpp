#pragma once
// A reflected type's wire form for the tools robot teams use: its ROS 2 message definition
// ("ros2msg", the schema Foxglove, PlotJuggler and rosbag2 read) and its CDR encoding (little endian,
// the 4-byte encapsulation header 00 01 00 00, each primitive aligned to its size counted from the
// byte after the header). Both come from Boost.Hana reflection (io/reflect_kinds.hpp,
// observe/reflection.hpp), so a port's record and live view follow its struct with nothing to write.
//
//   cdr_schema<T>("RobotState29")     the definition text (off the cycle: allocates)
//   cdr_max_size<T>()                 compile-time bound of an encoding (types without strings)
//   encode_cdr(value, buffer)         bytes written, or 0 when the buffer is too small; no allocation
//   decode_cdr(bytes, value)          the inverse, bit for bit (replay); false on a short or
//                                     malformed message
//
// Field kinds: bool, every integer and floating-point type, enums (their underlying type),
// std::chrono durations and time points (their tick count), std::array and fixed-size Eigen vectors
// (T[N]), Eigen quaternions (a Quaternion message: x y z w), std::optional (a bool `has_<name>`
// before the value), std::string (events only: a string makes the size unbounded), nested structs
// (a message of their own) and Projection<T> (observe/reflection.hpp: shown, never decoded).

#include <algorithm>
#include <array>
#include <bit>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <boost/hana/accessors.hpp>
#include <boost/hana/for_each.hpp>
#include <boost/hana/unpack.hpp>

#include "praxis/io/reflect_kinds.hpp"
#include "praxis/observe/reflection.hpp"

namespace praxis::observe {

static_assert(std::endian::native == std::endian::little,
              "praxis::observe writes CDR little endian by copying memory: a big-endian host needs byte swaps");

inline constexpr std::array<std::byte, 4> k_cdr_header{std::byte{0x00}, std::byte{0x01}, std::byte{0x00},
                                                       std::byte{0x00}};

namespace detail {

using io::detail::Boolean;
using io::detail::Duration;
using io::detail::Enum;
using io::detail::HanaStruct;
using io::detail::member_name;
using io::detail::member_t;
using io::detail::Optional;
using io::detail::String;
using io::detail::TimePoint;

template <class T>
concept EigenQuaternion = requires(const T& q) {
  typename T::Coefficients;
  typename T::Scalar;
  q.coeffs();
} && std::is_floating_point_v<typename T::Scalar>;

template <class T>
concept Integer = std::is_integral_v<T> && !Boolean<T>;

template <class T>
concept Floating = std::is_floating_point_v<T> && (sizeof(T) == 4 || sizeof(T) == 8);

// std::array and fixed-size Eigen vectors: io::detail's Sequence, read as T[N].
template <class T>
concept FixedArray = io::detail::Sequence<T>;
template <class T>
using array_traits = io::detail::sequence_traits<T>;

// The primitive a leaf is carried as (an enum as its underlying type, a duration as its tick count).
template <class T>
struct carrier {
  using type = T;
};
template <Enum T>
struct carrier<T> {
  using type = std::underlying_type_t<T>;
};
template <Duration T>
struct carrier<T> {
  using type = typename T::rep;
};
template <TimePoint T>
struct carrier<T> {
  using type = typename T::duration::rep;
};
template <class T>
using carrier_t = typename carrier<T>::type;

template <class T>
concept Leaf = Boolean<T> || Integer<T> || Floating<T> || Enum<T> || Duration<T> || TimePoint<T>;

template <class T>
constexpr bool cdr_field();

template <class T>
constexpr bool struct_fields() {
  return boost::hana::unpack(boost::hana::accessors<T>(), [](auto... pair) {
    return (true && ... && cdr_field<member_t<T, decltype(pair)>>());
  });
}

template <class T>
constexpr bool cdr_field() {
  if constexpr (Projected<T>) {
    return cdr_field<typename Projection<T>::type>();
  } else if constexpr (Leaf<T> || String<T> || EigenQuaternion<T>) {
    return true;
  } else if constexpr (Optional<T>) {
    return cdr_field<typename T::value_type>();
  } else if constexpr (FixedArray<T>) {
    using E = typename array_traits<T>::element;
    // ros2msg has no arrays of arrays.
    return !FixedArray<E> && !Optional<E> && cdr_field<E>();
  } else if constexpr (HanaStruct<T>) {
    return struct_fields<T>();
  } else {
    return false;
  }
}

template <class T>
constexpr bool unbounded() {
  if constexpr (Projected<T>) {
    return unbounded<typename Projection<T>::type>();
  } else if constexpr (String<T>) {
    return true;
  } else if constexpr (Optional<T>) {
    return unbounded<typename T::value_type>();
  } else if constexpr (FixedArray<T>) {
    return unbounded<typename array_traits<T>::element>();
  } else if constexpr (HanaStruct<T>) {
    return boost::hana::unpack(boost::hana::accessors<T>(), [](auto... pair) {
      return (false || ... || unbounded<member_t<T, decltype(pair)>>());
    });
  } else {
    return false;
  }
}

}  // namespace detail

// Whether T has a CDR form (every member of a kind listed at the top, down to the leaves).
template <class T>
concept CdrEncodable = detail::cdr_field<T>();

// Whether T can be rebuilt from its CDR form (no projection anywhere in it): what replay needs.
template <class T>
constexpr bool cdr_decodable();

namespace detail {

template <class T>
constexpr bool decodable_struct() {
  return boost::hana::unpack(boost::hana::accessors<T>(), [](auto... pair) {
    return (true && ... && cdr_decodable<member_t<T, decltype(pair)>>());
  });
}

// A writer that only counts: the same walk as encoding, at compile time, gives the bound.
struct Counter {
  std::size_t at = 0;
  constexpr void align(std::size_t n) { at = (at + n - 1) / n * n; }
  template <class P>
  constexpr void put(const P&) {
    align(sizeof(P));
    at += sizeof(P);
  }
  constexpr void put_string(std::string_view s) {
    align(4);
    at += 4 + s.size() + 1;
  }
  constexpr void put_size(std::size_t n) {
    align(n);
    at += n;
  }
  [[nodiscard]] constexpr bool ok() const { return true; }
};

// The same walk as write_value by type alone (Eigen's types are not constexpr-constructible).
template <class T>
constexpr void count_type(Counter& c) {
  if constexpr (Projected<T>) {
    count_type<typename Projection<T>::type>(c);
  } else if constexpr (Boolean<T>) {
    c.put_size(1);
  } else if constexpr (Leaf<T>) {
    c.put_size(sizeof(carrier_t<T>));
  } else if constexpr (EigenQuaternion<T>) {
    for (int k = 0; k < 4; ++k) c.put_size(8);
  } else if constexpr (Optional<T>) {
    c.put_size(1);
    count_type<typename T::value_type>(c);
  } else if constexpr (FixedArray<T>) {
    for (std::size_t i = 0; i < array_traits<T>::size; ++i) count_type<typename array_traits<T>::element>(c);
  } else {
    boost::hana::for_each(boost::hana::accessors<T>(),
                          [&](const auto& pair) { count_type<member_t<T, decltype(pair)>>(c); });
  }
}

// Writes into a caller's buffer; the first write that would not fit marks it failed.
class Writer {
 public:
  explicit Writer(std::span<std::byte> out) : out_(out) {}
  void align(std::size_t n) {
    const std::size_t padded = (at_ + n - 1) / n * n;
    if (!reserve(padded - at_)) return;
    std::memset(out_.data() + 4 + at_, 0, padded - at_);
    at_ = padded;
  }
  template <class P>
  void put(const P& v) {
    align(sizeof(P));
    if (!reserve(sizeof(P))) return;
    std::memcpy(out_.data() + 4 + at_, &v, sizeof(P));
    at_ += sizeof(P);
  }
  void put_string(std::string_view s) {
    put(static_cast<std::uint32_t>(s.size() + 1));
    if (!reserve(s.size() + 1)) return;
    std::memcpy(out_.data() + 4 + at_, s.data(), s.size());
    out_[4 + at_ + s.size()] = std::byte{0};
    at_ += s.size() + 1;
  }
  [[nodiscard]] bool ok() const { return ok_; }
  [[nodiscard]] std::size_t size() const { return 4 + at_; }

 private:
  bool reserve(std::size_t n) {
    if (!ok_ || out_.size() < 4 + at_ + n) ok_ = false;
    return ok_;
  }
  std::span<std::byte> out_;
  std::size_t at_ = 0;
  bool ok_ = true;
};

class Reader {
 public:
  explicit Reader(std::span<const std::byte> in) : in_(in) {}
  void align(std::size_t n) {
    const std::size_t padded = (at_ + n - 1) / n * n;
    if (!have(padded - at_)) return;
    at_ = padded;
  }
  template <class P>
  void get(P& v) {
    align(sizeof(P));
    if (!have(sizeof(P))) return;
    std::memcpy(&v, in_.data() + 4 + at_, sizeof(P));
    at_ += sizeof(P);
  }
  void get_string(std::string& s) {
    std::uint32_t n = 0;
    get(n);
    if (!ok_ || n == 0 || !have(n) || in_[4 + at_ + n - 1] != std::byte{0}) {
      ok_ = false;
      return;
    }
    s.assign(reinterpret_cast<const char*>(in_.data() + 4 + at_), n - 1);
    at_ += n;
  }
  [[nodiscard]] bool ok() const { return ok_; }
  [[nodiscard]] std::size_t consumed() const { return 4 + at_; }

 private:
  bool have(std::size_t n) {
    if (!ok_ || in_.size() < 4 + at_ + n) ok_ = false;
    return ok_;
  }
  std::span<const std::byte> in_;
  std::size_t at_ = 0;
  bool ok_ = true;
};

template <class T, class Out>
constexpr void write_value(const T& value, Out& out) {
  if constexpr (Projected<T>) {
    write_value(Projection<T>::project(value), out);
  } else if constexpr (Boolean<T>) {
    out.put(static_cast<std::uint8_t>(value ? 1 : 0));
  } else if constexpr (Enum<T>) {
    out.put(static_cast<std::underlying_type_t<T>>(value));
  } else if constexpr (Duration<T>) {
    out.put(value.count());
  } else if constexpr (TimePoint<T>) {
    out.put(value.time_since_epoch().count());
  } else if constexpr (Integer<T> || Floating<T>) {
    out.put(value);
  } else if constexpr (String<T>) {
    out.put_string(value);
  } else if constexpr (EigenQuaternion<T>) {
    for (int k = 0; k < 4; ++k) out.put(static_cast<double>(value.coeffs()[k]));  // x y z w
  } else if constexpr (Optional<T>) {
    out.put(static_cast<std::uint8_t>(value.has_value() ? 1 : 0));
    write_value(value ? *value : typename T::value_type{}, out);
  } else if constexpr (FixedArray<T>) {
    for (std::size_t i = 0; i < array_traits<T>::size; ++i) {
      write_value(value[static_cast<decltype(value.size())>(i)], out);
    }
  } else {
    static_assert(HanaStruct<T>, "praxis::observe: not a CDR field kind (see observe/cdr.hpp)");
    boost::hana::for_each(boost::hana::accessors<T>(), [&](const auto& pair) {
      write_value(boost::hana::second(pair)(value), out);
    });
  }
}

template <class T>
void read_value(T& value, Reader& in) {
  if constexpr (Boolean<T>) {
    std::uint8_t b = 0;
    in.get(b);
    value = b != 0;
  } else if constexpr (Enum<T>) {
    std::underlying_type_t<T> raw{};
    in.get(raw);
    value = static_cast<T>(raw);
  } else if constexpr (Duration<T>) {
    typename T::rep ticks{};
    in.get(ticks);
    value = T(ticks);
  } else if constexpr (TimePoint<T>) {
    typename T::duration::rep ticks{};
    in.get(ticks);
    value = T(typename T::duration(ticks));
  } else if constexpr (Integer<T> || Floating<T>) {
    in.get(value);
  } else if constexpr (String<T>) {
    in.get_string(value);
  } else if constexpr (EigenQuaternion<T>) {
    for (int k = 0; k < 4; ++k) {
      double c = 0.0;
      in.get(c);
      value.coeffs()[k] = static_cast<typename T::Scalar>(c);
    }
  } else if constexpr (Optional<T>) {
    std::uint8_t has = 0;
    in.get(has);
    typename T::value_type inner{};
    read_value(inner, in);
    if (has != 0) {
      value = inner;
    } else {
      value.reset();
    }
  } else if constexpr (FixedArray<T>) {
    for (std::size_t i = 0; i < array_traits<T>::size; ++i) {
      read_value(value[static_cast<std::remove_cvref_t<decltype(value.size())>>(i)], in);
    }
  } else {
    boost::hana::for_each(boost::hana::accessors<T>(), [&](const auto& pair) {
      read_value(boost::hana::second(pair)(value), in);
    });
  }
}

// ---- the message definition ----

// The type from a __PRETTY_FUNCTION__ ("... [with T = praxis::RobotState<29>; ...]" from g++,
// "... [T = praxis::RobotState<29UL>]" from clang) as a message name: namespaces dropped wherever
// they appear, integer suffixes dropped, letters and digits only, the first letter upper case, so
// g++ and clang name a type alike.
inline std::string sanitized_type_name(std::string_view pretty) {
  const auto from = pretty.find("T = ");
  if (from == std::string_view::npos) return "Type";
  std::string_view type = pretty.substr(from + 4);
  type = type.substr(0, std::min(type.find(';'), type.rfind(']')));
  const auto is_alnum = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  };
  std::string name;
  std::size_t k = 0;
  while (k < type.size()) {
    if (!is_alnum(type[k])) {
      ++k;
      continue;
    }
    std::size_t end = k;
    while (end < type.size() && is_alnum(type[end])) ++end;
    std::string_view token = type.substr(k, end - k);
    const bool qualifier = type.substr(end, 2) == "::";
    if (!qualifier) {
      if (token[0] >= '0' && token[0] <= '9') {
        while (!token.empty() && (token.back() == 'u' || token.back() == 'U' || token.back() == 'l' || token.back() == 'L')) {
          token.remove_suffix(1);
        }
      }
      for (char c : token) {
        if (c != '_') name += c;
      }
    }
    k = end;
  }
  if (name.empty()) return "Type";
  if (name[0] >= 'a' && name[0] <= 'z') name[0] = static_cast<char>(name[0] - 'a' + 'A');
  if (name[0] >= '0' && name[0] <= '9') name.insert(name.begin(), 'T');
  return name;
}

template <class T>
std::string raw_type_name() {
#if defined(__clang__) || defined(__GNUC__)
  return sanitized_type_name(__PRETTY_FUNCTION__);
#else
  return "Type";
#endif
}

template <class T>
std::string primitive_name() {
  using P = carrier_t<T>;
  if constexpr (Boolean<T>) {
    return "bool";
  } else if constexpr (std::is_floating_point_v<P>) {
    return sizeof(P) == 4 ? "float32" : "float64";
  } else {
    static_assert(std::is_integral_v<P>);
    const std::string bits = std::to_string(sizeof(P) * 8);
    return (std::is_signed_v<P> ? "int" : "uint") + bits;
  }
}

struct Definitions {
  std::vector<std::string> names;  // nested types in the order they were met
  std::vector<std::string> texts;
  [[nodiscard]] bool has(const std::string& name) const {
    for (const auto& n : names) {
      if (n == name) return true;
    }
    return false;
  }
};

template <class T>
std::string struct_definition(Definitions& defs);

// The type of one field as ros2msg writes it, adding nested definitions as they are met.
template <class T>
std::string field_type(Definitions& defs) {
  if constexpr (Projected<T>) {
    return field_type<typename Projection<T>::type>(defs);
  } else if constexpr (Leaf<T>) {
    return primitive_name<T>();
  } else if constexpr (String<T>) {
    return "string";
  } else if constexpr (EigenQuaternion<T>) {
    const std::string name = "Quaternion";
    if (!defs.has(name)) {
      defs.names.push_back(name);
      defs.texts.push_back("float64 x\nfloat64 y\nfloat64 z\nfloat64 w\n");
    }
    return "praxis_msgs/" + name;
  } else if constexpr (FixedArray<T>) {
    return field_type<typename array_traits<T>::element>(defs) + "[" + std::to_string(array_traits<T>::size) + "]";
  } else {
    static_assert(HanaStruct<T>);
    const std::string name = raw_type_name<T>();
    if (!defs.has(name)) {
      // Reserved before the members, so a type met again inside itself is not defined twice.
      defs.names.push_back(name);
      defs.texts.emplace_back();
      const std::size_t slot = defs.texts.size() - 1;
      std::string text = struct_definition<T>(defs);
      defs.texts[slot] = std::move(text);
    }
    return "praxis_msgs/" + name;
  }
}

template <class T>
std::string struct_definition(Definitions& defs) {
  std::string text;
  boost::hana::for_each(boost::hana::accessors<T>(), [&](const auto& pair) {
    using M = member_t<T, decltype(pair)>;
    const std::string_view name = member_name(pair);
    if constexpr (Optional<M>) {
      text += "bool has_" + std::string(name) + "\n";
      text += field_type<typename M::value_type>(defs) + " " + std::string(name) + "\n";
    } else {
      text += field_type<M>(defs) + " " + std::string(name) + "\n";
    }
  });
  return text;
}

}  // namespace detail

template <class T>
constexpr bool cdr_decodable() {
  using namespace detail;
  if constexpr (Projected<T>) {
    return false;
  } else if constexpr (Optional<T>) {
    return cdr_decodable<typename T::value_type>();
  } else if constexpr (FixedArray<T>) {
    return cdr_decodable<typename array_traits<T>::element>();
  } else if constexpr (HanaStruct<T>) {
    return decodable_struct<T>();
  } else {
    return CdrEncodable<T>;
  }
}

// The message type's name as a schema shows it: the C++ name without namespaces, template
// arguments run in ("RobotState<29>" is "RobotState29"), letters and digits only.
template <class T>
std::string cdr_type_name() {
  if constexpr (Projected<T>) {
    return cdr_type_name<typename Projection<T>::type>();
  } else {
    return detail::raw_type_name<T>();
  }
}

// The ros2msg definition of T: its fields, then every nested message it uses, each after a line of
// 80 '=' and "MSG: praxis_msgs/<name>". A T that is not a struct (a port of type double or
// std::array) is a message with one field, `value`.
template <CdrEncodable T>
std::string cdr_schema() {
  detail::Definitions defs;
  std::string main;
  if constexpr (Projected<T>) {
    return cdr_schema<typename Projection<T>::type>();
  } else if constexpr (detail::HanaStruct<T>) {
    main = detail::struct_definition<T>(defs);
  } else if constexpr (io::detail::Optional<T>) {
    main = "bool has_value\n" + detail::field_type<typename T::value_type>(defs) + " value\n";
  } else {
    main = detail::field_type<T>(defs) + " value\n";
  }
  std::string text = main;
  for (std::size_t k = 0; k < defs.names.size(); ++k) {
    text += std::string(80, '=') + "\nMSG: praxis_msgs/" + defs.names[k] + "\n" + defs.texts[k];
  }
  return text;
}

// The largest encoding of T, header included (T without strings: a compile-time constant, so a
// recorder's buffers are sized before the run).
template <CdrEncodable T>
constexpr std::size_t cdr_max_size() {
  static_assert(!detail::unbounded<T>(), "praxis::observe: a type with a std::string has no fixed CDR size");
  detail::Counter counter;
  detail::count_type<T>(counter);
  return 4 + counter.at;
}

namespace detail {

// The same walk as count_type, naming each leaf: the leaf whose bytes hold `target` (an offset after
// the header) is the answer.
template <class T>
void find_leaf(Counter& c, std::string& path, std::size_t target, std::string& found) {
  if (!found.empty()) return;
  const auto leaf = [&](std::size_t size) {
    c.align(size);
    if (target < c.at + size && found.empty()) found = path.empty() ? "value" : path;
    c.at += size;
  };
  if constexpr (Projected<T>) {
    find_leaf<typename Projection<T>::type>(c, path, target, found);
  } else if constexpr (Boolean<T>) {
    leaf(1);
  } else if constexpr (Leaf<T>) {
    leaf(sizeof(carrier_t<T>));
  } else if constexpr (EigenQuaternion<T>) {
    const std::size_t size = path.size();
    for (const char* axis : {".x", ".y", ".z", ".w"}) {
      path += axis;
      leaf(8);
      path.resize(size);
    }
  } else if constexpr (Optional<T>) {
    const std::size_t size = path.size();
    path += ".has_value";
    leaf(1);
    path.resize(size);
    find_leaf<typename T::value_type>(c, path, target, found);
  } else if constexpr (FixedArray<T>) {
    const std::size_t size = path.size();
    for (std::size_t i = 0; i < array_traits<T>::size && found.empty(); ++i) {
      path += '[';
      path += std::to_string(i);
      path += ']';
      find_leaf<typename array_traits<T>::element>(c, path, target, found);
      path.resize(size);
    }
  } else if constexpr (String<T>) {
    found = path;  // a string's length is its own: nothing after it can be placed by type alone
  } else {
    boost::hana::for_each(boost::hana::accessors<T>(), [&](const auto& pair) {
      const std::size_t size = path.size();
      if (!path.empty()) path += '.';
      path += member_name(pair);
      find_leaf<member_t<T, decltype(pair)>>(c, path, target, found);
      path.resize(size);
    });
  }
}

}  // namespace detail

// The field whose bytes hold `offset` of an encoding of T (header included), e.g. "q[3]" or
// "imu.orientation.w": where two encodings first differ, for a person. Off the cycle.
template <CdrEncodable T>
std::string cdr_field_at(std::size_t offset) {
  if (offset < 4) return "(CDR header)";
  detail::Counter counter;
  std::string path;
  std::string found;
  detail::find_leaf<T>(counter, path, offset - 4, found);
  return found.empty() ? "(past the end)" : found;
}

// Encodes `value` into `out` (header first). Returns the bytes written, or 0 when `out` is too small
// (nothing half-written is reported as a message). Allocates nothing.
template <CdrEncodable T>
std::size_t encode_cdr(const T& value, std::span<std::byte> out) {
  if (out.size() < 4) return 0;
  std::memcpy(out.data(), k_cdr_header.data(), 4);
  detail::Writer writer(out);
  detail::write_value(value, writer);
  return writer.ok() ? writer.size() : 0;
}

// Encodes into a growing byte vector (off the cycle: events, schemas' tests).
template <CdrEncodable T>
std::vector<std::byte> encode_cdr(const T& value) {
  detail::Counter counter;
  detail::write_value(value, counter);
  std::vector<std::byte> out(4 + counter.at);
  encode_cdr(value, std::span<std::byte>(out));
  return out;
}

// Rebuilds `value` from its encoding, every member, bit for bit. False (and `value` unspecified)
// when the bytes are too short, the header is not CDR little endian, or bytes are left over.
template <class T>
  requires(CdrEncodable<T> && cdr_decodable<T>())
bool decode_cdr(std::span<const std::byte> in, T& value) {
  if (in.size() < 4 || in[0] != k_cdr_header[0] || in[1] != k_cdr_header[1]) return false;
  detail::Reader reader(in);
  detail::read_value(value, reader);
  return reader.ok() && reader.consumed() == in.size();
}

}  // namespace praxis::observe

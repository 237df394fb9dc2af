// McapWriter and McapReader: round trips for each compression, chunks split by size and by log time,
// the summary and the indexes against the messages, damaged files refused with the offset named,
// files cut at any byte read up to their last complete chunk, and a writer that does not allocate
// once its chunk buffers have grown. The SIGKILL test and the check by Foxglove's own reader
// (@mcap/core) run from tests/observe/mcap.cmake.

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <boost/crc.hpp>

#include "../../support/sanitized.hpp"
#include "praxis/observe/mcap.hpp"

#include "../../support/alloc_counter.hpp"
#include "../../support/scratch_dir.hpp"

namespace {
namespace mcap_test {

using praxis::observe::Compression;
using praxis::observe::McapError;
using praxis::observe::McapMessage;
using praxis::observe::McapOptions;
using praxis::observe::McapReader;
using praxis::observe::McapWriter;

using Bytes = std::vector<std::byte>;

// A Message record is opcode (1) + length (8) + channel (2) + sequence (4) + two times (16) + data.
constexpr std::size_t message_record_overhead = 1 + 8 + 2 + 4 + 8 + 8;

Bytes payload(std::uint16_t channel, std::uint64_t i, std::size_t size) {
  Bytes b(size);
  // Repetitive enough to compress, different per message so a swap would show.
  for (std::size_t k = 0; k < size; ++k) b[k] = static_cast<std::byte>((k % 7 == 0) ? (i + channel) & 0xFF : k % 13);
  return b;
}

Bytes read_all(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::vector<char> text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  Bytes out(text.size());
  std::transform(text.begin(), text.end(), out.begin(), [](char c) { return static_cast<std::byte>(c); });
  return out;
}

McapOptions options(Compression compression, std::size_t chunk_bytes = 1 << 20,
                    std::uint64_t chunk_duration_ns = 1'000'000'000) {
  McapOptions o;
  o.compression = compression;
  o.chunk_bytes = chunk_bytes;
  o.chunk_duration_ns = chunk_duration_ns;
  return o;
}

std::uint64_t u64_at(const Bytes& b, std::size_t at) {
  std::uint64_t v = 0;
  for (std::size_t i = 0; i < 8; ++i) v |= std::uint64_t(std::to_integer<std::uint8_t>(b[at + i])) << (8 * i);
  return v;
}

std::string error_of(const Bytes& bytes) {
  try {
    McapReader reader(bytes, "damaged.mcap");
  } catch (const McapError& e) {
    return e.what();
  }
  return "(no error)";
}

Compression any_compression() {
  return GENERATE(Compression::none, Compression::zstd, Compression::lz4);
}

// What a test wrote, to compare the file against.
struct Written {
  std::vector<McapMessage> messages;
};

void write_message(McapWriter& w, Written& written, std::uint16_t channel, std::uint32_t sequence,
                   std::uint64_t log_time, std::uint64_t publish_time, std::size_t size) {
  McapMessage m{channel, sequence, log_time, publish_time, payload(channel, sequence, size)};
  w.write(m.channel, m.sequence, m.log_time, m.publish_time, m.data);
  written.messages.push_back(std::move(m));
}

// The index of the first message that differs (a.size() if none), so a file of thousands of
// messages costs one assertion, not five per message.
std::size_t first_difference(const std::vector<McapMessage>& a, const std::vector<McapMessage>& b) {
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i].channel != b[i].channel || a[i].sequence != b[i].sequence || a[i].log_time != b[i].log_time ||
        a[i].publish_time != b[i].publish_time || a[i].data != b[i].data) {
      return i;
    }
  }
  return a.size();
}

void require_same_messages(const std::vector<McapMessage>& a, const std::vector<McapMessage>& b) {
  REQUIRE(a.size() == b.size());
  REQUIRE(first_difference(a, b) == a.size());
}

// Three channels on two schemas (one without), metadata, an attachment and messages over several
// chunks; returns what was written.
Written write_sample(const std::filesystem::path& file, McapOptions options, int messages) {
  Written written;
  McapWriter w(file, std::move(options));
  const auto state = w.add_schema("praxis_msgs/msg/RobotState", "ros2msg", "float64[3] q\nuint64 tick\n");
  const auto command = w.add_schema("praxis_msgs/msg/JointCommand", "ros2msg", "float64[3] q\n");
  REQUIRE(state == 1);
  REQUIRE(command == 2);
  REQUIRE(w.add_channel(state, "/praxis/robot_state", "cdr", {{"port", "robot_state"}, {"rate_hz", "1000"}}) == 1);
  REQUIRE(w.add_channel(command, "/joint_command", "cdr") == 2);
  REQUIRE(w.add_channel(0, "/raw", "application/octet-stream") == 3);
  w.add_metadata("run", {{"robot", "g1"}, {"git", "abc123"}});
  const std::string config = "{\"kp\": [40, 40]}";
  w.add_attachment("params.json", "application/json", std::as_bytes(std::span(config)), 5, 7);
  for (int i = 0; i < messages; ++i) {
    const auto t = 1'000'000 + static_cast<std::uint64_t>(i) * 1000;
    const auto seq = static_cast<std::uint32_t>(i);
    write_message(w, written, 1, seq, t, t - 10, 40 + static_cast<std::size_t>(i % 5) * 30);
    if (i % 2 == 0) write_message(w, written, 2, seq / 2, t + 1, t + 1, 24);
    // Out of order in log time and sometimes empty: both are allowed.
    if (i % 3 == 0) write_message(w, written, 3, seq / 3, t - 500, t, static_cast<std::size_t>(i % 4));
  }
  w.add_metadata("end", {{"outcome", "stopped"}});
  w.close();
  return written;
}

TEST_CASE("MCAP CRC-32 is zlib's: the check value and Boost.CRC at every length and alignment",
          "[observe][mcap]") {
  using praxis::observe::detail::crc32;
  const std::string check = "123456789";
  CHECK(crc32(0, std::as_bytes(std::span(check))) == 0xCBF43926U);  // CRC-32/ISO-HDLC's published check
  CHECK(crc32(0, {}) == 0);

  std::mt19937 rng(7);
  Bytes data(5000);
  for (auto& b : data) b = static_cast<std::byte>(rng());
  auto boost_crc = [](std::span<const std::byte> s) {
    boost::crc_32_type crc;
    crc.process_bytes(s.data(), s.size());
    return crc.checksum();
  };
  for (std::size_t offset = 0; offset < 8; ++offset) {
    for (std::size_t length : {0, 1, 7, 8, 9, 15, 16, 17, 63, 64, 65, 1000, 4093}) {
      const std::span<const std::byte> s(data.data() + offset, length);
      INFO("offset " << offset << " length " << length);
      CHECK(crc32(0, s) == boost_crc(s));
    }
  }
  // Carried across buffers, split anywhere, it equals the CRC of the whole.
  const std::span<const std::byte> all(data);
  for (std::size_t split : {0, 1, 5, 8, 13, 2500, 4999, 5000}) {
    CHECK(crc32(crc32(0, all.first(split)), all.subspan(split)) == boost_crc(all));
  }
}

TEST_CASE("McapWriter and McapReader round trip schemas channels metadata and messages for each compression",
          "[observe][mcap]") {
  const auto compression = any_compression();
  CAPTURE(compression_name(compression));
  praxis::test::ScratchDir dir("mcap");
  const auto file = dir / "run.mcap";
  const auto written = write_sample(file, [&] {
    auto o = options(compression, 4096);
    o.profile = "x-praxis";
    o.library = "praxis-test";
    return o;
  }(), 200);

  const McapReader r(file);
  REQUIRE(r.complete());
  REQUIRE(r.truncated_at() == std::filesystem::file_size(file));
  CHECK(r.profile() == "x-praxis");
  CHECK(r.library() == "praxis-test");

  REQUIRE(r.schemas().size() == 2);
  CHECK(r.schemas().at(1).name == "praxis_msgs/msg/RobotState");
  CHECK(r.schemas().at(1).encoding == "ros2msg");
  CHECK(r.schemas().at(1).data == "float64[3] q\nuint64 tick\n");
  CHECK(r.schemas().at(2).name == "praxis_msgs/msg/JointCommand");

  REQUIRE(r.channels().size() == 3);
  const auto& robot_state = r.channels().at(1);
  CHECK(robot_state.schema_id == 1);
  CHECK(robot_state.topic == "/praxis/robot_state");
  CHECK(robot_state.message_encoding == "cdr");
  CHECK(robot_state.metadata == std::map<std::string, std::string>{{"port", "robot_state"}, {"rate_hz", "1000"}});
  CHECK(r.channels().at(2).metadata.empty());
  CHECK(r.channels().at(3).schema_id == 0);

  REQUIRE(r.metadata().size() == 2);
  CHECK(r.metadata()[0].name == "run");
  CHECK(r.metadata()[0].values == std::map<std::string, std::string>{{"robot", "g1"}, {"git", "abc123"}});
  CHECK(r.metadata()[1].name == "end");
  REQUIRE(r.metadata_indexes().size() == 2);
  CHECK(std::get<2>(r.metadata_indexes()[1]) == "end");

  REQUIRE(r.attachments().size() == 1);
  CHECK(r.attachments()[0].name == "params.json");
  CHECK(r.attachments()[0].media_type == "application/json");
  CHECK(r.attachments()[0].log_time == 5);
  CHECK(r.attachments()[0].create_time == 7);
  CHECK(std::string(reinterpret_cast<const char*>(r.attachments()[0].data.data()), r.attachments()[0].data.size()) ==
        "{\"kp\": [40, 40]}");

  require_same_messages(r.messages(), written.messages);

  REQUIRE(r.chunks().size() > 1);
  for (const auto& chunk : r.chunks()) {
    CHECK(chunk.compression == std::string(compression_name(compression)));
    if (compression == Compression::none) {
      CHECK(chunk.compressed_size == chunk.uncompressed_size);
    } else {
      CHECK(chunk.compressed_size < chunk.uncompressed_size);  // the payloads repeat themselves
    }
  }
}

TEST_CASE("McapWriter closes a chunk once its records reach chunk_bytes", "[observe][mcap]") {
  const auto compression = any_compression();
  praxis::test::ScratchDir dir("mcap");
  const auto file = dir / "size.mcap";
  // 100-byte payloads make 131-byte records: 31 of them are 4061 bytes, the 32nd reaches 4096.
  constexpr std::size_t record = message_record_overhead + 100;
  constexpr std::size_t per_chunk = (4096 + record - 1) / record;
  static_assert(per_chunk == 32);
  Written written;
  {
    McapWriter w(file, options(compression, 4096, ~std::uint64_t{0}));
    const auto ch = w.add_channel(0, "/a", "cdr");
    for (std::uint32_t i = 0; i < 100; ++i) write_message(w, written, ch, i, i, i, 100);
    CHECK(w.chunks() == 3);  // 96 messages in three full chunks; four still open
    CHECK(w.flushed_messages() == 96);
    CHECK(w.messages() == 100);
    CHECK(w.open_chunk_span() == std::pair<std::uint64_t, std::uint64_t>{96, 99});
  }
  const McapReader r(file);
  REQUIRE(r.chunks().size() == 4);
  for (std::size_t c = 0; c < 3; ++c) {
    CHECK(r.chunks()[c].message_offsets.size() == per_chunk);
    CHECK(r.chunks()[c].uncompressed_size == per_chunk * record);
    CHECK(r.chunks()[c].first_message == c * per_chunk);
  }
  CHECK(r.chunks()[3].message_offsets.size() == 4);
  require_same_messages(r.messages(), written.messages);
}

TEST_CASE("McapWriter closes a chunk once it spans chunk_duration_ns of log time", "[observe][mcap]") {
  praxis::test::ScratchDir dir("mcap");
  const auto file = dir / "time.mcap";
  Written written;
  {
    // A message every 100 ns, chunks of 1000 ns: the 11th message (t = 1000 after t = 0) closes it.
    McapWriter w(file, options(Compression::zstd, 1 << 20, 1000));
    const auto ch = w.add_channel(0, "/a", "cdr");
    for (std::uint32_t i = 0; i < 50; ++i) write_message(w, written, ch, i, 100ULL * i, 100ULL * i, 8);
    CHECK(w.chunks() == 4);
  }
  const McapReader r(file);
  REQUIRE(r.chunks().size() == 5);
  for (std::size_t c = 0; c < 4; ++c) {
    CHECK(r.chunks()[c].message_offsets.size() == 11);
    CHECK(r.chunks()[c].message_start_time == 1100 * c);
    CHECK(r.chunks()[c].message_end_time == 1100 * c + 1000);
  }
  CHECK(r.chunks()[4].message_offsets.size() == 6);
  CHECK(r.chunks()[4].message_start_time == 4400);
  CHECK(r.chunks()[4].message_end_time == 4900);
}

TEST_CASE("The MCAP summary statistics and chunk indexes agree with the messages", "[observe][mcap]") {
  const auto compression = any_compression();
  praxis::test::ScratchDir dir("mcap");
  const auto file = dir / "summary.mcap";
  const auto written = write_sample(file, options(compression, 2048), 300);
  const McapReader r(file);

  std::map<std::uint16_t, std::uint64_t> counts;
  for (const auto& m : written.messages) ++counts[m.channel];
  const auto [first, last] = std::minmax_element(written.messages.begin(), written.messages.end(),
                                                 [](const auto& a, const auto& b) { return a.log_time < b.log_time; });

  REQUIRE(r.statistics().has_value());
  const auto& s = *r.statistics();
  CHECK(s.message_count == written.messages.size());
  CHECK(s.channel_message_counts == counts);
  CHECK(s.message_start_time == first->log_time);
  CHECK(s.message_end_time == last->log_time);
  CHECK(s.schema_count == 2);
  CHECK(s.channel_count == 3);
  CHECK(s.metadata_count == 2);
  CHECK(s.attachment_count == 1);
  CHECK(s.chunk_count == r.chunks().size());

  REQUIRE(r.chunk_indexes().size() == r.chunks().size());
  for (std::size_t c = 0; c < r.chunks().size(); ++c) {
    const auto& chunk = r.chunks()[c];
    const auto& index = r.chunk_indexes()[c];
    INFO("chunk " << c);
    CHECK(index.chunk_start_offset == chunk.offset);
    CHECK(index.chunk_length == chunk.length);
    CHECK(index.compression == chunk.compression);
    CHECK(index.uncompressed_size == chunk.uncompressed_size);
    CHECK(index.compressed_size == chunk.compressed_size);
    // Times from the messages themselves, not from the chunk record.
    std::uint64_t lo = ~std::uint64_t{0};
    std::uint64_t hi = 0;
    std::set<std::uint16_t> channels;
    for (std::size_t i = 0; i < chunk.message_offsets.size(); ++i) {
      const auto& m = r.messages()[chunk.first_message + i];
      lo = std::min(lo, m.log_time);
      hi = std::max(hi, m.log_time);
      channels.insert(m.channel);
    }
    CHECK(index.message_start_time == lo);
    CHECK(index.message_end_time == hi);
    std::set<std::uint16_t> indexed;
    for (const auto& [channel, offset] : index.message_index_offsets) indexed.insert(channel);
    CHECK(indexed == channels);
    // The message indexes sit between this chunk and the next record.
    const auto next = c + 1 < r.chunks().size() ? r.chunks()[c + 1].offset : ~std::uint64_t{0};
    for (const auto& [channel, offset] : index.message_index_offsets) {
      CHECK(offset >= chunk.offset + chunk.length);
      CHECK(offset < next);
    }
    CHECK(index.message_index_length > 0);
  }

  // The Summary Offset records name each group of the summary.
  for (const auto opcode : {0x03, 0x04, 0x08, 0x0A, 0x0B, 0x0D}) CHECK(r.summary_offsets().contains(opcode));
}

TEST_CASE("MCAP message indexes point at the Message records of their channel and log time", "[observe][mcap]") {
  praxis::test::ScratchDir dir("mcap");
  const auto file = dir / "index.mcap";
  write_sample(file, options(Compression::none, 1500), 120);
  const McapReader r(file);
  const auto bytes = read_all(file);
  REQUIRE(r.chunks().size() > 2);
  for (const auto& chunk : r.chunks()) {
    // Uncompressed records start after the chunk's opcode, length, three times/sizes, the CRC, the
    // empty compression string and the records' length: 1 + 8 + 24 + 4 + 4 + 8 = 49 bytes.
    const std::size_t records = chunk.offset + 49;
    std::size_t entries = 0;
    for (const auto& [channel, list] : chunk.message_index) {
      for (const auto& e : list) {
        const auto at = records + e.offset;
        // Read the record from the file itself: a Message, of this channel, at this log time.
        CHECK(std::to_integer<int>(bytes[at]) == 0x05);
        CHECK((std::to_integer<int>(bytes[at + 9]) | (std::to_integer<int>(bytes[at + 10]) << 8)) == channel);
        CHECK(u64_at(bytes, at + 9 + 2 + 4) == e.log_time);
        ++entries;
      }
    }
    CHECK(entries == chunk.message_offsets.size());
  }
}

TEST_CASE("McapWriter flush hands the open chunk to the file while the writer stays open", "[observe][mcap]") {
  praxis::test::ScratchDir dir("mcap");
  const auto file = dir / "flush.mcap";
  McapWriter w(file, options(Compression::lz4));
  const auto ch = w.add_channel(0, "/a", "cdr");
  Written written;
  for (std::uint32_t i = 0; i < 5; ++i) write_message(w, written, ch, i, i, i, 64);
  CHECK(w.chunks() == 0);
  const auto before = w.bytes();
  w.flush();
  CHECK(w.chunks() == 1);
  CHECK(w.flushed_messages() == 5);
  CHECK(w.bytes() > before);
  CHECK(w.bytes() == std::filesystem::file_size(file));
  CHECK_FALSE(w.open_chunk_span().has_value());
  w.flush();  // nothing open: no empty chunk
  CHECK(w.chunks() == 1);

  const McapReader open_file(file);
  CHECK_FALSE(open_file.complete());
  CHECK(open_file.truncated_at() == std::filesystem::file_size(file));
  require_same_messages(open_file.messages(), written.messages);

  write_message(w, written, ch, 5, 5, 5, 64);
  w.close();
  CHECK_FALSE(w.is_open());
  w.close();  // a second close does nothing
  const McapReader closed(file);
  CHECK(closed.complete());
  require_same_messages(closed.messages(), written.messages);
  CHECK_THROWS_AS(w.write(ch, 6, 6, 6, {}), std::logic_error);
}

TEST_CASE("McapWriter refuses unknown ids and names a file it cannot create", "[observe][mcap]") {
  praxis::test::ScratchDir dir("mcap");
  McapWriter w(dir / "ids.mcap");
  CHECK_THROWS_AS(w.add_channel(1, "/a", "cdr"), std::invalid_argument);  // no schema 1 yet
  const auto ch = w.add_channel(0, "/a", "cdr");
  CHECK_THROWS_AS(w.write(0, 0, 0, 0, {}), std::invalid_argument);
  CHECK_THROWS_AS(w.write(static_cast<std::uint16_t>(ch + 1), 0, 0, 0, {}), std::invalid_argument);
  const auto missing = dir / "no_such_folder" / "x.mcap";
  try {
    McapWriter bad(missing);
    FAIL("opened a file in a missing folder");
  } catch (const std::runtime_error& e) {
    CHECK_THAT(e.what(), Catch::Contains(missing.string()));
  }
}

TEST_CASE("McapReader refuses a damaged chunk with the chunk's offset", "[observe][mcap]") {
  const auto compression = any_compression();
  praxis::test::ScratchDir dir("mcap");
  const auto file = dir / "flip.mcap";
  write_sample(file, options(compression, 2048), 100);
  const McapReader good(file);
  const auto& chunk = good.chunks().at(1);
  auto bytes = read_all(file);
  // A byte in the middle of the chunk's records.
  bytes[chunk.offset + chunk.length - chunk.compressed_size / 2] ^= std::byte{0x10};
  const auto error = error_of(bytes);
  CHECK_THAT(error, Catch::Contains("damaged.mcap") && Catch::Contains("byte " + std::to_string(chunk.offset)) &&
                        Catch::Contains("Chunk record"));
  if (compression == Compression::none) CHECK_THAT(error, Catch::Contains("CRC"));
}

TEST_CASE("McapReader refuses a damaged data section summary or framing with the offset", "[observe][mcap]") {
  praxis::test::ScratchDir dir("mcap");
  const auto file = dir / "damage.mcap";
  write_sample(file, options(Compression::zstd, 2048), 60);
  const auto bytes = read_all(file);
  const McapReader good(file);

  SECTION("a byte of a Channel record outside the chunks fails the data section's CRC") {
    auto damaged = bytes;
    // The topic "/raw" of channel 3, written before any chunk.
    const std::string topic = "/raw";
    const auto it = std::search(damaged.begin(), damaged.end(), topic.begin(), topic.end(),
                                [](std::byte b, char c) { return b == static_cast<std::byte>(c); });
    REQUIRE(it != damaged.end());
    *(it + 1) = static_cast<std::byte>('R');
    CHECK_THAT(error_of(damaged), Catch::Contains("Data End record") && Catch::Contains("data_section_crc"));
  }
  SECTION("a byte of the summary fails the summary's CRC") {
    auto damaged = bytes;
    const auto offset = good.summary_offsets().at(0x0B).first;  // the Statistics record
    damaged[offset + 9] ^= std::byte{1};                         // its message_count
    CHECK_THAT(error_of(damaged), Catch::Contains("summary_crc") && Catch::Contains("Footer record"));
  }
  SECTION("a record length past the end of the file") {
    auto damaged = bytes;
    const auto offset = good.chunks().back().offset;
    for (std::size_t i = 0; i < 8; ++i) damaged[offset + 1 + i] = std::byte{0x7F};
    CHECK_THAT(error_of(damaged), Catch::Contains("byte " + std::to_string(offset) + ", Chunk record") &&
                                      Catch::Contains("runs past the end"));
  }
  SECTION("a leading magic with a byte missing") {
    Bytes damaged(bytes.begin() + 1, bytes.end());
    CHECK_THAT(error_of(damaged), Catch::Contains("byte 0") && Catch::Contains("magic"));
  }
  SECTION("a file that ends inside the leading magic") {
    Bytes damaged(bytes.begin(), bytes.begin() + 5);
    CHECK_THAT(error_of(damaged), Catch::Contains("byte 5") && Catch::Contains("leading magic"));
  }
  SECTION("a closing magic that is not the magic") {
    auto damaged = bytes;
    damaged.back() = std::byte{'X'};
    CHECK_THAT(error_of(damaged), Catch::Contains("byte " + std::to_string(bytes.size() - 8)) &&
                                      Catch::Contains("closing magic"));
  }
  SECTION("a message index that points at the wrong record") {
    auto damaged = bytes;
    const auto& chunk = good.chunks().front();
    const auto [channel, at] = *chunk.message_index_offsets.begin();
    // The first entry's offset: after opcode, length, channel id and the array's byte length.
    damaged[at + 1 + 8 + 2 + 4 + 8] ^= std::byte{1};
    // The data section's CRC would catch it too, at Data End: the index check comes first.
    CHECK_THAT(error_of(damaged), Catch::Contains("byte " + std::to_string(at) + ", Message Index record"));
  }
}

// Every cut keeps exactly the chunks that ended before it.
void check_cut(const Bytes& bytes, const McapReader& whole, std::size_t cut) {
  INFO("cut at " << cut << " of " << bytes.size());
  const std::span<const std::byte> prefix(bytes.data(), cut);
  if (cut < 8) {
    REQUIRE_THROWS_AS(McapReader(prefix, "cut.mcap"), McapError);
    return;
  }
  const McapReader r(prefix, "cut.mcap");
  REQUIRE_FALSE(r.complete());
  REQUIRE(r.truncated_at() <= cut);
  std::vector<McapMessage> expected;
  std::size_t chunks = 0;
  for (const auto& chunk : whole.chunks()) {
    if (chunk.offset + chunk.length > cut) break;
    ++chunks;
    expected.insert(expected.end(), whole.messages().begin() + static_cast<std::ptrdiff_t>(chunk.first_message),
                    whole.messages().begin() +
                        static_cast<std::ptrdiff_t>(chunk.first_message + chunk.message_offsets.size()));
    REQUIRE(r.truncated_at() >= chunk.offset + chunk.length);
  }
  REQUIRE(r.chunks().size() == chunks);
  require_same_messages(r.messages(), expected);
}

// Under the sanitizers every fifth byte and every chunk's edges (at about 40 s for every byte).
TEST_CASE("McapReader reads a file cut at every byte up to its last complete chunk", "[observe][mcap]") {
  const auto compression = any_compression();
  praxis::test::ScratchDir dir("mcap");
  const auto file = dir / "small.mcap";
  write_sample(file, options(compression, 600), 30);
  const auto bytes = read_all(file);
  const McapReader whole(file);
  REQUIRE(whole.chunks().size() >= 4);
  constexpr std::size_t stride = PRAXIS_TEST_SANITIZED ? 5 : 1;
  for (std::size_t cut = 0; cut < bytes.size(); cut += stride) check_cut(bytes, whole, cut);
  if constexpr (stride > 1) {
    for (const auto& chunk : whole.chunks()) {
      for (const auto cut : {chunk.offset, chunk.offset + chunk.length - 1, chunk.offset + chunk.length}) {
        check_cut(bytes, whole, cut);
      }
    }
  }
}

TEST_CASE("McapReader reads a larger file cut at sampled offsets up to its last complete chunk", "[observe][mcap]") {
  praxis::test::ScratchDir dir("mcap");
  const auto file = dir / "large.mcap";
  write_sample(file, options(Compression::zstd, 16 * 1024), 6000);
  const auto bytes = read_all(file);
  const McapReader whole(file);
  REQUIRE(whole.chunks().size() >= 20);
  std::mt19937_64 rng(25);
  std::uniform_int_distribution<std::size_t> pick(0, bytes.size() - 1);
  for (int i = 0; i < (PRAXIS_TEST_SANITIZED ? 20 : 60); ++i) check_cut(bytes, whole, pick(rng));
  // And at each chunk's edges, where an off-by-one would show.
  for (const auto& chunk : whole.chunks()) {
    for (const auto cut : {chunk.offset, chunk.offset + chunk.length - 1, chunk.offset + chunk.length}) {
      check_cut(bytes, whole, cut);
    }
  }
}

TEST_CASE("McapReader refuses a file with any one of its bytes damaged", "[observe][mcap]") {
  // Every byte of a small file flipped in turn: each is covered by a CRC (chunk records, data
  // section, summary, attachment), by the framing, or by the magic, so none passes as a good file
  // and none passes as a file merely cut short.
  const auto compression = any_compression();
  praxis::test::ScratchDir dir("mcap");
  const auto file = dir / "flips.mcap";
  write_sample(file, options(compression, 600), 20);
  const auto bytes = read_all(file);
  for (std::size_t at = 0; at < bytes.size(); ++at) {
    auto damaged = bytes;
    damaged[at] ^= static_cast<std::byte>(1U << (at % 8));
    INFO("byte " << at << " of " << bytes.size() << " flipped");
    REQUIRE_THROWS_AS(McapReader(damaged, "flipped.mcap"), McapError);
  }
}

TEST_CASE("McapWriter write allocates nothing once its chunk buffers have grown", "[observe][mcap]") {
  // Every port of a 29-joint robot at 1 kHz: 30 channels, 50 to 2000 bytes.
  praxis::test::ScratchDir dir("mcap");
  McapWriter w(dir / "alloc.mcap", options(Compression::zstd));
  std::vector<std::uint16_t> channels;
  for (int c = 0; c < 30; ++c) channels.push_back(w.add_channel(0, "/port" + std::to_string(c), "cdr"));
  std::vector<Bytes> payloads;
  for (std::size_t c = 0; c < 30; ++c) payloads.push_back(payload(1, c, 50 + (c * 67) % 1951));
  std::uint64_t t = 0;
  auto cycle = [&](std::uint32_t i) {
    t += 1'000'000;
    for (std::size_t c = 0; c < 30; ++c) w.write(channels[c], i, t, t, payloads[c]);
  };
  std::uint32_t i = 0;
  for (; i < 1500; ++i) cycle(i);  // chunks closed by size, the indexes grown
  const auto chunks_before = w.chunks();
  const praxis::test::AllocationScope scope;
  for (; i < 3000; ++i) cycle(i);
  CHECK(scope.allocations() == 0);
  CHECK(w.chunks() > chunks_before + 2);  // the window closed chunks, so their path was measured too
}

}  // namespace mcap_test
}  // namespace

// MCAP writer and reader. Record layouts follow the public MCAP specification (format version 0):
// every record is <opcode u8><content length u64><content>, integers little endian, a String is a
// u32 byte length and its bytes, a Map and an Array a u32 byte length and their entries.
// CRC-32 is the zlib / ISO-HDLC one, computed here eight bytes at a time (detail::crc32): Boost.CRC's
// byte-at-a-time crc_32_type took 89% of the writer's time recording 30 ports at 1 kHz (about
// 450 MB/s at -O2); the unit tests check this one against Boost.CRC.

#include "praxis/observe/mcap.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>
#include <sstream>

#include <fcntl.h>
#include <unistd.h>

#include <lz4frame.h>
#include <zstd.h>

namespace praxis::observe {

namespace {

namespace op {
constexpr std::uint8_t header = 0x01;
constexpr std::uint8_t footer = 0x02;
constexpr std::uint8_t schema = 0x03;
constexpr std::uint8_t channel = 0x04;
constexpr std::uint8_t message = 0x05;
constexpr std::uint8_t chunk = 0x06;
constexpr std::uint8_t message_index = 0x07;
constexpr std::uint8_t chunk_index = 0x08;
constexpr std::uint8_t attachment = 0x09;
constexpr std::uint8_t attachment_index = 0x0A;
constexpr std::uint8_t statistics = 0x0B;
constexpr std::uint8_t metadata = 0x0C;
constexpr std::uint8_t metadata_index = 0x0D;
constexpr std::uint8_t summary_offset = 0x0E;
constexpr std::uint8_t data_end = 0x0F;
}  // namespace op

constexpr std::array<std::uint8_t, 8> magic = {0x89, 'M', 'C', 'A', 'P', '0', '\r', '\n'};
constexpr std::size_t record_prefix = 1 + 8;                         // opcode, content length
constexpr std::size_t footer_record = record_prefix + 8 + 8 + 4;     // the Footer record, whole
constexpr std::size_t message_fixed = 2 + 4 + 8 + 8;                 // Message content before its data
// A zstd or lz4 frame never inflates past this; a larger uncompressed_size is a damaged field, and
// honouring it would only ask for an absurd allocation.
constexpr std::uint64_t max_chunk_bytes = std::uint64_t{1} << 32;
// zstd level 1: the recorder must keep up with every port at 1 kHz on a loaded core; higher levels
// buy a few percent of file size for several times the CPU.
constexpr int zstd_level = 1;

const char* record_name(std::uint8_t opcode) {
  switch (opcode) {
    case op::header: return "Header";
    case op::footer: return "Footer";
    case op::schema: return "Schema";
    case op::channel: return "Channel";
    case op::message: return "Message";
    case op::chunk: return "Chunk";
    case op::message_index: return "Message Index";
    case op::chunk_index: return "Chunk Index";
    case op::attachment: return "Attachment";
    case op::attachment_index: return "Attachment Index";
    case op::statistics: return "Statistics";
    case op::metadata: return "Metadata";
    case op::metadata_index: return "Metadata Index";
    case op::summary_offset: return "Summary Offset";
    case op::data_end: return "Data End";
    default: return "unknown";
  }
}

std::uint32_t crc32(const void* data, std::size_t size) {
  return detail::crc32(0, {static_cast<const std::byte*>(data), size});
}

// ---- writing ----

// Appends little-endian fields to a byte vector. Growing the vector is the only allocation.
class Out {
 public:
  explicit Out(std::vector<std::byte>& buffer) : b_(buffer) {}
  void u8(std::uint8_t v) { b_.push_back(static_cast<std::byte>(v)); }
  void u16(std::uint16_t v) { le(v, 2); }
  void u32(std::uint32_t v) { le(v, 4); }
  void u64(std::uint64_t v) { le(v, 8); }
  void bytes(const void* data, std::size_t size) {
    const auto old = b_.size();
    b_.resize(old + size);
    if (size != 0) std::memcpy(b_.data() + old, data, size);
  }
  void string(std::string_view s) {
    u32(static_cast<std::uint32_t>(s.size()));
    bytes(s.data(), s.size());
  }
  void string_map(const std::map<std::string, std::string>& map) {
    std::size_t length = 0;
    for (const auto& [k, v] : map) length += 8 + k.size() + v.size();
    u32(static_cast<std::uint32_t>(length));
    for (const auto& [k, v] : map) {
      string(k);
      string(v);
    }
  }
  // Opens a record; end_record() fills in its length.
  std::size_t begin_record(std::uint8_t opcode) {
    u8(opcode);
    const auto at = b_.size();
    u64(0);
    return at;
  }
  void end_record(std::size_t length_at) { patch_u64(length_at, b_.size() - length_at - 8); }
  void patch_u64(std::size_t at, std::uint64_t v) {
    for (int i = 0; i < 8; ++i) b_[at + static_cast<std::size_t>(i)] = static_cast<std::byte>(v >> (8 * i));
  }
  std::size_t size() const { return b_.size(); }

 private:
  void le(std::uint64_t v, int n) {
    std::array<std::byte, 8> tmp{};
    for (int i = 0; i < n; ++i) tmp[static_cast<std::size_t>(i)] = static_cast<std::byte>(v >> (8 * i));
    bytes(tmp.data(), static_cast<std::size_t>(n));
  }
  std::vector<std::byte>& b_;
};

std::string errno_text() { return std::strerror(errno); }

}  // namespace

namespace detail {

namespace {
// Table k maps a byte to its CRC contribution k bytes further on (slicing by 8).
constexpr auto crc_tables = [] {
  std::array<std::array<std::uint32_t, 256>, 8> t{};
  for (std::uint32_t n = 0; n < 256; ++n) {
    std::uint32_t c = n;
    for (int k = 0; k < 8; ++k) c = (c & 1U) != 0 ? 0xEDB88320U ^ (c >> 1) : c >> 1;  // reflected 0x04C11DB7
    t[0][n] = c;
  }
  for (std::size_t k = 1; k < 8; ++k) {
    for (std::size_t n = 0; n < 256; ++n) t[k][n] = (t[k - 1][n] >> 8) ^ t[0][t[k - 1][n] & 0xFFU];
  }
  return t;
}();
}  // namespace

std::uint32_t crc32(std::uint32_t crc, std::span<const std::byte> data) {
  const auto& t = crc_tables;
  std::uint32_t c = ~crc;
  const auto* p = reinterpret_cast<const std::uint8_t*>(data.data());
  std::size_t n = data.size();
  auto le32 = [](const std::uint8_t* q) {
    return std::uint32_t{q[0]} | std::uint32_t{q[1]} << 8 | std::uint32_t{q[2]} << 16 | std::uint32_t{q[3]} << 24;
  };
  for (; n >= 8; n -= 8, p += 8) {
    const std::uint32_t lo = c ^ le32(p);
    const std::uint32_t hi = le32(p + 4);
    c = t[7][lo & 0xFFU] ^ t[6][(lo >> 8) & 0xFFU] ^ t[5][(lo >> 16) & 0xFFU] ^ t[4][lo >> 24] ^ t[3][hi & 0xFFU] ^
        t[2][(hi >> 8) & 0xFFU] ^ t[1][(hi >> 16) & 0xFFU] ^ t[0][hi >> 24];
  }
  for (; n > 0; --n, ++p) c = t[0][(c ^ *p) & 0xFFU] ^ (c >> 8);
  return ~c;
}

}  // namespace detail

std::string_view compression_name(Compression compression) {
  switch (compression) {
    case Compression::zstd: return "zstd";
    case Compression::lz4: return "lz4";
    case Compression::none: break;
  }
  return "";
}

struct McapWriter::Impl {
  struct ChannelState {
    std::vector<McapMessageIndexEntry> index;  // this chunk's messages of the channel
    std::uint64_t messages = 0;
  };

  std::filesystem::path path;
  McapOptions options;
  int fd = -1;
  bool open = false;

  std::vector<std::byte> out;    // what the next write(2) hands to the OS
  std::vector<std::byte> chunk;  // the open chunk's uncompressed records
  std::uint64_t chunk_start = 0;
  std::uint64_t chunk_end = 0;
  std::uint64_t chunk_messages = 0;
  std::vector<std::uint16_t> chunk_channels;  // channels with messages in the open chunk

  std::vector<ChannelState> channel_states;  // by channel id - 1
  std::uint16_t schema_count = 0;

  // The summary, serialized as it grows (one group per opcode).
  std::vector<std::byte> summary_schemas;
  std::vector<std::byte> summary_channels;
  std::vector<std::byte> summary_chunk_indexes;
  std::vector<std::byte> summary_attachment_indexes;
  std::vector<std::byte> summary_metadata_indexes;

  std::uint32_t data_crc = 0;  // of every byte handed to the OS so far
  std::uint64_t written = 0;  // bytes handed to the OS
  std::uint64_t message_count = 0;
  std::uint64_t flushed_messages = 0;
  std::uint64_t chunk_count = 0;
  std::uint32_t attachment_count = 0;
  std::uint32_t metadata_count = 0;
  std::uint64_t start_time = std::numeric_limits<std::uint64_t>::max();
  std::uint64_t end_time = 0;

  ZSTD_CCtx* zstd = nullptr;
  LZ4F_cctx* lz4 = nullptr;

  ~Impl() {
    if (zstd != nullptr) ZSTD_freeCCtx(zstd);
    if (lz4 != nullptr) LZ4F_freeCompressionContext(lz4);
    if (fd >= 0) ::close(fd);
  }

  [[noreturn]] void fail(const std::string& what) const {
    throw std::runtime_error("MCAP file " + path.string() + ": " + what);
  }
  void require_open(const char* call) const {
    if (!open) throw std::logic_error("McapWriter::" + std::string(call) + " after close() (" + path.string() + ")");
  }

  // Hands `out` to the OS, in order, and counts it into the data section's CRC when `data` is set.
  void emit(bool data) {
    if (data) data_crc = detail::crc32(data_crc, out);
    std::size_t done = 0;
    while (done < out.size()) {
      const auto n = ::write(fd, out.data() + done, out.size() - done);
      if (n < 0) {
        if (errno == EINTR) continue;
        fail("write failed after " + std::to_string(written + done) + " bytes: " + errno_text());
      }
      done += static_cast<std::size_t>(n);
    }
    written += out.size();
    out.clear();
  }

  std::uint64_t position() const { return written + out.size(); }

  std::size_t compress_bound(std::size_t size) const {
    switch (options.compression) {
      case Compression::zstd: return ZSTD_compressBound(size);
      case Compression::lz4: {
        LZ4F_preferences_t prefs = lz4_preferences(size);
        return LZ4F_compressFrameBound(size, &prefs);
      }
      case Compression::none: break;
    }
    return size;
  }

  static LZ4F_preferences_t lz4_preferences(std::size_t size) {
    LZ4F_preferences_t prefs{};
    prefs.frameInfo.blockMode = LZ4F_blockIndependent;  // no history buffer to keep between blocks
    prefs.frameInfo.contentSize = size;
    prefs.autoFlush = 1;
    return prefs;
  }

  // Compresses `chunk` into out[at, ...) and returns the compressed size.
  std::size_t compress_into(std::size_t at) {
    const std::size_t capacity = out.size() - at;
    auto* dst = out.data() + at;
    switch (options.compression) {
      case Compression::zstd: {
        const auto n = ZSTD_compressCCtx(zstd, dst, capacity, chunk.data(), chunk.size(), zstd_level);
        if (ZSTD_isError(n)) fail(std::string("zstd compression failed: ") + ZSTD_getErrorName(n));
        return n;
      }
      case Compression::lz4: {
        const auto prefs = lz4_preferences(chunk.size());
        std::size_t done = 0;
        auto step = [&](std::size_t n) {
          if (LZ4F_isError(n)) fail(std::string("lz4 compression failed: ") + LZ4F_getErrorName(n));
          done += n;
        };
        step(LZ4F_compressBegin(lz4, dst, capacity, &prefs));
        step(LZ4F_compressUpdate(lz4, dst + done, capacity - done, chunk.data(), chunk.size(), nullptr));
        step(LZ4F_compressEnd(lz4, dst + done, capacity - done, nullptr));
        return done;
      }
      case Compression::none: break;
    }
    if (!chunk.empty()) std::memcpy(dst, chunk.data(), chunk.size());
    return chunk.size();
  }

  void close_chunk() {
    if (chunk_messages == 0) return;
    const std::uint64_t chunk_offset = position();
    const auto name = compression_name(options.compression);
    const std::uint32_t crc = crc32(chunk.data(), chunk.size());

    Out o(out);
    const auto length_at = o.begin_record(op::chunk);
    o.u64(chunk_start);
    o.u64(chunk_end);
    o.u64(chunk.size());
    o.u32(crc);
    o.string(name);
    const auto records_length_at = o.size();
    o.u64(0);
    const auto records_at = out.size();
    out.resize(records_at + compress_bound(chunk.size()));
    const auto compressed = compress_into(records_at);
    out.resize(records_at + compressed);
    o.patch_u64(records_length_at, compressed);
    o.end_record(length_at);
    const std::uint64_t chunk_length = position() - chunk_offset;

    // One Message Index per channel, in channel order; their offsets go into the Chunk Index.
    std::sort(chunk_channels.begin(), chunk_channels.end());
    const std::uint64_t indexes_offset = position();
    Out ci(summary_chunk_indexes);
    const auto ci_length_at = ci.begin_record(op::chunk_index);
    ci.u64(chunk_start);
    ci.u64(chunk_end);
    ci.u64(chunk_offset);
    ci.u64(chunk_length);
    ci.u32(static_cast<std::uint32_t>(chunk_channels.size() * 10));
    for (const auto id : chunk_channels) {
      ci.u16(id);
      ci.u64(position());
      auto& state = channel_states[id - 1U];
      const auto mi_length_at = o.begin_record(op::message_index);
      o.u16(id);
      o.u32(static_cast<std::uint32_t>(state.index.size() * 16));
      for (const auto& entry : state.index) {
        o.u64(entry.log_time);
        o.u64(entry.offset);
      }
      o.end_record(mi_length_at);
      state.index.clear();
    }
    ci.u64(position() - indexes_offset);
    ci.string(name);
    ci.u64(compressed);
    ci.u64(chunk.size());
    ci.end_record(ci_length_at);

    emit(true);
    ++chunk_count;
    flushed_messages = message_count;
    chunk.clear();
    chunk_channels.clear();
    chunk_messages = 0;
  }
};

McapWriter::McapWriter(const std::filesystem::path& file, McapOptions options) : impl_(std::make_unique<Impl>()) {
  auto& w = *impl_;
  w.path = file;
  w.options = std::move(options);
  if (w.options.chunk_bytes == 0) w.options.chunk_bytes = 1;
  w.fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (w.fd < 0) w.fail("cannot create it: " + errno_text());
  if (w.options.compression == Compression::zstd) {
    w.zstd = ZSTD_createCCtx();
    if (w.zstd == nullptr) w.fail("cannot create a zstd context");
  } else if (w.options.compression == Compression::lz4) {
    if (LZ4F_isError(LZ4F_createCompressionContext(&w.lz4, LZ4F_VERSION))) w.fail("cannot create an lz4 context");
  }
  // A message is appended before the size check, so a chunk may exceed chunk_bytes by one message.
  const std::size_t chunk_reserve = w.options.chunk_bytes + 64 * 1024;
  w.chunk.reserve(chunk_reserve);
  // The chunk record plus its message indexes: an index entry (16 bytes) is at most about half of
  // the smallest Message record (31 bytes), so half the chunk covers them.
  w.out.reserve(w.compress_bound(chunk_reserve) + chunk_reserve / 2 + 64 * 1024);
  // A Chunk Index is about 90 bytes plus 10 per channel: room for a few hundred chunks before the
  // summary's buffer first grows (it then doubles, so rarely).
  w.summary_chunk_indexes.reserve(64 * 1024);
  w.chunk_channels.reserve(64);
  w.channel_states.reserve(64);

  Out o(w.out);
  o.bytes(magic.data(), magic.size());
  const auto at = o.begin_record(op::header);
  o.string(w.options.profile);
  o.string(w.options.library);
  o.end_record(at);
  w.emit(true);
  w.open = true;
}

McapWriter::~McapWriter() {
  try {
    close();
  } catch (...) {  // NOLINT(bugprone-empty-catch): a destructor must not throw; close() reports errors
  }
}

std::uint16_t McapWriter::add_schema(std::string_view name, std::string_view encoding, std::string_view data) {
  auto& w = *impl_;
  w.require_open("add_schema");
  if (w.schema_count == std::numeric_limits<std::uint16_t>::max()) w.fail("more than 65535 schemas");
  const auto id = static_cast<std::uint16_t>(w.schema_count + 1);
  for (auto* buffer : {&w.out, &w.summary_schemas}) {
    Out o(*buffer);
    const auto at = o.begin_record(op::schema);
    o.u16(id);
    o.string(name);
    o.string(encoding);
    o.string(data);
    o.end_record(at);
  }
  w.emit(true);
  w.schema_count = id;
  return id;
}

std::uint16_t McapWriter::add_channel(std::uint16_t schema_id, std::string_view topic,
                                      std::string_view message_encoding,
                                      const std::map<std::string, std::string>& metadata) {
  auto& w = *impl_;
  w.require_open("add_channel");
  if (schema_id > w.schema_count) {
    throw std::invalid_argument("McapWriter::add_channel(" + std::string(topic) + "): no schema " +
                                std::to_string(schema_id) + " (" + w.path.string() + ")");
  }
  if (w.channel_states.size() == std::numeric_limits<std::uint16_t>::max()) w.fail("more than 65535 channels");
  const auto id = static_cast<std::uint16_t>(w.channel_states.size() + 1);
  for (auto* buffer : {&w.out, &w.summary_channels}) {
    Out o(*buffer);
    const auto at = o.begin_record(op::channel);
    o.u16(id);
    o.u16(schema_id);
    o.string(topic);
    o.string(message_encoding);
    o.string_map(metadata);
    o.end_record(at);
  }
  w.emit(true);
  auto& state = w.channel_states.emplace_back();
  // About a chunk's worth at 1 kHz and the default chunk duration, so a steady run never regrows it.
  state.index.reserve(1024);
  if (w.chunk_channels.capacity() < w.channel_states.size()) w.chunk_channels.reserve(2 * w.channel_states.size());
  return id;
}

void McapWriter::add_metadata(std::string_view name, const std::map<std::string, std::string>& values) {
  auto& w = *impl_;
  w.require_open("add_metadata");
  const auto offset = w.position();
  Out o(w.out);
  const auto at = o.begin_record(op::metadata);
  o.string(name);
  o.string_map(values);
  o.end_record(at);
  const auto length = w.position() - offset;
  w.emit(true);

  Out index(w.summary_metadata_indexes);
  const auto index_at = index.begin_record(op::metadata_index);
  index.u64(offset);
  index.u64(length);
  index.string(name);
  index.end_record(index_at);
  ++w.metadata_count;
}

void McapWriter::add_attachment(std::string_view name, std::string_view media_type, std::span<const std::byte> data,
                                std::uint64_t log_time, std::uint64_t create_time) {
  auto& w = *impl_;
  w.require_open("add_attachment");
  const auto offset = w.position();
  Out o(w.out);
  const auto at = o.begin_record(op::attachment);
  const auto fields_at = o.size();
  o.u64(log_time);
  o.u64(create_time);
  o.string(name);
  o.string(media_type);
  o.u64(data.size());
  o.bytes(data.data(), data.size());
  o.u32(crc32(w.out.data() + fields_at, w.out.size() - fields_at));
  o.end_record(at);
  const auto length = w.position() - offset;
  w.emit(true);

  Out index(w.summary_attachment_indexes);
  const auto index_at = index.begin_record(op::attachment_index);
  index.u64(offset);
  index.u64(length);
  index.u64(log_time);
  index.u64(create_time);
  index.u64(data.size());
  index.string(name);
  index.string(media_type);
  index.end_record(index_at);
  ++w.attachment_count;
}

void McapWriter::write(std::uint16_t channel, std::uint32_t sequence, std::uint64_t log_time,
                       std::uint64_t publish_time, std::span<const std::byte> data) {
  auto& w = *impl_;
  w.require_open("write");
  if (channel == 0 || channel > w.channel_states.size()) {
    throw std::invalid_argument("McapWriter::write: no channel " + std::to_string(channel) + " (" + w.path.string() +
                                ")");
  }
  auto& state = w.channel_states[channel - 1U];
  if (state.index.empty()) w.chunk_channels.push_back(channel);
  state.index.push_back({log_time, w.chunk.size()});

  Out o(w.chunk);
  o.u8(op::message);
  o.u64(message_fixed + data.size());
  o.u16(channel);
  o.u32(sequence);
  o.u64(log_time);
  o.u64(publish_time);
  o.bytes(data.data(), data.size());

  if (w.chunk_messages == 0) {
    w.chunk_start = log_time;
    w.chunk_end = log_time;
  } else {
    w.chunk_start = std::min(w.chunk_start, log_time);
    w.chunk_end = std::max(w.chunk_end, log_time);
  }
  ++w.chunk_messages;
  ++w.message_count;
  ++state.messages;
  w.start_time = std::min(w.start_time, log_time);
  w.end_time = std::max(w.end_time, log_time);

  if (w.chunk.size() >= w.options.chunk_bytes || w.chunk_end - w.chunk_start >= w.options.chunk_duration_ns) {
    w.close_chunk();
  }
}

void McapWriter::flush() {
  auto& w = *impl_;
  if (!w.open) return;
  w.close_chunk();
  if (!w.out.empty()) w.emit(true);
}

void McapWriter::close() {
  auto& w = *impl_;
  if (!w.open) return;
  // Whatever happens below, the file is finished with: a second close() must not write a second
  // summary after a half-written one.
  w.open = false;
  w.close_chunk();

  Out o(w.out);
  const auto data_end_at = o.begin_record(op::data_end);
  o.u32(0);  // patched below, once the CRC is known
  o.end_record(data_end_at);
  // The data section's CRC covers every byte before the Data End record (magic and Header included).
  const std::uint32_t data_crc =
      detail::crc32(w.data_crc, std::span(w.out).first(w.out.size() - record_prefix - 4));
  for (int i = 0; i < 4; ++i) {
    w.out[w.out.size() - 4 + static_cast<std::size_t>(i)] = static_cast<std::byte>(data_crc >> (8 * i));
  }

  const std::uint64_t summary_start = w.position();
  const auto summary_from = w.out.size();
  struct Group {
    std::uint8_t opcode;
    std::uint64_t start;
    std::uint64_t length;
  };
  std::vector<Group> groups;
  auto group = [&](std::uint8_t opcode, const std::vector<std::byte>& records) {
    if (records.empty()) return;
    groups.push_back({opcode, w.position(), records.size()});
    Out(w.out).bytes(records.data(), records.size());
  };
  group(op::schema, w.summary_schemas);
  group(op::channel, w.summary_channels);

  std::vector<std::byte> statistics;
  {
    Out s(statistics);
    const auto at = s.begin_record(op::statistics);
    s.u64(w.message_count);
    s.u16(w.schema_count);
    s.u32(static_cast<std::uint32_t>(w.channel_states.size()));
    s.u32(w.attachment_count);
    s.u32(w.metadata_count);
    s.u32(static_cast<std::uint32_t>(w.chunk_count));
    s.u64(w.message_count == 0 ? 0 : w.start_time);
    s.u64(w.message_count == 0 ? 0 : w.end_time);
    s.u32(static_cast<std::uint32_t>(w.channel_states.size() * 10));
    for (std::size_t i = 0; i < w.channel_states.size(); ++i) {
      s.u16(static_cast<std::uint16_t>(i + 1));
      s.u64(w.channel_states[i].messages);
    }
    s.end_record(at);
  }
  group(op::statistics, statistics);
  group(op::chunk_index, w.summary_chunk_indexes);
  group(op::attachment_index, w.summary_attachment_indexes);
  group(op::metadata_index, w.summary_metadata_indexes);

  const std::uint64_t summary_offset_start = w.position();
  for (const auto& g : groups) {
    const auto at = o.begin_record(op::summary_offset);
    o.u8(g.opcode);
    o.u64(g.start);
    o.u64(g.length);
    o.end_record(at);
  }
  // The summary's CRC covers the Footer's opcode, length and first two fields too.
  o.u8(op::footer);
  o.u64(8 + 8 + 4);
  o.u64(summary_start);
  o.u64(summary_offset_start);
  o.u32(crc32(w.out.data() + summary_from, w.out.size() - summary_from));
  o.bytes(magic.data(), magic.size());
  w.emit(false);
  w.flushed_messages = w.message_count;

  const int fd = w.fd;
  w.fd = -1;
  if (::close(fd) != 0) w.fail("close failed: " + errno_text());
}

const std::filesystem::path& McapWriter::path() const { return impl_->path; }
bool McapWriter::is_open() const { return impl_->open; }
std::uint64_t McapWriter::messages() const { return impl_->message_count; }
std::uint64_t McapWriter::flushed_messages() const { return impl_->flushed_messages; }
std::uint64_t McapWriter::chunks() const { return impl_->chunk_count; }
std::uint64_t McapWriter::bytes() const { return impl_->written; }
std::optional<std::pair<std::uint64_t, std::uint64_t>> McapWriter::open_chunk_span() const {
  if (impl_->chunk_messages == 0) return std::nullopt;
  return std::pair{impl_->chunk_start, impl_->chunk_end};
}

// ---- reading ----

namespace {

// Thrown by In when a field runs past its record; the reader adds the file, offset and record.
struct ShortRecord {
  std::string what;
};

class In {
 public:
  explicit In(std::span<const std::byte> bytes) : b_(bytes) {}
  std::uint8_t u8() { return static_cast<std::uint8_t>(le(1)); }
  std::uint16_t u16() { return static_cast<std::uint16_t>(le(2)); }
  std::uint32_t u32() { return static_cast<std::uint32_t>(le(4)); }
  std::uint64_t u64() { return le(8); }
  std::span<const std::byte> bytes(std::uint64_t n, const char* field) {
    if (n > b_.size() - at_) {
      throw ShortRecord{std::string(field) + " of " + std::to_string(n) + " bytes runs past the record's end"};
    }
    auto s = b_.subspan(at_, static_cast<std::size_t>(n));
    at_ += static_cast<std::size_t>(n);
    return s;
  }
  std::string string(const char* field) {
    const auto s = bytes(u32(), field);
    return {reinterpret_cast<const char*>(s.data()), s.size()};
  }
  std::map<std::string, std::string> string_map(const char* field) {
    In m(bytes(u32(), field));
    std::map<std::string, std::string> out;
    while (!m.done()) {
      auto key = m.string(field);
      out[std::move(key)] = m.string(field);
    }
    return out;
  }
  template <class Key>
  std::map<Key, std::uint64_t> u64_map(const char* field) {
    In m(bytes(u32(), field));
    std::map<Key, std::uint64_t> out;
    while (!m.done()) {
      const auto key = static_cast<Key>(m.le(sizeof(Key)));
      out[key] = m.u64();
    }
    return out;
  }
  std::span<const std::byte> rest() { return bytes(b_.size() - at_, "data"); }
  bool done() const { return at_ == b_.size(); }
  std::size_t at() const { return at_; }

 private:
  std::uint64_t le(std::size_t n) {
    if (n > b_.size() - at_) throw ShortRecord{"a field runs past the record's end"};
    std::uint64_t v = 0;
    for (std::size_t i = 0; i < n; ++i) v |= std::uint64_t(std::to_integer<std::uint8_t>(b_[at_ + i])) << (8 * i);
    at_ += n;
    return v;
  }
  std::span<const std::byte> b_;
  std::size_t at_ = 0;
};

std::uint64_t read_u64(std::span<const std::byte> b, std::size_t at) {
  std::uint64_t v = 0;
  for (std::size_t i = 0; i < 8; ++i) v |= std::uint64_t(std::to_integer<std::uint8_t>(b[at + i])) << (8 * i);
  return v;
}

bool is_magic_prefix(std::span<const std::byte> b) {
  if (b.size() > magic.size()) return false;
  for (std::size_t i = 0; i < b.size(); ++i) {
    if (std::to_integer<std::uint8_t>(b[i]) != magic[i]) return false;
  }
  return true;
}

std::string hex(std::uint32_t v) {
  std::ostringstream s;
  s << "0x" << std::hex << v;
  return s.str();
}

}  // namespace

McapReader::McapReader(const std::filesystem::path& file) : name_(file.string()) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw McapError("MCAP file " + name_ + ": cannot open it");
  std::vector<char> text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) throw McapError("MCAP file " + name_ + ": read failed");
  parse(std::as_bytes(std::span<const char>(text)));
}

McapReader::McapReader(std::span<const std::byte> bytes, std::string name) : name_(std::move(name)) { parse(bytes); }

void McapReader::parse(std::span<const std::byte> file) {
  const std::uint64_t size = file.size();
  std::uint64_t record_at = 0;
  std::uint8_t record_op = 0;
  auto fail = [&](const std::string& what) -> McapError {
    return McapError("MCAP file " + name_ + ": byte " + std::to_string(record_at) + ", " + record_name(record_op) +
                     " record: " + what);
  };
  auto fail_at = [&](std::uint64_t at, const std::string& what) -> McapError {
    return McapError("MCAP file " + name_ + ": byte " + std::to_string(at) + ": " + what);
  };

  // Shorter than the magic, nothing says it was ever an MCAP file: refused, not "truncated".
  if (size < magic.size()) {
    if (!is_magic_prefix(file)) throw fail_at(0, "not an MCAP file (no magic)");
    throw fail_at(size, "the file ends inside the leading magic");
  }
  if (!is_magic_prefix(file.first(magic.size()))) throw fail_at(0, "not an MCAP file (bad magic)");

  // A file that ends with the magic claims to be whole: then every record must fit and the last one
  // must be the Footer. Anything else ending early is a file cut short.
  const bool footer_shaped = size >= 2 * magic.size() && is_magic_prefix(file.last(magic.size()));
  const std::uint64_t records_end = footer_shaped ? size - magic.size() : size;

  // State of the walk.
  bool seen_header = false;
  std::optional<std::uint64_t> summary_begin;  // just after Data End
  bool after_chunk = false;                    // Message Index records may follow
  std::map<std::uint8_t, std::pair<std::uint64_t, std::uint64_t>> summary_groups;  // opcode -> first, length
  std::uint8_t last_summary_op = 0;
  std::optional<std::uint64_t> first_summary_offset;
  std::optional<std::tuple<std::uint64_t, std::uint64_t, std::uint32_t>> footer;  // start, offset start, crc
  std::uint64_t footer_at = 0;
  std::map<std::uint16_t, McapSchema> summary_schemas;
  std::map<std::uint16_t, McapChannel> summary_channels;
  std::vector<std::tuple<std::uint64_t, std::uint64_t, std::uint64_t, std::uint64_t, std::uint64_t, std::string,
                         std::string>>
      attachment_index_records;
  std::vector<std::uint8_t> decompressed;

  auto add_schema = [&](McapSchema s, std::map<std::uint16_t, McapSchema>& into) {
    if (s.id == 0) return;  // invalid by the spec; readers ignore it
    auto [it, inserted] = into.try_emplace(s.id, s);
    if (!inserted && (it->second.name != s.name || it->second.encoding != s.encoding || it->second.data != s.data)) {
      throw fail("schema " + std::to_string(s.id) + " differs from an earlier record of the same id");
    }
  };
  auto add_channel = [&](McapChannel c, std::map<std::uint16_t, McapChannel>& into) {
    if (c.schema_id != 0 && !schemas_.contains(c.schema_id)) {
      throw fail("channel " + std::to_string(c.id) + " refers to schema " + std::to_string(c.schema_id) +
                 ", not defined before it");
    }
    auto [it, inserted] = into.try_emplace(c.id, c);
    if (!inserted && (it->second.schema_id != c.schema_id || it->second.topic != c.topic ||
                      it->second.message_encoding != c.message_encoding || it->second.metadata != c.metadata)) {
      throw fail("channel " + std::to_string(c.id) + " differs from an earlier record of the same id");
    }
  };
  auto parse_schema = [&](In& in) {
    McapSchema s;
    s.id = in.u16();
    s.name = in.string("name");
    s.encoding = in.string("encoding");
    s.data = in.string("data");
    return s;
  };
  auto parse_channel = [&](In& in) {
    McapChannel c;
    c.id = in.u16();
    c.schema_id = in.u16();
    c.topic = in.string("topic");
    c.message_encoding = in.string("message_encoding");
    c.metadata = in.string_map("metadata");
    return c;
  };
  auto parse_message = [&](In& in) {
    McapMessage m;
    m.channel = in.u16();
    m.sequence = in.u32();
    m.log_time = in.u64();
    m.publish_time = in.u64();
    const auto data = in.rest();
    m.data.assign(data.begin(), data.end());
    if (!channels_.contains(m.channel)) {
      throw fail("message on channel " + std::to_string(m.channel) + ", not defined before it");
    }
    return m;
  };

  auto decompress = [&](const std::string& compression, std::span<const std::byte> src, std::uint64_t expected) {
    // A damaged uncompressed_size must be refused before it is allocated.
    auto implausible = [&](const std::string& why) {
      return fail("uncompressed_size " + std::to_string(expected) + " for " + std::to_string(src.size()) +
                  " bytes of records: " + why);
    };
    if (expected > max_chunk_bytes) throw implausible("past any chunk a writer makes");
    if (compression.empty()) {
      if (src.size() != expected) throw implausible("an uncompressed chunk's sizes must be equal");
    } else if (compression == "zstd") {
      const auto stated = ZSTD_getFrameContentSize(src.data(), src.size());
      if (stated != ZSTD_CONTENTSIZE_UNKNOWN && stated != ZSTD_CONTENTSIZE_ERROR && stated != expected) {
        throw implausible("the zstd frame says " + std::to_string(stated));
      }
    } else if (compression == "lz4") {
      // LZ4 expands at most about 255 times (a run costs one length byte per 255).
      if (expected > 255 * static_cast<std::uint64_t>(src.size()) + 64) throw implausible("more than lz4 can expand");
    }
    decompressed.resize(static_cast<std::size_t>(expected));
    if (compression.empty()) {
      if (!src.empty()) std::memcpy(decompressed.data(), src.data(), src.size());
    } else if (compression == "zstd") {
      const auto n = ZSTD_decompress(decompressed.data(), decompressed.size(), src.data(), src.size());
      if (ZSTD_isError(n)) throw fail(std::string("zstd decompression failed: ") + ZSTD_getErrorName(n));
      if (n != expected) {
        throw fail("zstd records decompress to " + std::to_string(n) + " bytes, uncompressed_size says " +
                   std::to_string(expected));
      }
    } else if (compression == "lz4") {
      LZ4F_dctx* raw = nullptr;
      if (LZ4F_isError(LZ4F_createDecompressionContext(&raw, LZ4F_VERSION))) throw fail("cannot create an lz4 context");
      std::unique_ptr<LZ4F_dctx, decltype(&LZ4F_freeDecompressionContext)> ctx(raw, &LZ4F_freeDecompressionContext);
      std::size_t in_at = 0;
      std::size_t out_at = 0;
      std::size_t hint = 1;
      while (in_at < src.size()) {
        std::size_t in_n = src.size() - in_at;
        std::size_t out_n = decompressed.size() - out_at;
        hint = LZ4F_decompress(ctx.get(), decompressed.data() + out_at, &out_n, src.data() + in_at, &in_n, nullptr);
        if (LZ4F_isError(hint)) throw fail(std::string("lz4 decompression failed: ") + LZ4F_getErrorName(hint));
        in_at += in_n;
        out_at += out_n;
        if (hint == 0) break;
        if (in_n == 0 && out_n == 0) break;  // no progress: output full, frame not done
      }
      if (hint != 0 || out_at != expected) {
        throw fail("lz4 records decompress to " + std::to_string(out_at) + " bytes or more, uncompressed_size says " +
                   std::to_string(expected));
      }
    } else {
      throw fail("unknown compression \"" + compression + "\"");
    }
  };

  auto parse_chunk = [&](In& in, std::uint64_t length) {
    McapChunk chunk;
    chunk.offset = record_at;
    chunk.length = record_prefix + length;
    chunk.message_start_time = in.u64();
    chunk.message_end_time = in.u64();
    chunk.uncompressed_size = in.u64();
    const auto crc = in.u32();
    chunk.compression = in.string("compression");
    const auto records = in.bytes(in.u64(), "records");
    chunk.compressed_size = records.size();
    decompress(chunk.compression, records, chunk.uncompressed_size);
    if (crc != 0) {
      const auto actual = crc32(decompressed.data(), decompressed.size());
      if (actual != crc) {
        throw fail("uncompressed_crc " + hex(crc) + " but the records' CRC is " + hex(actual) + " (damaged chunk)");
      }
    }
    chunk.first_message = messages_.size();
    const std::span<const std::byte> inner(reinterpret_cast<const std::byte*>(decompressed.data()), decompressed.size());
    std::size_t at = 0;
    while (at < inner.size()) {
      if (inner.size() - at < record_prefix) throw fail("a record inside the chunk at " + std::to_string(at) + " is cut");
      const auto inner_op = std::to_integer<std::uint8_t>(inner[at]);
      const auto inner_length = read_u64(inner, at + 1);
      if (inner_length > inner.size() - at - record_prefix) {
        throw fail(std::string(record_name(inner_op)) + " record inside the chunk at " + std::to_string(at) +
                   ": length " + std::to_string(inner_length) + " runs past the chunk's records");
      }
      In r(inner.subspan(at + record_prefix, static_cast<std::size_t>(inner_length)));
      try {
        switch (inner_op) {
          case op::schema: add_schema(parse_schema(r), schemas_); break;
          case op::channel: add_channel(parse_channel(r), channels_); break;
          case op::message: {
            auto m = parse_message(r);
            if (m.log_time < chunk.message_start_time || m.log_time > chunk.message_end_time) {
              throw fail("message at " + std::to_string(at) + " has log_time " + std::to_string(m.log_time) +
                         " outside the chunk's [" + std::to_string(chunk.message_start_time) + ", " +
                         std::to_string(chunk.message_end_time) + "]");
            }
            chunk.message_offsets.push_back(at);
            messages_.push_back(std::move(m));
            break;
          }
          default:
            throw fail(std::string(record_name(inner_op)) + " record (opcode " + std::to_string(inner_op) +
                       ") inside a chunk, at " + std::to_string(at));
        }
      } catch (const ShortRecord& e) {
        throw fail(std::string(record_name(inner_op)) + " record inside the chunk at " + std::to_string(at) + ": " +
                   e.what);
      }
      at += record_prefix + static_cast<std::size_t>(inner_length);
    }
    chunks_.push_back(std::move(chunk));
  };

  auto parse_message_index = [&](In& in) {
    if (!after_chunk) throw fail("not right after a chunk");
    auto& chunk = chunks_.back();
    const auto channel = in.u16();
    In entries(in.bytes(in.u32(), "records"));
    std::vector<McapMessageIndexEntry> list;
    while (!entries.done()) {
      McapMessageIndexEntry e;
      e.log_time = entries.u64();
      e.offset = entries.u64();
      list.push_back(e);
    }
    if (chunk.message_index.contains(channel)) throw fail("a second index of channel " + std::to_string(channel));
    // Every entry points at a Message of this channel and log time, and every such Message has one.
    std::size_t of_channel = 0;
    for (std::size_t i = 0; i < chunk.message_offsets.size(); ++i) {
      if (messages_[chunk.first_message + i].channel == channel) ++of_channel;
    }
    std::vector<std::uint64_t> seen;
    for (const auto& e : list) {
      const auto it = std::lower_bound(chunk.message_offsets.begin(), chunk.message_offsets.end(), e.offset);
      if (it == chunk.message_offsets.end() || *it != e.offset) {
        throw fail("channel " + std::to_string(channel) + ": offset " + std::to_string(e.offset) +
                   " is not a Message record of the chunk at byte " + std::to_string(chunk.offset));
      }
      const auto& m = messages_[chunk.first_message + static_cast<std::size_t>(it - chunk.message_offsets.begin())];
      if (m.channel != channel || m.log_time != e.log_time) {
        throw fail("channel " + std::to_string(channel) + ": offset " + std::to_string(e.offset) +
                   " holds a message of channel " + std::to_string(m.channel) + " at " + std::to_string(m.log_time) +
                   ", the index says log_time " + std::to_string(e.log_time));
      }
      seen.push_back(e.offset);
    }
    std::sort(seen.begin(), seen.end());
    if (std::adjacent_find(seen.begin(), seen.end()) != seen.end() || seen.size() != of_channel) {
      throw fail("channel " + std::to_string(channel) + ": " + std::to_string(list.size()) +
                 " entries for the chunk's " + std::to_string(of_channel) + " messages of the channel");
    }
    chunk.message_index_offsets[channel] = record_at;
    chunk.message_index[channel] = std::move(list);
  };

  auto note_summary_group = [&](std::uint8_t opcode, std::uint64_t length) {
    auto [it, inserted] = summary_groups.try_emplace(opcode, record_at, 0);
    if (!inserted && last_summary_op != opcode) throw fail("summary records of one opcode are not together");
    it->second.second += record_prefix + length;
    last_summary_op = opcode;
  };

  std::uint64_t at = magic.size();
  bool cut = false;
  while (at < records_end) {
    record_at = at;
    record_op = 0;
    if (records_end - at < record_prefix) {
      if (footer_shaped) throw fail_at(at, "a record's opcode and length run past the last record");
      cut = true;
      break;
    }
    record_op = std::to_integer<std::uint8_t>(file[at]);
    const auto length = read_u64(file, at + 1);
    if (length > records_end - at - record_prefix) {
      if (footer_shaped) {
        throw fail("length " + std::to_string(length) + " runs past the end of the records (byte " +
                   std::to_string(records_end) + ")");
      }
      cut = true;
      break;
    }
    if (footer.has_value()) throw fail("a record after the Footer");
    if (!seen_header && record_op != op::header) throw fail("the first record is not a Header");
    In in(file.subspan(at + record_prefix, static_cast<std::size_t>(length)));
    const bool in_data = !summary_begin.has_value();
    auto data_only = [&] {
      if (!in_data) throw fail("in the summary section");
    };
    auto summary_only = [&] {
      if (in_data) throw fail("in the data section");
    };
    try {
      switch (record_op) {
        case op::header:
          if (seen_header) throw fail("a second Header");
          profile_ = in.string("profile");
          library_ = in.string("library");
          seen_header = true;
          break;
        case op::footer:
          // A Footer is never extended (its reader finds it from the end of the file).
          if (length != 8 + 8 + 4) throw fail("length " + std::to_string(length) + ", not 20");
          footer = std::tuple{in.u64(), in.u64(), in.u32()};
          footer_at = at;
          break;
        case op::schema:
          if (in_data) {
            add_schema(parse_schema(in), schemas_);
          } else {
            note_summary_group(record_op, length);
            add_schema(parse_schema(in), summary_schemas);
          }
          break;
        case op::channel:
          if (in_data) {
            add_channel(parse_channel(in), channels_);
          } else {
            note_summary_group(record_op, length);
            add_channel(parse_channel(in), summary_channels);
          }
          break;
        case op::message:
          data_only();
          messages_.push_back(parse_message(in));
          break;
        case op::chunk:
          data_only();
          parse_chunk(in, length);
          break;
        case op::message_index:
          data_only();
          parse_message_index(in);
          break;
        case op::attachment: {
          data_only();
          McapAttachment a;
          a.log_time = in.u64();
          a.create_time = in.u64();
          a.name = in.string("name");
          a.media_type = in.string("media_type");
          const auto data = in.bytes(in.u64(), "data");
          const auto crc_covers = in.at();
          const auto crc = in.u32();
          if (crc != 0) {
            const auto actual = crc32(file.data() + at + record_prefix, crc_covers);
            if (actual != crc) throw fail("crc " + hex(crc) + " but its fields' CRC is " + hex(actual));
          }
          a.data.assign(data.begin(), data.end());
          attachments_.push_back(std::move(a));
          attachment_offsets_.push_back(at);
          break;
        }
        case op::metadata: {
          data_only();
          McapMetadata m;
          m.name = in.string("name");
          m.values = in.string_map("metadata");
          metadata_.push_back(std::move(m));
          metadata_offsets_.push_back(at);
          break;
        }
        case op::data_end: {
          data_only();
          const auto crc = in.u32();
          if (crc != 0) {
            const auto actual = crc32(file.data(), static_cast<std::size_t>(at));
            if (actual != crc) {
              throw fail("data_section_crc " + hex(crc) + " but the data section's CRC is " + hex(actual) +
                         " (a damaged byte before this offset)");
            }
          }
          has_data_end_ = true;
          summary_begin = at + record_prefix + length;
          break;
        }
        case op::chunk_index: {
          summary_only();
          note_summary_group(record_op, length);
          McapChunkIndex c;
          c.message_start_time = in.u64();
          c.message_end_time = in.u64();
          c.chunk_start_offset = in.u64();
          c.chunk_length = in.u64();
          c.message_index_offsets = in.u64_map<std::uint16_t>("message_index_offsets");
          c.message_index_length = in.u64();
          c.compression = in.string("compression");
          c.compressed_size = in.u64();
          c.uncompressed_size = in.u64();
          chunk_indexes_.push_back(std::move(c));
          break;
        }
        case op::attachment_index: {
          summary_only();
          note_summary_group(record_op, length);
          const auto offset = in.u64();
          const auto len = in.u64();
          const auto log_time = in.u64();
          const auto create_time = in.u64();
          const auto data_size = in.u64();
          auto name = in.string("name");
          auto media_type = in.string("media_type");
          attachment_indexes_.emplace_back(offset, len, name);
          attachment_index_records.emplace_back(offset, len, log_time, create_time, data_size, std::move(name),
                                                std::move(media_type));
          break;
        }
        case op::statistics: {
          summary_only();
          note_summary_group(record_op, length);
          if (statistics_.has_value()) throw fail("a second Statistics record");
          McapStatistics s;
          s.message_count = in.u64();
          s.schema_count = in.u16();
          s.channel_count = in.u32();
          s.attachment_count = in.u32();
          s.metadata_count = in.u32();
          s.chunk_count = in.u32();
          s.message_start_time = in.u64();
          s.message_end_time = in.u64();
          s.channel_message_counts = in.u64_map<std::uint16_t>("channel_message_counts");
          statistics_ = std::move(s);
          break;
        }
        case op::metadata_index: {
          summary_only();
          note_summary_group(record_op, length);
          const auto offset = in.u64();
          const auto len = in.u64();
          metadata_indexes_.emplace_back(offset, len, in.string("name"));
          break;
        }
        case op::summary_offset: {
          summary_only();
          if (!first_summary_offset) first_summary_offset = at;
          const auto group = in.u8();
          const auto start = in.u64();
          const auto len = in.u64();
          summary_offsets_[group] = {start, len};
          break;
        }
        case 0: throw fail("opcode 0 is no record (damaged framing)");
        default: break;  // a record of a later format version or an extension: skipped, as the spec asks
      }
    } catch (const ShortRecord& e) {
      throw fail(e.what);
    }
    after_chunk = record_op == op::chunk || (after_chunk && record_op == op::message_index);
    at += record_prefix + length;
  }

  if (!footer_shaped) {
    // A file cut short. After a Footer only (part of) the closing magic may follow.
    complete_ = false;
    truncated_at_ = at;
    if (!cut && footer.has_value()) truncated_at_ = footer_at + footer_record;
    if (footer.has_value() && !is_magic_prefix(file.subspan(static_cast<std::size_t>(truncated_at_)))) {
      throw fail_at(truncated_at_, "bytes after the Footer are not the closing magic");
    }
    if (!seen_header) truncated_at_ = magic.size();
    return;
  }

  // A whole file: the Footer, the summary's CRC, and the summary against the data.
  if (!footer.has_value()) throw fail_at(records_end, "the file ends with the magic but has no Footer before it");
  record_at = footer_at;
  record_op = op::footer;
  const auto [summary_start, summary_offset_start, summary_crc] = *footer;
  if (!seen_header) throw fail("no Header record");
  if (!has_data_end_) throw fail("the data section has no Data End record");
  const bool has_summary = *summary_begin < (first_summary_offset ? *first_summary_offset : footer_at);
  if (summary_start != (has_summary ? *summary_begin : 0)) {
    throw fail("summary_start " + std::to_string(summary_start) + ", but the summary starts at byte " +
               std::to_string(has_summary ? *summary_begin : 0));
  }
  if (summary_offset_start != first_summary_offset.value_or(0)) {
    throw fail("summary_offset_start " + std::to_string(summary_offset_start) +
               ", but the Summary Offset records start at byte " + std::to_string(first_summary_offset.value_or(0)));
  }
  if (summary_crc != 0) {
    const auto from = *summary_begin;
    const auto actual = crc32(file.data() + from, static_cast<std::size_t>(footer_at + record_prefix + 16 - from));
    if (actual != summary_crc) {
      throw fail("summary_crc " + hex(summary_crc) + " but the summary's CRC is " + hex(actual) +
                 " (a damaged byte in the summary)");
    }
  }
  complete_ = true;
  truncated_at_ = size;

  // The summary against what the data section holds.
  auto bad_summary = [&](const std::string& what) {
    return McapError("MCAP file " + name_ + ": the summary disagrees with the data: " + what);
  };
  for (const auto& [id, s] : summary_schemas) {
    const auto it = schemas_.find(id);
    if (it == schemas_.end() || it->second.name != s.name || it->second.encoding != s.encoding ||
        it->second.data != s.data) {
      throw bad_summary("schema " + std::to_string(id));
    }
  }
  for (const auto& [id, c] : summary_channels) {
    const auto it = channels_.find(id);
    if (it == channels_.end() || it->second.topic != c.topic || it->second.schema_id != c.schema_id ||
        it->second.message_encoding != c.message_encoding || it->second.metadata != c.metadata) {
      throw bad_summary("channel " + std::to_string(id));
    }
  }
  for (const auto& [opcode, group] : summary_offsets_) {
    const auto it = summary_groups.find(opcode);
    if (it == summary_groups.end() || it->second != group) {
      throw bad_summary("the Summary Offset of opcode " + std::to_string(opcode) + " says bytes [" +
                        std::to_string(group.first) + ", +" + std::to_string(group.second) + ")");
    }
  }
  if (!chunk_indexes_.empty() && chunk_indexes_.size() != chunks_.size()) {
    throw bad_summary(std::to_string(chunk_indexes_.size()) + " chunk indexes for " + std::to_string(chunks_.size()) +
                      " chunks");
  }
  for (std::size_t i = 0; i < chunk_indexes_.size(); ++i) {
    const auto& ci = chunk_indexes_[i];
    const auto it = std::find_if(chunks_.begin(), chunks_.end(),
                                 [&](const McapChunk& c) { return c.offset == ci.chunk_start_offset; });
    const auto where = "the chunk index of the chunk at byte " + std::to_string(ci.chunk_start_offset);
    if (it == chunks_.end()) throw bad_summary(where + ": no chunk there");
    std::uint64_t index_length = 0;
    for (const auto& [channel, offset] : it->message_index_offsets) {
      index_length += record_prefix + read_u64(file, static_cast<std::size_t>(offset) + 1);
    }
    if (ci.chunk_length != it->length || ci.message_start_time != it->message_start_time ||
        ci.message_end_time != it->message_end_time || ci.compression != it->compression ||
        ci.compressed_size != it->compressed_size || ci.uncompressed_size != it->uncompressed_size) {
      throw bad_summary(where + ": length, times, compression or sizes differ from the chunk's");
    }
    if (!ci.message_index_offsets.empty() &&
        (ci.message_index_offsets != it->message_index_offsets || ci.message_index_length != index_length)) {
      throw bad_summary(where + ": its message index offsets differ from the Message Index records after the chunk");
    }
  }
  for (const auto& [offset, length, name] : metadata_indexes_) {
    const auto it = std::find(metadata_offsets_.begin(), metadata_offsets_.end(), offset);
    if (it == metadata_offsets_.end() || metadata_[static_cast<std::size_t>(it - metadata_offsets_.begin())].name != name ||
        record_prefix + read_u64(file, static_cast<std::size_t>(offset) + 1) != length) {
      throw bad_summary("the metadata index \"" + name + "\" at byte " + std::to_string(offset));
    }
  }
  for (const auto& [offset, length, log_time, create_time, data_size, name, media_type] : attachment_index_records) {
    const auto it = std::find(attachment_offsets_.begin(), attachment_offsets_.end(), offset);
    if (it == attachment_offsets_.end()) throw bad_summary("the attachment index \"" + name + "\": no attachment there");
    const auto& a = attachments_[static_cast<std::size_t>(it - attachment_offsets_.begin())];
    if (a.name != name || a.media_type != media_type || a.log_time != log_time || a.create_time != create_time ||
        a.data.size() != data_size || record_prefix + read_u64(file, static_cast<std::size_t>(offset) + 1) != length) {
      throw bad_summary("the attachment index \"" + name + "\" at byte " + std::to_string(offset));
    }
  }
  if (statistics_) {
    const auto& s = *statistics_;
    std::map<std::uint16_t, std::uint64_t> counts;
    std::uint64_t first = std::numeric_limits<std::uint64_t>::max();
    std::uint64_t last = 0;
    for (const auto& m : messages_) {
      ++counts[m.channel];
      first = std::min(first, m.log_time);
      last = std::max(last, m.log_time);
    }
    if (messages_.empty()) first = 0;
    auto check = [&](const char* field, std::uint64_t stated, std::uint64_t actual) {
      if (stated != actual) {
        throw bad_summary(std::string("Statistics.") + field + " is " + std::to_string(stated) + ", the file holds " +
                          std::to_string(actual));
      }
    };
    check("message_count", s.message_count, messages_.size());
    check("schema_count", s.schema_count, schemas_.size());
    check("channel_count", s.channel_count, channels_.size());
    check("attachment_count", s.attachment_count, attachments_.size());
    check("metadata_count", s.metadata_count, metadata_.size());
    check("chunk_count", s.chunk_count, chunks_.size());
    check("message_start_time", s.message_start_time, first);
    check("message_end_time", s.message_end_time, last);
    if (!s.channel_message_counts.empty()) {
      for (const auto& [channel, n] : counts) {
        const auto it = s.channel_message_counts.find(channel);
        check("channel_message_counts", it == s.channel_message_counts.end() ? 0 : it->second, n);
      }
      for (const auto& [channel, n] : s.channel_message_counts) {
        const auto it = counts.find(channel);
        check("channel_message_counts", n, it == counts.end() ? 0 : it->second);
      }
    }
  }
}

}  // namespace praxis::observe

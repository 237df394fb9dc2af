#pragma once
// MCAP files (the container Foxglove, PlotJuggler and rosbag2 read): a writer that records messages
// into chunked, indexed, zstd- or lz4-compressed files, and a reader that checks every CRC, every
// index and the framing of a file, and reads a file cut short by a killed writer up to its last
// complete record.
//
// Layout written (opcodes, field orders and framing from the public MCAP specification):
//   magic, Header, then the data section: Schema, Channel, Metadata and Attachment records as they
//   are added, and Chunks of Message records, each Chunk followed by one Message Index per channel it
//   holds; then Data End (CRC of every byte before it), the summary (Schemas, Channels, Statistics,
//   Chunk Indexes, Attachment Indexes, Metadata Indexes, each group together), one Summary Offset per
//   group, Footer (with the summary's CRC), magic.
//
// Durability: a chunk reaches the operating system (write(2), no fsync) as soon as it closes, by size,
// by the log time it spans, or by flush(); schemas, channels, metadata and attachments reach it when
// they are added. A writer killed with SIGKILL loses only its open chunk: at most chunk_duration_ns of
// log time (when messages keep coming) plus what arrived since the last flush().
//
// Errors: a failed write(2) (a full disk) throws std::runtime_error naming the file and how many
// bytes reached it; what was handed to the OS before stays readable as a file cut short.
// Threads: neither class is thread-safe; a McapWriter belongs to one (recorder) thread.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

namespace praxis::observe {

enum class Compression : std::uint8_t { none, zstd, lz4 };

// The name MCAP uses for it in Chunk records: "", "zstd", "lz4".
[[nodiscard]] std::string_view compression_name(Compression compression);

struct McapOptions {
  Compression compression = Compression::zstd;
  std::size_t chunk_bytes = 1 << 20;                // close a chunk once its uncompressed records reach this
  std::uint64_t chunk_duration_ns = 1'000'000'000;  // ...or once it spans this much log time
  std::string profile;                              // Header.profile ("" = none)
  std::string library = "praxis";                   // Header.library
};

class McapWriter {
 public:
  // Creates (truncates) `file` and writes the magic and the Header. Reserves the chunk's buffers for
  // chunk_bytes, so writing allocates only when a chunk outgrows them (a message larger than the
  // rest of the chunk, or more messages of one channel in a chunk than ever before).
  // Throws std::runtime_error naming the file when it cannot be created.
  McapWriter(const std::filesystem::path& file, McapOptions options = {});
  ~McapWriter();  // close(); never throws (an error there is lost: call close() to see it)
  McapWriter(const McapWriter&) = delete;
  McapWriter& operator=(const McapWriter&) = delete;

  // Ids start at 1 and count up (schema id 0 means "no schema" in MCAP). A schema or channel is
  // written to the file at once, ahead of any chunk that uses it.
  std::uint16_t add_schema(std::string_view name, std::string_view encoding, std::string_view data);
  // `schema_id` 0 = no schema; otherwise an id add_schema returned (std::invalid_argument if not).
  std::uint16_t add_channel(std::uint16_t schema_id, std::string_view topic, std::string_view message_encoding,
                            const std::map<std::string, std::string>& metadata = {});
  void add_metadata(std::string_view name, const std::map<std::string, std::string>& values);
  // A file that belongs with the run (its configuration, the robot model); `create_time` 0 = unknown.
  void add_attachment(std::string_view name, std::string_view media_type, std::span<const std::byte> data,
                      std::uint64_t log_time, std::uint64_t create_time = 0);

  // Appends a Message to the open chunk; closes the chunk (writes it and its message indexes) once it
  // reaches chunk_bytes or spans chunk_duration_ns of log time. `channel` must be an id add_channel
  // returned (std::invalid_argument if not). Log times need not increase.
  void write(std::uint16_t channel, std::uint32_t sequence, std::uint64_t log_time, std::uint64_t publish_time,
             std::span<const std::byte> data);

  // Closes the open chunk, if it holds anything, and hands everything written so far to the
  // operating system (write(2); no fsync: the data survives the process, not the machine).
  void flush();
  // flush(), then Data End, the summary, the summary offsets, the Footer and the closing magic; the
  // file is complete. Further calls do nothing; add_* and write() after it throw std::logic_error.
  void close();

  [[nodiscard]] const std::filesystem::path& path() const;
  [[nodiscard]] bool is_open() const;
  [[nodiscard]] std::uint64_t messages() const;          // written so far (open chunk included)
  [[nodiscard]] std::uint64_t flushed_messages() const;  // of these, in chunks handed to the OS
  [[nodiscard]] std::uint64_t chunks() const;            // chunks written so far
  [[nodiscard]] std::uint64_t bytes() const;             // bytes handed to the OS so far
  // Log time span of the open chunk (first and last message's log time), if it holds a message; a
  // recorder that wants a bound on what a crash loses when messages stop coming calls flush() once
  // its own clock is past first + chunk_duration_ns.
  [[nodiscard]] std::optional<std::pair<std::uint64_t, std::uint64_t>> open_chunk_span() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

struct McapMessage {
  std::uint16_t channel = 0;
  std::uint32_t sequence = 0;
  std::uint64_t log_time = 0;
  std::uint64_t publish_time = 0;
  std::vector<std::byte> data;
};

struct McapSchema {
  std::uint16_t id = 0;
  std::string name;
  std::string encoding;
  std::string data;
};

struct McapChannel {
  std::uint16_t id = 0;
  std::uint16_t schema_id = 0;
  std::string topic;
  std::string message_encoding;
  std::map<std::string, std::string> metadata;
};

struct McapMetadata {
  std::string name;
  std::map<std::string, std::string> values;
};

struct McapAttachment {
  std::uint64_t log_time = 0;
  std::uint64_t create_time = 0;
  std::string name;
  std::string media_type;
  std::vector<std::byte> data;
};

struct McapStatistics {
  std::uint64_t message_count = 0;
  std::uint16_t schema_count = 0;
  std::uint32_t channel_count = 0;
  std::uint32_t attachment_count = 0;
  std::uint32_t metadata_count = 0;
  std::uint32_t chunk_count = 0;
  std::uint64_t message_start_time = 0;
  std::uint64_t message_end_time = 0;
  std::map<std::uint16_t, std::uint64_t> channel_message_counts;
};

struct McapChunkIndex {
  std::uint64_t message_start_time = 0;
  std::uint64_t message_end_time = 0;
  std::uint64_t chunk_start_offset = 0;
  std::uint64_t chunk_length = 0;
  std::map<std::uint16_t, std::uint64_t> message_index_offsets;
  std::uint64_t message_index_length = 0;
  std::string compression;
  std::uint64_t compressed_size = 0;
  std::uint64_t uncompressed_size = 0;
};

struct McapMessageIndexEntry {
  std::uint64_t log_time = 0;
  std::uint64_t offset = 0;  // into the chunk's uncompressed records
  friend bool operator==(const McapMessageIndexEntry&, const McapMessageIndexEntry&) = default;
};

// A Chunk as the data section holds it, with the Message Index records that follow it.
struct McapChunk {
  std::uint64_t offset = 0;  // of the Chunk record in the file
  std::uint64_t length = 0;  // of the record, opcode and length included
  std::uint64_t message_start_time = 0;
  std::uint64_t message_end_time = 0;
  std::string compression;
  std::uint64_t compressed_size = 0;
  std::uint64_t uncompressed_size = 0;
  std::size_t first_message = 0;  // its messages are messages()[first_message, first_message + message_offsets.size())
  std::vector<std::uint64_t> message_offsets;  // of each of its Message records in the uncompressed records
  std::map<std::uint16_t, std::uint64_t> message_index_offsets;  // Message Index records after it, by channel
  std::map<std::uint16_t, std::vector<McapMessageIndexEntry>> message_index;
};

class McapError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Reads a whole file: schemas, channels, metadata, attachments, every message in file order. Checks
// every CRC the file carries (each chunk's uncompressed records, the data section, the summary, each
// attachment), the framing of every record, that each Message Index points at Message records of its
// channel and log time, and that the summary (chunk indexes, statistics) agrees with the data. Any
// disagreement throws McapError naming the file, the byte offset and the record.
//
// A file that ends early (a killed writer: no footer, a partial last record, a cut trailing magic) is
// read up to its last complete record and says so: complete() is false and truncated_at() is the
// offset where the incomplete part begins. A record that claims more bytes than the file has is a
// truncation in such a file but an error in a file that ends with a footer and the magic. A file
// shorter than the leading magic (or whose first bytes are not the magic) is refused.
// Reads the whole file into memory.
class McapReader {
 public:
  explicit McapReader(const std::filesystem::path& file);
  // The same from bytes in memory; `name` stands for the file in errors.
  McapReader(std::span<const std::byte> bytes, std::string name);

  [[nodiscard]] const std::string& profile() const { return profile_; }
  [[nodiscard]] const std::string& library() const { return library_; }
  [[nodiscard]] const std::map<std::uint16_t, McapSchema>& schemas() const { return schemas_; }
  [[nodiscard]] const std::map<std::uint16_t, McapChannel>& channels() const { return channels_; }
  [[nodiscard]] const std::vector<McapMetadata>& metadata() const { return metadata_; }
  [[nodiscard]] const std::vector<McapAttachment>& attachments() const { return attachments_; }
  [[nodiscard]] const std::vector<McapMessage>& messages() const { return messages_; }
  [[nodiscard]] const std::vector<McapChunk>& chunks() const { return chunks_; }

  // From the summary section (absent in a truncated file or one written without a summary).
  [[nodiscard]] const std::optional<McapStatistics>& statistics() const { return statistics_; }
  [[nodiscard]] const std::vector<McapChunkIndex>& chunk_indexes() const { return chunk_indexes_; }
  // (offset, length, name) of each Metadata record, from the summary.
  [[nodiscard]] const std::vector<std::tuple<std::uint64_t, std::uint64_t, std::string>>& metadata_indexes() const {
    return metadata_indexes_;
  }
  // (offset, length, name) of each Attachment record, from the summary.
  [[nodiscard]] const std::vector<std::tuple<std::uint64_t, std::uint64_t, std::string>>& attachment_indexes() const {
    return attachment_indexes_;
  }
  // opcode -> (group start, group length), from the Summary Offset records.
  [[nodiscard]] const std::map<std::uint8_t, std::pair<std::uint64_t, std::uint64_t>>& summary_offsets() const {
    return summary_offsets_;
  }

  [[nodiscard]] bool complete() const { return complete_; }
  [[nodiscard]] std::uint64_t truncated_at() const { return truncated_at_; }  // file size when complete
  [[nodiscard]] bool has_data_end() const { return has_data_end_; }

 private:
  void parse(std::span<const std::byte> bytes);

  std::string name_;
  std::string profile_;
  std::string library_;
  std::map<std::uint16_t, McapSchema> schemas_;
  std::map<std::uint16_t, McapChannel> channels_;
  std::vector<McapMetadata> metadata_;
  std::vector<std::uint64_t> metadata_offsets_;
  std::vector<McapAttachment> attachments_;
  std::vector<std::uint64_t> attachment_offsets_;
  std::vector<McapMessage> messages_;
  std::vector<McapChunk> chunks_;
  std::optional<McapStatistics> statistics_;
  std::vector<McapChunkIndex> chunk_indexes_;
  std::vector<std::tuple<std::uint64_t, std::uint64_t, std::string>> metadata_indexes_;
  std::vector<std::tuple<std::uint64_t, std::uint64_t, std::string>> attachment_indexes_;
  std::map<std::uint8_t, std::pair<std::uint64_t, std::uint64_t>> summary_offsets_;
  bool complete_ = false;
  bool has_data_end_ = false;
  std::uint64_t truncated_at_ = 0;
};

namespace detail {
// CRC-32 of zlib (ISO-HDLC: reflected polynomial 0x04C11DB7, initial and final XOR 0xFFFFFFFF), the
// one MCAP uses. `crc` is the result over the bytes before `data` (0 to start), so a CRC can be
// carried across buffers.
[[nodiscard]] std::uint32_t crc32(std::uint32_t crc, std::span<const std::byte> data);
}  // namespace detail

}  // namespace praxis::observe

// CYCLONEDDS_URI merged into praxis' Cyclone configuration, on real files and real Cyclone: the
// user's values win where both set one (interface, discovery tag), praxis' stay where only praxis
// sets one, a file that cannot be read or is not XML is an error naming the variable and the file,
// and participants configured that way still find each other. What is in effect is read from
// Cyclone's own configuration trace (Tracing/Category "config", which logs every setting as
// Cyclone resolved it), not from praxis' account of it.
//
// The participants that read CYCLONEDDS_URI from the environment run in child processes
// (cyclone_uri_peer), so this process' environment never changes.

#include <catch2/catch.hpp>

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "../../support/scratch_dir.hpp"
#include "praxis/transport/dds.hpp"

extern char** environ;

namespace cyclone_uri_test {

namespace transport = praxis::transport;
using praxis::test::ScratchDir;
using namespace std::chrono_literals;

namespace {

// Domains 140-149: within the two-process tests' range (see dds_transport_test.cpp), by process so
// that two runs at once rarely share one (and their discovery tags keep them apart if they do).
std::uint32_t domain() { return 140 + static_cast<std::uint32_t>(::getpid() % 10); }

std::string read_text(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string unique(const std::string& what) { return what + "-" + std::to_string(::getpid()); }

// A user's Cyclone file: `domain_xml` inside <Domain Id="any">, plus Cyclone's configuration trace
// into `trace` when given.
std::string cyclone_file(const std::string& domain_xml, const std::filesystem::path& trace = {}) {
  std::string xml =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!-- a user's file -->\n<CycloneDDS>\n  <Domain Id=\"any\">\n    " +
      domain_xml + "\n";
  if (!trace.empty()) {
    xml += "    <Tracing><Category>config</Category><OutputFile>" + trace.string() + "</OutputFile></Tracing>\n";
  }
  return xml + "  </Domain>\n</CycloneDDS>\n";
}

// cyclone_uri_peer in a child process, with CYCLONEDDS_URI set to `uri` (or removed), its stdout
// and stderr in files of `dir`. Killed if the test ends first.
class Peer {
 public:
  Peer(const ScratchDir& dir, const std::string& name, const std::vector<std::string>& args,
       const std::optional<std::string>& uri)
      : out_(dir / (name + ".out")), err_(dir / (name + ".err")) {
    std::vector<std::string> env;
    for (char** e = environ; *e != nullptr; ++e) {
      if (!std::string_view(*e).starts_with(std::string(transport::k_cyclone_uri_env) + "=")) env.emplace_back(*e);
    }
    if (uri) env.push_back(std::string(transport::k_cyclone_uri_env) + "=" + *uri);
    std::vector<std::string> argv_text{PRAXIS_CYCLONE_URI_PEER};
    argv_text.insert(argv_text.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (auto& a : argv_text) argv.push_back(a.data());
    argv.push_back(nullptr);
    std::vector<char*> envp;
    for (auto& e : env) envp.push_back(e.data());
    envp.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, out_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&actions, 2, err_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int rc = posix_spawn(&pid_, PRAXIS_CYCLONE_URI_PEER, &actions, nullptr, argv.data(), envp.data());
    posix_spawn_file_actions_destroy(&actions);
    REQUIRE(rc == 0);
  }
  ~Peer() {
    if (pid_ > 0) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
  }
  Peer(const Peer&) = delete;
  Peer& operator=(const Peer&) = delete;

  // Its exit code, or -1 if it did not end within `timeout` (then it is killed). Generous timeouts:
  // a loaded 2-core machine under ASan takes seconds to start a process and a Cyclone domain.
  int wait(std::chrono::milliseconds timeout) {
    const auto end = std::chrono::steady_clock::now() + timeout;
    int status = 0;
    while (::waitpid(pid_, &status, WNOHANG) == 0) {
      if (std::chrono::steady_clock::now() > end) return -1;
      std::this_thread::sleep_for(10ms);
    }
    pid_ = 0;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }
  [[nodiscard]] std::string out() const { return read_text(out_); }
  [[nodiscard]] std::string err() const { return read_text(err_); }

 private:
  pid_t pid_ = 0;
  std::filesystem::path out_, err_;
};

}  // namespace

TEST_CASE("CYCLONEDDS_URI: a user's file that names an interface and a tag wins over praxis' (real Cyclone)",
          "[dds][cyclone_uri]") {
  ScratchDir dir("cyclone_uri");
  const auto trace = dir / "trace.log";
  const std::string tag = unique("user-tag");
  const auto file =
      dir.write("user.xml", cyclone_file("<General><Interfaces><NetworkInterface name=\"lo\"/></Interfaces></General>\n"
                                         "    <Discovery><Tag>" +
                                             tag + "</Tag></Discovery>",
                                         trace));
  // praxis is given an interface that does not exist: Cyclone would refuse it, so the participant
  // exists only if the user's interface replaced praxis' rather than joining it.
  Peer peer(dir, "peer", {std::to_string(domain()), "no-such-if0", "describe"}, "file://" + file.string());
  const int code = peer.wait(60s);
  INFO("stdout: " << peer.out() << "\nstderr: " << peer.err());
  REQUIRE(code == 0);

  const std::string from_file = "CYCLONEDDS_URI: file \"" + file.string() + "\"";
  CHECK_THAT(peer.out(), Catch::Contains("interface \"lo\" (" + from_file +
                                         "; praxis' DdsOptions::interface \"no-such-if0\" is not used)"));
  CHECK_THAT(peer.out(), Catch::Contains("discovery tag \"" + tag + "\" (" + from_file + "; praxis' PRAXIS_DDS_TAG"));
  // The one line a user sees without asking.
  CHECK_THAT(peer.err(), Catch::Contains("praxis dds: domain " + std::to_string(domain()) + ": interface \"lo\"") &&
                             Catch::Contains("CYCLONEDDS_URI merged after praxis' settings, its values win"));

  const std::string log = read_text(trace);
  INFO("Cyclone's trace: " << log);
  CHECK_THAT(log, Catch::Contains("Domain/General/Interfaces/NetworkInterface[@name]: lo "));
  CHECK_THAT(log, Catch::Contains("Domain/Discovery/Tag/#text: " + tag + " "));
  CHECK_THAT(log, Catch::Contains("selected interfaces: lo "));
  CHECK_THAT(log, !Catch::Contains("no-such-if0"));
}

TEST_CASE("CYCLONEDDS_URI: where only praxis sets a value (the interface), praxis' is in effect",
          "[dds][cyclone_uri]") {
  ScratchDir dir("cyclone_uri");
  const auto trace = dir / "trace.log";
  const std::string tag = unique("user-tag-only");
  // A plain path (no file://) and a second, inline entry that sets the tag last: later entries win.
  const auto file =
      dir.write("user.xml", cyclone_file("<Discovery><Tag>overridden-by-the-next-entry</Tag></Discovery>", trace));
  const std::string uri = file.string() + ", <Discovery><Tag>" + tag + "</Tag></Discovery>";
  Peer peer(dir, "peer", {std::to_string(domain()), "lo", "describe"}, uri);
  const int code = peer.wait(60s);
  INFO("stdout: " << peer.out() << "\nstderr: " << peer.err());
  REQUIRE(code == 0);

  CHECK_THAT(peer.out(), Catch::Contains("interface \"lo\" (DdsOptions::interface)"));
  CHECK_THAT(peer.out(), Catch::Contains("discovery tag \"" + tag + "\" (CYCLONEDDS_URI: inline XML;"));

  const std::string log = read_text(trace);
  INFO("Cyclone's trace: " << log);
  CHECK_THAT(log, Catch::Contains("Domain/General/Interfaces/NetworkInterface[@name]: lo "));
  CHECK_THAT(log, Catch::Contains("Domain/Discovery/Tag/#text: " + tag + " "));
  CHECK_THAT(log, Catch::Contains("selected interfaces: lo "));
}

TEST_CASE("CYCLONEDDS_URI: a file that cannot be read or is not valid is an error naming the variable and the file",
          "[dds][cyclone_uri]") {
  ScratchDir dir("cyclone_uri");
  const transport::DdsOptions options{domain(), "lo"};

  const auto missing = dir / "missing.xml";
  CHECK_THROWS_WITH(transport::merged_cyclone_config(options, "t", "file://" + missing.string()),
                    Catch::Contains("CYCLONEDDS_URI") && Catch::Contains("\"" + missing.string() + "\"") &&
                        Catch::Contains("No such file or directory"));
  const auto broken = dir.write("broken.xml", "<CycloneDDS>\n  <Domain>\n  </Domai>\n</CycloneDDS>\n");
  CHECK_THROWS_WITH(transport::merged_cyclone_config(options, "t", "file://" + broken.string()),
                    Catch::Contains("CYCLONEDDS_URI") && Catch::Contains("\"" + broken.string() + "\"") &&
                        Catch::Contains("not well-formed XML: line 3: </Domai> closes <Domain>"));
  const auto rootless = dir.write("rootless.xml", "<Domain><Discovery><Tag>x</Tag></Discovery></Domain>\n");
  CHECK_THROWS_WITH(transport::merged_cyclone_config(options, "t", rootless.string()),
                    Catch::Contains("CYCLONEDDS_URI") && Catch::Contains("\"" + rootless.string() + "\"") &&
                        Catch::Contains("root element <Domain>") && Catch::Contains("expects <CycloneDDS>"));
  CHECK_THROWS_WITH(transport::merged_cyclone_config(options, "t", "<Discovery><Tag>x</Tag>"),
                    Catch::Contains("CYCLONEDDS_URI") && Catch::Contains("inline XML at character 1") &&
                        Catch::Contains("<Discovery> is not closed"));
  CHECK_THROWS_WITH(transport::merged_cyclone_config(options, "t", dir.path().string()),
                    Catch::Contains("CYCLONEDDS_URI") && Catch::Contains("Is a directory"));

  // The same through a participant, as a user meets it.
  Peer peer(dir, "peer", {std::to_string(domain()), "lo", "describe"}, "file://" + broken.string());
  REQUIRE(peer.wait(60s) == 2);
  CHECK_THAT(peer.err(), Catch::Contains("CYCLONEDDS_URI") && Catch::Contains("\"" + broken.string() + "\""));
}

TEST_CASE("CYCLONEDDS_URI: a well-formed file with a value Cyclone refuses is blamed on that file",
          "[dds][cyclone_uri]") {
  ScratchDir dir("cyclone_uri");
  const auto file =
      dir.write("user.xml", cyclone_file("<Discovery><ParticipantIndex>banana</ParticipantIndex></Discovery>"));
  Peer peer(dir, "peer", {std::to_string(domain()), "lo", "describe"}, "file://" + file.string());
  REQUIRE(peer.wait(60s) == 2);
  INFO("stderr: " << peer.err());
  CHECK_THAT(peer.err(),
             Catch::Contains("cannot create DDS domain " + std::to_string(domain())) &&
                 Catch::Contains("Cyclone accepts praxis' settings alone, so it refused what CYCLONEDDS_URI adds") &&
                 Catch::Contains("file \"" + file.string() + "\""));
  // Cyclone's own message, which names the element, comes first.
  CHECK_THAT(peer.err(), Catch::Contains("ParticipantIndex"));
}

TEST_CASE("CYCLONEDDS_URI: two processes with a harmless user file still discover each other", "[dds][cyclone_uri]") {
  ScratchDir dir("cyclone_uri");
  const auto file =
      dir.write("user.xml", cyclone_file("<Discovery><ParticipantIndex>auto</ParticipantIndex></Discovery>"));
  const std::string uri = "file://" + file.string();
  const std::string d = std::to_string(domain());
  Peer writer(dir, "writer", {d, "lo", "write", "90"}, uri);
  Peer reader(dir, "reader", {d, "lo", "read", "60"}, uri);
  const int code = reader.wait(90s);
  INFO("reader stdout: " << reader.out() << "\nreader stderr: " << reader.err() << "\nwriter stderr: " << writer.err());
  CHECK(code == 0);
  CHECK_THAT(reader.out(), Catch::Contains("received"));
  CHECK_THAT(reader.err(), Catch::Contains("CYCLONEDDS_URI merged"));
}

TEST_CASE("CYCLONEDDS_URI entries are read the way Cyclone reads them", "[dds][cyclone_uri]") {
  ScratchDir dir("cyclone_uri");
  const transport::DdsOptions options{domain(), "lo"};

  SECTION("unset or blank: praxis' configuration alone") {
    const auto c = transport::merged_cyclone_config(options, "t", " , ");
    CHECK(c.xml == transport::cyclone_config(options, "t"));
    CHECK(c.user_uri.empty());
    CHECK(c.describe() == "interface \"lo\" (DdsOptions::interface), discovery tag \"t\" (PRAXIS_DDS_TAG)");
  }
  SECTION("interfaces add up across the user's entries; praxis' is left out; another domain's are ignored") {
    const auto a = dir.write(
        "a.xml", cyclone_file("<General><Interfaces><NetworkInterface name=\"eth7\"/></Interfaces></General>"));
    const auto other =
        dir.write("other.xml", "<CycloneDDS><Domain Id=\"" + std::to_string(domain() + 1) +
                                   "\"><General><Interfaces><NetworkInterface name=\"eth9\"/></Interfaces></General>"
                                   "<Discovery><Tag>not-mine</Tag></Discovery></Domain></CycloneDDS>");
    const std::string uri = "file://" + a.string() + "," + other.string() +
                            ",<General><Interfaces><NetworkInterface address=\"10.1.2.3\"/></Interfaces></General>";
    const auto c = transport::merged_cyclone_config(options, "t", uri);
    CHECK(c.interface.value == "eth7, address 10.1.2.3");
    CHECK(c.interface.user_source == "file \"" + a.string() + "\", inline XML");
    CHECK(c.tag.value == "t");
    CHECK_FALSE(c.tag.from_user());
    CHECK(c.user_sources.size() == 3);
    CHECK(c.xml.find("name=\"lo\"") == std::string::npos);
    CHECK(c.xml.ends_with("," + uri));  // verbatim, after praxis' settings
  }
  SECTION("the older spellings: General under CycloneDDS, Domain/Id, NetworkInterfaceAddress") {
    const auto c = transport::merged_cyclone_config(
        options, "t",
        "<CycloneDDS><General><NetworkInterfaceAddress> eth3 </NetworkInterfaceAddress></General></CycloneDDS>,"
        "<Domain><Id>" +
            std::to_string(domain()) + "</Id><Discovery><Tag>legacy</Tag></Discovery></Domain>");
    CHECK(c.interface.value == "eth3");
    CHECK(c.tag.value == "legacy");
    CHECK(c.xml.find("<Interfaces>") == std::string::npos);
  }
  SECTION(
      "deprecated options that exclude General/Interfaces: praxis writes its interface the older way, and Cyclone "
      "takes it") {
    const auto c =
        transport::merged_cyclone_config(options, "t", "<General><PreferMulticast>true</PreferMulticast></General>");
    CHECK(c.interface.value == "lo");
    CHECK_FALSE(c.interface.from_user());
    CHECK(c.xml.find("<NetworkInterfaceAddress>lo</NetworkInterfaceAddress>") != std::string::npos);
    CHECK(c.xml.find("<Interfaces>") == std::string::npos);
    const dds_entity_t d = dds_create_domain(domain(), c.xml.c_str());
    CHECK(d > 0);
    if (d > 0) dds_delete(d);
  }
  SECTION("an empty Tag is no Tag for Cyclone (it skips elements without text): praxis' stays") {
    const auto c = transport::merged_cyclone_config(options, "t", "<Discovery><Tag> </Tag></Discovery>");
    CHECK(c.tag.value == "t");
    CHECK_FALSE(c.tag.from_user());
  }
  SECTION("a user's NetworkInterface with autodetermine leaves the choice to Cyclone") {
    const auto c = transport::merged_cyclone_config(
        options, "t", "<General><Interfaces><NetworkInterface autodetermine=\"true\"/></Interfaces></General>");
    CHECK(c.interface.value.empty());
    CHECK(c.interface.from_user());
    CHECK_THAT(c.describe(), Catch::StartsWith("interface chosen by Cyclone (CYCLONEDDS_URI: inline XML; praxis' "
                                               "DdsOptions::interface \"lo\" is not used)"));
  }
}

}  // namespace cyclone_uri_test

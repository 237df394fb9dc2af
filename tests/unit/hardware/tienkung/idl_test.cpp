// The generated bodyctrl_msgs types as Cyclone serialises them: the DDS type names of the ROS 2
// mapping, XCDR1 little-endian encapsulation, and the byte plan of the fact sheet (B.7): element
// strides 20 / 24 / 28 for the three MotorStatus layouts, 16 for SetMotorPosition, a header
// followed by the Imu's doubles on an 8-byte boundary. Measured on real samples: written and taken
// back as serialised data in one participant on domain 8.

#include <catch2/catch.hpp>

#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <dds/dds.h>
#include <dds/ddsi/ddsi_serdata.h>

#include <praxis/idl/bodyctrl_msgs.h>
#include <praxis/idl/std_msgs.h>

#include "praxis/hardware/tienkung/codec.hpp"
#include "praxis/transport/dds.hpp"

namespace tienkung_idl_test {

namespace tk = praxis::tienkung;

constexpr std::uint32_t k_domain = 8;

// Writes one sample on a fresh topic and returns its serialised bytes (encapsulation header first).
class Serialiser {
 public:
  Serialiser() : participant_(dds_create_participant(k_domain, nullptr, nullptr)) { REQUIRE(participant_ > 0); }
  ~Serialiser() { dds_delete(participant_); }
  Serialiser(const Serialiser&) = delete;
  Serialiser& operator=(const Serialiser&) = delete;

  std::vector<unsigned char> bytes(const dds_topic_descriptor_t* d, const void* sample) {
    const std::string name = "praxis_tienkung_idl_" + std::to_string(++topics_);
    const dds_entity_t topic = dds_create_topic(participant_, d, name.c_str(), nullptr, nullptr);
    REQUIRE(topic > 0);
    dds_qos_t* qos = dds_create_qos();
    dds_qset_reliability(qos, DDS_RELIABILITY_RELIABLE, DDS_SECS(1));
    dds_qset_history(qos, DDS_HISTORY_KEEP_ALL, 0);
    const dds_entity_t reader = dds_create_reader(participant_, topic, qos, nullptr);
    const dds_entity_t writer = dds_create_writer(participant_, topic, qos, nullptr);
    dds_delete_qos(qos);
    REQUIRE(reader > 0);
    REQUIRE(writer > 0);
    REQUIRE(dds_write(writer, sample) == DDS_RETCODE_OK);
    struct ddsi_serdata* data = nullptr;
    dds_sample_info_t info;
    REQUIRE(dds_takecdr(reader, &data, 1, &info, DDS_ANY_STATE) == 1);
    std::vector<unsigned char> out(ddsi_serdata_size(data));
    ddsi_serdata_to_ser(data, 0, out.size(), out.data());
    ddsi_serdata_unref(data);
    return out;
  }

 private:
  dds_entity_t participant_;
  int topics_ = 0;
};

template <class Message, class Element>
std::size_t stride(Serialiser& s, const dds_topic_descriptor_t* d) {
  std::array<Element, 2> elements{};
  std::array<char, 1> frame{};
  Message m{};
  m.header.frame_id = frame.data();
  m.status = {1, 1, elements.data(), false};
  const auto one = s.bytes(d, &m);
  m.status = {2, 2, elements.data(), false};
  const auto two = s.bytes(d, &m);
  return two.size() - one.size();
}

std::uint32_t u32(const std::vector<unsigned char>& b, std::size_t at) {
  std::uint32_t v;
  std::memcpy(&v, b.data() + at, 4);
  return v;
}

TEST_CASE("bodyctrl_msgs: the DDS type names are ROS 2's", "[tienkung][idl]") {
  CHECK(std::string(bodyctrl_msgs_msg_dds__MotorStatusMsg__desc.m_typename) ==
        "bodyctrl_msgs::msg::dds_::MotorStatusMsg_");
  CHECK(std::string(bodyctrl_msgs_msg_dds__CmdMotorCtrl__desc.m_typename) == "bodyctrl_msgs::msg::dds_::CmdMotorCtrl_");
  CHECK(std::string(bodyctrl_msgs_msg_dds__CmdSetMotorSpeed__desc.m_typename) ==
        "bodyctrl_msgs::msg::dds_::CmdSetMotorSpeed_");
  CHECK(std::string(bodyctrl_msgs_msg_dds__CmdSetMotorPosition__desc.m_typename) ==
        "bodyctrl_msgs::msg::dds_::CmdSetMotorPosition_");
  CHECK(std::string(bodyctrl_msgs_msg_dds__CmdSetMotorCurTor__desc.m_typename) ==
        "bodyctrl_msgs::msg::dds_::CmdSetMotorCurTor_");
  CHECK(std::string(bodyctrl_msgs_msg_dds__Imu__desc.m_typename) == "bodyctrl_msgs::msg::dds_::Imu_");
  CHECK(std::string(std_msgs_msg_dds__String__desc.m_typename) == "std_msgs::msg::dds_::String_");
  // The other layouts go out under the one name robots use for all of them.
  const auto* renamed = praxis::transport::with_type_name(
      tk::StatusWire<tk::StatusLayout::without_error>::descriptor(), "bodyctrl_msgs::msg::dds_::MotorStatusMsg_");
  CHECK(std::string(renamed->m_typename) == "bodyctrl_msgs::msg::dds_::MotorStatusMsg_");
  CHECK(renamed->m_size == sizeof(tk::StatusWire<tk::StatusLayout::without_error>::Message));
}

TEST_CASE("bodyctrl_msgs: Cyclone serialises the fact sheet's byte plan", "[tienkung][idl][dds]") {
  Serialiser s;
  using NoError = tk::StatusWire<tk::StatusLayout::without_error>;
  using WithError = tk::StatusWire<tk::StatusLayout::with_error>;
  using WithVoltage = tk::StatusWire<tk::StatusLayout::with_voltage>;
  CHECK(stride<NoError::Message, NoError::Element>(s, NoError::descriptor()) == 20);
  CHECK(stride<WithError::Message, WithError::Element>(s, WithError::descriptor()) == 24);
  CHECK(stride<WithVoltage::Message, WithVoltage::Element>(s, WithVoltage::descriptor()) == 28);

  // CmdSetMotorPosition with one command: encapsulation 00 01 00 00 | sec | nanosec | frame_id
  // length 1 + NUL, padded to 4 | count | name, 2 bytes padding, pos, spd, cur.
  bodyctrl_msgs_msg_dds__SetMotorPosition_ cmd{12, 0.3f, 0.2f, 8.0f};
  std::array<char, 1> frame{};
  bodyctrl_msgs_msg_dds__CmdSetMotorPosition_ m{};
  m.header.stamp = {7, 9};
  m.header.frame_id = frame.data();
  m.cmds = {1, 1, &cmd, false};
  const auto b = s.bytes(&bodyctrl_msgs_msg_dds__CmdSetMotorPosition__desc, &m);
  REQUIRE(b.size() == 4 + 4 + 4 + 4 + 4 + 4 + 16);
  CHECK(b[0] == 0x00);
  CHECK(b[1] == 0x01);  // CDR_LE (XCDR1), what rmw_fastrtps sends
  CHECK(u32(b, 4) == 7);
  CHECK(u32(b, 8) == 9);
  CHECK(u32(b, 12) == 1);  // frame_id: length with the NUL
  CHECK(u32(b, 20) == 1);  // one command
  CHECK(b[24] == 12);      // name
  float pos;
  std::memcpy(&pos, b.data() + 28, 4);
  CHECK(pos == 0.3f);

  // Imu: after the 17-byte header the doubles start on an 8-byte boundary (payload offset 16).
  bodyctrl_msgs_msg_dds__Imu_ imu{};
  imu.header.frame_id = frame.data();
  imu.orientation.w = 1.0;
  imu.error = 5;
  const auto i = s.bytes(&bodyctrl_msgs_msg_dds__Imu__desc, &imu);
  double w;
  std::memcpy(&w, i.data() + 4 + 16 + 24, 8);
  CHECK(w == 1.0);
  // orientation 32, two vectors 48, euler 24, then the error at payload offset 120.
  CHECK(u32(i, 4 + 120) == 5);
  CHECK(i.size() == 4 + 128 + 72);  // error padded to 8 before the covariances
}

}  // namespace tienkung_idl_test

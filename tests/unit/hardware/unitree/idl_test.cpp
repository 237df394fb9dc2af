// The generated Unitree types: XTypes type hashes equal to the vendor SDK's (a mismatch means the
// robot silently never connects), and the C struct sizes the CRC is computed over.

#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <string>

#include <praxis/idl/unitree_api.h>
#include <praxis/idl/unitree_go.h>
#include <praxis/idl/unitree_hg.h>

namespace unitree_idl_test {

namespace {

std::string hex(const unsigned char* p, std::size_t n) {
  static const char* digits = "0123456789abcdef";
  std::string s;
  for (std::size_t i = 0; i < n; ++i) {
    s += digits[p[i] >> 4];
    s += digits[p[i] & 15];
  }
  return s;
}

// The type's own identifier is the first one of each kind in its serialized TypeInformation:
// 0xF1 + 14-byte MINIMAL hash, 0xF2 + 14-byte COMPLETE hash.
std::string first_hash(const dds_topic_descriptor_t& d, unsigned char kind) {
  const auto* data = d.type_information.data;
  for (std::uint32_t i = 8; i + 15 <= d.type_information.sz; ++i) {
    if (data[i] == kind) return hex(data + i + 1, 14);
  }
  return "none";
}

struct Expected {
  const dds_topic_descriptor_t* desc;
  const char* type_name;
  const char* complete;
  const char* minimal;
};

}  // namespace

TEST_CASE("generated types carry the vendor SDK's type names and XTypes hashes", "[unitree][idl]") {
  const Expected table[] = {
      {&unitree_go_msg_dds__LowCmd__desc, "unitree_go::msg::dds_::LowCmd_", "52cc8eb0d427d692aa2b20a90540",
       "832876ceec9737d69f6ed62a3f63"},
      {&unitree_go_msg_dds__LowState__desc, "unitree_go::msg::dds_::LowState_", "08f239c471d3a27e67e7c7723184",
       "853a99e23d0daa1610b65c526b40"},
      {&unitree_go_msg_dds__WirelessController__desc, "unitree_go::msg::dds_::WirelessController_",
       "e9686fe76f7b08f92cb24943ac72", "d8dc69fff5d75961cd0e3fc049cb"},
      {&unitree_hg_msg_dds__LowCmd__desc, "unitree_hg::msg::dds_::LowCmd_", "42b0283aa7e1bb592ec898a0dbed",
       "6569fc15f0d47aa8600b9e91fbbc"},
      {&unitree_hg_msg_dds__LowState__desc, "unitree_hg::msg::dds_::LowState_", "2be9706c9587e8d8afd8bfc6de7b",
       "2f38296b52aa0230b92d378b1e39"},
      {&unitree_hg_msg_dds__IMUState__desc, "unitree_hg::msg::dds_::IMUState_", "7d4166754177d86fa27cd25b0403",
       "fc687176651206558473df442280"},
      {&unitree_api_msg_dds__Request__desc, "unitree_api::msg::dds_::Request_", "c47a4429fcbf539486498753c48f",
       "cba4dc965d393ada76b4de081925"},
      {&unitree_api_msg_dds__Response__desc, "unitree_api::msg::dds_::Response_", "d1c32cc02214901a464a6c51325d",
       "48c997d379c3e18c530b5f8fe946"},
  };
  for (const auto& e : table) {
    INFO(e.type_name);
    CHECK(std::string(e.desc->m_typename) == e.type_name);
    REQUIRE(e.desc->type_information.sz > 0);
    CHECK(first_hash(*e.desc, 0xF2) == e.complete);
    CHECK(first_hash(*e.desc, 0xF1) == e.minimal);
    CHECK(e.desc->m_nkeys == 0);  // keyless
  }
}

TEST_CASE("C struct images have the sizes the CRC covers", "[unitree][idl]") {
  CHECK(sizeof(unitree_go_msg_dds__LowCmd_) == 812);
  CHECK(sizeof(unitree_go_msg_dds__LowState_) == 1180);
  CHECK(sizeof(unitree_hg_msg_dds__LowCmd_) == 1004);
  CHECK(sizeof(unitree_hg_msg_dds__LowState_) == 2092);
  CHECK(offsetof(unitree_go_msg_dds__LowCmd_, motor_cmd) == 24);
  CHECK(offsetof(unitree_go_msg_dds__LowCmd_, crc) == 808);
  CHECK(offsetof(unitree_go_msg_dds__LowState_, wireless_remote) == 1104);
  CHECK(offsetof(unitree_hg_msg_dds__LowCmd_, motor_cmd) == 4);
  CHECK(offsetof(unitree_hg_msg_dds__LowState_, motor_state) == 72);
  CHECK(offsetof(unitree_hg_msg_dds__LowState_, wireless_remote) == 2032);
  CHECK(offsetof(unitree_hg_msg_dds__LowState_, crc) == 2088);
}

}  // namespace unitree_idl_test

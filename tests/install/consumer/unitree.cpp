// The DDS part of an installed praxis: generated Unitree types, the codec and its CRC.
#include <cstdio>

#include <praxis/hardware/unitree/codec.hpp>

int main() {
  praxis::JointCommand<12> c;
  c.q.setConstant(2.146e9);
  c.dq.setConstant(16000.0);
  unitree_go_msg_dds__LowCmd_ msg;
  praxis::unitree::encode_command<praxis::unitree::Go2>(c, {}, msg);
  std::printf("LowCmd crc %08x\n", static_cast<unsigned>(msg.crc));
  return msg.crc == 0x06E577CDu ? 0 : 1;  // vector V2 of docs/backends/unitree_wire.md
}

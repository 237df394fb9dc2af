#pragma once
// The topic table of a DDS robot: what a vendor gives the generic DdsBackend (dds_backend.hpp).
//
// State topics each decode into their part of one RobotState (Unitree: one LowState; Aurora: the
// control groups' joint states plus the base data; Tienkung: one MotorStatusMsg per limb plus the
// IMU). The FIRST state topic of the table is the primary one: a sample on it makes read() report a
// new state and wakes a state-triggered loop; the others are merged in whenever they arrive.
// Command topics each encode their slice of one JointCommand (Unitree: the whole LowCmd; Aurora:
// one RobotControlGroupCmd; Tienkung: one CmdMotorCtrl per limb) and are sent only when their
// encoder has something to say.
//
//   StateTopic<N, Context, Value>                    Value is a fixed-size generated type
//   DecodedStateTopic<N, Context, Wire, Value>       Wire has sequences or strings; Cyclone's thread
//                                                    turns it into the fixed-size Value
//   CommandTopic<N, Context, Value>                  Value is a fixed-size generated type
//   EncodedCommandTopic<N, Context, Wire, Value, ToWire>   Value -> Wire with storage lent once
//
// The functions, all plain function pointers so a table is data:
//   decode(const Value&, TimePoint received, RobotState<N>& assembled, Context&) -> bool
//       on the thread that calls read(); false rejects the sample (counted, nothing changes)
//   to_value(const Wire&, Value&) -> const char*      on Cyclone's thread; nullptr accepts, else why not
//   encode(const JointCommand<N>&, TimePoint now, Context&, Value&) -> bool
//       on the thread that calls write(), with write()'s time (for ramps); false sends nothing this
//       time (the command does not cover the topic's joints, or the robot is not ready for it)
// Optional, on the vendor: complete_state(TimePoint primary_received, RobotState<N>& assembled, Context&)
//       on the thread that calls read(), after every state topic's latest sample was decoded, when the
//       primary topic brought a new state: for checks across topics (Tienkung: a limb or the IMU
//       silent while the legs speak). Made while decoding the primary topic, such a check would see
//       the other topics as of the previous read, and a read delayed by longer than their timeout
//       would find them all silent although their samples wait in the same read.
// Context is the vendor's codec state shared by both directions (e.g. a value the robot reports and
// commands must echo); decode and encode run on different threads, so what they share is atomic.

#include <cstddef>
#include <string>
#include <type_traits>

#include <dds/dds.h>

#include "praxis/core/clock.hpp"
#include "praxis/core/joint_command.hpp"
#include "praxis/core/robot_state.hpp"
#include "praxis/transport/dds.hpp"

namespace praxis {

template <std::size_t N, class Context, class Value>
struct StateTopic {
  static_assert(std::is_trivially_copyable_v<Value>,
                "praxis::StateTopic: the value must be a fixed-size type; a message with sequences or strings "
                "is a DecodedStateTopic (its Wire type decodes into a fixed-size Value)");
  using value_type = Value;
  using Decode = bool (*)(const Value&, TimePoint received, RobotState<N>& assembled, Context& context);
  std::string name;
  const dds_topic_descriptor_t* descriptor = nullptr;
  Decode decode = nullptr;
  transport::TopicQos qos{};
};

template <std::size_t N, class Context, class Wire, class Value>
struct DecodedStateTopic : StateTopic<N, Context, Value> {
  using wire_type = Wire;
  using ToValue = const char* (*)(const Wire&, Value&);
  ToValue to_value = nullptr;
};

template <std::size_t N, class Context, class Value>
struct CommandTopic {
  using value_type = Value;
  using Encode = bool (*)(const JointCommand<N>&, TimePoint now, Context& context, Value& out);
  std::string name;
  const dds_topic_descriptor_t* descriptor = nullptr;
  Encode encode = nullptr;
  transport::TopicQos qos{};
};

// ToWire is transport::EncodingPublisher's encoder: callable as to_wire(const Value&, Wire&) -> bool, and
// owning the storage the sample's sequences point into (allocated once, when the table is made).
template <std::size_t N, class Context, class Wire, class Value, class ToWire>
struct EncodedCommandTopic : CommandTopic<N, Context, Value> {
  using wire_type = Wire;
  using to_wire_type = ToWire;
  ToWire to_wire;
};

namespace detail {
template <class T>
concept HasWireType = requires { typename T::wire_type; };
}  // namespace detail

}  // namespace praxis

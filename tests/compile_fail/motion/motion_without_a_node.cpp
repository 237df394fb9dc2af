// A motion in the list whose tag has no motion_node (nothing says which node carries it out): the
// configuration must not compile, and the error names the tag.
#include "praxis/control/detail/configuration.hpp"
#include "praxis/hardware/unitree/go2.hpp"

namespace m = praxis::motion;

// A tag of the list's shape, with no motion_node specialization anywhere.
struct Hop : praxis::motion_tag<praxis::MotionType::stand, "hop", praxis::RobotModeFor::user, praxis::RunBy::praxis,
                                true, praxis::Asked::by_type> {};
template <class Tag>
struct never {};
using Nodes = praxis::control::detail::motion_nodes<praxis::unitree::Go2, praxis::Capabilities{},
                                                    m::motion_list<praxis::motions::Damping, Hop>, never,
                                                    praxis::control::detail::all_motions>;
using Instantiate = Nodes::nodes;
Instantiate* use = nullptr;

// expect: motion_without_a_node<Hop>
// expect: has no node

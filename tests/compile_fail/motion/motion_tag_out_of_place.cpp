#include "praxis/motion/registry.hpp"

namespace m = praxis::motion;

// Two tags swapped: the list would give prepare's name and robot mode to damping and back.
using Swapped = m::motion_list<praxis::motions::Prepare, praxis::motions::Damping>;
static_assert(Swapped::in_order());

// expect: motion_tag_out_of_place<praxis::motions::Prepare

// A program written before run() returned how control ended: it ignores the outcome, and would exit
// 0 after a fault. RunOutcome is [[nodiscard]], so the compiler says so (an error here, as under the
// project's -Werror).
#pragma GCC diagnostic error "-Wunused-result"
#include "praxis/control/run_outcome.hpp"

praxis::control::RunOutcome run() { return {}; }

int main() {
  run();
  return 0;
}
// expect: a RunOutcome says how control ended (a fault, a lost link, a stall): return outcome.exit_code()

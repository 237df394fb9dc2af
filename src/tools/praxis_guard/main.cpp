// praxis-guard: started by a praxis run that takes control of a robot on a wire, never by hand
// (control/guard.hpp, docs/safety.md "Killed or hung controller"). It builds the controller's backend
// again from its options, watches the controller (its process and the heartbeat in the memory they
// share, on file descriptor 3) and, should it die or hang, sends the robot's safe request.
//
//   praxis-guard --backend unitree --model g1 --options '{...}' --pid 1234

#include <signal.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdio>
#include <exception>
#include <string>

#include <CLI/CLI.hpp>

#include "praxis/control/detail/guard_block.hpp"
#include "praxis/io/params.hpp"
#include "vendors.hpp"

int main(int argc, char** argv) {
  namespace g = praxis::guard;
  CLI::App app("praxis-guard: sends a robot its safe request when the praxis controller that has it dies or hangs "
               "(started by the controller's run, not by hand)");
  g::Request request;
  int pid = 0;
  app.add_option("--backend", request.backend, "the controller's backend kind")->required();
  app.add_option("--model", request.model, "the robot model")->required();
  app.add_option("--options", request.options, "the backend's options, as JSON")->required();
  app.add_option("--pid", pid, "the controller's process id")->required();
  CLI11_PARSE(app, argc, argv);

  // The controller's signals are not ours: a Ctrl-C or SIGTERM meant for it (its process group, a
  // supervisor) must leave the guard to do its job if the controller dies of it.
  for (const int s : {SIGINT, SIGTERM, SIGHUP, SIGQUIT}) ::signal(s, SIG_IGN);

  void* memory = ::mmap(nullptr, sizeof(praxis::control::detail::GuardBlock), PROT_READ | PROT_WRITE, MAP_SHARED,
                        praxis::control::detail::k_guard_fd, 0);
  if (memory == MAP_FAILED) {
    std::fprintf(stderr, "praxis-guard: no shared memory on file descriptor 3: started by hand? It is started by a "
                         "praxis run (RuntimeOptions::guard)\n");
    return 2;
  }
  auto* block = static_cast<praxis::control::detail::GuardBlock*>(memory);
  if (block->magic != praxis::control::detail::k_guard_magic ||
      block->version != praxis::control::detail::k_guard_version) {
    std::fprintf(stderr, "praxis-guard: the shared memory is not a praxis-guard block of version %u\n",
                 praxis::control::detail::k_guard_version);
    return 2;
  }
  g::Watch watch;
  watch.block = block;
  watch.controller = pid;
  watch.name = request.backend + " " + request.model;
  watch.pidfd = static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
  if (watch.pidfd < 0) {
    g::say(*block, "cannot watch process " + std::to_string(pid) + " (pidfd_open: " + std::strerror(errno) + ")");
    g::set_phase(*block, praxis::control::detail::GuardPhase::failed);
    return 2;
  }
  try {
    return g::guard_vendor(request, watch);
  } catch (const std::exception& e) {
    g::say(*block, e.what());
    if (g::phase_of(*block) == praxis::control::detail::GuardPhase::starting) {
      g::set_phase(*block, praxis::control::detail::GuardPhase::failed);
    }
    std::fprintf(stderr, "praxis-guard: %s\n", e.what());
    return 2;
  }
}

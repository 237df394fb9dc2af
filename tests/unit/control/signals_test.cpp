// StopOnSignals: while one lives, SIGINT and SIGTERM call request_stop_from_signal(sig) on every
// registered runtime (and only on those still registered) instead of the previous handlers; the
// previous handlers come back when the last one is destroyed, not before; received() counts the
// signals since the first of a group of live objects was made; a ninth registration is refused with
// an error naming the limit and leaves the others working; a second signal gets the default action
// (the process ends by that signal, shown in a forked child). The signals are raised with raise(),
// which runs the handler on the calling thread before it returns: no waiting, no timing.
#include <catch2/catch.hpp>

#include <array>
#include <atomic>
#include <csignal>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

#include <sys/wait.h>
#include <unistd.h>

#include "praxis/control/signals.hpp"

namespace signals_test {

namespace {

// A runtime as StopOnSignals sees it: it records what the handler asked of it.
// Lock-free atomics: what a signal handler may touch.
struct FakeRuntime {
  std::atomic<int> stop_calls{0};
  std::atomic<int> sig{0};
  void request_stop_from_signal(int s) noexcept {
    stop_calls.fetch_add(1);
    sig.store(s);
  }
  [[nodiscard]] int stops() const { return stop_calls.load(); }
  [[nodiscard]] int last_signal() const { return sig.load(); }
};
static_assert(std::atomic<int>::is_always_lock_free);

// The process's own handler, installed before any StopOnSignals: it must come back afterwards.
std::atomic<int> g_own{0};
void own_handler(int) { g_own.fetch_add(1); }
int own_calls() { return g_own.load(); }

// Installs own_handler for SIGINT and SIGTERM for the scope, restoring what was there before.
class OwnHandlers {
 public:
  OwnHandlers() {
    g_own.store(0);
    struct sigaction a {};
    a.sa_handler = &own_handler;
    sigemptyset(&a.sa_mask);
    sigaction(SIGINT, &a, &old_int_);
    sigaction(SIGTERM, &a, &old_term_);
  }
  ~OwnHandlers() {
    sigaction(SIGINT, &old_int_, nullptr);
    sigaction(SIGTERM, &old_term_, nullptr);
  }
  OwnHandlers(const OwnHandlers&) = delete;
  OwnHandlers& operator=(const OwnHandlers&) = delete;

 private:
  struct sigaction old_int_ {};
  struct sigaction old_term_ {};
};

using Handler = void (*)(int);
Handler current_handler(int sig) {
  struct sigaction now {};
  sigaction(sig, nullptr, &now);
  return now.sa_handler;
}

}  // namespace

TEST_CASE("signals: SIGINT stops the registered runtime with its number and is counted", "[control][signals]") {
  OwnHandlers own;
  FakeRuntime runtime;
  {
    praxis::control::StopOnSignals stop(runtime);
    CHECK(praxis::control::StopOnSignals::received() == 0);
    CHECK(current_handler(SIGINT) == &praxis::control::detail::praxis_stop_signal_handler);
    CHECK(current_handler(SIGTERM) == &praxis::control::detail::praxis_stop_signal_handler);
    std::raise(SIGINT);
    CHECK(runtime.stops() == 1);
    CHECK(runtime.last_signal() == SIGINT);
    CHECK(praxis::control::StopOnSignals::received() == 1);
    CHECK(own_calls() == 0);  // the previous handler is not called while a StopOnSignals lives
  }
  // The previous handler is back: a signal now goes to it, not to the runtime.
  CHECK(current_handler(SIGINT) == &own_handler);
  CHECK(current_handler(SIGTERM) == &own_handler);
  std::raise(SIGINT);
  CHECK(own_calls() == 1);
  CHECK(runtime.stops() == 1);
}

TEST_CASE("signals: SIGTERM stops the runtime the same way", "[control][signals]") {
  OwnHandlers own;
  FakeRuntime runtime;
  praxis::control::StopOnSignals stop(runtime);
  std::raise(SIGTERM);
  CHECK(runtime.stops() == 1);
  CHECK(runtime.last_signal() == SIGTERM);
  CHECK(praxis::control::StopOnSignals::received() == 1);
  CHECK(own_calls() == 0);
}

TEST_CASE("signals: one signal stops every registered runtime", "[control][signals]") {
  OwnHandlers own;
  std::array<FakeRuntime, 3> runtimes;
  praxis::control::StopOnSignals a(runtimes[0]);
  praxis::control::StopOnSignals b(runtimes[1]);
  praxis::control::StopOnSignals c(runtimes[2]);
  std::raise(SIGTERM);
  for (const auto& r : runtimes) {
    CHECK(r.stops() == 1);
    CHECK(r.last_signal() == SIGTERM);
  }
  CHECK(praxis::control::StopOnSignals::received() == 1);
}

TEST_CASE("signals: an unregistered runtime is not stopped and the handlers stay while another lives",
          "[control][signals]") {
  OwnHandlers own;
  FakeRuntime kept;
  FakeRuntime gone;
  praxis::control::StopOnSignals keep(kept);
  {
    praxis::control::StopOnSignals leave(gone);
  }
  // The first object still lives: praxis' handler stays installed.
  CHECK(current_handler(SIGINT) == &praxis::control::detail::praxis_stop_signal_handler);
  CHECK(current_handler(SIGTERM) == &praxis::control::detail::praxis_stop_signal_handler);
  std::raise(SIGINT);
  CHECK(kept.stops() == 1);
  CHECK(gone.stops() == 0);
  CHECK(own_calls() == 0);
}

TEST_CASE("signals: the count starts afresh with the next first StopOnSignals", "[control][signals]") {
  OwnHandlers own;
  FakeRuntime first;
  {
    praxis::control::StopOnSignals stop(first);
    std::raise(SIGINT);
    REQUIRE(praxis::control::StopOnSignals::received() == 1);
  }
  // Still readable after the last one is gone.
  CHECK(praxis::control::StopOnSignals::received() == 1);
  FakeRuntime second;
  praxis::control::StopOnSignals again(second);
  CHECK(praxis::control::StopOnSignals::received() == 0);
  // ... so a new first signal stops the runtime instead of ending the process.
  std::raise(SIGINT);
  CHECK(second.stops() == 1);
  CHECK(first.stops() == 1);
  CHECK(praxis::control::StopOnSignals::received() == 1);
}

TEST_CASE("signals: a ninth runtime is refused with an error naming the limit and the eight keep working",
          "[control][signals]") {
  OwnHandlers own;
  REQUIRE(praxis::control::detail::k_max_signal_targets == 8);
  std::array<FakeRuntime, 9> runtimes;
  std::array<std::optional<praxis::control::StopOnSignals>, 8> registered;
  for (std::size_t k = 0; k < registered.size(); ++k) registered[k].emplace(runtimes[k]);
  std::string error;
  try {
    praxis::control::StopOnSignals ninth(runtimes[8]);
  } catch (const std::length_error& e) {
    error = e.what();
  }
  CHECK(error.find("StopOnSignals") != std::string::npos);
  CHECK(error.find("more than 8") != std::string::npos);

  // A slot freed takes a new runtime.
  registered[3].reset();
  praxis::control::StopOnSignals ninth(runtimes[8]);
  std::raise(SIGTERM);
  for (std::size_t k = 0; k < runtimes.size(); ++k) {
    INFO("runtime " << k);
    CHECK(runtimes[k].stops() == (k == 3 ? 0 : 1));
  }
  CHECK(own_calls() == 0);
}

TEST_CASE("signals: after a refused ninth runtime the last destruction still restores the previous handlers",
          "[control][signals]") {
  OwnHandlers own;
  std::array<FakeRuntime, 9> runtimes;
  {
    std::array<std::optional<praxis::control::StopOnSignals>, 8> registered;
    for (std::size_t k = 0; k < registered.size(); ++k) registered[k].emplace(runtimes[k]);
    CHECK_THROWS_AS(praxis::control::StopOnSignals(runtimes[8]), std::length_error);
  }
  CHECK(current_handler(SIGINT) == &own_handler);
  CHECK(current_handler(SIGTERM) == &own_handler);
  std::raise(SIGINT);
  CHECK(own_calls() == 1);
  for (const auto& r : runtimes) CHECK(r.stops() == 0);
}

TEST_CASE("signals: a second signal ends the process by that signal", "[control][signals]") {
  // In a child process: the test binary must live on. The child reports how far it got by its exit
  // code; a child killed by SIGINT never reaches one.
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    FakeRuntime runtime;
    praxis::control::StopOnSignals stop(runtime);
    std::raise(SIGINT);
    if (runtime.stops() != 1) ::_exit(3);  // the first signal must only stop the runtime
    std::raise(SIGINT);
    ::_exit(4);  // survived the second signal
  }
  int status = 0;
  REQUIRE(::waitpid(child, &status, 0) == child);
  INFO("exit code " << (WIFEXITED(status) ? WEXITSTATUS(status) : -1));
  CHECK(WIFSIGNALED(status));
  if (WIFSIGNALED(status)) CHECK(WTERMSIG(status) == SIGINT);
}

}  // namespace signals_test

// LatestValue: the lock-free latest-value mailbox (a triple buffer) between the receive, control and
// send threads. The consumer sees the newest published value, never an older one than it already
// took and never one half written; fetch() says whether there was something new; the producer's
// slot is never the one the consumer reads. Across real threads only orders, counts and consistency
// are asserted, never times (a loaded 2-core machine, ASan and TSan).
#include <catch2/catch.hpp>

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <random>
#include <thread>

#include "praxis/core/mailbox.hpp"

namespace mailbox_test {

namespace {

// A value of several fields, every one stamped with the same number: a copy mixing two publishes
// shows as fields that disagree.
struct Stamped {
  std::uint64_t seq = 0;
  std::array<std::uint64_t, 15> copies{};

  [[nodiscard]] bool consistent() const {
    for (const auto c : copies) {
      if (c != seq) return false;
    }
    return true;
  }
};

Stamped stamped(std::uint64_t n) {
  Stamped s;
  s.seq = n;
  s.copies.fill(n);
  return s;
}

// Written field by field into the producer's slot, as a receive thread decodes a message in place.
void write_in_place(praxis::LatestValue<Stamped>& box, std::uint64_t n) {
  auto& b = box.back();
  b.seq = n;
  for (auto& c : b.copies) c = n;
  box.publish();
}

}  // namespace

TEST_CASE("mailbox: before any publish fetch() finds nothing and value() is the initial value",
          "[core][mailbox]") {
  praxis::LatestValue<int> defaulted;
  CHECK_FALSE(defaulted.fetch());
  CHECK(defaulted.value() == 0);
  CHECK_FALSE(defaulted.fetch());

  praxis::LatestValue<int> initial(42);
  CHECK_FALSE(initial.fetch());
  CHECK(initial.value() == 42);
  CHECK_FALSE(initial.fetch());
  CHECK(initial.value() == 42);
}

TEST_CASE("mailbox: a published value is fetched once and then kept while nothing new comes", "[core][mailbox]") {
  praxis::LatestValue<int> box(-1);
  box.publish(7);
  CHECK(box.value() == -1);  // not taken until fetched
  REQUIRE(box.fetch());
  CHECK(box.value() == 7);
  CHECK_FALSE(box.fetch());
  CHECK(box.value() == 7);
  CHECK_FALSE(box.fetch());
  CHECK(box.value() == 7);

  box.publish(8);
  REQUIRE(box.fetch());
  CHECK(box.value() == 8);
  CHECK_FALSE(box.fetch());
  CHECK(box.value() == 8);
}

TEST_CASE("mailbox: of several publishes between two fetches only the newest is taken", "[core][mailbox]") {
  praxis::LatestValue<int> box;
  box.publish(1);
  box.publish(2);
  box.publish(3);
  REQUIRE(box.fetch());
  CHECK(box.value() == 3);
  CHECK_FALSE(box.fetch());  // 1 and 2 are gone, not queued behind 3
  CHECK(box.value() == 3);

  // Many more publishes than slots: still the newest, never a recycled older slot.
  for (int i = 4; i <= 1000; ++i) box.publish(i);
  REQUIRE(box.fetch());
  CHECK(box.value() == 1000);
  CHECK_FALSE(box.fetch());
  CHECK(box.value() == 1000);
}

TEST_CASE("mailbox: a value filled in place through back() is what publish() hands over", "[core][mailbox]") {
  praxis::LatestValue<Stamped> box;
  write_in_place(box, 5);
  REQUIRE(box.fetch());
  CHECK(box.value().seq == 5);
  CHECK(box.value().consistent());

  // Filling the producer's slot without publishing changes nothing the consumer sees.
  box.back() = stamped(99);
  CHECK_FALSE(box.fetch());
  CHECK(box.value().seq == 5);
  CHECK(box.value().consistent());
  box.publish();
  REQUIRE(box.fetch());
  CHECK(box.value().seq == 99);
}

TEST_CASE("mailbox: any order of publishes and fetches behaves like a single newest value",
          "[core][mailbox]") {
  // A model of the contract beside the mailbox, over a long fixed pseudo-random sequence. After
  // every step the producer scribbles over its own slot without publishing: if that slot were ever
  // the consumer's, value() would change under the consumer.
  praxis::LatestValue<Stamped> box;
  std::mt19937 rng(20240611u);
  std::bernoulli_distribution do_publish(0.5);
  std::uint64_t next = 1;
  std::uint64_t newest_published = 0;
  bool unseen = false;
  std::uint64_t held = 0;  // what the consumer holds
  int wrong_fetch_result = 0, wrong_value = 0, torn = 0, fetched = 0, published = 0;
  for (int step = 0; step < 50000; ++step) {
    if (do_publish(rng)) {
      write_in_place(box, next);
      newest_published = next++;
      unseen = true;
      ++published;
    } else {
      const bool got = box.fetch();
      if (got != unseen) ++wrong_fetch_result;
      if (got) {
        ++fetched;
        held = newest_published;
      }
      unseen = false;
    }
    if (box.value().seq != held) ++wrong_value;
    if (!box.value().consistent()) ++torn;
    box.back() = stamped(0xdeadbeefULL);  // the producer's slot: never the consumer's
    if (box.value().seq != held) ++wrong_value;
  }
  CHECK(wrong_fetch_result == 0);
  CHECK(wrong_value == 0);
  CHECK(torn == 0);
  // The sequence did exercise both sides (and runs of several publishes between fetches).
  CHECK(published > 20000);
  CHECK(fetched > 5000);
  CHECK(fetched < published);
}

TEST_CASE("mailbox: across threads every fetched value is whole and newer than the last one",
          "[core][mailbox][threads]") {
  // One writer publishes 1, 2, 3 ..., each stamped into every field and written field by field into
  // its slot; one reader fetches as fast as it can. The writer goes on until it has published
  // k_values and the reader has made k_reads fetches, so the two overlap however the threads are
  // scheduled (counted, not timed). A value the writer finished publishing before the reader's
  // fetch (it tells the reader through `published`) is never lost in favour of an older one.
  constexpr std::uint64_t k_values = 200000;
  constexpr std::uint64_t k_reads = 200000;
  praxis::LatestValue<Stamped> box;
  std::atomic<std::uint64_t> published{0}, reads{0};
  std::atomic<bool> done{false};

  std::thread writer([&] {
    for (std::uint64_t n = 1; n <= k_values || reads.load(std::memory_order_relaxed) < k_reads; ++n) {
      write_in_place(box, n);
      published.store(n, std::memory_order_release);
    }
    done.store(true, std::memory_order_release);
  });

  std::uint64_t last = 0, fetched = 0, empty_fetches = 0, attempts = 0;
  std::uint64_t torn = 0, not_newer = 0, changed_without_fetch = 0, older_than_published = 0;
  for (;;) {
    const bool finished = done.load(std::memory_order_acquire);
    const std::uint64_t known = published.load(std::memory_order_acquire);
    const bool got = box.fetch();
    reads.store(++attempts, std::memory_order_relaxed);
    const Stamped& v = box.value();
    if (!v.consistent()) ++torn;
    if (got) {
      ++fetched;
      if (v.seq <= last) ++not_newer;
    } else {
      ++empty_fetches;
      if (v.seq != last) ++changed_without_fetch;
    }
    if (v.seq < known) ++older_than_published;
    last = v.seq;
    if (finished) break;
  }
  writer.join();
  const std::uint64_t final_value = published.load();

  // How the two threads interleaved, shown with any failure below (not asserted).
  INFO("fetched " << fetched << " of " << final_value << " with " << empty_fetches << " empty fetches");
  CHECK(final_value >= k_values);
  CHECK(attempts >= k_reads);
  CHECK(torn == 0);
  CHECK(not_newer == 0);
  CHECK(changed_without_fetch == 0);
  CHECK(older_than_published == 0);
  CHECK(last == final_value);  // the final value is never lost
  CHECK(fetched >= 1);
  CHECK(fetched <= final_value);
  CHECK_FALSE(box.fetch());  // everything published was taken
  CHECK(box.value().seq == final_value);
  CHECK(box.value().consistent());
}

TEST_CASE("mailbox: across threads one publish per handshake is fetched exactly once and whole",
          "[core][mailbox][threads]") {
  // The writer publishes n, says so through `published` and waits until the reader acknowledges
  // n; the reader fetches until fetch() says there is something new. Every value must arrive
  // once, whole and in order; a fetch between two publishes must find nothing. A fetch that finds
  // nothing after the reader learnt of n counts as a lost value (no waiting on a clock: a broken
  // mailbox fails here instead of hanging).
  constexpr std::uint64_t k_rounds = 5000;
  praxis::LatestValue<Stamped> box;
  std::atomic<std::uint64_t> published{0}, acked{0};

  std::thread writer([&] {
    for (std::uint64_t n = 1; n <= k_rounds; ++n) {
      while (acked.load(std::memory_order_acquire) < n - 1) std::this_thread::yield();
      write_in_place(box, n);
      published.store(n, std::memory_order_release);
    }
  });

  std::uint64_t fetched = 0, lost = 0, wrong = 0, torn = 0, extra = 0;
  for (std::uint64_t n = 1; n <= k_rounds; ++n) {
    for (;;) {
      const bool announced = published.load(std::memory_order_acquire) >= n;
      if (box.fetch()) {
        ++fetched;
        break;
      }
      if (announced) {
        ++lost;
        break;
      }
      std::this_thread::yield();
    }
    const Stamped& v = box.value();
    if (v.seq != n) ++wrong;
    if (!v.consistent()) ++torn;
    // Nothing new until this round is acknowledged: the writer is waiting.
    if (box.fetch()) ++extra;
    acked.store(n, std::memory_order_release);
  }
  writer.join();

  CHECK(fetched == k_rounds);
  CHECK(lost == 0);
  CHECK(wrong == 0);
  CHECK(torn == 0);
  CHECK(extra == 0);
  CHECK_FALSE(box.fetch());
  CHECK(box.value().seq == k_rounds);
}

TEST_CASE("mailbox: the producer never waits for a consumer that does not fetch", "[core][mailbox][threads]") {
  // A consumer that stopped fetching costs the producer nothing: a writer thread publishes many
  // values and finishes without any fetch, and the one fetch afterwards takes the last.
  constexpr std::uint64_t k_values = 100000;
  praxis::LatestValue<Stamped> box(stamped(0));
  std::thread writer([&] {
    for (std::uint64_t n = 1; n <= k_values; ++n) write_in_place(box, n);
  });
  writer.join();
  CHECK(box.value().seq == 0);
  REQUIRE(box.fetch());
  CHECK(box.value().seq == k_values);
  CHECK(box.value().consistent());
  CHECK_FALSE(box.fetch());
}

}  // namespace mailbox_test

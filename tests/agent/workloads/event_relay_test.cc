// EventRelay delivers events in order on its own thread (block_io_relay_test: a block-I/O job's
// clones keep issuing while its interval sink blocks).
#include "agent/workloads/event_relay.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <future>
#include <memory>
#include <semaphore>
#include <thread>
#include <vector>

#include "gtest/gtest.h"

namespace azbench {
namespace {

TEST(EventRelayTest, DeliversEachPostersEventsInOrderOnOneOtherThread) {
  std::vector<std::pair<int, int>> delivered;  // (poster, sequence), touched only by the relay
  std::thread::id relay_thread;
  bool one_thread = true;
  {
    EventRelay relay;
    std::vector<std::thread> posters;
    for (int p = 0; p < 4; ++p) {
      posters.emplace_back([&, p] {
        for (int i = 0; i < 1000; ++i) {
          relay.Post([&, p, i] {
            if (relay_thread == std::thread::id()) relay_thread = std::this_thread::get_id();
            one_thread = one_thread && relay_thread == std::this_thread::get_id();
            delivered.emplace_back(p, i);
          });
        }
      });
    }
    for (auto& t : posters) t.join();
    relay.Drain();
    EXPECT_EQ(delivered.size(), 4000u) << "Drain returned before every event was delivered";
  }
  EXPECT_TRUE(one_thread);
  EXPECT_NE(relay_thread, std::this_thread::get_id());
  std::vector<int> next(4, 0);
  for (const auto& [p, i] : delivered) {
    EXPECT_EQ(i, next[p]) << "poster " << p << "'s events out of order";
    next[p] = i + 1;
  }
}

TEST(EventRelayTest, PostNeverWaitsForADeliveryAndTheDestructorDeliversTheRest) {
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  std::atomic<int> delivered{0};
  {
    EventRelay relay;
    relay.Post([&, released] {
      released.wait();  // a delivery stuck on a slow stream
      ++delivered;
    });
    for (int i = 0; i < 100; ++i) relay.Post([&] { ++delivered; });  // returns while it is stuck
    EXPECT_EQ(delivered.load(), 0);
    release.set_value();
  }  // the destructor delivers what is queued
  EXPECT_EQ(delivered.load(), 101);
}

// A delivery that cannot go on (a stalled stream) holds events back only up to the relay's bound:
// then Post waits for room, so the queue never holds more than the bound.
TEST(EventRelayTest, PostWaitsForRoomOnceTheQueueHoldsItsBound) {
  std::counting_semaphore<> go(0);
  std::atomic<int> delivered{0};
  uint64_t most_queued = 0;
  {
    EventRelay relay(/*max_queued_bytes=*/25);
    std::thread poster([&] {
      for (int i = 0; i < 10; ++i) {
        relay.Post(
            [&] {
              go.acquire();
              ++delivered;
            },
            10);
      }
    });
    // Nothing is delivered before the first release: the poster's events queue up (however late
    // its thread runs).
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (relay.queued_bytes() == 0 && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    for (int i = 0; i < 10; ++i) {
      // Whatever the poster has managed to queue, it is within the bound.
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
      most_queued = std::max(most_queued, relay.queued_bytes());
      go.release();
    }
    poster.join();
  }
  EXPECT_EQ(delivered.load(), 10);
  EXPECT_LE(most_queued, 25u);
  EXPECT_GT(most_queued, 0u);
}

}  // namespace
}  // namespace azbench

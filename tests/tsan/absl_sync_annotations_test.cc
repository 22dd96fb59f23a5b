// TSan builds only: the absl::Mutex annotations (tests/tsan/absl_sync_annotations.cc) make
// abseil's synchronization visible to ThreadSanitizer without hiding real races.
#include <string>
#include <thread>

#include "absl/synchronization/mutex.h"
#include "absl/synchronization/notification.h"
#include "absl/time/time.h"
#include "gtest/gtest.h"

namespace {

constexpr int kRounds = 2000;

// Without the annotations each of these is reported as a data race (and halt_on_error ends the
// test): TSan cannot see uninstrumented abseil's locking.
TEST(AbslSyncAnnotationsTest, MutexLockOrdersGuardedAccesses) {
  absl::Mutex mu;
  int guarded = 0;
  auto add = [&] {
    for (int i = 0; i < kRounds; ++i) {
      absl::MutexLock lock(&mu);
      ++guarded;
    }
  };
  std::thread other(add);
  add();
  other.join();
  absl::MutexLock lock(&mu);
  EXPECT_EQ(guarded, 2 * kRounds);
}

TEST(AbslSyncAnnotationsTest, AwaitCondVarAndNotificationHandOverData) {
  absl::Mutex mu;
  absl::CondVar cv;
  bool ready = false;
  std::string by_await, by_condvar, by_notification;
  absl::Notification notified;
  std::thread producer([&] {
    by_await = "await";
    by_condvar = "condvar";
    {
      absl::MutexLock lock(&mu);
      ready = true;
      cv.SignalAll();
    }
    by_notification = "notification";  // written after the unlock: only Notify orders it
    notified.Notify();
  });
  {
    absl::MutexLock lock(&mu);
    mu.AwaitWithTimeout(absl::Condition(&ready), absl::Seconds(30));
    EXPECT_EQ(by_await, "await");
  }
  {
    absl::MutexLock lock(&mu);
    while (!ready) cv.WaitWithTimeout(&mu, absl::Seconds(30));
    EXPECT_EQ(by_condvar, "condvar");
  }
  notified.WaitForNotification();
  EXPECT_EQ(by_notification, "notification");
  producer.join();
}

TEST(AbslSyncAnnotationsTest, TryLockAndReaderLocksOrderAccesses) {
  absl::Mutex mu;
  int value = 0;
  std::thread writer([&] {
    for (int i = 0; i < kRounds; ++i) {
      while (!mu.TryLock()) std::this_thread::yield();
      ++value;
      mu.Unlock();
    }
  });
  int last = 0;
  for (int i = 0; i < kRounds; ++i) {
    absl::ReaderMutexLock lock(&mu);
    EXPECT_GE(value, last);
    last = value;
  }
  writer.join();
  absl::ReaderMutexLock lock(&mu);
  EXPECT_EQ(value, kRounds);
}

// The annotations must not hide a race: an access outside the lock is still reported.
void RaceOutsideTheLock() {
  absl::Mutex mu;
  int guarded = 0;
  int unguarded = 0;
  auto add = [&] {
    for (int i = 0; i < kRounds; ++i) {
      {
        absl::MutexLock lock(&mu);
        ++guarded;
      }
      ++unguarded;
    }
  };
  std::thread other(add);
  add();
  other.join();
  std::exit(unguarded > 0 ? 0 : 1);  // TSan's exit code (66) replaces 0 when it reported
}

TEST(AbslSyncAnnotationsDeathTest, AnAccessOutsideTheLockIsStillReported) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(RaceOutsideTheLock(), ::testing::ExitedWithCode(66), "ThreadSanitizer: data race");
}

}  // namespace

// The hot path (Queue, Commit, GetEvents) never allocates: this binary replaces the global operator
// new and counts the calls made while a job loop drives each engine after Init().
#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "agent/engines/io_engine.h"
#include "gtest/gtest.h"
#include "tests/agent/engines/engine_test_util.h"

#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define AZBENCH_COUNT_WITH_SANITIZER_HOOK 1
#include <sanitizer/allocator_interface.h>
#endif
#endif

namespace {
std::atomic<bool> g_counting{false};
std::atomic<long> g_allocations{0};
}  // namespace

#ifdef AZBENCH_COUNT_WITH_SANITIZER_HOOK
// ThreadSanitizer's runtime defines the global operator new itself (a second definition does not
// link): count through its allocation hook instead, which sees every operator new and malloc.
namespace {
void CountingMallocHook(const volatile void*, std::size_t) {
  if (g_counting.load(std::memory_order_relaxed)) g_allocations.fetch_add(1);
}
void NoFreeHook(const volatile void*) {}
const int g_hooks_installed =
    __sanitizer_install_malloc_and_free_hooks(CountingMallocHook, NoFreeHook);
}  // namespace
#else
namespace {
void* CountedAlloc(std::size_t size) {
  if (g_counting.load(std::memory_order_relaxed)) g_allocations.fetch_add(1);
  void* p = std::malloc(size == 0 ? 1 : size);
  if (p == nullptr) std::abort();
  return p;
}
}  // namespace
void* operator new(std::size_t size) { return CountedAlloc(size); }
void* operator new[](std::size_t size) { return CountedAlloc(size); }
void* operator new(std::size_t size, const std::nothrow_t&) noexcept { return CountedAlloc(size); }
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept {
  return CountedAlloc(size);
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
#endif

namespace azbench {
namespace {

class EngineAllocationTest : public ::testing::TestWithParam<std::string> {};

TEST_P(EngineAllocationTest, QueueCommitAndGetEventsNeverAllocate) {
#ifdef AZBENCH_COUNT_WITH_SANITIZER_HOOK
  ASSERT_EQ(g_hooks_installed, 1) << "the sanitizer allocation hook did not install";
#endif
  constexpr int kDepth = 16;
  constexpr int kRounds = 20;
  engine_test::TempDir dir(engine_test::kLocalDiskBase);
  ASSERT_FALSE(dir.path().empty());
  const int fd = open((dir.path() + "/data").c_str(), O_RDWR | O_CREAT, 0600);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(ftruncate(fd, kDepth * 4096), 0);
  engine_test::AlignedBuffers buffers(kDepth, 4096);
  ASSERT_TRUE(buffers.ok());

  absl::StatusOr<std::unique_ptr<IoEngine>> created = CreateEngine(GetParam());
  ASSERT_TRUE(created.ok());
  std::unique_ptr<IoEngine> engine = std::move(*created);
  EngineOptions options;
  options.iodepth = std::min(kDepth, engine->capabilities().max_iodepth);
  options.batch_submit = 4;
  options.buffers = buffers.iovecs();
  options.fds = {fd};
  ASSERT_TRUE(engine->Init(options).ok());

  std::vector<IoRequest> requests(kDepth + 1);
  for (int i = 0; i < kDepth; ++i) {
    requests[i] = IoRequest{.op = i % 2 ? OpKind::kWrite : OpKind::kRead,
                            .fd = fd,
                            .buffer = buffers.at(i),
                            .length_bytes = 4096,
                            .offset_bytes = i * 4096u,
                            .buffer_index = i};
  }
  requests[kDepth] = IoRequest{.op = OpKind::kFsync, .fd = fd};
  std::vector<IoRequest*> out(kDepth);
  long completed = 0;
  long failed = 0;

  auto round = [&] {
    int unsubmitted = 0;
    for (IoRequest& r : requests) {
      r.start_ns = MonotonicNanos();
      for (;;) {
        const QueueResult q = engine->Queue(&r);
        if (q == QueueResult::kCompleted) {
          ++completed;
          failed += r.result < 0;
          break;
        }
        if (q == QueueResult::kQueued) {
          ++unsubmitted;
          break;
        }
        while (unsubmitted > 0) unsubmitted -= engine->Commit().value_or(unsubmitted);
        const int n = engine->GetEvents(1, std::span<IoRequest*>(out)).value_or(0);
        for (int i = 0; i < n; ++i) failed += out[i]->result < 0;
        completed += n;
      }
    }
    while (engine->inflight() > 0) {
      while (unsubmitted > 0) unsubmitted -= engine->Commit().value_or(unsubmitted);
      const int n = engine->GetEvents(1, std::span<IoRequest*>(out)).value_or(0);
      for (int i = 0; i < n; ++i) failed += out[i]->result < 0;
      completed += n;
    }
  };

  round();  // warm-up, not counted
  g_allocations = 0;
  g_counting = true;
  for (int i = 0; i < kRounds; ++i) round();
  g_counting = false;

  EXPECT_EQ(g_allocations.load(), 0) << GetParam() << " allocated on the hot path";
  EXPECT_EQ(completed, (kRounds + 1) * static_cast<long>(requests.size()));
  EXPECT_EQ(failed, 0);
  engine.reset();
  close(fd);
}

INSTANTIATE_TEST_SUITE_P(AllEngines, EngineAllocationTest,
                         ::testing::Values("psync", "null", "libaio", "io_uring"),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           return info.param;
                         });

}  // namespace
}  // namespace azbench

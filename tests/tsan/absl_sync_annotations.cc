// ThreadSanitizer builds only (-DAZBENCH_SANITIZE=thread): makes absl::Mutex, absl::CondVar and
// absl::Notification visible to TSan.
//
// Debian's abseil is not built with -fsanitize=thread, so its Mutex::Lock/Unlock run uninstrumented
// and TSan sees no happens-before edge between a thread that unlocks a Mutex and the next thread
// that locks it: every variable guarded by an absl::Mutex (ours, and gRPC's, whose gpr_mu and
// grpc_core::Mutex are absl::Mutex) would be reported as a data race. A TSan-built abseil carries
// exactly these annotations itself (absl/base/internal/tsan_mutex_interface.h); this file adds
// them from the outside. Every executable of a TSan build defines the public locking entry points
// below and exports them (--export-dynamic-symbol in CMakeLists.txt), so calls from our code and
// from the shared libraries (gRPC, abseil's own Notification) reach these definitions first; each
// tells TSan what happens (__tsan_mutex_pre_lock/post_lock/pre_unlock/post_unlock, the interface a
// mutex implementation uses) and forwards to abseil's real function, found with
// dlsym(RTLD_NEXT). Accesses inside the real call (abseil's own state, and the Condition functions
// it evaluates while it holds the mutex) are ignored by TSan between the pre_ and post_
// annotations, as in an instrumented abseil.
//
// Limits: Await/CondVar::Wait on a mutex held in reader mode is annotated as if held exclusively
// (azbench holds it exclusively); only the outermost entry point of a nested call is annotated
// (abseil's LockWhenWithTimeout calls LockWhenWithDeadline through the PLT).
#include <dlfcn.h>
#include <sanitizer/tsan_interface.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "absl/base/options.h"
#include "absl/synchronization/mutex.h"
#include "absl/synchronization/notification.h"
#include "absl/time/time.h"

#if !defined(__SANITIZE_THREAD__) && defined(__has_feature)
#if !__has_feature(thread_sanitizer)
#error "tests/tsan/absl_sync_annotations.cc belongs to -fsanitize=thread builds only"
#endif
#endif
static_assert(ABSL_OPTION_USE_INLINE_NAMESPACE == 1,
              "the mangled names below assume abseil's inline namespace (Debian: debian3)");

namespace {

#define AZBENCH_TSAN_STR2(x) #x
#define AZBENCH_TSAN_STR(x) AZBENCH_TSAN_STR2(x)

// abseil's own definition of `absl::<ns>::<suffix>` (an Itanium-mangled name without the
// "_ZN4absl<len><ns>" prefix), the next one after this executable's in symbol lookup order.
// `is_const`: a const member function ("_ZNK4absl...").
void* RealSymbol(const char* suffix, bool is_const = false) {
  const std::string ns = AZBENCH_TSAN_STR(ABSL_OPTION_INLINE_NAMESPACE_NAME);
  const std::string name =
      std::string(is_const ? "_ZNK4absl" : "_ZN4absl") + std::to_string(ns.size()) + ns + suffix;
  void* sym = dlsym(RTLD_NEXT, name.c_str());
  if (sym == nullptr) {
    std::fprintf(stderr, "azbench TSan absl shim: %s not found: %s\n", name.c_str(), dlerror());
    std::abort();
  }
  return sym;
}

template <typename Fn>
Fn Real(const char* suffix, bool is_const = false) {
  return reinterpret_cast<Fn>(RealSymbol(suffix, is_const));
}

// Nesting depth of the entry points below on this thread: only depth 0 annotates.
thread_local int depth = 0;

class Nested {
 public:
  Nested() : outer_(depth++ == 0) {}
  ~Nested() { --depth; }
  bool outer() const { return outer_; }

 private:
  bool outer_;
};

using MutexFn = void (*)(absl::Mutex*);
using MutexTryFn = bool (*)(absl::Mutex*);
using CondFn = void (*)(absl::Mutex*, const absl::Condition&);
using CondTimeoutFn = bool (*)(absl::Mutex*, const absl::Condition&, absl::Duration);
using CondDeadlineFn = bool (*)(absl::Mutex*, const absl::Condition&, absl::Time);
using WaitFn = void (*)(absl::CondVar*, absl::Mutex*);
using WaitTimeoutFn = bool (*)(absl::CondVar*, absl::Mutex*, absl::Duration);
using WaitDeadlineFn = bool (*)(absl::CondVar*, absl::Mutex*, absl::Time);
using NotifyFn = void (*)(absl::Notification*);
using WaitNotificationFn = void (*)(const absl::Notification*);
using WaitNotificationTimeoutFn = bool (*)(const absl::Notification*, absl::Duration);
using WaitNotificationDeadlineFn = bool (*)(const absl::Notification*, absl::Time);

// Lock (exclusive or reader) through `call`, which returns whether the mutex is now held.
template <typename Call>
auto Acquire(absl::Mutex* mu, unsigned flags, Call call) {
  Nested nested;
  if (!nested.outer()) return call();
  __tsan_mutex_pre_lock(mu, flags);
  const auto result = call();
  const bool held = (flags & __tsan_mutex_try_lock) == 0 || static_cast<bool>(result);
  __tsan_mutex_post_lock(mu, held ? flags : flags | __tsan_mutex_try_lock_failed, 0);
  return result;
}

template <typename Call>
void Release(absl::Mutex* mu, unsigned flags, Call call) {
  Nested nested;
  if (!nested.outer()) return call();
  __tsan_mutex_pre_unlock(mu, flags);
  call();
  __tsan_mutex_post_unlock(mu, flags);
}

// A call that may release the (exclusively held) mutex and takes it again before returning:
// Await*, CondVar::Wait*.
template <typename Call>
auto ReleaseAndReacquire(absl::Mutex* mu, Call call) {
  Nested nested;
  if (!nested.outer()) return call();
  __tsan_mutex_pre_unlock(mu, 0);
  const auto result = call();
  __tsan_mutex_post_unlock(mu, 0);
  __tsan_mutex_pre_lock(mu, 0);
  __tsan_mutex_post_lock(mu, 0, 0);
  return result;
}

}  // namespace

namespace absl {
ABSL_NAMESPACE_BEGIN

Mutex::~Mutex() {
  static const MutexFn real = Real<MutexFn>("5MutexD2Ev");
  __tsan_mutex_destroy(this, __tsan_mutex_not_static);
  real(this);
}

void Mutex::Lock() {
  static const MutexFn real = Real<MutexFn>("5Mutex4LockEv");
  Acquire(this, 0, [&] { return (real(this), true); });
}

void Mutex::Unlock() {
  static const MutexFn real = Real<MutexFn>("5Mutex6UnlockEv");
  Release(this, 0, [&] { real(this); });
}

bool Mutex::TryLock() {
  static const MutexTryFn real = Real<MutexTryFn>("5Mutex7TryLockEv");
  return Acquire(this, __tsan_mutex_try_lock, [&] { return real(this); });
}

void Mutex::ReaderLock() {
  static const MutexFn real = Real<MutexFn>("5Mutex10ReaderLockEv");
  Acquire(this, __tsan_mutex_read_lock, [&] { return (real(this), true); });
}

void Mutex::ReaderUnlock() {
  static const MutexFn real = Real<MutexFn>("5Mutex12ReaderUnlockEv");
  Release(this, __tsan_mutex_read_lock, [&] { real(this); });
}

bool Mutex::ReaderTryLock() {
  static const MutexTryFn real = Real<MutexTryFn>("5Mutex13ReaderTryLockEv");
  return Acquire(this, __tsan_mutex_try_read_lock, [&] { return real(this); });
}

void Mutex::LockWhen(const Condition& cond) {
  static const CondFn real = Real<CondFn>("5Mutex8LockWhenERKNS0_9ConditionE");
  Acquire(this, 0, [&] { return (real(this, cond), true); });
}

void Mutex::ReaderLockWhen(const Condition& cond) {
  static const CondFn real = Real<CondFn>("5Mutex14ReaderLockWhenERKNS0_9ConditionE");
  Acquire(this, __tsan_mutex_read_lock, [&] { return (real(this, cond), true); });
}

bool Mutex::LockWhenWithTimeout(const Condition& cond, Duration timeout) {
  static const CondTimeoutFn real =
      Real<CondTimeoutFn>("5Mutex19LockWhenWithTimeoutERKNS0_9ConditionENS0_8DurationE");
  return Acquire(this, 0, [&] { return real(this, cond, timeout); });
}

bool Mutex::ReaderLockWhenWithTimeout(const Condition& cond, Duration timeout) {
  static const CondTimeoutFn real =
      Real<CondTimeoutFn>("5Mutex25ReaderLockWhenWithTimeoutERKNS0_9ConditionENS0_8DurationE");
  return Acquire(this, __tsan_mutex_read_lock, [&] { return real(this, cond, timeout); });
}

bool Mutex::LockWhenWithDeadline(const Condition& cond, Time deadline) {
  static const CondDeadlineFn real =
      Real<CondDeadlineFn>("5Mutex20LockWhenWithDeadlineERKNS0_9ConditionENS0_4TimeE");
  return Acquire(this, 0, [&] { return real(this, cond, deadline); });
}

bool Mutex::ReaderLockWhenWithDeadline(const Condition& cond, Time deadline) {
  static const CondDeadlineFn real =
      Real<CondDeadlineFn>("5Mutex26ReaderLockWhenWithDeadlineERKNS0_9ConditionENS0_4TimeE");
  return Acquire(this, __tsan_mutex_read_lock, [&] { return real(this, cond, deadline); });
}

void Mutex::Await(const Condition& cond) {
  static const CondFn real = Real<CondFn>("5Mutex5AwaitERKNS0_9ConditionE");
  ReleaseAndReacquire(this, [&] { return (real(this, cond), true); });
}

bool Mutex::AwaitWithTimeout(const Condition& cond, Duration timeout) {
  static const CondTimeoutFn real =
      Real<CondTimeoutFn>("5Mutex16AwaitWithTimeoutERKNS0_9ConditionENS0_8DurationE");
  return ReleaseAndReacquire(this, [&] { return real(this, cond, timeout); });
}

bool Mutex::AwaitWithDeadline(const Condition& cond, Time deadline) {
  static const CondDeadlineFn real =
      Real<CondDeadlineFn>("5Mutex17AwaitWithDeadlineERKNS0_9ConditionENS0_4TimeE");
  return ReleaseAndReacquire(this, [&] { return real(this, cond, deadline); });
}

void CondVar::Wait(Mutex* mu) {
  static const WaitFn real = Real<WaitFn>("7CondVar4WaitEPNS0_5MutexE");
  ReleaseAndReacquire(mu, [&] { return (real(this, mu), true); });
}

bool CondVar::WaitWithTimeout(Mutex* mu, Duration timeout) {
  static const WaitTimeoutFn real =
      Real<WaitTimeoutFn>("7CondVar15WaitWithTimeoutEPNS0_5MutexENS0_8DurationE");
  return ReleaseAndReacquire(mu, [&] { return real(this, mu, timeout); });
}

bool CondVar::WaitWithDeadline(Mutex* mu, Time deadline) {
  static const WaitDeadlineFn real =
      Real<WaitDeadlineFn>("7CondVar16WaitWithDeadlineEPNS0_5MutexENS0_4TimeE");
  return ReleaseAndReacquire(mu, [&] { return real(this, mu, deadline); });
}

// Notification: WaitForNotification and HasBeenNotified return at once, without the mutex, once
// the flag is set (an uninstrumented atomic load), so the hand-over is annotated on the flag
// itself.
void Notification::Notify() {
  static const NotifyFn real = Real<NotifyFn>("12Notification6NotifyEv");
  __tsan_release(&notified_yet_);
  real(this);
}

void Notification::WaitForNotification() const {
  static const WaitNotificationFn real =
      Real<WaitNotificationFn>("12Notification19WaitForNotificationEv", /*is_const=*/true);
  real(this);
  __tsan_acquire(const_cast<std::atomic<bool>*>(&notified_yet_));
}

bool Notification::WaitForNotificationWithTimeout(Duration timeout) const {
  static const WaitNotificationTimeoutFn real = Real<WaitNotificationTimeoutFn>(
      "12Notification30WaitForNotificationWithTimeoutENS0_8DurationE", /*is_const=*/true);
  const bool notified = real(this, timeout);
  if (notified) __tsan_acquire(const_cast<std::atomic<bool>*>(&notified_yet_));
  return notified;
}

bool Notification::WaitForNotificationWithDeadline(Time deadline) const {
  static const WaitNotificationDeadlineFn real = Real<WaitNotificationDeadlineFn>(
      "12Notification31WaitForNotificationWithDeadlineENS0_4TimeE", /*is_const=*/true);
  const bool notified = real(this, deadline);
  if (notified) __tsan_acquire(const_cast<std::atomic<bool>*>(&notified_yet_));
  return notified;
}

ABSL_NAMESPACE_END
}  // namespace absl

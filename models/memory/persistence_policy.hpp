#pragma once
// CUDA's L2 persistence controls (SPEC S4): the set-aside and one access-policy window per kernel
// slot. This file decides *which property an access gets*; the L2 (l2_cache.hpp) decides what the
// property does to its lines.
#include <cstdint>
#include <string>
#include <vector>

#include "models/memory/l2_spec.hpp"
#include "traces/kernel_source.hpp"

namespace warpsim::models::memory {

using traces::AccessPolicyWindow;
using traces::AccessProperty;

// What an access asks of the L2. Default: outside every window, leaves a line's class alone (a
// kernel without a window does not undo another's persistence, S4.6); the others are S4.5's
// properties, Normal among them resetting persisting lines.
enum class L2Hint : std::uint8_t { Default, Normal, Streaming, Persisting };
inline L2Hint hint_of(AccessProperty p) {
  switch (p) {
    case AccessProperty::Normal: return L2Hint::Normal;
    case AccessProperty::Streaming: return L2Hint::Streaming;
    case AccessProperty::Persisting: return L2Hint::Persisting;
  }
  return L2Hint::Default;
}

// One launch's L2 policy against this GPU's limits (S4.1, S4.2, S4.7). What the CUDA runtime
// does not accept throws an InputError naming the launch (`kernel.origin`, or the -p parameter
// for a library kernel): a window above accessPolicyMaxWindowSize (S4.2; the maximum is 0 on a
// GPU without persistence), a hit_ratio outside [0, 1], and a set-aside on a GPU that has none.
// What the driver adjusts on its own comes back as a warning: a set-aside above
// persistingL2CacheMaxSize is clamped to it (cudaDeviceSetLimit: "the driver is free to modify
// the requested value to meet h/w requirements (this could be clamping to minimum or maximum
// values ...)").
// `gpu`: the GPU's name (gpu.name) for messages.
std::vector<std::string> check_launch_policy(const L2Spec& l2, const std::string& gpu,
                                             const traces::KernelInfo& kernel);

class PersistencePolicy {
 public:
  PersistencePolicy(const L2Spec& l2, std::uint64_t seed);

  // S4.1: cudaLimitPersistingL2CacheSize. KernelInfo::kNoSetAside (CUDA's default) reserves
  // nothing, kLargestSetAside min(0.75 x L2, the preset's persistingL2CacheMaxSize); any request
  // is capped by that maximum; 0 without persistence.
  std::uint64_t resolve_set_aside(std::int64_t requested) const;
  // A launch's: kNoSetAside with a window counts as kLargestSetAside, since a window does nothing
  // without a set-aside and every program here that sets one reserves the guide's first.
  std::uint64_t resolve_set_aside(const traces::KernelInfo& kernel) const;

  // S4.2: a window for a kernel slot; `bytes = 0` disables it. Its size is taken as given:
  // check_launch_policy() refused every window above accessPolicyMaxWindowSize at launch.
  void set_window(std::uint32_t kernel_slot, const AccessPolicyWindow& window);
  void clear_window(std::uint32_t kernel_slot);
  const AccessPolicyWindow* window(std::uint32_t kernel_slot) const;

  // S4.3: the property of an access by `kernel_slot` to the line `line_number`. Outside the
  // window: Default. Inside: hit_prop for a hit_ratio fraction of the window, miss_prop for the
  // rest. The choice hashes the line address with the run's seed, so it is deterministic, the same
  // line always gets the same property (a line cannot flip between persisting and streaming from
  // one access to the next), and the chosen lines are spread evenly over the window -- "about
  // 16 KB of a 32 KB window" for hit_ratio 0.5.
  L2Hint property(std::uint32_t kernel_slot, std::uint64_t address, std::uint64_t line_number) const {
    if (kernel_slot >= windows_.size()) return L2Hint::Default;
    const Slot& s = windows_[kernel_slot];
    if (!s.active || address - s.window.base >= s.window.bytes) return L2Hint::Default;
    return hint_of(chosen(line_number, s.threshold) ? s.window.hit_prop : s.window.miss_prop);
  }
  // True when hash(line) falls under the threshold for `hit_ratio` (exposed for tests).
  bool chosen(std::uint64_t line_number, std::uint64_t threshold) const;
  static std::uint64_t threshold_for(double hit_ratio);

 private:
  struct Slot {
    bool active = false;
    AccessPolicyWindow window;
    std::uint64_t threshold = 0;  // hash < threshold -> hit_prop
  };
  bool available_ = false;
  std::uint64_t l2_bytes_ = 0, persist_max_ = 0;
  std::uint64_t salt_ = 0;
  std::vector<Slot> windows_;
};

}  // namespace warpsim::models::memory

// See persistence_policy.hpp.
#include "models/memory/persistence_policy.hpp"

#include <algorithm>
#include <cmath>

#include "sim/errors.hpp"
#include "sim/rng.hpp"

namespace warpsim::models::memory {

std::vector<std::string> check_launch_policy(const L2Spec& l2, const std::string& gpu_name,
                                             const traces::KernelInfo& kernel) {
  auto refuse = [&](const char* parameter, const std::string& why) {
    throw sim::InputError(kernel.origin.empty() ? std::string("-p ") + parameter : kernel.origin, why);
  };
  const std::string gpu = gpu_name.empty() ? "this GPU" : gpu_name;
  const std::uint64_t max_window = l2.persistence ? l2.max_window_bytes : 0;
  const traces::AccessPolicyWindow& w = kernel.window;
  if (w.bytes > max_window) {
    if (!l2.persistence)
      refuse("window_bytes", "an L2 access-policy window of " + std::to_string(w.bytes) + " bytes, but " + gpu +
                                 " has no L2 persistence (l2.persistence = false; SPEC S4 needs compute capability "
                                 "8.0+): use window_bytes = 0");
    refuse("window_bytes", "an L2 access-policy window of " + std::to_string(w.bytes) + " bytes is larger than " +
                               gpu + "'s accessPolicyMaxWindowSize (l2.max_window_bytes = " +
                               std::to_string(max_window) + ", SPEC S4.2)");
  }
  if (w.bytes > 0 && !(w.hit_ratio >= 0.0 && w.hit_ratio <= 1.0))
    refuse("hit_ratio", "hit_ratio " + std::to_string(w.hit_ratio) + " is outside [0, 1] (SPEC S4.3)");
  std::vector<std::string> warnings;
  if (kernel.set_aside_bytes > 0) {
    const auto requested = static_cast<std::uint64_t>(kernel.set_aside_bytes);
    if (!l2.persistence)
      refuse("set_aside_bytes", "an L2 set-aside of " + std::to_string(requested) + " bytes, but " + gpu +
                                    " has no L2 persistence (l2.persistence = false): use set_aside_bytes = -1 or 0");
    if (requested > l2.persist_max_bytes)
      warnings.push_back("set_aside_bytes " + std::to_string(requested) + " is above " + gpu +
                         "'s persistingL2CacheMaxSize; the set-aside is " + std::to_string(l2.persist_max_bytes) +
                         " bytes (l2.persist_max_bytes), as cudaDeviceSetLimit clamps it (SPEC S4.1)");
  }
  return warnings;
}

PersistencePolicy::PersistencePolicy(const L2Spec& l2, std::uint64_t seed)
    : available_(l2.persistence),
      l2_bytes_(l2.size_bytes),
      persist_max_(l2.persist_max_bytes),
      salt_(sim::Rng(seed, "gpu.l2.persistence").next()) {}

std::uint64_t PersistencePolicy::resolve_set_aside(std::int64_t requested) const {
  if (!available_) return 0;
  if (requested == traces::KernelInfo::kLargestSetAside) return std::min<std::uint64_t>(l2_bytes_ * 3 / 4, persist_max_);
  if (requested < 0) return 0;  // kNoSetAside: CUDA's default
  return std::min<std::uint64_t>(static_cast<std::uint64_t>(requested), persist_max_);
}

std::uint64_t PersistencePolicy::resolve_set_aside(const traces::KernelInfo& kernel) const {
  const bool window_without = kernel.set_aside_bytes == traces::KernelInfo::kNoSetAside && kernel.window.bytes > 0;
  return resolve_set_aside(window_without ? traces::KernelInfo::kLargestSetAside : kernel.set_aside_bytes);
}

std::uint64_t PersistencePolicy::threshold_for(double hit_ratio) {
  const double r = std::clamp(hit_ratio, 0.0, 1.0);
  if (r >= 1.0) return ~std::uint64_t{0};
  const double scaled = std::ldexp(r, 64);
  if (scaled >= 18446744073709551615.0) return ~std::uint64_t{0};  // rounds up to 2^64
  return static_cast<std::uint64_t>(scaled);
}

bool PersistencePolicy::chosen(std::uint64_t line_number, std::uint64_t threshold) const {
  if (threshold == ~std::uint64_t{0}) return true;
  return sim::mix64(line_number ^ salt_) < threshold;
}

void PersistencePolicy::set_window(std::uint32_t kernel_slot, const AccessPolicyWindow& window) {
  if (kernel_slot >= windows_.size()) windows_.resize(kernel_slot + 1);
  Slot& s = windows_[kernel_slot];
  s.active = available_ && window.bytes > 0;
  s.window = window;
  s.threshold = threshold_for(window.hit_ratio);
}

void PersistencePolicy::clear_window(std::uint32_t kernel_slot) {
  if (kernel_slot < windows_.size()) windows_[kernel_slot].active = false;
}

const AccessPolicyWindow* PersistencePolicy::window(std::uint32_t kernel_slot) const {
  if (kernel_slot >= windows_.size() || !windows_[kernel_slot].active) return nullptr;
  return &windows_[kernel_slot].window;
}

}  // namespace warpsim::models::memory

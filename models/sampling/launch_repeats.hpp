#pragma once
// Launch-level sampling: many programs launch one kernel tens of times with the same grid and
// data (a time-step loop, a benchmark's repetitions). Once the last few such launches, run in
// detail, took the same time, a further identical launch is credited their time instead of being
// run. This class keeps the launches that ran and finds the ones a new launch may repeat; the
// sampler checks that the instruction streams are the same (block_walk.hpp).
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "traces/kernel_source.hpp"

namespace warpsim::models::sampling {

struct RepeatRule {
  std::uint32_t references = 2;  // earlier identical launches, each run alone, ...
  double bound = 0.01;           // ... whose cycles are within this fraction of their mean
  // Launches of a key whose streams turned out to differ from their references (a loop over a
  // shrinking matrix): after this many, the key's launches are no longer read to compare.
  std::uint32_t give_up_after = 2;
};

class LaunchRepeats {
 public:
  explicit LaunchRepeats(RepeatRule rule = {}) : rule_(rule) {}

  // What launches must share to be identical, besides their instruction streams: kernel name,
  // grid, block, registers, shared memory, stream and L2 access-policy window.
  static std::string key(const traces::KernelInfo& info);
  // Launch `slot` ran (in detail, or block-sampled) alone on the GPU and took `cycles`.
  void ran(std::uint32_t slot, const traces::KernelInfo& info, double cycles);
  // The launches a launch of `info` may repeat, most recent last: the last rule.references
  // that ran with its key, when their cycles agree within the bound; else none.
  std::vector<std::uint32_t> references(const traces::KernelInfo& info) const;
  // A launch of `info` had references but different instruction streams.
  void differed(const traces::KernelInfo& info) { ++differed_[key(info)]; }
  // Over references(info): their mean cycles and the largest distance of one from it.
  double mean_cycles(const traces::KernelInfo& info) const;
  double spread_cycles(const traces::KernelInfo& info) const;

 private:
  struct Ran {
    std::string key;
    std::uint32_t slot;
    double cycles;
  };
  // The last rule.references launches with `key`, oldest first (fewer if fewer ran).
  std::vector<const Ran*> last_of(const std::string& key) const;

  RepeatRule rule_;
  std::vector<Ran> ran_;
  std::map<std::string, std::uint32_t> differed_;  // by key
};

}  // namespace warpsim::models::sampling

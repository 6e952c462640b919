#pragma once
// What a kernel's build function sees: the validated parameter values, the ISA, and two ways
// to talk back: reject an impossible combination naming the parameter ("-p key: ..."), and
// record a derived value (grid from n and block) for the resolved parameter list.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "sim/config.hpp"
#include "traces/isa_target.hpp"

namespace warpsim::traces::kernels {

class KernelArgs {
 public:
  KernelArgs(const sim::Config& config, const IsaTarget& isa) : config_(config), isa_(isa) {}

  std::int64_t integer(const std::string& key) const { return config_.get_int(key); }
  double real(const std::string& key) const { return config_.get_float(key); }
  std::string text(const std::string& key) const { return config_.get_string(key); }
  const IsaTarget& isa() const { return isa_; }

  [[noreturn]] void reject(const std::string& key, const std::string& why) const;
  void resolve(const std::string& key, std::int64_t value) { derived_.emplace_back(key, std::to_string(value)); }
  const std::vector<std::pair<std::string, std::string>>& derived() const { return derived_; }

 private:
  const sim::Config& config_;
  IsaTarget isa_;
  std::vector<std::pair<std::string, std::string>> derived_;
};

}  // namespace warpsim::traces::kernels

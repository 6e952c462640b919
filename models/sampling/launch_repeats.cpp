#include "models/sampling/launch_repeats.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace warpsim::models::sampling {

std::string LaunchRepeats::key(const traces::KernelInfo& k) {
  std::ostringstream out;
  const auto& w = k.window;
  out << k.name << '|' << k.grid.x << ',' << k.grid.y << ',' << k.grid.z << '|' << k.block.x << ',' << k.block.y << ','
      << k.block.z << '|' << k.registers_per_thread << '|' << k.shared_bytes_per_block << '|' << k.stream_id << '|'
      << w.base << ',' << w.bytes << ',' << w.hit_ratio << ',' << int(w.hit_prop) << ',' << int(w.miss_prop) << '|'
      << k.set_aside_bytes;
  return out.str();
}

void LaunchRepeats::ran(std::uint32_t slot, const traces::KernelInfo& info, double cycles) {
  ran_.push_back({key(info), slot, cycles});
}

std::vector<const LaunchRepeats::Ran*> LaunchRepeats::last_of(const std::string& key) const {
  std::vector<const Ran*> out;
  for (auto it = ran_.rbegin(); it != ran_.rend() && out.size() < rule_.references; ++it)
    if (it->key == key) out.push_back(&*it);
  std::reverse(out.begin(), out.end());
  return out;
}

double LaunchRepeats::mean_cycles(const traces::KernelInfo& info) const {
  const auto last = last_of(key(info));
  double sum = 0;
  for (const Ran* r : last) sum += r->cycles;
  return last.empty() ? 0.0 : sum / double(last.size());
}

double LaunchRepeats::spread_cycles(const traces::KernelInfo& info) const {
  const double mean = mean_cycles(info);
  double worst = 0;
  for (const Ran* r : last_of(key(info))) worst = std::max(worst, std::fabs(r->cycles - mean));
  return worst;
}

std::vector<std::uint32_t> LaunchRepeats::references(const traces::KernelInfo& info) const {
  const std::string k = key(info);
  if (auto it = differed_.find(k); it != differed_.end() && it->second >= rule_.give_up_after) return {};
  const auto last = last_of(k);
  if (rule_.references == 0 || last.size() < rule_.references) return {};
  const double mean = mean_cycles(info);
  if (!(mean > 0) || spread_cycles(info) > rule_.bound * mean) return {};
  std::vector<std::uint32_t> slots;
  for (const Ran* r : last) slots.push_back(r->slot);
  return slots;
}

}  // namespace warpsim::models::sampling

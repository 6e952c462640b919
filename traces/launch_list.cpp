#include "traces/launch_list.hpp"

#include <charconv>
#include <memory>
#include <string_view>

#include "sim/errors.hpp"
#include "sim/text.hpp"

namespace warpsim::traces {
namespace {

sim::InputError list_error(const std::string& what) { return sim::InputError("--launches", what); }

std::uint32_t launch_number(std::string_view text, const std::string& item) {
  std::uint64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size())
    throw list_error("'" + item + "' is not a launch number or a range A-B (launches count from 1)");
  if (value == 0) throw list_error("launch 0 in '" + item + "': launches count from 1");
  if (value > 0xffffffffu) throw list_error("launch " + std::string(text) + " is past any workload's end");
  return static_cast<std::uint32_t>(value);
}

}  // namespace

std::vector<bool> launch_mask(const std::string& list, std::uint32_t count) {
  if (sim::trim(list).empty()) throw list_error("empty list; give launch numbers such as 3,5-9");
  std::vector<bool> mask(count, false);
  std::string_view rest = list;
  while (true) {
    const std::size_t comma = rest.find(',');
    const std::string_view item = sim::trim(rest.substr(0, comma));
    const std::string text(item);
    if (item.empty()) throw list_error("an empty item in '" + list + "'");
    const std::size_t dash = item.find('-');
    const std::uint32_t first = launch_number(sim::trim(item.substr(0, dash)), text);
    const std::uint32_t last = dash == std::string_view::npos ? first : launch_number(sim::trim(item.substr(dash + 1)), text);
    if (last < first) throw list_error("range '" + text + "' runs backwards");
    if (last > count)
      throw list_error("launch " + std::to_string(last) + " does not exist: the workload has " + std::to_string(count) +
                       " launch" + (count == 1 ? "" : "es"));
    for (std::uint32_t n = first; n <= last; ++n) {
      if (mask[n - 1]) throw list_error("launch " + std::to_string(n) + " is named twice in '" + list + "'");
      mask[n - 1] = true;
    }
    if (comma == std::string_view::npos) break;
    rest = rest.substr(comma + 1);
  }
  return mask;
}

std::uint32_t launch_count(const Workload& workload) {
  std::uint32_t n = 0;
  for (const auto& step : workload.steps) n += step.kind == WorkloadStep::Kind::Launch;
  return n;
}

void open_first_launch(Workload& workload) {
  for (auto& step : workload.steps) {
    if (step.kind != WorkloadStep::Kind::Launch) continue;
    // std::function must be copyable: the opened source is held by a shared cell, handed out
    // once; a second call (no run asks twice) opens the file again.
    auto opened = std::make_shared<std::unique_ptr<KernelSource>>(step.launch.open());
    step.launch.open = [opened, reopen = std::move(step.launch.open)]() {
      return *opened ? std::move(*opened) : reopen();
    };
    return;
  }
}

std::vector<std::uint32_t> keep_launches(Workload& workload, const std::vector<bool>& mask) {
  std::vector<WorkloadStep> kept;
  std::vector<std::uint32_t> numbers;
  std::uint32_t number = 0;
  for (auto& step : workload.steps) {
    if (step.kind == WorkloadStep::Kind::Launch) {
      ++number;
      if (number > mask.size() || !mask[number - 1]) continue;
      numbers.push_back(number);
    }
    kept.push_back(std::move(step));
  }
  workload.steps = std::move(kept);
  return numbers;
}

}  // namespace warpsim::traces

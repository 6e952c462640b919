#include "traces/kernels/param_specs.hpp"

#include "traces/kernels/kernel_args.hpp"

namespace warpsim::traces::kernels {

sim::ParamSpec int_param(std::string key, std::int64_t default_value, std::string unit, std::string description,
                         double min, double max) {
  sim::ParamSpec s;
  s.key = std::move(key);
  s.type = sim::ParamType::Int;
  s.default_value = std::to_string(default_value);
  s.unit = std::move(unit);
  s.description = std::move(description);
  s.min = min;
  s.max = max;
  return s;
}

sim::ParamSpec float_param(std::string key, std::string default_value, std::string unit, std::string description,
                           double min, double max) {
  sim::ParamSpec s{std::move(key), sim::ParamType::Float, std::move(default_value), std::move(unit),
                   std::move(description), min, max, {}};
  return s;
}

sim::ParamSpec choice_param(std::string key, std::string default_value, std::vector<std::string> choices,
                            std::string description) {
  sim::ParamSpec s;
  s.key = std::move(key);
  s.type = sim::ParamType::Choice;
  s.default_value = std::move(default_value);
  s.description = std::move(description);
  s.choices = std::move(choices);
  return s;
}

const std::vector<sim::ParamSpec>& l2_policy_params() {
  static const std::vector<sim::ParamSpec> params = [] {
    std::vector<sim::ParamSpec> p;
    p.push_back(int_param("window_bytes", 0, "bytes",
                          "L2 access-policy window size (S4.2) starting at the kernel's hot buffer (persistKernel, persistLoop: persistent; chase: next; others: their first input array, README.md); 0 = no window",
                          0, 1e15));
    p.push_back(float_param("hit_ratio", "1", "",
                            "fraction of the window's accesses that get hit_prop, the rest miss_prop (S4.3)", 0, 1));
    std::vector<std::string> props{"persisting", "streaming", "normal"};
    p.push_back(choice_param("hit_prop", "persisting", props, "access property of the hit_ratio part (S4.5)"));
    p.push_back(choice_param("miss_prop", "streaming", props, "access property of the rest of the window (S4.5)"));
    p.push_back(int_param("set_aside_bytes", -1, "bytes",
                          "L2 set-aside for persisting lines (S4.1); -1 = as the kernel's program does: min(0.75 x L2, the preset's maximum) for persistKernel and persistLoop and for a launch with a window, none (CUDA's default) otherwise", -1,
                          1e15));
    return p;
  }();
  return params;
}

bool is_l2_policy_param(const std::string& key) {
  for (const auto& p : l2_policy_params())
    if (p.key == key) return true;
  return false;
}

std::vector<sim::ParamSpec> with_l2_policy(std::vector<sim::ParamSpec> own) {
  for (const auto& p : l2_policy_params()) own.push_back(p);
  return own;
}

namespace {
AccessProperty property(const std::string& name) {
  if (name == "persisting") return AccessProperty::Persisting;
  if (name == "streaming") return AccessProperty::Streaming;
  return AccessProperty::Normal;
}
}  // namespace

void apply_l2_policy(const KernelArgs& args, std::uint64_t hot_base, KernelInfo& info, bool sets_set_aside) {
  std::int64_t bytes = args.integer("window_bytes");
  info.window.base = bytes > 0 ? hot_base : 0;
  info.window.bytes = static_cast<std::uint64_t>(bytes);
  info.window.hit_ratio = args.real("hit_ratio");
  info.window.hit_prop = property(args.text("hit_prop"));
  info.window.miss_prop = property(args.text("miss_prop"));
  // kernels.cu sets the guide's set-aside before its persistence families only; a set-aside
  // changes how the L2 writes back even without a window (h100-measured/setaside_stores.csv).
  // A launch with a window gets it anyway (PersistencePolicy::resolve_set_aside).
  const std::int64_t set_aside = args.integer("set_aside_bytes");
  info.set_aside_bytes = set_aside >= 0        ? set_aside
                         : sets_set_aside ? KernelInfo::kLargestSetAside
                                          : KernelInfo::kNoSetAside;
}

}  // namespace warpsim::traces::kernels

// warpsim kernels [--json]: the kernel library (CONTRACT.md), each kernel with its description
// and every parameter with default, unit and description, read from the library's own tables
// (traces/kernels/library.hpp), so the list cannot drift from what `-p` accepts. The L2-policy
// parameters every kernel accepts are printed once, after the kernels.
#include <cmath>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "cli/options.hpp"
#include "sim/json.hpp"
#include "traces/kernels/library.hpp"
#include "traces/kernels/param_specs.hpp"

namespace warpsim::cli {
namespace {

namespace kernels = traces::kernels;

std::string range_text(const sim::ParamSpec& p) {
  if (p.type == sim::ParamType::Choice) {
    std::string c;
    for (const auto& v : p.choices) c += (c.empty() ? "" : "|") + v;
    return c;
  }
  return "";
}

void print_param(const sim::ParamSpec& p) {
  std::string choices = range_text(p);
  std::cout << "    " << std::left << std::setw(18) << p.key << std::setw(12)
            << (p.default_value.empty() ? "(required)" : p.default_value) << std::setw(12) << p.unit
            << p.description << (choices.empty() ? "" : " [" + choices + "]") << '\n';
}

std::string param_json(const sim::ParamSpec& p) {
  std::ostringstream o;
  o << "{\"key\": " << sim::json_quote(p.key) << ", \"default\": " << sim::json_quote(p.default_value)
    << ", \"unit\": " << sim::json_quote(p.unit) << ", \"description\": " << sim::json_quote(p.description);
  if (p.type == sim::ParamType::Choice) {
    o << ", \"choices\": [";
    for (std::size_t i = 0; i < p.choices.size(); ++i) o << (i ? ", " : "") << sim::json_quote(p.choices[i]);
    o << "]";
  } else {
    if (std::isfinite(p.min)) o << ", \"min\": " << sim::json_number(p.min);
    if (std::isfinite(p.max)) o << ", \"max\": " << sim::json_number(p.max);
  }
  o << ", \"common\": " << (kernels::is_l2_policy_param(p.key) ? "true" : "false") << '}';
  return o.str();
}

}  // namespace

int cmd_kernels(const Args& args) {
  const char* usage = "kernels [--json]";
  po::options_description options("kernels options");
  options.add_options()("json", po::bool_switch(), "print JSON: {\"kernels\": [{name, description, parameters}]}");
  po::positional_options_description positional;
  po::variables_map vm;
  if (!parse_options("kernels", usage, options, positional, args, vm)) return kExitOk;

  if (vm["json"].as<bool>()) {
    std::cout << "{\"kernels\": [";
    bool first = true;
    for (const auto& k : kernels::library()) {
      std::cout << (first ? "" : ", ") << "{\"name\": " << sim::json_quote(k.name)
                << ", \"description\": " << sim::json_quote(k.description) << ", \"parameters\": [";
      for (std::size_t i = 0; i < k.params.size(); ++i) std::cout << (i ? ", " : "") << param_json(k.params[i]);
      std::cout << "]}";
      first = false;
    }
    std::cout << "]}\n";
    return kExitOk;
  }

  std::cout << "Kernel library (warpsim run --kernel NAME -p key=value ...)\n";
  for (const auto& k : kernels::library()) {
    std::cout << '\n' << k.name << ": " << k.description << '\n';
    for (const auto& p : k.params)
      if (!kernels::is_l2_policy_param(p.key)) print_param(p);
  }
  std::cout << "\nEvery kernel also takes the L2 access-policy parameters (window over its hot buffer):\n";
  for (const auto& p : kernels::l2_policy_params()) print_param(p);
  return kExitOk;
}

}  // namespace warpsim::cli

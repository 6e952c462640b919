// warpsim validate: the built-in validation tables, simulated against reference, row by row.
#include <algorithm>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "analysis/validation/correlation_plot.hpp"
#include "analysis/validation/validation.hpp"
#include "analysis/validation/validation_markdown.hpp"
#include "cli/options.hpp"
#include "models/arch.hpp"
#include "sim/json.hpp"

namespace warpsim::cli {

int cmd_validate(const Args& args) {
  const char* usage = "validate [--table NAME] [--arch ARCH] [--quick] [--json | --markdown] [--plot DIR]";
  po::options_description options("validate options");
  options.add_options()("table", po::value<std::string>()->default_value(""), "run only this table")(
      "arch", po::value<std::string>()->default_value(""),
      "simulate the tables with this preset (a name or a preset file, e.g. one 'warpsim arch derive' wrote) "
      "instead of each table's own")(
      "quick", po::bool_switch(), "skip the largest runs (n = 2^26 counters, persistKernel)")(
      "json", po::bool_switch(), "print JSON")(
      "markdown", po::bool_switch(),
      "print Markdown: per table its source, rows within each tolerance, and every row outside with the known gap it "
      "is (docs/validation.md is `validate --quick --markdown`)")(
      "plot", po::value<std::string>(),
      "write DIR/<table>-time.svg (simulated against measured time per launch, log-log, ±10% band) and "
      "DIR/<table>-time.csv for each table with per-launch times (h100-apps)");
  po::variables_map vm;
  if (!parse_options("validate", usage, options, {}, args, vm)) return kExitOk;
  analysis::ValidationOptions o;
  o.quick = vm["quick"].as<bool>();
  o.arch = vm["arch"].as<std::string>();
  if (!o.arch.empty()) models::load_arch(o.arch);  // an unknown preset or a bad file: exit 2 before any run
  auto tables = analysis::run_validation(o, vm["table"].as<std::string>());
  if (vm.count("plot"))
    for (const auto& t : tables)
      for (const auto& path : analysis::write_time_correlation(t, vm["plot"].as<std::string>()))
        std::cerr << "wrote " << path.string() << '\n';

  bool all_pass = true;
  for (const auto& t : tables) all_pass = all_pass && t.pass();
  if (vm["markdown"].as<bool>()) {
    std::string command = "warpsim validate";
    if (vm["table"].as<std::string>() != "") command += " --table " + vm["table"].as<std::string>();
    if (!o.arch.empty()) command += " --arch " + o.arch;
    if (o.quick) command += " --quick";
    std::cout << analysis::validation_markdown(tables, command + " --markdown");
  } else if (vm["json"].as<bool>()) {
    std::cout << "{\"pass\": " << (all_pass ? "true" : "false") << ", \"tables\": [";
    for (std::size_t i = 0; i < tables.size(); ++i) {
      const auto& t = tables[i];
      std::cout << (i ? ", " : "") << "{\"name\": " << sim::json_quote(t.name) << ", \"source\": " << sim::json_quote(t.source)
                << ", \"pass\": " << (t.pass() ? "true" : "false") << ", \"rows\": [";
      for (std::size_t k = 0; k < t.rows.size(); ++k) {
        const auto& r = t.rows[k];
        std::cout << (k ? ", " : "") << "{\"quantity\": " << sim::json_quote(r.quantity)
                  << ", \"reference\": " << sim::json_number(r.reference)
                  << ", \"simulated\": " << sim::json_number(r.simulated)
                  << ", \"error\": " << sim::json_number(r.tolerance.error(r.reference, r.simulated))
                  << ", \"tolerance\": " << sim::json_quote(r.tolerance.describe())
                  << ", \"pass\": " << (r.pass ? "true" : "false") << '}';
      }
      std::cout << "], \"summary\": {";
      for (std::size_t k = 0; k < t.summary.size(); ++k)
        std::cout << (k ? ", " : "") << sim::json_quote(t.summary[k].first) << ": " << sim::json_number(t.summary[k].second);
      std::cout << "}}";
    }
    std::cout << "]}\n";
  } else {
    for (const auto& t : tables) {
      std::size_t passed = 0;
      for (const auto& r : t.rows) passed += r.pass;
      std::cout << "== " << t.name << " — " << t.source << " (" << passed << "/" << t.rows.size() << " pass)\n";
      // Quantities are printed whole: the column is as wide as the longest (64 at least).
      std::size_t width = 64;
      for (const auto& r : t.rows) width = std::max(width, r.quantity.size());
      std::cout << std::left << std::setw(int(width) + 2) << "  quantity" << std::right << std::setw(14) << "reference"
                << std::setw(14) << "simulated" << std::setw(10) << "error" << std::setw(10) << "tolerance"
                << "  result\n";
      for (const auto& r : t.rows) {
        std::cout << "  " << std::left << std::setw(int(width)) << r.quantity << std::right << std::setw(14)
                  << std::setprecision(6) << r.reference << std::setw(14) << r.simulated << std::setw(10) << analysis::error_text(r)
                  << std::setw(10) << r.tolerance.describe() << "  " << (r.pass ? "pass" : "FAIL") << '\n';
      }
      if (!t.summary.empty()) {
        std::cout << "  summary:";
        for (std::size_t k = 0; k < t.summary.size(); ++k)
          std::cout << (k ? "; " : " ") << t.summary[k].first << " " << std::setprecision(4) << t.summary[k].second;
        std::cout << '\n';
      }
      std::cout << '\n';
    }
    std::cout << (all_pass ? "all validation rows pass\n" : "some validation rows FAIL\n");
  }
  return all_pass ? kExitOk : 1;
}

}  // namespace warpsim::cli

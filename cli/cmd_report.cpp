// warpsim report: summarise a sweep result file (CONTRACT.md). The analysis lives in
// analysis/report/; this file only parses the command line and picks the output form.
#include <iostream>

#include "analysis/report/report_json.hpp"
#include "analysis/report/report_text.hpp"
#include "analysis/report/result_table.hpp"
#include "analysis/report/sweep_report.hpp"
#include "cli/options.hpp"

namespace warpsim::cli {

int cmd_report(const Args& args) {
  const char* usage =
      "report RESULTS.h5 [--json]\n\n"
      "Per study, architecture and kernel: the best and worst points by time_ms (status 0 only) with\n"
      "their parameters and key metrics, the failed points with a sample reason, and the sensitivity\n"
      "of time to each swept axis (the spread of time_ms along the axis, the other axes held at the\n"
      "best point). Reads whole sweeps, merged files and single shards.";
  po::options_description options("report options");
  options.add_options()("results", po::value<std::string>()->required(), "sweep result file (HDF5)")(
      "json", po::bool_switch(), "print one JSON object instead of tables");
  po::positional_options_description positional;
  positional.add("results", 1);
  po::variables_map vm;
  if (!parse_options("report", usage, options, positional, args, vm)) return kExitOk;

  analysis::SweepReport report = analysis::build_report(analysis::read_result_table(vm["results"].as<std::string>()));
  if (vm["json"].as<bool>())
    std::cout << analysis::report_json(report) << '\n';
  else
    analysis::print_report_text(std::cout, report);
  return kExitOk;
}

}  // namespace warpsim::cli

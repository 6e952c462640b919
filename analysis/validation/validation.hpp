#pragma once
// The validation tables behind `warpsim validate`: simulated against published (SPEC S5) and
// measured (H100 calibration) numbers, each row with the tolerance its table states.
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "models/simulate.hpp"

namespace warpsim::analysis {

struct Tolerance {
  enum class Kind { Exact, Relative, Absolute, AtLeast, AtMost } kind = Kind::Exact;
  double value = 0;  // relative: fraction (0.10 = 10 %); absolute: in the quantity's unit
  static Tolerance exact() { return {Kind::Exact, 0}; }
  static Tolerance relative(double f) { return {Kind::Relative, f}; }
  static Tolerance absolute(double a) { return {Kind::Absolute, a}; }
  static Tolerance at_least() { return {Kind::AtLeast, 0}; }  // simulated >= reference
  static Tolerance at_most() { return {Kind::AtMost, 0}; }    // simulated <= reference
  bool accepts(double reference, double simulated) const;
  double error(double reference, double simulated) const;  // relative error where it makes sense
  std::string describe() const;
};

struct ValidationRow {
  std::string quantity;  // what is compared, with its parameters
  double reference = 0;
  double simulated = 0;
  Tolerance tolerance;
  bool pass = false;
};

// A row's error as printed: relative tolerances compare percentages ("+3.2%"), absolute ones
// (efficiency points) the difference ("+0.5").
std::string error_text(const ValidationRow& r);

// The row of `quantity`: passes when `tolerance` accepts `simulated` against `reference`.
ValidationRow compare_row(std::string quantity, double reference, double simulated, Tolerance tolerance);

// One point of a correlation plot (validate --plot): a measured and a simulated value of the same
// run, in a group that gets its own colour (the program).
struct CorrelationPoint {
  std::string group, label;
  double measured = 0, simulated = 0;
};

struct ValidationTable {
  std::string name;
  std::string source;  // where the reference numbers come from
  std::vector<ValidationRow> rows;
  // Figures over the whole table (name, value), e.g. the mean absolute time error; printed
  // under it, informative: they do not pass or fail.
  std::vector<std::pair<std::string, double>> summary{};
  // Measured against simulated time of each run, for the correlation scatter (validate --plot).
  std::vector<CorrelationPoint> time_points{};
  bool pass() const;
};

// Runs simulations once per distinct request, many at a time (oneTBB), and hands out results.
class RunCache {
 public:
  void want(const models::RunRequest& request);  // declare, so run_all can batch
  void run_all();                                // simulate everything wanted, in parallel
  const models::RunResult& get(const models::RunRequest& request);
  static double metric(const models::RunResult& r, const std::string& name);

 private:
  static std::string key(const models::RunRequest& request);
  std::map<std::string, models::RunRequest> wanted_;
  std::map<std::string, models::RunResult> done_;
  std::mutex mutex_;
};

struct ValidationOptions {
  bool quick = false;  // skip the largest runs (n = 2^26 rows, full persistKernel)
  // A preset name or preset file every chosen table simulates instead of its own (validate
  // --arch: a derived preset against the measurements it should reproduce); empty: their own.
  std::string arch{};
};

// A table: declares its runs, then builds its rows from the cache.
struct TableBuilder {
  std::string name;
  std::function<void(RunCache&, const ValidationOptions&)> declare;
  std::function<ValidationTable(RunCache&, const ValidationOptions&)> build;
};
const std::vector<TableBuilder>& validation_tables();

std::vector<ValidationTable> run_validation(const ValidationOptions& options, const std::string& only = {});

}  // namespace warpsim::analysis

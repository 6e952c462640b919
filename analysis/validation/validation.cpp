#include "analysis/validation/validation.hpp"

#include <cmath>
#include <iomanip>
#include <sstream>
#include <tbb/parallel_for_each.h>

#include "sim/errors.hpp"

namespace warpsim::analysis {

bool Tolerance::accepts(double reference, double simulated) const {
  switch (kind) {
    case Kind::Exact: return simulated == reference;
    case Kind::Relative: return std::fabs(simulated - reference) <= value * std::fabs(reference);
    case Kind::Absolute: return std::fabs(simulated - reference) <= value;
    case Kind::AtLeast: return simulated >= reference;
    case Kind::AtMost: return simulated <= reference;
  }
  return false;
}

double Tolerance::error(double reference, double simulated) const {
  if (kind == Kind::Absolute) return simulated - reference;
  return reference != 0 ? (simulated - reference) / std::fabs(reference) : simulated - reference;
}

std::string Tolerance::describe() const {
  std::ostringstream out;
  switch (kind) {
    case Kind::Exact: return "exact";
    case Kind::Relative: out << "±" << value * 100 << "%"; break;
    case Kind::Absolute: out << "±" << value; break;
    case Kind::AtLeast: return ">= ref";
    case Kind::AtMost: return "<= ref";
  }
  return out.str();
}

std::string error_text(const ValidationRow& r) {
  std::ostringstream out;
  out << std::setprecision(3);
  const double e = r.tolerance.error(r.reference, r.simulated);
  if (r.tolerance.kind == Tolerance::Kind::Absolute)
    out << (e >= 0 ? "+" : "") << e;
  else
    out << e * 100 << "%";
  return out.str();
}

ValidationRow compare_row(std::string quantity, double reference, double simulated, Tolerance tolerance) {
  ValidationRow r{std::move(quantity), reference, simulated, tolerance, false};
  r.pass = tolerance.accepts(reference, simulated);
  return r;
}

bool ValidationTable::pass() const {
  for (const auto& r : rows)
    if (!r.pass) return false;
  return true;
}

std::string RunCache::key(const models::RunRequest& r) {
  std::ostringstream k;
  k << r.arch << '|' << r.kernel << '|' << r.trace << '|' << r.seed << "|launches " << r.launches;
  if (r.ncu) k << "|ncu " << (r.ncu_flush_caches ? "all" : "none");
  for (const auto& o : r.arch_overrides) k << "|set " << o;
  for (const auto& p : r.kernel_params) k << "|p " << p;
  return k.str();
}

void RunCache::want(const models::RunRequest& request) {
  std::string k = key(request);
  if (!done_.count(k)) wanted_.emplace(k, request);
}

void RunCache::run_all() {
  std::vector<std::pair<std::string, models::RunRequest>> todo(wanted_.begin(), wanted_.end());
  wanted_.clear();
  tbb::parallel_for_each(todo.begin(), todo.end(), [&](const auto& item) {
    models::RunResult r = models::simulate(item.second);
    std::lock_guard<std::mutex> lock(mutex_);
    done_.emplace(item.first, std::move(r));
  });
}

const models::RunResult& RunCache::get(const models::RunRequest& request) {
  std::string k = key(request);
  if (auto it = done_.find(k); it != done_.end()) return it->second;
  return done_.emplace(k, models::simulate(request)).first->second;
}

double RunCache::metric(const models::RunResult& r, const std::string& name) {
  if (name == "cycles") return double(r.cycles);
  if (name == "time_ms") return r.time_ms;
  for (const auto& [n, v] : r.metrics)
    if (n == name) return v;
  throw std::out_of_range("no metric " + name);
}

std::vector<ValidationTable> run_validation(const ValidationOptions& options, const std::string& only) {
  RunCache cache;
  std::vector<const TableBuilder*> chosen;
  for (const auto& t : validation_tables())
    if (only.empty() || t.name == only) chosen.push_back(&t);
  if (chosen.empty()) {
    std::string known;
    for (const auto& t : validation_tables()) known += (known.empty() ? "" : ", ") + t.name;
    throw sim::InputError("--table", "unknown table '" + only + "'; known: " + known);
  }
  for (const auto* t : chosen) t->declare(cache, options);
  cache.run_all();
  std::vector<ValidationTable> tables;
  for (const auto* t : chosen) {
    tables.push_back(t->build(cache, options));
    if (!options.arch.empty()) tables.back().source += "; simulated with " + options.arch + ", not the table's own preset";
  }
  return tables;
}

}  // namespace warpsim::analysis

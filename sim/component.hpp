#pragma once
// A named part of the simulated machine. Components that can hold work report it, so the
// deadlock detector can say who is stuck and on what.
#include <string>

namespace warpsim::sim {

class Component {
 public:
  explicit Component(std::string path) : path_(std::move(path)) {}
  virtual ~Component() = default;
  Component(const Component&) = delete;
  Component& operator=(const Component&) = delete;

  // Hierarchical name, e.g. "gpu.sm3.l1".
  const std::string& path() const { return path_; }
  // True while the component holds work that has not completed.
  virtual bool has_pending_work() const { return false; }
  // What the pending work waits for, in words, for the deadlock report.
  virtual std::string waiting_for() const { return {}; }

 private:
  std::string path_;
};

}  // namespace warpsim::sim

// traces::LaunchesAhead: before the GPU waits at a step, the next two launches are open (so their
// blocks are read meanwhile), each launch is opened once and handed out as the source opened
// early; and Gpu::run opens the launch after a copy before draining for that copy, not after.
#include <catch2/catch.hpp>
#include <memory>
#include <vector>

#include "models/arch.hpp"
#include "models/core/gpu.hpp"
#include "tests/models/mock_workload.hpp"
#include "traces/launches_ahead.hpp"

using namespace warpsim;

namespace {

using Opened = std::vector<std::pair<int, traces::KernelSource*>>;  // launch number, its source

traces::WorkloadStep copy_step() { return {traces::WorkloadStep::Kind::Memcpy, {0x1000, 4096}, {}}; }

traces::WorkloadStep launch_step(int number, Opened& opened) {
  traces::WorkloadStep step{traces::WorkloadStep::Kind::Launch, {}, {}};
  step.launch.open = [number, &opened]() -> std::unique_ptr<traces::KernelSource> {
    auto source = std::make_unique<test::ProgramKernel>(1, 32, [](std::uint64_t, std::uint32_t) {
      return std::vector<traces::Instruction>{test::exit_op()};
    });
    opened.emplace_back(number, source.get());
    return source;
  };
  return step;
}

std::vector<int> numbers(const Opened& opened) {
  std::vector<int> out;
  for (const auto& o : opened) out.push_back(o.first);
  return out;
}

}  // namespace

TEST_CASE("LaunchesAhead keeps the next two launches open, each opened once", "[traces]") {
  Opened opened;
  traces::Workload w;  // copy, L1, copy, L2, L3, copy, L4
  w.steps.push_back(copy_step());
  w.steps.push_back(launch_step(1, opened));
  w.steps.push_back(copy_step());
  w.steps.push_back(launch_step(2, opened));
  w.steps.push_back(launch_step(3, opened));
  w.steps.push_back(copy_step());
  w.steps.push_back(launch_step(4, opened));

  traces::LaunchesAhead launches(w);
  launches.open_from(0);  // a copy: the two launches after it
  CHECK(numbers(opened) == std::vector<int>{1, 2});
  launches.open_from(1);  // L1 and L2: open already
  CHECK(opened.size() == 2);
  std::unique_ptr<traces::KernelSource> l1 = launches.take(1);
  CHECK(l1.get() == opened[0].second);  // the source opened early, not a second one
  launches.open_from(2);  // a copy: L2 (open), L3
  CHECK(numbers(opened) == std::vector<int>{1, 2, 3});
  launches.open_from(3);  // L2, L3
  CHECK(launches.take(3).get() == opened[1].second);
  launches.open_from(4);  // L3, L4
  CHECK(numbers(opened) == std::vector<int>{1, 2, 3, 4});
  CHECK(launches.take(4).get() == opened[2].second);
  launches.open_from(5);
  launches.open_from(6);
  CHECK(launches.take(6).get() == opened[3].second);
  CHECK(opened.size() == 4);

  // A launch never asked for ahead is opened when taken, once.
  Opened late;
  traces::Workload one;
  one.steps.push_back(launch_step(1, late));
  traces::LaunchesAhead direct(one);
  CHECK(direct.take(0) != nullptr);
  direct.open_from(0);
  CHECK(late.size() == 1);
}

TEST_CASE("Gpu::run opens the launch after a copy before it waits for the kernel before the copy", "[traces][models]") {
  // L1 runs 2,000 cycles of dependent loads; a copy follows, then L2. L2 must be opened while L1
  // still runs (its blocks read meanwhile), i.e. at the copy, before the GPU drains for it.
  models::Arch arch = models::load_arch("kepler-k20x", {"gpu.sms=1", "dispatch.kernel_start_ns=0"});
  test::FixedLatencyMemory memory(1000);
  sim::StatsRegistry stats;
  models::Gpu gpu(arch, memory, stats);
  bool l2_opened = false, l1_done_when_l2_opened = true;
  traces::Workload w;
  traces::WorkloadStep l1{traces::WorkloadStep::Kind::Launch, {}, {}};
  l1.launch.open = [] {
    return std::unique_ptr<traces::KernelSource>(std::make_unique<test::ProgramKernel>(
        1, 32, [](std::uint64_t, std::uint32_t) {
          return std::vector<traces::Instruction>{test::load(1, traces::kNoReg), test::load(2, 1), test::exit_op()};
        }));
  };
  w.steps.push_back(l1);
  w.steps.push_back(copy_step());
  traces::WorkloadStep l2{traces::WorkloadStep::Kind::Launch, {}, {}};
  l2.launch.open = [&gpu, &l2_opened, &l1_done_when_l2_opened] {
    l2_opened = true;
    l1_done_when_l2_opened = gpu.launch_count() > 0 && gpu.gigathread().kernel(0).done();
    return std::unique_ptr<traces::KernelSource>(std::make_unique<test::ProgramKernel>(
        1, 32, [](std::uint64_t, std::uint32_t) { return std::vector<traces::Instruction>{test::exit_op()}; }));
  };
  w.steps.push_back(l2);
  gpu.run(w);
  CHECK(gpu.launch_count() == 2);
  CHECK(l2_opened);
  CHECK_FALSE(l1_done_when_l2_opened);  // opened after the drain, it would find L1 done
  CHECK(gpu.launch_totals(0).gpu.cycles > 2000);  // L1 did run long: the check can tell
}

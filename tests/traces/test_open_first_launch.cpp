// traces::open_first_launch: the first launch's source is opened at once (its blocks are then read
// while the GPU is built), the step hands that very source out when the run reaches it, later
// launches stay unopened until reached, and a workload without launches is left alone.
#include <catch2/catch.hpp>
#include <memory>

#include "tests/models/mock_workload.hpp"
#include "traces/launch_list.hpp"

using namespace warpsim;

namespace {

traces::WorkloadStep launch_counting(int& opened, traces::KernelSource*& last) {
  traces::WorkloadStep step{traces::WorkloadStep::Kind::Launch, {}, {}};
  step.launch.label = "counted";
  step.launch.open = [&opened, &last]() -> std::unique_ptr<traces::KernelSource> {
    ++opened;
    auto source = std::make_unique<test::ProgramKernel>(1, 32, [](std::uint64_t, std::uint32_t) {
      return std::vector<traces::Instruction>{};
    });
    last = source.get();
    return source;
  };
  return step;
}

}  // namespace

TEST_CASE("open_first_launch opens the first launch now and hands out that source when reached", "[traces]") {
  int first_opened = 0, second_opened = 0;
  traces::KernelSource *first_last = nullptr, *second_last = nullptr;
  traces::Workload w;
  w.steps.push_back({traces::WorkloadStep::Kind::Memcpy, {0x1000, 4096}, {}});
  w.steps.push_back(launch_counting(first_opened, first_last));
  w.steps.push_back(launch_counting(second_opened, second_last));

  traces::open_first_launch(w);
  CHECK(first_opened == 1);   // opened now, before any run
  CHECK(second_opened == 0);  // the others when reached
  traces::KernelSource* opened_early = first_last;

  std::unique_ptr<traces::KernelSource> reached = w.steps[1].launch.open();
  CHECK(reached.get() == opened_early);  // the source opened early, not a second one
  CHECK(first_opened == 1);
  CHECK(w.steps[1].launch.label == "counted");
  // Asked again (no run does), the step opens its file anew rather than handing out nothing.
  std::unique_ptr<traces::KernelSource> again = w.steps[1].launch.open();
  CHECK(again != nullptr);
  CHECK(first_opened == 2);

  traces::Workload copies_only;
  copies_only.steps.push_back({traces::WorkloadStep::Kind::Memcpy, {0x1000, 4096}, {}});
  traces::open_first_launch(copies_only);
  CHECK(copies_only.steps.size() == 1);
}

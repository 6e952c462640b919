#pragma once
// The KernelSource of every library kernel: a launch geometry, the SASS listing for the target
// ISA, and per-launch parameters (buffer addresses, sizes) shared by the warps' Logic objects.
// Opening a block builds its warps' streams; nothing is generated ahead of a next() call.
#include <memory>
#include <utility>
#include <vector>

#include "traces/kernel_source.hpp"
#include "traces/kernels/sass_warp_stream.hpp"

namespace warpsim::traces::kernels {

// Logic must be constructible as Logic(const Params&, const WarpPlace&), Params being
// Logic::Params; the Params object outlives every stream (owned by the source, shared).
template <class Logic>
class LibraryKernel final : public KernelSource {
 public:
  using Params = typename Logic::Params;
  LibraryKernel(KernelInfo info, const SassProgram& program, Params params)
      : info_(std::move(info)), program_(program), params_(std::make_shared<const Params>(std::move(params))) {
    info_.registers_per_thread = program.registers;
  }

  const KernelInfo& info() const override { return info_; }

  std::vector<std::unique_ptr<WarpStream>> open_block(std::uint64_t block_id) override {
    std::vector<std::unique_ptr<WarpStream>> warps;
    if (block_id >= info_.grid.count()) return warps;
    std::uint32_t count = info_.warps_per_block();
    warps.reserve(count);
    for (std::uint32_t w = 0; w < count; ++w) {
      WarpPlace place = place_warp(info_, block_id, w);
      warps.push_back(std::make_unique<SassWarpStream<Logic>>(program_.ops, place.valid_lanes,
                                                               Logic(*params_, place)));
    }
    return warps;
  }

  bool blocks_alike() const override { return Logic::kBlocksAlike; }

  const Params& params() const { return *params_; }

 private:
  KernelInfo info_;
  const SassProgram& program_;
  std::shared_ptr<const Params> params_;
};

}  // namespace warpsim::traces::kernels

#pragma once
// One kernel launch: its geometry and resources, and the warp streams of each thread block.
// Three implementations sit behind it: the kernel library, the Accel-Sim reader, .wtrace.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "traces/warp_stream.hpp"

namespace warpsim::traces {

struct Dim3 {
  std::uint32_t x = 1, y = 1, z = 1;
  std::uint64_t count() const { return std::uint64_t(x) * y * z; }
};

// L2 access-policy window of a launch (SPEC S4.2). bytes == 0: no window.
enum class AccessProperty : std::uint8_t { Normal, Streaming, Persisting };
struct AccessPolicyWindow {
  std::uint64_t base = 0;
  std::uint64_t bytes = 0;
  double hit_ratio = 1.0;
  AccessProperty hit_prop = AccessProperty::Persisting;
  AccessProperty miss_prop = AccessProperty::Streaming;
};

struct KernelInfo {
  std::string name;
  Dim3 grid;
  Dim3 block;
  std::uint32_t registers_per_thread = 32;
  std::uint32_t shared_bytes_per_block = 0;  // static + dynamic
  std::uint64_t stream_id = 0;
  AccessPolicyWindow window;
  // cudaLimitPersistingL2CacheSize asked for by this run (S4.1), in bytes, or one of:
  // kNoSetAside, CUDA's default: a program that never sets the limit reserves nothing;
  // kLargestSetAside: min(0.75 x L2, the preset's persisting maximum), as the programming guide's
  // example sets it (the default of the library's persisting kernels, `set_aside_bytes = -1`).
  static constexpr std::int64_t kNoSetAside = -1, kLargestSetAside = -2;
  std::int64_t set_aside_bytes = kNoSetAside;
  // Where the launch is described, for errors the source cannot check itself (a block too large
  // for the chosen GPU): "trace.traceg:1-9", its header's lines. Empty for library kernels,
  // whose parameters are named in such errors already.
  std::string origin;
  std::uint64_t threads_per_block() const { return block.count(); }
  std::uint32_t warps_per_block() const { return static_cast<std::uint32_t>((block.count() + 31) / 32); }
};

class KernelSource {
 public:
  virtual ~KernelSource() = default;
  virtual const KernelInfo& info() const = 0;
  // The warp streams of thread block `block_id` (linear: x fastest, then y, then z), warp 0
  // first. The GigaThread engine opens blocks in increasing id order, which lets a file-backed
  // source read sequentially; a block a trace left out has no warps.
  virtual std::vector<std::unique_ptr<WarpStream>> open_block(std::uint64_t block_id) = 0;
  // Things the run should record, e.g. an opcode mapped to a default unit class.
  virtual std::vector<std::string> warnings() const { return {}; }
  // Whether the blocks are alike by construction: every block runs the same instructions with
  // the same active lanes, on addresses that differ from block to block by a shift, except
  // blocks at the grid's end that a bounds check cuts short. Sampled simulation then takes the
  // counts of many skipped blocks from a few (models/sampling/sampler.hpp); otherwise it reads
  // every block it skips.
  virtual bool blocks_alike() const { return false; }
};

}  // namespace warpsim::traces

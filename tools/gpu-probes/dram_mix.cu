// How fast DRAM moves a stream as its share of writes goes from none to all: what the DRAM
// model's write costs (dram.turnaround_ns, dram.write_batch) must reproduce. The H100's tables
// give a few points of the curve, each with a kernel of its own (bandwidth.csv: reads 91%, writes
// 93%, a copy 83% of the pins; stridedRead at stride 4, 20% writes, 92%); here one kernel moves
// every mix, at full occupancy and long enough (~8 GB) that its launch and tail do not count.
//
//   dram_mix [--ncu] [--skew=BYTES]
//     CSV on stdout: case,reads,writes,bytes,event_median_ms,event_min_ms,reps,GBps,pins_share;
//     with --ncu each case runs once after a "#case,NAME,PARAMS" line, for ncu's dram__bytes
//     and dram__throughput. --skew puts array k a further k x BYTES on (a multiple of 256), so
//     that the arrays' elements i do not lie at the same distance from every boundary: with eight
//     arrays or more the GPU moved bytes the kernel never asked for, when they all began on 2 MB
//     boundaries.
//
// Each thread takes 16-byte elements i, i + threads, ... and for each reads `reads` arrays at i
// and writes `writes` arrays at i (a warp: 512 contiguous bytes of each, whole 128-byte lines, so
// no write reads DRAM first); the arrays lie one after another in one buffer, 2 MB-aligned.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "probe_common.cuh"

namespace {

constexpr size_t kTotalBytes = size_t(8) << 30;  // moved per case, reads and writes together
constexpr int kMaxArrays = 9;

struct Arrays {
  uint4* a[kMaxArrays];
};

template <int R, int W>
__global__ void __launch_bounds__(1024, 2) mix(Arrays arrays, size_t n, unsigned* sink) {
  uint4 acc{threadIdx.x, blockIdx.x, 0, 0};
  const size_t step = size_t(gridDim.x) * blockDim.x;
#pragma unroll 4
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += step) {
#pragma unroll
    for (int r = 0; r < R; ++r) {
      const uint4 v = arrays.a[r][i];
      acc.x ^= v.x;
      acc.y ^= v.y;
    }
#pragma unroll
    for (int w = 0; w < W; ++w) arrays.a[R + w][i] = acc;
  }
  if (R > 0 && acc.x == 0x12345678u && acc.y == 7u) *sink = acc.x;
}

struct Case {
  int reads, writes;
  void (*kernel)(Arrays, size_t, unsigned*);
};

#define MIX(R, W) Case{R, W, mix<R, W>}
// The mixes, then one direction over 2, 4 and 8 arrays: whether a mix is slower for its share of
// writes or for the number of streams it walks at once.
const Case kCases[] = {MIX(1, 0), MIX(8, 1), MIX(4, 1), MIX(3, 1), MIX(2, 1), MIX(3, 2), MIX(1, 1),
                       MIX(2, 3), MIX(1, 2), MIX(1, 3), MIX(1, 4), MIX(0, 1), MIX(2, 0), MIX(4, 0),
                       MIX(8, 0), MIX(0, 2), MIX(0, 4), MIX(0, 8), MIX(2, 2), MIX(4, 4)};
#undef MIX

}  // namespace

int main(int argc, char** argv) {
  const probe::Mode mode = probe::parse_mode(argc, argv, 1);
  size_t skew = 0;
  for (int i = 1; i < argc; ++i)
    if (std::string(argv[i]).rfind("--skew=", 0) == 0) skew = size_t(atoll(argv[i] + 7)) / 256 * 256;
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  int mem_clock_khz = 0, bus_bits = 0;
  CK(cudaDeviceGetAttribute(&mem_clock_khz, cudaDevAttrMemoryClockRate, 0));
  CK(cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, 0));
  const double pins_gbps = bus_bits / 8.0 * 2.0 * mem_clock_khz * 1e3 / 1e9;
  const size_t buffer_bytes = kTotalBytes + (size_t(kMaxArrays) << 21) + kMaxArrays * skew;
  unsigned char* buffer;
  unsigned* sink;
  CK(cudaMalloc(&buffer, buffer_bytes));
  CK(cudaMemset(buffer, 0, buffer_bytes));
  CK(cudaMalloc(&sink, 4));
  const int grid = prop.multiProcessorCount * 2;
  if (!mode.profiled) printf("case,reads,writes,bytes,event_median_ms,event_min_ms,reps,GBps,pins_share\n");
  for (const Case& c : kCases) {
    // Each array kTotalBytes / (reads + writes), so that every case moves ~kTotalBytes.
    const size_t arrays_used = size_t(c.reads + c.writes);
    const size_t n = kTotalBytes / (16 * arrays_used);
    const size_t stride = (n * 16 + (size_t(1) << 21) - 1) >> 21 << 21;
    Arrays arrays;
    for (size_t k = 0; k < arrays_used; ++k) arrays.a[k] = reinterpret_cast<uint4*>(buffer + k * (stride + skew));
    const size_t bytes = n * 16 * arrays_used;
    char name[32], params[64];
    snprintf(name, sizeof name, "mix_r%d_w%d", c.reads, c.writes);
    snprintf(params, sizeof params, "reads=%d;writes=%d;bytes=%zu", c.reads, c.writes, bytes);
    if (skew != 0) snprintf(params + strlen(params), sizeof params - strlen(params), ";skew=%zu", skew);
    auto launch = [&] { c.kernel<<<grid, 1024>>>(arrays, n, sink); };
    if (mode.profiled) {
      printf("#case,%s,%s\n", name, params);
      fflush(stdout);
      launch();
      CK(cudaGetLastError());
      CK(cudaDeviceSynchronize());
      continue;
    }
    const probe::Timing t = probe::time_events(mode.reps, launch);
    const double gbps = bytes / (t.median_ms * 1e-3) / 1e9;
    printf("%s,%d,%d,%zu,%.5f,%.5f,%d,%.1f,%.4f\n", name, c.reads, c.writes, bytes, t.median_ms, t.min_ms, mode.reps, gbps,
           gbps / pins_gbps);
  }
  return 0;
}

// When an L2 slice stalls under a set-aside (docs/model.md, "Where a set-aside's loads stall"):
// load_spread.cu finds a block's hot loads slow four at a time, one slice's lines
// (l2_slice_map.cu), 1,100-2,300 cycles after the rest; this times one observer's L2 hits to four
// slices, load by load, while persistKernel streams beside it.
//
//   slice_stalls    one CSV on stdout. Per case, an observer (one warp, its own stream, started
//                   first) reads lines 0, 2, 8 and 10 of a 4 KB buffer of its own (four slices:
//                   l2_slice_map.cu's groups {0,1,4,5}, {2,3,6,7}, {8,9,12,13}, {10,11,14,15}),
//                   each load waiting for the one before, past L1 (ld.global.cg), kLoads in all,
//                   while persistKernel (calibration_kernels.cuh: 1 MB hot, 256 MB streamed,
//                   1,024-thread blocks) runs on another stream:
//     alone            the observer without persistKernel
//     dram             persistKernel without a set-aside
//     dram_setaside    with load_spread.cu's set-aside (min(0.75 x L2, the most the GPU allows))
//     loads_setaside   the set-aside, persistKernel's loads without its stores (nothing dirty)
// Columns: case,k,line,t_issue,cycles: the observer's k-th load, of which line, its SM's clock64
// when it issued and its cycles. A `#` line per case gives persistKernel's time and when it ran
// on the observer's clock (the first start and last end of its blocks on the observer's SM).
#include "calibration_kernels.cuh"
#include "probe_common.cuh"

namespace {

constexpr int kLoads = 12288, kThreads = 1024;
// Lines 0, 2, 8, 10 in turn.
__host__ __device__ constexpr int line_of(int k) { return ((k & 1) << 1) | ((k & 2) << 2); }

__global__ void observe(const int* lines, long long* t_issue, int* cycles, volatile int* started) {
  if (threadIdx.x != 0) return;
  *started = int(probe::smid()) + 1;
  int v = 0;
  for (int k = 0; k < kLoads; ++k) {
    const long long t0 = clock64();
    v = __ldcg(lines + line_of(k) * 32 + (v >> 31));  // the buffer holds no negative numbers
    const long long t1 = probe::clock_after_data<32>(v);
    t_issue[k] = t0;
    cycles[k] = int(t1 - t0);
  }
}

// persistKernel, and on the observer's SM the first and last clock64 any block saw.
__global__ void persistWatched(int* persistent, int* streaming, int dataSize, int freqSize, unsigned sm,
                               unsigned long long* first_last, bool stores) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x == 0 && probe::smid() == sm) atomicMin(&first_last[0], (unsigned long long)clock64());
  const int hot = persistent[tid % freqSize];
  if (stores) persistent[tid % freqSize] = 2 * hot;
  const int cold = streaming[(tid + (hot >> 31)) % dataSize];
  if (stores)
    streaming[tid % dataSize] = 2 * cold;
  else if (hot + cold == 0)
    streaming[tid % dataSize] = 1;
  __syncthreads();
  if (threadIdx.x == 0 && probe::smid() == sm) atomicMax(&first_last[1], (unsigned long long)clock64());
}

}  // namespace

int main() {
  const cudaDeviceProp prop = probe::device_header();
  printf("case,k,line,t_issue,cycles\n");
  const int hot_ints = (1 << 20) / 4, data_ints = 1 << 26, grid = data_ints / kThreads;
  const size_t set_aside = std::min<size_t>(size_t(prop.l2CacheSize * 0.75), prop.persistingL2CacheMaxSize);
  int *hot, *stream, *lines, *cycles, *started;
  long long* t_issue;
  unsigned long long* first_last;
  CK(cudaMalloc(&hot, size_t(hot_ints) * 4));
  CK(cudaMalloc(&stream, size_t(data_ints) * 4));
  CK(cudaMalloc(&lines, 4096));
  CK(cudaMalloc(&cycles, kLoads * 4));
  CK(cudaMalloc(&t_issue, kLoads * 8));
  CK(cudaMalloc(&started, 4));
  CK(cudaMalloc(&first_last, 16));
  CK(cudaMemset(lines, 1, 4096));
  cudaStream_t a, b, poll;
  CK(cudaStreamCreateWithFlags(&a, cudaStreamNonBlocking));
  CK(cudaStreamCreateWithFlags(&b, cudaStreamNonBlocking));
  CK(cudaStreamCreateWithFlags(&poll, cudaStreamNonBlocking));
  struct Case {
    const char* name;
    bool run, stores;
    size_t aside;
  };
  for (const Case& c : {Case{"alone", false, true, 0}, Case{"dram", true, true, 0},
                        Case{"dram_setaside", true, true, set_aside}, Case{"loads_setaside", true, false, set_aside}}) {
    CK(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, c.aside));
    CK(cudaCtxResetPersistingL2Cache());
    CK(cudaMemset(hot, 1, size_t(hot_ints) * 4));
    CK(cudaMemset(stream, 1, size_t(data_ints) * 4));
    // Warm: the observer's lines and persistKernel's hot region in L2, as load_spread's second launch.
    if (c.run) persistWatched<<<grid, kThreads, 0, a>>>(hot, stream, data_ints, hot_ints, ~0u, first_last, c.stores);
    observe<<<1, 32, 0, b>>>(lines, t_issue, cycles, started);
    CK(cudaDeviceSynchronize());
    const unsigned long long init[2] = {~0ull, 0};
    CK(cudaMemcpy(first_last, init, 16, cudaMemcpyHostToDevice));
    CK(cudaMemset(started, 0, 4));
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    observe<<<1, 32, 0, b>>>(lines, t_issue, cycles, started);
    int go = 0;  // persistKernel once the observer runs (its SM + 1), or after 2,000 polls
    for (int polls = 0; go == 0 && polls < 2000; ++polls) {
      CK(cudaMemcpyAsync(&go, started, 4, cudaMemcpyDeviceToHost, poll));
      CK(cudaStreamSynchronize(poll));
    }
    const unsigned sm = go > 0 ? unsigned(go - 1) : ~0u;
    CK(cudaEventRecord(e0, a));
    if (c.run) persistWatched<<<grid, kThreads, 0, a>>>(hot, stream, data_ints, hot_ints, sm, first_last, c.stores);
    CK(cudaEventRecord(e1, a));
    CK(cudaDeviceSynchronize());
    CK(cudaGetLastError());
    float ms = 0;
    CK(cudaEventElapsedTime(&ms, e0, e1));
    unsigned long long span[2];
    CK(cudaMemcpy(span, first_last, 16, cudaMemcpyDeviceToHost));
    const std::vector<int> cyc = probe::copy_back(cycles, kLoads);
    const std::vector<long long> t = probe::copy_back(t_issue, kLoads);
    printf("# %s kernel_ms=%.5f observer_sm=%u persist_first=%llu persist_last=%llu\n", c.name, ms, sm,
           c.run ? span[0] : 0ull, c.run ? span[1] : 0ull);
    for (int k = 0; k < kLoads; ++k) printf("%s,%d,%d,%lld,%d\n", c.name, k, line_of(k), t[k], cyc[k]);
    CK(cudaEventDestroy(e0));
    CK(cudaEventDestroy(e1));
  }
  CK(cudaStreamDestroy(a));
  CK(cudaStreamDestroy(b));
  CK(cudaStreamDestroy(poll));
  return 0;
}

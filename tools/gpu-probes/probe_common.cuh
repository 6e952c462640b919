// What every probe shares: error checks, event timing, the case markers that let the driver
// scripts pair a launch with its Nsight Compute row, and the special registers the timeline
// probes read.
#pragma once
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#define CK(x)                                                                                 \
  do {                                                                                        \
    cudaError_t e_ = (x);                                                                     \
    if (e_ != cudaSuccess) {                                                                  \
      fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); \
      exit(1);                                                                                \
    }                                                                                         \
  } while (0)

namespace probe {

// How a probe launches its cases. Timed: a warm-up and `reps` launches timed with events, one
// CSV row of medians. Profiled (under ncu): each case launches exactly once, after a line
// "#case,NAME,PARAMS" on stdout, so that the n-th marker belongs to ncu's n-th row.
struct Mode {
  bool profiled = false;
  int reps = 20;
};

inline Mode parse_mode(int argc, char** argv, int first) {
  Mode m;
  for (int i = first; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--ncu") m.profiled = true;
    else if (a.rfind("--reps=", 0) == 0) m.reps = std::max(1, atoi(a.c_str() + 7));
  }
  return m;
}

struct Timing {
  float median_ms = 0, min_ms = 0;
};

template <class Launch>
Timing time_events(int reps, Launch launch, cudaStream_t stream = 0) {
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a));
  CK(cudaEventCreate(&b));
  launch();  // warm-up: module load, first-touch of the pages, caches as the timed launches see them
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  std::vector<float> ms;
  for (int r = 0; r < reps; ++r) {
    CK(cudaEventRecord(a, stream));
    launch();
    CK(cudaEventRecord(b, stream));
    CK(cudaEventSynchronize(b));
    CK(cudaGetLastError());
    float t = 0;
    CK(cudaEventElapsedTime(&t, a, b));
    ms.push_back(t);
  }
  std::sort(ms.begin(), ms.end());
  CK(cudaEventDestroy(a));
  CK(cudaEventDestroy(b));
  return {ms[ms.size() / 2], ms[0]};
}

// One case: under ncu a marker and one launch; otherwise a timed row "name,params,median,min,reps".
template <class Launch>
void run_case(const Mode& mode, const std::string& name, const std::string& params, Launch launch,
              cudaStream_t stream = 0) {
  if (mode.profiled) {
    printf("#case,%s,%s\n", name.c_str(), params.c_str());
    fflush(stdout);
    launch();
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    return;
  }
  Timing t = time_events(mode.reps, launch, stream);
  printf("%s,%s,%.5f,%.5f,%d\n", name.c_str(), params.c_str(), t.median_ms, t.min_ms, mode.reps);
  fflush(stdout);
}

// The dynamic shared memory that leaves room for exactly `blocks` blocks of `threads` threads of
// `kernel` an SM (none where the threads already allow no more); exits if the occupancy
// calculator says otherwise. Lets `kernel` take the most shared memory a block may opt in to.
template <class Kernel>
size_t shared_bytes_for_blocks(Kernel kernel, int blocks, int threads) {
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  CK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(prop.sharedMemPerBlockOptin)));
  const size_t per_block = prop.sharedMemPerMultiprocessor / blocks - prop.reservedSharedMemPerBlock;
  const size_t smem =
      blocks * threads >= prop.maxThreadsPerMultiProcessor ? 0 : std::min<size_t>(per_block, prop.sharedMemPerBlockOptin);
  int fits = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fits, kernel, threads, smem));
  if (fits != blocks) {
    fprintf(stderr, "%zu bytes of shared memory give %d blocks an SM, not %d\n", smem, fits, blocks);
    exit(1);
  }
  return smem;
}

inline std::string params(const char* fmt, long long a = 0, long long b = 0, long long c = 0) {
  char buf[256];
  snprintf(buf, sizeof buf, fmt, a, b, c);
  return buf;
}

// Random contents (never zeros: they can run faster than real data, METHOD.md).
inline void fill_random(float* d, size_t n, unsigned seed = 1) {
  std::vector<float> h(n);
  srand(seed);
  for (size_t i = 0; i < n; ++i) h[i] = (rand() & 0xFF) / 100.f;
  CK(cudaMemcpy(d, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));
}

// The device's properties, after the line "# device=NAME sms=N l2=BYTES" the record probes print
// first (the analysis scripts read the SM count from it).
inline cudaDeviceProp device_header() {
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  printf("# device=%s sms=%d l2=%d\n", prop.name, prop.multiProcessorCount, prop.l2CacheSize);
  return prop;
}

// The first `count` elements of device array `d`, on the host.
template <class T>
std::vector<T> copy_back(const T* d, size_t count) {
  std::vector<T> h(count);
  CK(cudaMemcpy(h.data(), d, count * sizeof(T), cudaMemcpyDeviceToHost));
  return h;
}

// A device array of n such floats.
inline float* random_floats(size_t n, unsigned seed) {
  float* d = nullptr;
  CK(cudaMalloc(&d, n * sizeof(float)));
  fill_random(d, n, seed);
  return d;
}

__device__ __forceinline__ unsigned smid() {
  unsigned r;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(r));
  return r;
}
__device__ __forceinline__ unsigned warpid() {
  unsigned r;
  asm volatile("mov.u32 %0, %%warpid;" : "=r"(r));
  return r;
}
__device__ __forceinline__ unsigned long long globaltimer() {
  unsigned long long r;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(r));
  return r;
}

// The clock with `v` as the read's input operand. That makes it wait for `v` only where an
// instruction before it computes `v` from loaded data (readOffset's sum: a warp issues in order);
// for a loaded value itself ptxas puts the read right after the load, before the data is there
// (load_spread.cu's first form, cuobjdump -sass). timelines.cu and store_acks.cu take t_data so.
__device__ __forceinline__ long long clock_beside(float v) {
  long long t;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(t) : "f"(v));
  return t;
}

// The clock once `v` is there whatever made it: `v` is stored to shared memory first, and the
// store cannot issue without it (load_spread.cu).
template <int kThreads>
__device__ __forceinline__ long long clock_after_data(int v) {
  __shared__ volatile int sink[kThreads];
  sink[threadIdx.x] = v;
  return clock64();
}

// One dependent load, timed: returns the loaded word, its cycles in `cycles`. The store of the
// word to shared memory (`seen`) waits for the load (volatile asm, as clock64 is, so it stays
// between the clock reads); row_pairs.cu and refresh_phases.cu chain their loads through it.
__device__ __forceinline__ unsigned timed_load(const unsigned* p, unsigned* seen, int& cycles) {
  const long long t0 = clock64();
  const unsigned v = *reinterpret_cast<const volatile unsigned*>(p);
  asm volatile("st.shared.u32 [%0], %1;" ::"l"(__cvta_generic_to_shared(seen)), "r"(v) : "memory");
  const long long t1 = clock64();
  cycles = int(t1 - t0);
  return *reinterpret_cast<volatile unsigned*>(seen);
}

// Reads n uint4 of p and keeps the loads (never true for a buffer of non-zero bytes).
__global__ void read_all(const uint4* p, size_t n, unsigned* sink) {
  uint4 acc{0, 0, 0, 0};
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
    const uint4 v = p[i];
    acc.x ^= v.x;
    acc.y ^= v.y;
  }
  if (acc.x == 0x12345678u && acc.y == 7u) *sink = acc.x;
}

// Runs `before` then `launch` twice (a warm-up, as the calibration timing does) and returns the
// second launch's time by events, in ms; `before` runs outside the timing.
template <class Before, class Launch>
float second_of_two_ms(Before before, Launch launch) {
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a));
  CK(cudaEventCreate(&b));
  for (int pass = 0; pass < 2; ++pass) {
    before(pass);
    CK(cudaEventRecord(a));
    launch();
    CK(cudaEventRecord(b));
    CK(cudaEventSynchronize(b));
    CK(cudaGetLastError());
  }
  float ms = 0;
  CK(cudaEventElapsedTime(&ms, a, b));
  CK(cudaEventDestroy(a));
  CK(cudaEventDestroy(b));
  return ms;
}

// What runs before a cold pass: fill() reads a 256 MB buffer of its own, which leaves L2 full of
// clean lines of no interest (a write would leave dirty lines whose write-backs share the
// channels with the pass), and returns when the read is done.
class L2Filler {
 public:
  static constexpr size_t kBytes = size_t(256) << 20;
  L2Filler() {
    CK(cudaMalloc(&scratch_, kBytes));
    CK(cudaMemset(scratch_, 1, kBytes));
    CK(cudaMalloc(&sink_, sizeof(unsigned)));
  }
  ~L2Filler() {
    cudaFree(scratch_);
    cudaFree(sink_);
  }
  L2Filler(const L2Filler&) = delete;
  L2Filler& operator=(const L2Filler&) = delete;
  void fill() const {
    read_all<<<528, 1024>>>(scratch_, kBytes / sizeof(uint4), sink_);
    CK(cudaDeviceSynchronize());
  }

 private:
  uint4* scratch_ = nullptr;
  unsigned* sink_ = nullptr;
};

}  // namespace probe

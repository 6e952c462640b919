// Per-warp timelines of persistKernel and of a plain copy on a real GPU: the measurement the
// simulator's largest known gap needs (README.md, "Known gaps": persistKernel runs 40-50% faster
// in the model than on the H100 of ../shared/calibration/h100, and which part of a warp's life
// the H100 spends longer on is not known from ncu's totals).
//
// Lane 0 of every warp of every 32nd block records, with clock64 (SM cycles) and %globaltimer
// (ns, comparable across SMs): when the warp starts, when its first load's data is there,
// when its second (streaming) load's data is there, and when its last store has issued; with
// its SM and its warp slot. The kernels are calibration/kernels.cu's persistKernel and
// stridedRead (stride 1) with the same work, plus those records; the launches are the same as
// persist_10MB.csv's (10 MB hot region, 256 MB streamed, 1024-thread blocks) for no window and
// hitRatio 0, 0.5 and 1.0, and the copy at n = 2^26 with 256-thread blocks.
//
// Build and run (CUDA 11+, compute capability 8.0+ for the access-policy windows):
//   nvcc -O3 -arch=sm_90 -o persist_timeline persist_timeline.cu
//   ./persist_timeline > persist_timeline.csv
// Columns: case, block, warp, smid, warpid, t_start, t_first_data, t_second_data, t_end (clock64
// cycles of the warp's SM), g_start, g_end (%globaltimer ns), and a `#` line per case with its
// kernel time. The first data/second data times are taken right after an instruction that uses
// the loaded value, so in-order issue makes the clock read wait for the data.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CK(x)                                                                                 \
  do {                                                                                        \
    cudaError_t e_ = (x);                                                                     \
    if (e_ != cudaSuccess) {                                                                  \
      fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); \
      exit(1);                                                                                \
    }                                                                                         \
  } while (0)

struct Record {
  long long t_start, t_first, t_second, t_end;
  unsigned long long g_start, g_end;
  unsigned smid, warpid;
};

constexpr int kSampleEvery = 32;  // blocks

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

// persistKernel (kernels.cu) with a timeline: persistent[tid % freqSize] *= 2, then
// streaming[tid % dataSize] *= 2.
__global__ void persistTimed(int* persistent, int* streaming, int dataSize, int freqSize, Record* out) {
  const bool sampled = blockIdx.x % kSampleEvery == 0 && threadIdx.x % 32 == 0;
  const long long t0 = clock64();
  const unsigned long long g0 = globaltimer();
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  const int hot = persistent[tid % freqSize];
  const int hot2 = 2 * hot;  // waits for the hot load's data
  const long long t1 = clock64();
  persistent[tid % freqSize] = hot2;
  const int cold = streaming[tid % dataSize];
  const int cold2 = 2 * cold;  // waits for the streamed load's data
  const long long t2 = clock64();
  streaming[tid % dataSize] = cold2;
  const long long t3 = clock64();
  if (sampled) {
    Record& r = out[(blockIdx.x / kSampleEvery) * (blockDim.x / 32) + threadIdx.x / 32];
    r = Record{t0, t1, t2, t3, g0, globaltimer(), smid(), warpid()};
  }
}

// stridedRead at stride 1 (kernels.cu): out[i] = in[i]; first data = the load's, no second load.
__global__ void copyTimed(const float* in, float* outArray, int n, Record* out) {
  const bool sampled = blockIdx.x % kSampleEvery == 0 && threadIdx.x % 32 == 0;
  const long long t0 = clock64();
  const unsigned long long g0 = globaltimer();
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  long long t1 = t0;
  if (i < (unsigned)n) {
    const float v = in[i];
    const float v1 = v + 0.0f * v;  // waits for the load's data
    t1 = clock64();
    outArray[i] = v1;
  }
  const long long t3 = clock64();
  if (sampled) {
    Record& r = out[(blockIdx.x / kSampleEvery) * (blockDim.x / 32) + threadIdx.x / 32];
    r = Record{t0, t1, t1, t3, g0, globaltimer(), smid(), warpid()};
  }
}

static void print(const char* name, const std::vector<Record>& records, int warps_per_block, float ms) {
  printf("# %s kernel_ms=%.5f\n", name, ms);
  for (size_t k = 0; k < records.size(); ++k) {
    const Record& r = records[k];
    if (r.t_start == 0 && r.t_end == 0) continue;
    printf("%s,%zu,%zu,%u,%u,%lld,%lld,%lld,%lld,%llu,%llu\n", name, (k / warps_per_block) * kSampleEvery,
           k % warps_per_block, r.smid, r.warpid, r.t_start, r.t_first, r.t_second, r.t_end, r.g_start, r.g_end);
  }
}

int main() {
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  printf("# device=%s sms=%d l2=%d\n", prop.name, prop.multiProcessorCount, prop.l2CacheSize);
  printf("case,block,warp,smid,warpid,t_start,t_first_data,t_second_data,t_end,g_start,g_end\n");
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a));
  CK(cudaEventCreate(&b));

  // persistKernel as in kernels.cu's "persist" case with persistMB = 10.
  const size_t set_aside = std::min<size_t>(size_t(prop.l2CacheSize * 0.75), prop.persistingL2CacheMaxSize);
  CK(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, set_aside));
  const int dataSize = 1 << 28 >> 2, freqSize = (10 << 20) / 4, bs = 1024, grid = dataSize / bs;
  int *persistent, *streaming;
  CK(cudaMalloc(&persistent, 64u << 20));
  CK(cudaMalloc(&streaming, size_t(dataSize) * 4));
  CK(cudaMemset(persistent, 1, 64u << 20));
  CK(cudaMemset(streaming, 1, size_t(dataSize) * 4));
  const int sampled_blocks = (grid + kSampleEvery - 1) / kSampleEvery;
  Record* records;
  const size_t record_count = size_t(sampled_blocks) * (bs / 32);
  CK(cudaMalloc(&records, record_count * sizeof(Record)));
  std::vector<Record> host(record_count);
  cudaStream_t s;
  CK(cudaStreamCreate(&s));
  for (double hr : {-1.0, 0.0, 0.5, 1.0}) {
    cudaStreamAttrValue attr;
    memset(&attr, 0, sizeof attr);
    if (hr >= 0) {
      attr.accessPolicyWindow.base_ptr = persistent;
      attr.accessPolicyWindow.num_bytes = std::min<size_t>(size_t(freqSize) * 4, prop.accessPolicyMaxWindowSize);
      attr.accessPolicyWindow.hitRatio = (float)hr;
      attr.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
      attr.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
    }
    CK(cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &attr));
    CK(cudaCtxResetPersistingL2Cache());
    // A warm-up launch, as calibration/kernels.cu's timeit does, then the recorded one.
    for (int pass = 0; pass < 2; ++pass) {
      CK(cudaMemsetAsync(records, 0, record_count * sizeof(Record), s));
      CK(cudaEventRecord(a, s));
      persistTimed<<<grid, bs, 0, s>>>(persistent, streaming, dataSize, freqSize, records);
      CK(cudaEventRecord(b, s));
      CK(cudaEventSynchronize(b));
      CK(cudaGetLastError());
    }
    float ms = 0;
    CK(cudaEventElapsedTime(&ms, a, b));
    CK(cudaMemcpy(host.data(), records, record_count * sizeof(Record), cudaMemcpyDeviceToHost));
    char name[64];
    snprintf(name, sizeof name, hr < 0 ? "persist_nowindow" : "persist_hitRatio_%.2f", hr);
    print(name, host, bs / 32, ms);
  }
  CK(cudaStreamDestroy(s));
  CK(cudaFree(records));
  CK(cudaFree(persistent));
  CK(cudaFree(streaming));

  // The copy (stride.csv's stridedRead, stride 1, n = 2^26): the same DRAM traffic per element.
  {
    const int n = 1 << 26, cbs = 256, cgrid = n / cbs;
    float *in, *outArray;
    CK(cudaMalloc(&in, size_t(n) * 4));
    CK(cudaMalloc(&outArray, size_t(n) * 4));
    CK(cudaMemset(in, 0, size_t(n) * 4));
    const size_t count = size_t((cgrid + kSampleEvery - 1) / kSampleEvery) * (cbs / 32);
    CK(cudaMalloc(&records, count * sizeof(Record)));
    std::vector<Record> copy_host(count);
    for (int pass = 0; pass < 2; ++pass) {
      CK(cudaMemset(records, 0, count * sizeof(Record)));
      CK(cudaEventRecord(a));
      copyTimed<<<cgrid, cbs>>>(in, outArray, n, records);
      CK(cudaEventRecord(b));
      CK(cudaEventSynchronize(b));
      CK(cudaGetLastError());
    }
    float ms = 0;
    CK(cudaEventElapsedTime(&ms, a, b));
    CK(cudaMemcpy(copy_host.data(), records, count * sizeof(Record), cudaMemcpyDeviceToHost));
    print("copy_stride1", copy_host, cbs / 32, ms);
    CK(cudaFree(records));
    CK(cudaFree(in));
    CK(cudaFree(outArray));
  }
  return 0;
}

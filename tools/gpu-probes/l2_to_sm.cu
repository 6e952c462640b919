// How many bytes a cycle one SM takes from L2, with few SMs asking (so that the L2's own rate,
// shared by all SMs, does not bound it): the port between the crossbar and an SM's L1, which
// docs/model.md's light-load copies point at (a block's warps end hundreds of cycles apart on the
// H200, tens in the model, whose SMs take L2 data as fast as their LD/ST passes issue: 128 bytes
// a cycle).
//
//   l2_to_sm        CSV on stdout: case,blocks,bytes_per_block,median_cycles,bytes_per_cycle_per_sm,
//                   event_median_ms,GBps
//
// `blocks` blocks of 1,024 threads (one an SM: dynamic shared memory leaves room for no second)
// each read their own 256 KB of a 64 MB buffer that L2 holds (written just before, then read once
// untimed) 64 times with ld.global.cg (L2 only, 16 bytes a thread a load, eight loads in flight a
// thread); each block's first thread takes clock64 after a __syncthreads at its start and at its
// end: bytes over the median block's cycles. Eight loads in flight per thread, 64 warps an SM: far
// more than the port's rate times L2's latency needs.
#include <cstdio>

#include "probe_common.cuh"

namespace {

constexpr int kThreads = 1024, kPasses = 64, kUnroll = 8;
constexpr size_t kBlockBytes = size_t(256) << 10, kBufferBytes = size_t(64) << 20;

// ld.global.cg as volatile PTX, and each pass in another order (the row a load takes rotates with
// the pass): with __ldcg of the same addresses every pass, the compiler loaded them once for all
// 64 passes.
__device__ __forceinline__ float4 load_cg(const float4* p) {
  float4 v;
  asm volatile("ld.global.cg.v4.f32 {%0, %1, %2, %3}, [%4];" : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w) : "l"(p)
               : "memory");
  return v;
}

__global__ void __launch_bounds__(kThreads) stream_l2(const float4* buffer, long long* cycles, unsigned* sink) {
  const float4* mine = buffer + blockIdx.x * (kBlockBytes / sizeof(float4));
  constexpr int kPerThread = kBlockBytes / sizeof(float4) / kThreads;  // 16
  __syncthreads();
  const long long t0 = clock64();
  float acc = 0;
  for (int pass = 0; pass < kPasses; ++pass) {
#pragma unroll
    for (int k = 0; k < kPerThread; k += kUnroll) {
      float4 v[kUnroll];
#pragma unroll
      for (int u = 0; u < kUnroll; ++u) v[u] = load_cg(&mine[((k + u + pass) % kPerThread) * kThreads + threadIdx.x]);
#pragma unroll
      for (int u = 0; u < kUnroll; ++u) acc += v[u].x + v[u].y + v[u].z + v[u].w;
    }
  }
  __syncthreads();
  const long long t1 = clock64();
  if (threadIdx.x == 0) cycles[blockIdx.x] = t1 - t0;
  if (acc == 1234.5f) *sink = 1;
}

}  // namespace

int main() {
  static_assert(kBlockBytes / sizeof(float4) % (kThreads * kUnroll) == 0, "whole unrolled steps a thread");
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  float* buffer = probe::random_floats(kBufferBytes / sizeof(float), 3);
  long long* cycles;
  unsigned* sink;
  CK(cudaMalloc(&cycles, sizeof(long long) * prop.multiProcessorCount));
  CK(cudaMalloc(&sink, sizeof(unsigned)));
  // Shared memory that leaves room for one block an SM: the blocks land on as many SMs.
  const size_t smem = probe::shared_bytes_for_blocks(stream_l2, 1, kThreads);
  printf("case,blocks,bytes_per_block,median_cycles,bytes_per_cycle_per_sm,event_median_ms,GBps\n");
  for (const int blocks : {1, 2, 4, 8, 16, 32, 66, 132}) {
    if (blocks > prop.multiProcessorCount || size_t(blocks) * kBlockBytes > kBufferBytes) continue;
    auto launch = [&] {
      stream_l2<<<blocks, kThreads, smem>>>(reinterpret_cast<const float4*>(buffer), cycles, sink);
    };
    const probe::Timing t = probe::time_events(10, launch);  // its warm-up launch brings the lines into L2
    std::vector<long long> sorted = probe::copy_back(cycles, size_t(blocks));
    std::sort(sorted.begin(), sorted.end());
    const long long median = sorted[sorted.size() / 2];
    const double bytes = double(kBlockBytes) * kPasses;
    printf("l2_to_sm_b%d,%d,%.0f,%lld,%.2f,%.5f,%.1f\n", blocks, blocks, bytes, median, bytes / double(median),
           t.median_ms, bytes * blocks / (t.median_ms * 1e-3) / 1e9);
  }
  return 0;
}

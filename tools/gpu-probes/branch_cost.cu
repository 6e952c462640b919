// What one warp's instruction stream costs beyond its dependences: a taken branch, and
// independent FFMAs issued back to back. fmaChain at one warp a scheduler takes 4.37 cycles an
// iteration on the H100 where its dependent FFMAs allow 4.0 (h100-measured/warp_lifetime.csv,
// iters 256 against 1,024; the loop branches back once per 16 FFMAs), and its ILP 4 kind 25
// cycles a 64-FFMA loop body more than the model.
//
//   branch_cost     CSV rows "case,unroll,ilp,ffmas,cycles": the median over the 132 warps (one a
//                   block, one block an SM) of clock64 cycles around `ffmas` FFMAs per chain,
//                   read after the result is there. Cases:
//                     straight  the FFMAs fully unrolled: no branch at all
//                     loop      a loop of run-time trip count unrolled `unroll` times (1-32): one
//                               taken branch per `unroll` FFMAs of each chain
//                   with `ilp` independent chains (1, 2, 4, 8) interleaved.
//                   cuobjdump -sass of the binary shows the loop bodies (measure-h100 keeps it).
#include <algorithm>
#include <vector>

#include "probe_common.cuh"

namespace {

template <int ILP>
__device__ __forceinline__ float reduce(const float (&a)[ILP]) {
  float s = 0;
#pragma unroll
  for (int j = 0; j < ILP; ++j) s += a[j];
  return s;
}

// Times `chains` (the FFMAs, given the ILP chains' values) in one warp: clock64 before, and after
// their sum is there; the sum is stored so that nothing is optimised away.
template <int ILP, class Chains>
__device__ __forceinline__ void timed(float* out, long long* cycles, Chains chains) {
  float a[ILP];
#pragma unroll
  for (int j = 0; j < ILP; ++j) a[j] = threadIdx.x * 0.001f + j;
  const long long t0 = clock64();
  chains(a);
  const float s = reduce(a);
  const long long t1 = probe::clock_beside(s);
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
  if (threadIdx.x == 0) cycles[blockIdx.x] = t1 - t0;
}

template <int ILP>
__device__ __forceinline__ void step(float (&a)[ILP]) {
#pragma unroll
  for (int j = 0; j < ILP; ++j) a[j] = fmaf(a[j], 0.9999f, 0.0001f);
}

// `n` dependent FFMAs per chain, the loop unrolled UNROLL times (n a multiple of UNROLL).
template <int ILP, int UNROLL>
__global__ void loop_chain(float* out, long long* cycles, int n) {
  timed<ILP>(out, cycles, [n](float (&a)[ILP]) {
#pragma unroll UNROLL
    for (int i = 0; i < n; ++i) step(a);
  });
}

// N dependent FFMAs per chain, no branch.
template <int ILP, int N>
__global__ void straight_chain(float* out, long long* cycles) {
  timed<ILP>(out, cycles, [](float (&a)[ILP]) {
#pragma unroll
    for (int i = 0; i < N; ++i) step(a);
  });
}

template <class Launch>
void report(const char* name, int unroll, int ilp, int ffmas, int sms, long long* d, Launch launch) {
  std::vector<long long> h;
  for (int pass = 0; pass < 2; ++pass) {  // the second launch: code and constants warm
    launch();
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    h = probe::copy_back(d, size_t(sms));
  }
  std::sort(h.begin(), h.end());
  printf("%s,%d,%d,%d,%lld\n", name, unroll, ilp, ffmas, h[h.size() / 2]);
}

template <int ILP>
void one_ilp(float* out, long long* d, int sms) {
  constexpr int kN = 512;
  report("straight", 0, ILP, kN, sms, d, [&] { straight_chain<ILP, kN><<<sms, 32>>>(out, d); });
  report("loop", 1, ILP, kN, sms, d, [&] { loop_chain<ILP, 1><<<sms, 32>>>(out, d, kN); });
  report("loop", 2, ILP, kN, sms, d, [&] { loop_chain<ILP, 2><<<sms, 32>>>(out, d, kN); });
  report("loop", 4, ILP, kN, sms, d, [&] { loop_chain<ILP, 4><<<sms, 32>>>(out, d, kN); });
  report("loop", 8, ILP, kN, sms, d, [&] { loop_chain<ILP, 8><<<sms, 32>>>(out, d, kN); });
  report("loop", 16, ILP, kN, sms, d, [&] { loop_chain<ILP, 16><<<sms, 32>>>(out, d, kN); });
  report("loop", 32, ILP, kN, sms, d, [&] { loop_chain<ILP, 32><<<sms, 32>>>(out, d, kN); });
  // Half the FFMAs: the difference is per FFMA, without what surrounds the timed part.
  report("straight", 0, ILP, kN / 2, sms, d, [&] { straight_chain<ILP, kN / 2><<<sms, 32>>>(out, d); });
  report("loop", 16, ILP, kN / 2, sms, d, [&] { loop_chain<ILP, 16><<<sms, 32>>>(out, d, kN / 2); });
}

}  // namespace

int main() {
  const cudaDeviceProp p = probe::device_header();
  const int sms = p.multiProcessorCount;
  float* out;
  long long* d;
  CK(cudaMalloc(&out, size_t(sms) * 32 * 4));
  CK(cudaMalloc(&d, size_t(sms) * sizeof(long long)));
  printf("case,unroll,ilp,ffmas,cycles\n");
  one_ilp<1>(out, d, sms);
  one_ilp<2>(out, d, sms);
  one_ilp<4>(out, d, sms);
  one_ilp<8>(out, d, sms);
  CK(cudaFree(out));
  CK(cudaFree(d));
  return 0;
}

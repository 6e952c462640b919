// Where the warp-cycles lie that Nsight Compute's sm__warps_active counts beyond a warp's own
// records: store_acks.cu finds ncu counting 105-120 cycles a warp more than the records of a copy
// at n = 2^26 hold (its start to its last store) on the H200, 184-223 where a fence makes every
// warp wait ~800 cycles longer: not a constant a warp (docs/model.md, "A write queue and the bus's
// turns"). Here the same copy's warps spin a known number of cycles after their store (the spin
// inside the records), and warps that touch no memory spin alone: if what ncu counts beyond the
// records stays the same whatever the spin, it is a cost a warp (its launch, its exit); if it
// grows with the spin, it is in how the cycles are counted.
//
//   warp_window     one CSV on stdout: case,block,warp,smid,t_first,t_last for every warp of every
//                   16th block of each case's second launch (each case is launched twice; under
//                   ncu every launch is a row, in that order). t_first is the warp's first clock
//                   read, its first statement; t_last its last, after the spin, before the record's
//                   store and EXIT.
//
// Cases, n = 2^24 elements in 512-thread blocks (32,768 blocks of 16 warps, four an SM at once:
// ~62 waves): copy_spinS (C[i] = A[i] + B[i], then S cycles) for S = 0, 2,000 and 8,000, and
// alone_spinS (no load, no store but the record's) for S = 2,000 and 8,000.
#include "probe_common.cuh"

namespace {

struct Record {
  long long t_first, t_last;
  unsigned smid, pad;
};

constexpr int kBlockEvery = 16;
constexpr int kN = 1 << 24, kBlock = 512;

__device__ __forceinline__ long long clock_now() {
  long long t;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(t));
  return t;
}

__device__ __forceinline__ void spin_from(long long from, int cycles) {
  while (clock_now() - from < cycles) {
  }
}

__device__ __forceinline__ void finish(Record* out, long long t_first, long long t_last) {
  if (threadIdx.x % 32 != 0 || blockIdx.x % kBlockEvery != 0) return;
  const unsigned warps = blockDim.x / 32;
  out[(blockIdx.x / kBlockEvery) * warps + threadIdx.x / 32] = Record{t_first, t_last, probe::smid(), 0};
}

__global__ void copySpin(const float* A, const float* B, float* C, int spin, Record* out) {
  const long long t_first = clock_now();
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  C[i] = A[i] + B[i];
  spin_from(clock_now(), spin);
  finish(out, t_first, clock_now());
}

__global__ void aloneSpin(int spin, Record* out) {
  const long long t_first = clock_now();
  spin_from(t_first, spin);
  finish(out, t_first, clock_now());
}

}  // namespace

int main() {
  float* a = probe::random_floats(kN, 1);  // never zeros (METHOD.md)
  float* b = probe::random_floats(kN, 2);
  float* c;
  CK(cudaMalloc(&c, sizeof(float) * kN));
  const int grid = kN / kBlock, records = (grid / kBlockEvery) * (kBlock / 32);
  Record* out;
  CK(cudaMalloc(&out, sizeof(Record) * records));
  std::vector<Record> host(records);
  printf("case,block,warp,smid,t_first,t_last\n");
  auto record = [&](const std::string& name, auto launch) {
    for (int pass = 0; pass < 2; ++pass) {
      CK(cudaMemset(out, 0, sizeof(Record) * records));
      launch();
      CK(cudaGetLastError());
      CK(cudaDeviceSynchronize());
    }
    CK(cudaMemcpy(host.data(), out, sizeof(Record) * records, cudaMemcpyDeviceToHost));
    for (int r = 0; r < records; ++r) {
      const Record& x = host[r];
      printf("%s,%d,%d,%u,%lld,%lld\n", name.c_str(), (r / (kBlock / 32)) * kBlockEvery, r % (kBlock / 32), x.smid,
             x.t_first, x.t_last);
    }
    fflush(stdout);
  };
  for (int spin : {0, 2000, 8000})
    record("copy_spin" + std::to_string(spin), [&] { copySpin<<<grid, kBlock>>>(a, b, c, spin, out); });
  for (int spin : {2000, 8000})
    record("alone_spin" + std::to_string(spin), [&] { aloneSpin<<<grid, kBlock>>>(spin, out); });
  return 0;
}

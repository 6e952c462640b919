// How long a warp stays after its last store, and what Nsight Compute's sm__warps_active counts
// of that time: the measurement behind the model's occupancy rule (models/core/sm.hpp,
// SmCounters::warp_cycles), which counts each warp until its block's last warp exits because the
// per-warp records of readOffset at n = 2^26 fill 0.58 of the warp slots from the warps' own
// windows and 0.765 from their blocks' spans where ncu counts 0.76 (h100-measured/timeline_cold*,
// block_slots.py). Whether ncu counts a warp to its own exit, to its block's end or until its
// stores are acknowledged, and whether a block's slot waits for them, is what this probe decides.
//
//   store_acks      one CSV on stdout: every warp of every 64th block of each case below, and
//                   (cases named ..._sm0) every warp of every block that ran on SM 0, which
//                   shows how soon a block follows the warps that left before it
//   store_acks curve  the records of SM 0's blocks (cases readOffset_k1_sm0..k4_sm0) of readOffset
//                   (no fence) with dynamic shared memory that leaves room for 1, 2, 3 or 4 of
//                   its 512-thread blocks an SM (occupancy_curve.cu times the same launches):
//                   how long a warp lives, a block spans and a slot stands empty as fewer warps
//                   are in flight
//
// Cases: readOffset (two loads, one store; 512-thread blocks), a copy (one load, one store) with
// 256- and 1024-thread blocks, and persistKernel without an access-policy window (10 MB hot
// region, 256 MB streamed, 1024-thread blocks), all at n = 2^26 elements; each without and with
// a __threadfence() after the last store. Each is launched twice and the second launch recorded.
// Columns: case,block,warp,smid,warpid,t_start,t_data,t_end,t_acked: clock64 cycles of the
// warp's SM at entry; t_data once readOffset's sum of its loads is there, but for persistKernel
// right after its streamed load issues (probe::clock_beside; cuobjdump -sass: the read follows the
// load; the copies' sum is predicated off, whether their read waits is not checked; no analysis
// reads t_data); after its last store has issued, and after the fence (which waits for the
// warp's stores to be acknowledged; t_end without one). A `#`
// line per case gives its kernel time. Under ncu (measure-h100 store-acks) the same launches
// give sm__warps_active with and without the fence: if ncu counts a warp until its stores are
// acknowledged, the fence changes nothing it counts.
#include "probe_common.cuh"

namespace {

struct Record {
  long long t_start, t_data, t_end, t_acked;
  unsigned smid, warpid;
};

constexpr int kBlockEvery = 64;

// `out`: the every-64th-block records, then one record per warp of the grid for SM 0's blocks.
__device__ __forceinline__ void finish(Record* out, long long t0, long long t1, long long t2, bool fence) {
  if (fence) __threadfence();
  const long long t3 = clock64();
  if (threadIdx.x % 32 != 0) return;
  const unsigned warps = (blockDim.x + 31) / 32, warp = threadIdx.x / 32, sm = probe::smid();
  const Record r{t0, t1, t2, t3, sm, probe::warpid()};
  if (blockIdx.x % kBlockEvery == 0) out[(blockIdx.x / kBlockEvery) * warps + warp] = r;
  if (sm == 0) out[((gridDim.x + kBlockEvery - 1) / kBlockEvery + blockIdx.x) * warps + warp] = r;
}

// C[i] = A[i] (+ B[i] when B is given).
__global__ void copyTimed(const float* A, const float* B, float* C, Record* out, bool fence) {
  const long long t0 = clock64();
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  const float v = B != nullptr ? A[i] + B[i] : A[i];
  const long long t1 = probe::clock_beside(v);
  C[i] = v;
  const long long t2 = clock64();
  finish(out, t0, t1, t2, fence);
}

// calibration_kernels.cuh's persistKernel: persistent[tid % freqSize] *= 2, then
// streaming[tid % dataSize] *= 2.
__global__ void persistTimed(int* persistent, int* streaming, int dataSize, int freqSize, Record* out, bool fence) {
  const long long t0 = clock64();
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  const int hot = persistent[tid % freqSize];
  persistent[tid % freqSize] = 2 * hot;
  const int cold = streaming[tid % dataSize];
  const long long t1 = probe::clock_beside(float(cold));
  streaming[tid % dataSize] = 2 * cold;
  const long long t2 = clock64();
  finish(out, t0, t1, t2, fence);
}

// Records `name`'s launch; `sampled_too`: every 64th block's warps too, not only SM 0's.
template <class Launch>
void record(const std::string& name, int grid, int bs, Launch launch, bool sampled_too = true);

// `store_acks curve`: readOffset's records with room for k blocks an SM, k = 1..4.
void curve(const float* A, const float* B, float* C, int n) {
  for (int k = 1; k <= 4; ++k) {
    const size_t smem = probe::shared_bytes_for_blocks(copyTimed, k, 512);
    record("readOffset_k" + std::to_string(k), n / 512, 512,
           [&](Record* d) { copyTimed<<<n / 512, 512, smem>>>(A, B, C, d, false); }, false);
  }
}

template <class Launch>
void record(const std::string& name, int grid, int bs, Launch launch, bool sampled_too) {
  const size_t sampled = size_t((grid + kBlockEvery - 1) / kBlockEvery) * ((bs + 31) / 32);
  const size_t count = sampled + size_t(grid) * ((bs + 31) / 32);
  Record* d;
  CK(cudaMalloc(&d, count * sizeof(Record)));
  const float ms = probe::second_of_two_ms([&](int) { CK(cudaMemset(d, 0, count * sizeof(Record))); },
                                           [&] { launch(d); });
  const std::vector<Record> h = probe::copy_back(d, count);
  printf("# %s kernel_ms=%.5f\n", name.c_str(), ms);
  const size_t warps = (bs + 31) / 32;
  for (size_t k = 0; k < count; ++k) {
    const Record& r = h[k];
    if (r.t_start == 0) continue;
    const bool sm0 = k >= sampled;
    if (!sm0 && !sampled_too) continue;
    const size_t block = sm0 ? (k - sampled) / warps : (k / warps) * kBlockEvery;
    printf("%s%s,%zu,%zu,%u,%u,%lld,%lld,%lld,%lld\n", name.c_str(), sm0 ? "_sm0" : "", block, k % warps, r.smid,
           r.warpid, r.t_start, r.t_data, r.t_end, r.t_acked);
  }
  CK(cudaFree(d));
}

}  // namespace

int main(int argc, char** argv) {
  const bool only_curve = argc > 1 && std::string(argv[1]) == "curve";
  probe::device_header();
  printf("case,block,warp,smid,warpid,t_start,t_data,t_end,t_acked\n");
  const int n = 1 << 26;
  float* A = probe::random_floats(n, 1);
  float* B = probe::random_floats(n, 2);
  float* C;
  CK(cudaMalloc(&C, size_t(n) * 4));
  if (only_curve) {
    curve(A, B, C, n);
    for (void* p : {(void*)A, (void*)B, (void*)C}) CK(cudaFree(p));
    return 0;
  }
  const int freq = (10 << 20) / 4;
  int *hot, *stream;
  CK(cudaMalloc(&hot, size_t(freq) * 4));
  CK(cudaMalloc(&stream, size_t(n) * 4));
  CK(cudaMemset(hot, 1, size_t(freq) * 4));
  CK(cudaMemset(stream, 1, size_t(n) * 4));
  for (const bool fence : {false, true}) {
    const std::string f = fence ? "_fence" : "";
    record("readOffset_bs512" + f, n / 512, 512, [&](Record* d) { copyTimed<<<n / 512, 512>>>(A, B, C, d, fence); });
    for (const int bs : {256, 1024})
      record("copy_bs" + std::to_string(bs) + f, n / bs, bs,
             [&](Record* d) { copyTimed<<<n / bs, bs>>>(A, nullptr, C, d, fence); });
    record("persist_nowindow" + f, n / 1024, 1024,
           [&](Record* d) { persistTimed<<<n / 1024, 1024>>>(hot, stream, n, freq, d, fence); });
  }
  for (void* p : {(void*)A, (void*)B, (void*)C, (void*)hot, (void*)stream}) CK(cudaFree(p));
  return 0;
}

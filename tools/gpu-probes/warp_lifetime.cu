// How many cycles Nsight Compute's sm__warps_active counts for one warp, in a kernel the model
// simulates instruction for instruction: calibration_kernels.cuh's fmaChain, whose warps touch
// memory once (the final store) and otherwise run a dependent FFMA chain of a known length. The
// warp-cycles ncu counts, divided by the warps launched, set beside the model's own warps
// (warpsim run --ncu --timeline) of the same launches, say what ncu counts of a warp that its
// instructions do not: its launch and its exit (docs/model.md, "Occupancy as ncu counts it").
// The many-wave cases add what a block slot costs between one block and the next.
//
//   warp_lifetime [--ncu]   under ncu: one launch per case after its case marker
//                           (probe_common.cuh); without: event-timed medians, one row a case
//   warp_lifetime records   CSV rows "case,block,warp,smid,t_entry,t_exit": every warp of
//                           fmaRecorded (fmaNoStore with clock64 read first and last, and
//                           written after the last read), one wave of 128- and 1024-thread
//                           blocks, iters 16, the second of two launches: whether what ncu counts
//                           beyond the instructions lies between the warp's first and last
//                           instruction or outside them
//
// Cases (name fmaChain_ilpI, params block=B;grid=G;iters=N):
//   one wave, one warp a scheduler: block 128, grid = SMs, iters 16-1024 (the slope is the
//     chain's 4-cycle FFMA latency, the intercept what a warp costs beyond its loop);
//   one wave, eight warps a scheduler: block 1024, grid = SMs, iters 64 and 256;
//   eight waves of 16 blocks an SM: block 128, grid = 128 x SMs, iters 64 and 256;
//   ILP 4: block 128, grid = SMs, iters 256;
//   fmaNoStore (fmaChain<1> whose store is predicated off at run time: the warp ends without a
//     memory operation in flight): one wave, block 128 and 1024, iters 16. Measured under
//     --cache-control all and none (measure-h100 warp-lifetime), the first-wave warps show what
//     a flush costs them and whether their final store is part of it.
#include <string>

#include "calibration_kernels.cuh"
#include "probe_common.cuh"

namespace {

// fmaChain<1> whose final store happens only if `store` (always 0 here): the same instructions,
// and no memory operation in flight when the warp exits.
__global__ void fmaNoStore(float* out, int iters, int store) {
  float a = threadIdx.x * 0.001f;
  for (int it = 0; it < iters; ++it) a = fmaf(a, 0.9999f, 0.0001f);
  if (store) out[blockIdx.x * blockDim.x + threadIdx.x] = a;
}

void fma_case(const probe::Mode& mode, float* out, int ilp, int block, int grid, int iters) {
  const std::string name = "fmaChain_ilp" + std::to_string(ilp);
  probe::run_case(mode, name, probe::params("block=%lld;grid=%lld;iters=%lld", block, grid, iters), [&] {
    if (ilp == 4) fmaChain<4><<<grid, block>>>(out, iters);
    else fmaChain<1><<<grid, block>>>(out, iters);
  });
}

struct Window {
  long long t_entry, t_exit;
  unsigned smid, pad;
};

__global__ void fmaRecorded(float* out, int iters, int store, Window* rec) {
  const long long t0 = clock64();
  float a = threadIdx.x * 0.001f;
  for (int it = 0; it < iters; ++it) a = fmaf(a, 0.9999f, 0.0001f);
  if (store) out[blockIdx.x * blockDim.x + threadIdx.x] = a;
  const long long t1 = clock64();
  if (threadIdx.x % 32 == 0) rec[blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32] = {t0, t1, probe::smid(), 0};
}

void records(int sms) {
  printf("case,block,warp,smid,t_entry,t_exit\n");
  float* out;
  CK(cudaMalloc(&out, size_t(sms) * 1024 * 4));
  for (const int block : {128, 1024}) {
    const size_t warps = size_t(sms) * block / 32;
    Window* d;
    CK(cudaMalloc(&d, warps * sizeof(Window)));
    const float ms = probe::second_of_two_ms([&](int) { CK(cudaMemset(d, 0, warps * sizeof(Window))); },
                                             [&] { fmaRecorded<<<sms, block>>>(out, 16, 0, d); });
    const std::vector<Window> h = probe::copy_back(d, warps);
    printf("# fmaRecorded block=%d kernel_ms=%.5f\n", block, ms);
    for (size_t k = 0; k < warps; ++k)
      printf("fmaRecorded_bs%d,%zu,%zu,%u,%lld,%lld\n", block, k / (block / 32), k % (block / 32), h[k].smid,
             h[k].t_entry, h[k].t_exit);
    CK(cudaFree(d));
  }
  CK(cudaFree(out));
}

}  // namespace

int main(int argc, char** argv) {
  const probe::Mode mode = probe::parse_mode(argc, argv, 1);
  const cudaDeviceProp p = probe::device_header();
  const int sms = p.multiProcessorCount;
  if (argc > 1 && std::string(argv[1]) == "records") {
    records(sms);
    return 0;
  }
  float* out;
  CK(cudaMalloc(&out, size_t(128) * sms * 1024 * 4));
  if (!mode.profiled) printf("case,params,median_ms,min_ms,reps\n");
  // Each kernel once before the cases (rows named warmup_...), so that no case is the process's
  // first launch of its kernel (which loads the module).
  const std::string one = probe::params("block=%lld;grid=%lld;iters=%lld", 128, sms, 16);
  probe::run_case(mode, "warmup_fmaChain_ilp1", one, [&] { fmaChain<1><<<sms, 128>>>(out, 16); });
  probe::run_case(mode, "warmup_fmaChain_ilp4", one, [&] { fmaChain<4><<<sms, 128>>>(out, 16); });
  probe::run_case(mode, "warmup_fmaNoStore", one, [&] { fmaNoStore<<<sms, 128>>>(out, 16, 0); });
  for (const int iters : {16, 64, 256, 1024}) fma_case(mode, out, 1, 128, sms, iters);
  for (const int iters : {64, 256}) fma_case(mode, out, 1, 1024, sms, iters);
  for (const int iters : {64, 256}) fma_case(mode, out, 1, 128, 128 * sms, iters);
  fma_case(mode, out, 4, 128, sms, 256);
  for (const int block : {128, 1024}) {
    fma_case(mode, out, 1, block, sms, 16);
    probe::run_case(mode, "fmaNoStore", probe::params("block=%lld;grid=%lld;iters=%lld", block, sms, 16),
                    [&] { fmaNoStore<<<sms, block>>>(out, 16, 0); });
  }
  CK(cudaFree(out));
  return 0;
}

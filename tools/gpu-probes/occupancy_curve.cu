// How a DRAM-bound copy's time depends on how many warps each SM may hold: the latency the
// memory system gives as more requests wait in it. readOffset (calibration_kernels.cuh) at
// n = 2^26 in 512-thread blocks, with dynamic shared memory that leaves room for 1, 2, 3 or 4
// blocks an SM (16 to 64 warps); the kernel does not touch it. At the same bandwidth, a GPU whose
// loads wait longer under load needs more warps in flight: the model's `--set sm.max_blocks=K`
// runs the same launches (docs/model.md, "Occupancy as ncu counts it").
//
//   occupancy_curve [--ncu] [--reps=N]
//     CSV on stdout: case,params,event_median_ms,event_min_ms,reps; with --ncu each case runs
//     once after a "#case,NAME,PARAMS" line. Exits 1 if the occupancy calculator does not give
//     the intended blocks an SM.
#include <cstdio>

#include "calibration_kernels.cuh"
#include "probe_common.cuh"

int main(int argc, char** argv) {
  const probe::Mode mode = probe::parse_mode(argc, argv, 1);
  constexpr int kN = 1 << 26, kBlock = 512;
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  CK(cudaFuncSetAttribute(readOffset, cudaFuncAttributeMaxDynamicSharedMemorySize,
                          int(prop.sharedMemPerBlockOptin)));
  float *a, *b, *c;
  CK(cudaMalloc(&a, sizeof(float) * kN));
  CK(cudaMalloc(&b, sizeof(float) * kN));
  CK(cudaMalloc(&c, sizeof(float) * kN));
  CK(cudaMemset(a, 0, sizeof(float) * kN));
  CK(cudaMemset(b, 0, sizeof(float) * kN));
  if (!mode.profiled) printf("case,params,event_median_ms,event_min_ms,reps\n");
  for (int k = 1; k <= 4; ++k) {
    // The shared memory that leaves room for k blocks: the SM's share less the per-block
    // reservation, none where the threads already allow no more.
    const size_t per_block = prop.sharedMemPerMultiprocessor / k - prop.reservedSharedMemPerBlock;
    const size_t smem = k * kBlock >= prop.maxThreadsPerMultiProcessor
                            ? 0
                            : std::min<size_t>(per_block, prop.sharedMemPerBlockOptin);
    int fits = 0;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fits, readOffset, kBlock, smem));
    if (fits != k) {
      fprintf(stderr, "occupancy_curve: %zu bytes of shared memory give %d blocks an SM, not %d\n", smem, fits, k);
      return 1;
    }
    char name[32], params[96];
    snprintf(name, sizeof name, "readOffset_k%d", k);
    snprintf(params, sizeof params, "lg=26;bs=%d;blocks_per_sm=%d;smem=%zu", kBlock, k, smem);
    auto launch = [&] { readOffset<<<kN / kBlock, kBlock, smem>>>(a, b, c, kN, 0); };
    if (mode.profiled) {
      printf("#case,%s,%s\n", name, params);
      fflush(stdout);
      launch();
      CK(cudaGetLastError());
      CK(cudaDeviceSynchronize());
      continue;
    }
    const probe::Timing t = probe::time_events(mode.reps, launch);
    printf("%s,%s,%.5f,%.5f,%d\n", name, params, t.median_ms, t.min_ms, mode.reps);
  }
  return 0;
}

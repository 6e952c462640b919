// How a DRAM-bound copy's time depends on how many warps each SM may hold: the latency the
// memory system gives as more requests wait in it. readOffset (calibration_kernels.cuh) at
// n = 2^26 in 512-thread blocks, with dynamic shared memory that leaves room for 1, 2, 3 or 4
// blocks an SM (16 to 64 warps); the kernel does not touch it. At the same bandwidth, a GPU whose
// loads wait longer under load needs more warps in flight: the model's `--set sm.max_blocks=K`
// runs the same launches (docs/model.md, "Occupancy as ncu counts it").
//
//   occupancy_curve [--ncu] [--reps=N]
//     CSV on stdout: case,params,event_median_ms,event_min_ms,reps; with --ncu each case runs
//     once after a "#case,NAME,PARAMS" line (probe::run_case). Exits 1 if the occupancy
//     calculator does not give the intended blocks an SM.
#include "calibration_kernels.cuh"
#include "probe_common.cuh"

int main(int argc, char** argv) {
  const probe::Mode mode = probe::parse_mode(argc, argv, 1);
  constexpr int kN = 1 << 26, kBlock = 512;
  float* a = probe::random_floats(kN, 1);  // never zeros (METHOD.md)
  float* b = probe::random_floats(kN, 2);
  float* c;
  CK(cudaMalloc(&c, sizeof(float) * kN));
  if (!mode.profiled) printf("case,params,event_median_ms,event_min_ms,reps\n");
  for (int k = 1; k <= 4; ++k) {
    const size_t smem = probe::shared_bytes_for_blocks(readOffset, k, kBlock);
    probe::run_case(mode, "readOffset_k" + std::to_string(k),
                    probe::params("lg=26;bs=%lld;blocks_per_sm=%lld;smem=%lld", kBlock, k, (long long)smem),
                    [&] { readOffset<<<kN / kBlock, kBlock, smem>>>(a, b, c, kN, 0); });
  }
  return 0;
}

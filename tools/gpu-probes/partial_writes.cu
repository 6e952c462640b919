// What the L2 reads from DRAM for stores that write part of a sector (docs/model.md, the L2):
// kernels.cu's transposeNaive writes one float of a line per thread, a column of the output at a
// time, so at widths whose output outgrows L2 its lines go back to DRAM with sectors the warps
// have not all written yet; transposeShared writes whole lines (the control). Under ncu (caches
// flushed before each launch) dram__bytes_read against the input's bytes says whether the L2
// reads a partly written sector before writing it back (the H200's stream_latency lane0_store
// reads one 32-byte sector a line written back).
//
//   partial_writes [--reps=N]   one row a case: case,params,event_median_ms,event_min_ms,reps
//   partial_writes --ncu        each case once after a "#case,NAME,PARAMS" line, for ncu
#include "calibration_kernels.cuh"
#include "probe_common.cuh"

int main(int argc, char** argv) {
  const probe::Mode mode = probe::parse_mode(argc, argv, 1);
  if (!mode.profiled) printf("case,params,event_median_ms,event_min_ms,reps\n");
  constexpr int kWidest = 8192;
  float* in = probe::random_floats(size_t(kWidest) * kWidest, 1);  // never zeros (METHOD.md)
  float* out;
  CK(cudaMalloc(&out, size_t(kWidest) * kWidest * sizeof(float)));
  for (int w : {1024, 2048, 4096, 8192}) {
    const dim3 grid(w / TILE, w / TILE), block(TILE, ROWS);
    probe::run_case(mode, "transposeNaive", probe::params("width=%lld", w),
                    [&] { transposeNaive<<<grid, block>>>(out, in, w); });
    probe::run_case(mode, "transposeShared", probe::params("width=%lld;pad=0", w),
                    [&] { transposeShared<0><<<grid, block>>>(out, in, w); });
  }
  return 0;
}

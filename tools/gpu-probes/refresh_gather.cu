// How many DRAM channels a gather of neighbouring lines meets, seen through refresh: one warp
// gathers 32 cold lines STRIDE bytes apart (at 256 bytes, as gaussian's Fan1 reads a matrix
// column), step after step, each step lines no step read before, and times the whole gather.
//
//   refresh_gather [REPS]    CSV on stdout: mode,stride_bytes,rep,i,start_cycle,latency
//
// mode "line": every lane loads the same line (one DRAM access: its latency alone, as
// dram_refresh.csv.xz's chase); mode "gather": lane k loads the line at STRIDE * k bytes, STRIDE
// 128 B to 8 KB. A gather waits for a refresh if any of its lines' channels is refreshing. A load
// waits in ~8% of cases (dram_refresh.csv.xz); a gather over k channels that refresh at phases of
// their own waits in 1 - 0.92^k of them: 93% over 32 channels, 22% over 3. So the share that
// waits, stride by stride, says over how many channels 32 lines that far apart lie: the
// granularity at which addresses are spread over channels. A step that enters a 2 MB page no
// step touched before also waits for a page walk (~650 cycles, launch_path_*.csv): leave those
// out. Before each pass a 256 MB read of another buffer leaves L2 full of clean, unrelated lines.
#include <cstdint>
#include <vector>

#include "probe_common.cuh"

namespace {

// The store of each lane's value to shared memory waits for its load (volatile asm, as clock64
// is, so it stays between the clock reads); __syncwarp then waits for every lane's.
__global__ void timed_gather(const unsigned* a, int steps, size_t step_words, size_t lane_stride_words,
                             long long* start, int* latency, unsigned* sink) {
  __shared__ unsigned seen[32];
  const unsigned lane = threadIdx.x;
  unsigned dep = 0;
  for (int i = 0; i < steps; ++i) {
    const long long t0 = clock64();
    const unsigned v = a[size_t(i) * step_words + lane * lane_stride_words + dep];
    asm volatile("st.shared.u32 [%0], %1;" ::"l"(__cvta_generic_to_shared(&seen[lane])), "r"(v) : "memory");
    __syncwarp();
    const long long t1 = clock64();
    dep = seen[(lane + 1) & 31];  // every word is 0: the next step's addresses wait for this one's data
    if (lane == 0) {
      start[i] = t0;
      latency[i] = int(t1 - t0);
    }
  }
  if (dep == 7) *sink = dep;
}

}  // namespace

int main(int argc, char** argv) {
  const int reps = argc > 1 ? std::max(1, atoi(argv[1])) : 2;
  const int steps = 2048;
  const size_t most_bytes = size_t(steps) * 32 * 8192;  // 512 MB: the widest gathers' steps
  unsigned *a, *sink;
  CK(cudaMalloc(&a, most_bytes));
  CK(cudaMemset(a, 0, most_bytes));
  CK(cudaMalloc(&sink, 4));
  const probe::L2Filler l2;
  long long* start;
  int* latency;
  CK(cudaMalloc(&start, steps * sizeof(long long)));
  CK(cudaMalloc(&latency, steps * sizeof(int)));
  std::vector<long long> h_start(steps);
  std::vector<int> h_latency(steps);
  printf("mode,stride_bytes,rep,i,start_cycle,latency\n");
  for (int rep = 0; rep < reps; ++rep)
    for (size_t stride : {0, 128, 256, 512, 1024, 2048, 4096, 8192}) {
      const size_t step_bytes = std::max<size_t>(stride * 32, 8192);
      l2.fill();
      timed_gather<<<1, 32>>>(a, steps, step_bytes / 4, stride / 4, start, latency, sink);
      CK(cudaGetLastError());
      CK(cudaDeviceSynchronize());
      CK(cudaMemcpy(h_start.data(), start, steps * sizeof(long long), cudaMemcpyDeviceToHost));
      CK(cudaMemcpy(h_latency.data(), latency, steps * sizeof(int), cudaMemcpyDeviceToHost));
      for (int i = 0; i < steps; ++i) {
        // Steps divide 2 MB: a step enters a page no step touched before where it starts one.
        if ((size_t(i) * step_bytes) % (2u << 20) == 0) continue;  // a page walk, not a refresh
        printf("%s,%zu,%d,%d,%lld,%d\n", stride ? "gather" : "line", stride, rep, i, h_start[i] - h_start[0],
               h_latency[i]);
      }
    }
  fflush(stdout);
  return 0;
}

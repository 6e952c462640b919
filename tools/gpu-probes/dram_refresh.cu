// How DRAM refresh shows in a load's latency: one thread chases a random cycle of 128-byte lines
// that L2 does not hold, and records every load's start (clock64 and %globaltimer) and latency.
//
//   dram_refresh [REPS]      CSV on stdout: rep,pass,region_mb,i,start_cycle,start_ns,latency
//
// The preset assumes all-bank refreshes (tRFC 350 ns every tREFI 3.9 us) at a phase of their own
// in each channel. If that were so, a load would wait in ~9% of cases, by up to ~690 cycles, and
// the waits would come at any moment. If the channels refresh together, the waits cluster in time
// every tREFI whatever the address; if refresh is per bank, they are rarer and shorter. The
// "warm" pass chases the same lines again from L2: its latencies show the spread without DRAM.
// nvcc unrolls the loop four times and moves the record stores between the clock reads: only the
// loads i = 4k+1 and 4k+2 are timed alone (4k+3 includes ~270 cycles of stores, 4k reads ~10).
//
// Regions of 8 and 64 MB (4 and 32 pages of 2 MB) keep TLB misses out of the tail; before each
// cold pass a 256 MB read of another buffer leaves L2 full of clean, unrelated lines (a write
// would leave dirty lines whose write-backs share the channels with the chase).
#include <cstdint>
#include <numeric>
#include <random>

#include "probe_common.cuh"

namespace {

constexpr int kLineWords = 32;  // 128-byte lines of unsigned

// One thread: step `steps` times through next[], recording each load's start and latency. The
// store of the loaded index to shared memory waits for the load's data, so the clock read after
// it is taken once the data is there (Mei and Chu's method).
__global__ void timed_chase(const unsigned* next, unsigned start, int steps, long long* start_cycle,
                            unsigned long long* start_ns, int* latency, unsigned* sink) {
  __shared__ unsigned seen[1];
  unsigned j = start;
  for (int i = 0; i < steps; ++i) {
    const unsigned long long ns = probe::globaltimer();
    const long long t0 = clock64();
    j = next[j];
    seen[0] = j;
    const long long t1 = clock64();
    start_cycle[i] = t0;
    start_ns[i] = ns;
    latency[i] = int(t1 - t0);
    j = seen[0];
  }
  *sink = j;
}

}  // namespace

int main(int argc, char** argv) {
  const int reps = argc > 1 ? std::max(1, atoi(argv[1])) : 4;
  const int steps = 8192;
  unsigned* sink;
  CK(cudaMalloc(&sink, 4));
  const probe::L2Filler l2;
  long long* cyc;
  unsigned long long* ns;
  int* lat;
  CK(cudaMalloc(&cyc, steps * sizeof(long long)));
  CK(cudaMalloc(&ns, steps * sizeof(unsigned long long)));
  CK(cudaMalloc(&lat, steps * sizeof(int)));
  std::vector<long long> h_cyc(steps);
  std::vector<unsigned long long> h_ns(steps);
  std::vector<int> h_lat(steps);
  printf("rep,pass,region_mb,i,start_cycle,start_ns,latency\n");
  for (size_t region_mb : {8, 64}) {
    const size_t words = region_mb << 18;  // MB / 4 bytes
    const size_t lines = words / kLineWords;
    unsigned* next;
    CK(cudaMalloc(&next, words * 4));
    for (int rep = 0; rep < reps; ++rep) {
      // A random cycle through `steps` distinct lines of the region.
      std::vector<unsigned> order(lines);
      std::iota(order.begin(), order.end(), 0u);
      std::mt19937 rng(1000 * unsigned(region_mb) + rep);
      std::shuffle(order.begin(), order.end(), rng);
      std::vector<unsigned> h(words, 0);
      for (int i = 0; i < steps; ++i) h[order[i] * kLineWords] = order[(i + 1) % steps] * kLineWords;
      CK(cudaMemcpy(next, h.data(), words * 4, cudaMemcpyHostToDevice));
      for (const char* pass : {"cold", "warm"}) {
        if (pass[0] == 'c') {
          l2.fill();
        }
        timed_chase<<<1, 1>>>(next, order[0] * kLineWords, steps, cyc, ns, lat, sink);
        CK(cudaGetLastError());
        CK(cudaDeviceSynchronize());
        CK(cudaMemcpy(h_cyc.data(), cyc, steps * sizeof(long long), cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(h_ns.data(), ns, steps * sizeof(unsigned long long), cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(h_lat.data(), lat, steps * sizeof(int), cudaMemcpyDeviceToHost));
        for (int i = 0; i < steps; ++i)
          printf("%d,%s,%zu,%d,%lld,%llu,%d\n", rep, pass, region_mb, i, h_cyc[i] - h_cyc[0], h_ns[i] - h_ns[0],
                 h_lat[i]);
      }
    }
    CK(cudaFree(next));
  }
  fflush(stdout);
  return 0;
}

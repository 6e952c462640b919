// When each DRAM channel refreshes, relative to the others: the phases the model's refresh groups
// keep to one another (dram.refresh_groups, evenly spread over the interval in the model, an
// assumption; docs/model.md shows a dependent gather locked into that cadence on hopper-h200).
// One thread samples one line at a time from DRAM, over and over: it discards the line from L2
// (discard.global.L2: no write-back, the next load misses) and loads it, timing the load. A load
// that meets its channel refreshing waits for it, so the times of a line's long loads, folded over
// the refresh interval, give its channel's phase; lines whose channels refresh together share it.
//
//   refresh_phases [LINES=256] [SAMPLES=2048] [TOGETHER=1]
//     CSV on stdout: line,sample,start_cycle,latency
//
// Line k lies k x (2 MB + 256 B) into the buffer: 256-byte steps across the channel interleave,
// a 2 MB page each (its first load walks the page table: leave sample 0 out). TOGETHER lines are
// sampled in turn (k, k + 1, ..., then k again), so that their phases are seen over the same
// stretch of time and compare with no error in the period: one line's run of samples after
// another's sees phases that drift apart by the period's error times the periods between. start_cycle is
// clock64 from the kernel's start; a '#' line before the header gives the kernel's clock64 and
// %globaltimer spans, so that cycles convert to nanoseconds at the clock the SM actually ran.
// On the H200 (h200/README.md, analysis/validation/refresh_phases.py): a ~290 ns window every
// 1,926 ns, each line at a phase of its own.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "probe_common.cuh"

namespace {

constexpr size_t kLineSpacing = (size_t(2) << 20) + 256;

__global__ void sample(const unsigned char* base, int lines, int samples, int together, long long* start,
                       int* latency, long long* spans, unsigned* sink) {
  __shared__ unsigned seen;
  unsigned dep = 0;  // every word is 0: each address waits for the load before it
  const long long c0 = clock64();
  const unsigned long long g0 = probe::globaltimer();
  for (int first = 0; first < lines; first += together)
    for (int s = 0; s < samples; ++s)
      for (int k = first; k < min(first + together, lines); ++k) {
        const unsigned* line = reinterpret_cast<const unsigned*>(base + size_t(k) * kLineSpacing);
        asm volatile("discard.global.L2 [%0], 128;" ::"l"(line + dep) : "memory");
        const long long t = clock64();
        int cycles = 0;
        dep = probe::timed_load(line + dep, &seen, cycles);
        start[size_t(k) * samples + s] = t - c0;
        latency[size_t(k) * samples + s] = cycles;
      }
  spans[0] = clock64() - c0;
  spans[1] = static_cast<long long>(probe::globaltimer() - g0);
  if (dep == 7) *sink = dep;
}

}  // namespace

int main(int argc, char** argv) {
  const int lines = argc > 1 ? std::max(1, atoi(argv[1])) : 256;
  const int samples = argc > 2 ? std::max(2, atoi(argv[2])) : 2048;
  const int together = argc > 3 ? std::max(1, atoi(argv[3])) : 1;
  const size_t bytes = size_t(lines) * kLineSpacing;
  unsigned char* a;
  unsigned* sink;
  long long *start, *spans;
  int* latency;
  CK(cudaMalloc(&a, bytes));
  CK(cudaMemset(a, 0, bytes));
  CK(cudaMalloc(&sink, 4));
  CK(cudaMalloc(&start, size_t(lines) * samples * sizeof(long long)));
  CK(cudaMalloc(&latency, size_t(lines) * samples * sizeof(int)));
  CK(cudaMalloc(&spans, 2 * sizeof(long long)));
  CK(cudaDeviceSynchronize());
  sample<<<1, 1>>>(a, lines, samples, together, start, latency, spans, sink);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  std::vector<long long> h_start(size_t(lines) * samples), h_spans(2);
  std::vector<int> h_latency(h_start.size());
  CK(cudaMemcpy(h_start.data(), start, h_start.size() * sizeof(long long), cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(h_latency.data(), latency, h_latency.size() * sizeof(int), cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(h_spans.data(), spans, 2 * sizeof(long long), cudaMemcpyDeviceToHost));
  printf("# spans: clock64 %lld cycles, globaltimer %lld ns\n", h_spans[0], h_spans[1]);
  printf("line,sample,start_cycle,latency\n");
  for (int k = 0; k < lines; ++k)
    for (int s = 0; s < samples; ++s)
      printf("%d,%d,%lld,%d\n", k, s, h_start[size_t(k) * samples + s], h_latency[size_t(k) * samples + s]);
  return 0;
}

// Whether lines of one DRAM channel wait for the same refresh, or each bank for its own. A whole
// channel blocked ~290 ns of every 1,926 ns (refresh_phases.cu on the H200) could not stream the
// 89% of its pins' rate the H200 reads, so either the window is a bank's or it is shorter than a
// line's waits. Here 32 warps of one block, all on one SM's clock, each sample a line of their
// own at the same time: discard it from L2 (discard.global.L2) and load it, over and over. Folded
// over the refresh period, each line's waits give its window's phase. Lines of one channel share
// a phase if the channel refreshes all its banks at once; if each bank refreshes on its own, only
// lines of one bank do. So among pairs of random lines, the share at the same phase is 1 / (the
// number of independent refresh schedules): ~1/100 if channels, ~1/1,500 if banks.
//
//   refresh_sync [LAUNCHES=192] [SAMPLES=320]
//     CSV on stdout: launch,warp,sample,start_cycle,latency of the loads that took more than
//     their line's median + 100 cycles (the waits; the rest are only counted, to keep the file
//     small); before it, '#' lines give each launch's clock64 and %globaltimer spans, and each
//     line's byte offset in the buffer, median latency and number of samples.
//
// Each launch takes a 2 MB page of its own (one TLB entry) and 32 lines in it: warps 0 and 1 are
// 128 B apart (one 256-byte piece of DRAM: the same channel, bank and row, so they must share
// their windows under either rule), warps 2-3, 4-5, 6-7 and 8-9 are 512 B, 1, 2 and 4 KB apart
// (how far the channel interleave keeps two lines together), the other 22 at random 256-byte
// pieces of the page. analysis/validation/refresh_sync.py reads it.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "probe_common.cuh"

namespace {

constexpr int kWarps = 32;
constexpr size_t kPage = size_t(2) << 20;
constexpr size_t kPieces = kPage / 256;

__global__ void sample(const unsigned char* page, const unsigned* offsets, int samples, long long* start,
                       int* latency, long long* spans, unsigned* sink) {
  __shared__ unsigned seen[kWarps];
  const int warp = threadIdx.x / 32;
  if (threadIdx.x % 32 != 0) return;
  const unsigned* line = reinterpret_cast<const unsigned*>(page + offsets[warp]);
  unsigned dep = 0;  // every word is 0: each address waits for the load before it
  __syncwarp(1);
  const long long c0 = clock64();
  const unsigned long long g0 = probe::globaltimer();
  for (int s = 0; s < samples; ++s) {
    asm volatile("discard.global.L2 [%0], 128;" ::"l"(line + dep) : "memory");
    const long long t = clock64();
    int cycles = 0;
    dep = probe::timed_load(line + dep, &seen[warp], cycles);
    start[size_t(warp) * samples + s] = t;
    latency[size_t(warp) * samples + s] = cycles;
  }
  if (warp == 0) {
    spans[0] = c0;
    spans[1] = clock64() - c0;
    spans[2] = static_cast<long long>(probe::globaltimer() - g0);
  }
  if (dep == 7) *sink = dep;
}

// A fixed pseudo-random sequence (splitmix64), so that a run can be repeated line for line.
std::uint64_t next(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

}  // namespace

int main(int argc, char** argv) {
  const int launches = argc > 1 ? std::max(1, atoi(argv[1])) : 192;
  const int samples = argc > 2 ? std::max(2, atoi(argv[2])) : 320;
  const size_t bytes = size_t(launches) * kPage;
  unsigned char* a;
  unsigned *sink, *d_offsets;
  long long *start, *spans;
  int* latency;
  CK(cudaMalloc(&a, bytes + kPage));
  CK(cudaMemset(a, 0, bytes + kPage));
  CK(cudaMalloc(&sink, 4));
  CK(cudaMalloc(&d_offsets, kWarps * sizeof(unsigned)));
  CK(cudaMalloc(&start, size_t(kWarps) * samples * sizeof(long long)));
  CK(cudaMalloc(&latency, size_t(kWarps) * samples * sizeof(int)));
  CK(cudaMalloc(&spans, 3 * sizeof(long long)));
  unsigned char* base = reinterpret_cast<unsigned char*>((reinterpret_cast<uintptr_t>(a) + kPage - 1) / kPage * kPage);
  std::uint64_t state = 2026;
  const unsigned apart[] = {128, 512, 1024, 2048, 4096};
  std::vector<long long> h_start(size_t(kWarps) * samples), h_spans(3);
  std::vector<int> h_latency(h_start.size());
  std::vector<std::string> headers, rows;
  for (int launch = 0; launch < launches; ++launch) {
    std::vector<unsigned> offsets(kWarps);
    for (int w = 0; w < kWarps; ++w) offsets[w] = unsigned(next(state) % kPieces) * 256;
    for (int pair = 0; pair < 5; ++pair)  // the second of each pair `apart` after the first, in the page
      offsets[2 * pair + 1] = (offsets[2 * pair] + apart[pair]) % kPage;
    CK(cudaMemcpy(d_offsets, offsets.data(), kWarps * sizeof(unsigned), cudaMemcpyHostToDevice));
    sample<<<1, kWarps * 32>>>(base + size_t(launch) * kPage, d_offsets, samples, start, latency, spans, sink);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(h_start.data(), start, h_start.size() * sizeof(long long), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(h_latency.data(), latency, h_latency.size() * sizeof(int), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(h_spans.data(), spans, 3 * sizeof(long long), cudaMemcpyDeviceToHost));
    char buf[96];
    std::string header = "# launch " + std::to_string(launch) + " spans: clock64 " + std::to_string(h_spans[1]) +
                         " cycles, globaltimer " + std::to_string(h_spans[2]) + " ns; line offset/median/samples:";
    for (int w = 0; w < kWarps; ++w) {
      // The median of samples 1.. (sample 0 also walks the page table).
      std::vector<int> sorted(h_latency.begin() + size_t(w) * samples + 1, h_latency.begin() + size_t(w + 1) * samples);
      std::nth_element(sorted.begin(), sorted.begin() + sorted.size() / 2, sorted.end());
      const int median = sorted[sorted.size() / 2];
      header += " " + std::to_string(offsets[w]) + "/" + std::to_string(median) + "/" + std::to_string(samples);
      for (int s = 0; s < samples; ++s) {
        const size_t i = size_t(w) * samples + s;
        if (h_latency[i] <= median + 100) continue;
        snprintf(buf, sizeof buf, "%d,%d,%d,%lld,%d\n", launch, w, s, h_start[i] - h_spans[0], h_latency[i]);
        rows.emplace_back(buf);
      }
    }
    headers.push_back(header);
  }
  for (const auto& h : headers) printf("%s\n", h.c_str());
  printf("launch,warp,sample,start_cycle,latency\n");
  for (const auto& r : rows) fputs(r.c_str(), stdout);
  return 0;
}

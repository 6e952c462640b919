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

#include "refresh_sampler.cuh"

using namespace refresh;

int main(int argc, char** argv) {
  const int launches = argc > 1 ? std::max(1, atoi(argv[1])) : 192;
  const int samples = argc > 2 ? std::max(2, atoi(argv[2])) : 320;
  Sampler sampler(launches, samples);
  std::uint64_t state = 2026;
  std::vector<std::string> headers, rows;
  for (int launch = 0; launch < launches; ++launch) {
    const std::vector<unsigned> offsets = sampler.launch(launch, state);
    CK(cudaDeviceSynchronize());
    sampler.fetch();
    char buf[96];
    std::string header = sampler.header(launch) + " line offset/median/samples:";
    for (int w = 0; w < kWarps; ++w) {
      // The median of samples 1.. (sample 0 also walks the page table).
      std::vector<int> sorted(sampler.latency.begin() + size_t(w) * samples + 1,
                              sampler.latency.begin() + size_t(w + 1) * samples);
      std::nth_element(sorted.begin(), sorted.begin() + sorted.size() / 2, sorted.end());
      const int median = sorted[sorted.size() / 2];
      header += " " + std::to_string(offsets[w]) + "/" + std::to_string(median) + "/" + std::to_string(samples);
      for (int s = 0; s < samples; ++s) {
        const size_t i = size_t(w) * samples + s;
        if (sampler.latency[i] <= median + 100) continue;
        snprintf(buf, sizeof buf, "%d,%d,%d,%lld,%d\n", launch, w, s, sampler.start[i] - sampler.spans[0],
                 sampler.latency[i]);
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

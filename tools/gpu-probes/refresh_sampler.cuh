// The sampler of refresh_sync.cu and refresh_load.cu: 32 warps of one block (one SM's clock64),
// lane 0 of each discarding a line of its own from L2 (discard.global.L2) and loading it again,
// `samples` times, each load timed. Every word of the page is 0, so each address waits for the
// load before it. spans: warp 0's clock64 at the start, its clock64 and %globaltimer spans, its
// %globaltimer at the start.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "probe_common.cuh"

namespace refresh {

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
    spans[3] = static_cast<long long>(g0);
  }
  if (dep == 7) *sink = dep;
}

// A fixed pseudo-random sequence (splitmix64), so that a run can be repeated line for line.
inline std::uint64_t next(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// A launch's 32 lines, byte offsets in its 2 MB page: warps 0 and 1 128 B apart (one 256-byte piece
// of DRAM), 2-3, 4-5, 6-7 and 8-9 512 B, 1, 2 and 4 KB apart, the rest at random 256-byte pieces.
inline std::vector<unsigned> launch_lines(std::uint64_t& state) {
  const unsigned apart[] = {128, 512, 1024, 2048, 4096};
  std::vector<unsigned> offsets(kWarps);
  for (int w = 0; w < kWarps; ++w) offsets[w] = unsigned(next(state) % kPieces) * 256;
  for (int pair = 0; pair < 5; ++pair)  // the second of each pair `apart` after the first, in the page
    offsets[2 * pair + 1] = (offsets[2 * pair] + apart[pair]) % kPage;
  return offsets;
}

// The sampler's buffers: `launches` 2 MB pages of zeros, and what a launch records.
class Sampler {
 public:
  Sampler(int launches, int samples) : samples_(samples), start(size_t(kWarps) * samples), latency(start.size()), spans(4) {
    CK(cudaMalloc(&pages_, (size_t(launches) + 1) * kPage));
    CK(cudaMemset(pages_, 0, (size_t(launches) + 1) * kPage));
    base_ = reinterpret_cast<unsigned char*>((reinterpret_cast<uintptr_t>(pages_) + kPage - 1) / kPage * kPage);
    CK(cudaMalloc(&sink_, 4));
    CK(cudaMalloc(&offsets_, kWarps * sizeof(unsigned)));
    CK(cudaMalloc(&start_, start.size() * sizeof(long long)));
    CK(cudaMalloc(&latency_, latency.size() * sizeof(int)));
    CK(cudaMalloc(&spans_, spans.size() * sizeof(long long)));
  }
  // Chooses launch `launch`'s lines (launch_lines) and starts sampling them on `stream`.
  std::vector<unsigned> launch(int launch, std::uint64_t& state, cudaStream_t stream = 0) {
    const std::vector<unsigned> offsets = launch_lines(state);
    CK(cudaMemcpy(offsets_, offsets.data(), kWarps * sizeof(unsigned), cudaMemcpyHostToDevice));
    sample<<<1, kWarps * 32, 0, stream>>>(base_ + size_t(launch) * kPage, offsets_, samples_, start_, latency_, spans_,
                                          sink_);
    CK(cudaGetLastError());
    return offsets;
  }
  // After the launch has finished: copies its records into start, latency and spans.
  void fetch() {
    CK(cudaMemcpy(start.data(), start_, start.size() * sizeof(long long), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(latency.data(), latency_, latency.size() * sizeof(int), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(spans.data(), spans_, spans.size() * sizeof(long long), cudaMemcpyDeviceToHost));
  }
  // "# launch N spans: clock64 C cycles, globaltimer G ns;", the start of the launch's '#' line.
  std::string header(int launch) const {
    return "# launch " + std::to_string(launch) + " spans: clock64 " + std::to_string(spans[1]) +
           " cycles, globaltimer " + std::to_string(spans[2]) + " ns;";
  }

 private:
  int samples_;
  unsigned char *pages_ = nullptr, *base_ = nullptr;
  unsigned *sink_ = nullptr, *offsets_ = nullptr;
  long long *start_ = nullptr, *spans_ = nullptr;
  int* latency_ = nullptr;

 public:
  std::vector<long long> start;  // warp x sample: clock64 before the load
  std::vector<int> latency;      // warp x sample: cycles
  std::vector<long long> spans;  // as sample() writes them
};

}  // namespace refresh

// What a DRAM refresh costs a line while the other SMs stream: refresh_sync.cu's sampler (32 warps
// of one SM, each discarding a line of its own from L2 and loading it again) with a read stream
// beside it on every SM, or without (the control). Folded over the refresh period, each line's
// latencies show how long its window holds it; if a refresh blocks a whole channel, the stream's
// requests queue behind it and a line that meets it waits for that queue too.
//
//   refresh_load [LOAD=1] [LAUNCHES=64] [SAMPLES=320]
//     CSV on stdout: launch,warp,sample,start_cycle,latency for every load; before it, '#' lines
//     give each launch's clock64 and %globaltimer spans, its lines (byte offsets in the page, as
//     refresh_sync.cu chooses them) and, with LOAD=1, the stream's bytes, its time by
//     %globaltimer (first block's start to last block's end) and when the sampler ran in it.
//
// The stream: one block of 1,024 threads on each SM, at most 32 registers a thread (so that the
// sampler's block fits beside it), each thread reading 16 bytes four at a time over a 16 GB
// buffer once; it starts before the sampler (another CUDA stream) and lasts ~4 ms, several times
// the sampler's run.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "refresh_sampler.cuh"

using namespace refresh;

namespace {

constexpr size_t kStreamBytes = size_t(16) << 30;

__global__ void __launch_bounds__(1024, 2) stream_read(const uint4* p, size_t n, unsigned long long* span,
                                                        unsigned* sink) {
  if (threadIdx.x == 0) atomicMin(&span[0], probe::globaltimer());
  uint4 acc{0, 0, 0, 0};
  const size_t step = size_t(gridDim.x) * blockDim.x;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i + 3 * step < n; i += 4 * step) {
    const uint4 a = p[i], b = p[i + step], c = p[i + 2 * step], d = p[i + 3 * step];
    acc.x ^= a.x ^ b.x ^ c.x ^ d.x;
    acc.y ^= a.y ^ b.y ^ c.y ^ d.y;
  }
  if (acc.x == 0x12345678u && acc.y == 7u) *sink = acc.x;
  __syncthreads();
  if (threadIdx.x == 0) atomicMax(&span[1], probe::globaltimer());
}

}  // namespace

int main(int argc, char** argv) {
  const bool load = argc > 1 ? atoi(argv[1]) != 0 : true;
  const int launches = argc > 2 ? std::max(1, atoi(argv[2])) : 64;
  const int samples = argc > 3 ? std::max(2, atoi(argv[3])) : 320;
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  Sampler sampler(launches, samples);
  uint4* stream_buffer = nullptr;
  unsigned* sink;
  unsigned long long* stream_span;
  if (load) {
    CK(cudaMalloc(&stream_buffer, kStreamBytes));
    CK(cudaMemset(stream_buffer, 1, kStreamBytes));
  }
  CK(cudaMalloc(&sink, 4));
  CK(cudaMalloc(&stream_span, 2 * sizeof(unsigned long long)));
  cudaStream_t streaming, sampling;
  CK(cudaStreamCreateWithFlags(&streaming, cudaStreamNonBlocking));
  CK(cudaStreamCreateWithFlags(&sampling, cudaStreamNonBlocking));
  std::uint64_t state = 2026;
  std::vector<std::string> headers, rows;
  for (int launch = 0; launch < launches; ++launch) {
    const unsigned long long span_init[2] = {~0ull, 0};
    CK(cudaMemcpy(stream_span, span_init, sizeof span_init, cudaMemcpyHostToDevice));
    if (load) stream_read<<<prop.multiProcessorCount, 1024, 0, streaming>>>(stream_buffer, kStreamBytes / 16, stream_span, sink);
    const std::vector<unsigned> offsets = sampler.launch(launch, state, sampling);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    sampler.fetch();
    std::string header = sampler.header(launch);
    if (load) {
      unsigned long long s[2];
      CK(cudaMemcpy(s, stream_span, sizeof s, cudaMemcpyDeviceToHost));
      header += " stream " + std::to_string(kStreamBytes) + " bytes in " + std::to_string(s[1] - s[0]) +
                " ns, sampler from " + std::to_string(static_cast<long long>(sampler.spans[3] - s[0])) + " ns;";
    }
    header += " lines:";
    for (unsigned o : offsets) header += " " + std::to_string(o);
    headers.push_back(header);
    char buf[96];
    for (int w = 0; w < kWarps; ++w)
      for (int s = 0; s < samples; ++s) {
        const size_t i = size_t(w) * samples + s;
        snprintf(buf, sizeof buf, "%d,%d,%d,%lld,%d\n", launch, w, s, sampler.start[i] - sampler.spans[0],
                 sampler.latency[i]);
        rows.emplace_back(buf);
      }
  }
  for (const auto& h : headers) printf("%s\n", h.c_str());
  printf("launch,warp,sample,start_cycle,latency\n");
  for (const auto& r : rows) fputs(r.c_str(), stdout);
  return 0;
}

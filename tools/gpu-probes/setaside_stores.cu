// Why a set-aside for persisting accesses slows writes that use no window (setaside2.csv: a
// 256 MB write stream takes 88.6 us up to 8 MB of set-aside and 209 us at the maximum, while
// reads do not change): is it the stores' acknowledgement, or DRAM's write rate?
//
//   setaside_stores     rows "stream|fenced,setAsideKB,warps_per_sm,kernel_ns,
//                       early_ack_p50,ack_p50,ack_p90,ack_mean" for set-asides of 0, 16, 24 MB
//                       and the maximum, and 1 to 64 warps on every SM:
//                       stream: each warp stores whole 128-byte lines, warps interleaved line by
//                         line over 256 MB (a write stream like setaside2's), nothing waits;
//                       fenced: the same stores over 128 MB, each followed by __threadfence, so a
//                         warp has one store in flight and its clock64 around the pair is the
//                         store's acknowledgement (ack_*: cycles, over the second half of the
//                         lines, when L2 is full of the stream's dirty lines; early_ack_p50: the
//                         first 5%, L2 still filling).
//   then rows "granted,requestedKB,grantedKB,in_order|scattered,kernel_ns": the set-aside the
//                       driver grants for requests of 0 MB to the maximum in 1 MB steps, and at each new
//                       granted size the stream with 32 warps an SM, its lines stored in order and
//                       scattered (each 2 MB piece in bit-reversed line order; -1: as the row above).
// Before each timed launch a 256 MB read (ld.cg) leaves L2 full of clean lines, as ncu's flush
// leaves it empty of dirty ones. kernel_ns: median of three launches (cudaEvent).
#include <algorithm>
#include <cstdio>
#include <vector>

#include "probe_common.cuh"

namespace {

// Warp w of W stores lines w, w + W, w + 2W, ... (whole lines, lane i word i); scattered: the
// n-th line of each 2 MB piece is line bit-reverse(n) of the piece, so the lines stored one
// after another lie far apart in DRAM rows while every line is still stored once.
__global__ void store_lines(unsigned* data, size_t lines, int fenced, unsigned* ack, int scattered) {
  const size_t warps = size_t(gridDim.x) * (blockDim.x / 32);
  const size_t warp = size_t(blockIdx.x) * (blockDim.x / 32) + threadIdx.x / 32;
  const unsigned lane = threadIdx.x % 32;
  for (size_t n = warp; n < lines; n += warps) {
    const size_t line = scattered ? (n & ~size_t(16383)) | (__brev(unsigned(n & 16383)) >> 18) : n;
    if (!fenced) {
      data[line * 32 + lane] = unsigned(line);
      continue;
    }
    const long long t0 = clock64();
    data[line * 32 + lane] = unsigned(line);
    __threadfence();
    const long long t1 = clock64();
    if (lane == 0) ack[line] = unsigned(t1 - t0);
  }
}

__global__ void read_all(const unsigned* data, size_t words, unsigned* sink) {
  unsigned acc = 0;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < words; i += size_t(gridDim.x) * blockDim.x)
    acc += __ldcg(&data[i]);
  if (acc == 7u) *sink = acc;
}

unsigned percentile(std::vector<unsigned> v, double p) {
  if (v.empty()) return 0;
  const size_t k = std::min(v.size() - 1, size_t(p * double(v.size())));
  std::nth_element(v.begin(), v.begin() + long(k), v.end());
  return v[k];
}

// The median of three launches of store_lines, each after a 256 MB read leaves L2 full of clean
// lines, in ns (cudaEvent).
struct Launcher {
  int sms;
  unsigned *data, *flush, *ack, *sink;
  cudaEvent_t a, b;
  float median_ns(int blocks, int threads, size_t lines, int fenced, int scattered) const {
    std::vector<float> times;
    for (int rep = 0; rep < 3; ++rep) {
      read_all<<<sms * 4, 1024>>>(flush, (256u << 20) / 4, sink);
      CK(cudaDeviceSynchronize());
      CK(cudaEventRecord(a));
      store_lines<<<blocks, threads>>>(data, lines, fenced, ack, scattered);
      CK(cudaEventRecord(b));
      CK(cudaEventSynchronize(b));
      CK(cudaGetLastError());
      float ms = 0;
      CK(cudaEventElapsedTime(&ms, a, b));
      times.push_back(ms * 1e6f);
    }
    std::sort(times.begin(), times.end());
    return times[1];
  }
};

}  // namespace

int main() {
  cudaDeviceProp p;
  CK(cudaGetDeviceProperties(&p, 0));
  const int sms = p.multiProcessorCount;
  const size_t stream_lines = (256u << 20) / 128, fenced_lines = (128u << 20) / 128;
  unsigned *data, *flush, *ack, *sink;
  CK(cudaMalloc(&data, stream_lines * 128));
  CK(cudaMalloc(&flush, 256u << 20));
  CK(cudaMalloc(&ack, fenced_lines * sizeof(unsigned)));
  CK(cudaMalloc(&sink, sizeof(unsigned)));
  CK(cudaMemset(flush, 1, 256u << 20));
  Launcher launch{sms, data, flush, ack, sink, {}, {}};
  CK(cudaEventCreate(&launch.a));
  CK(cudaEventCreate(&launch.b));
  printf("# device=%s sms=%d l2=%d persistingL2CacheMax=%d\n", p.name, sms, p.l2CacheSize, p.persistingL2CacheMaxSize);
  printf("kind,setAsideKB,warps_per_sm,kernel_ns,early_ack_p50,ack_p50,ack_p90,ack_mean\n");
  std::vector<size_t> set_asides = {0, size_t(16) << 20, size_t(24) << 20, size_t(p.persistingL2CacheMaxSize)};
  for (size_t set_aside : set_asides) {
    CK(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, set_aside));
    size_t granted = 0;
    CK(cudaDeviceGetLimit(&granted, cudaLimitPersistingL2CacheSize));
    for (int fenced = 0; fenced < 2; ++fenced)
      for (int warps_per_sm : {1, 2, 4, 8, 16, 32, 64}) {
        const int blocks_per_sm = warps_per_sm > 32 ? warps_per_sm / 32 : 1;
        const int threads = 32 * warps_per_sm / blocks_per_sm;
        const size_t lines = fenced ? fenced_lines : stream_lines;
        const float ns = launch.median_ns(sms * blocks_per_sm, threads, lines, fenced, 0);
        std::vector<unsigned> h(fenced_lines);
        unsigned early = 0, p50 = 0, p90 = 0;
        double mean = 0;
        if (fenced) {
          CK(cudaMemcpy(h.data(), ack, h.size() * sizeof(unsigned), cudaMemcpyDeviceToHost));
          const std::vector<unsigned> first(h.begin(), h.begin() + long(h.size() / 20));
          const std::vector<unsigned> second(h.begin() + long(h.size() / 2), h.end());
          early = percentile(first, 0.5);
          p50 = percentile(second, 0.5);
          p90 = percentile(second, 0.9);
          for (unsigned v : second) mean += v;
          mean /= double(second.size());
        }
        printf("%s,%zu,%d,%.0f,%u,%u,%u,%.1f\n", fenced ? "fenced" : "stream", granted >> 10, warps_per_sm, ns,
               early, p50, p90, mean);
        fflush(stdout);
      }
  }
  // The set-aside the driver grants for each request (its granularity), and the 256 MB write
  // stream (32 warps on every SM) at each granted size, in order and scattered.
  printf("kind,requestedKB,grantedKB,order,kernel_ns\n");
  size_t last = ~size_t(0);
  const size_t most = size_t(p.persistingL2CacheMaxSize);
  for (size_t mb = 0; mb << 20 < most + (size_t(1) << 20); ++mb) {  // 1 MB steps, the last the maximum
    const size_t want = std::min(mb << 20, most);
    CK(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, want));
    size_t granted = 0;
    CK(cudaDeviceGetLimit(&granted, cudaLimitPersistingL2CacheSize));
    for (int scattered = 0; scattered < 2; ++scattered) {
      const float ns = granted != last ? launch.median_ns(sms, 1024, stream_lines, 0, scattered) : -1;
      printf("granted,%zu,%zu,%s,%.0f\n", want >> 10, granted >> 10, scattered ? "scattered" : "in_order", ns);
    }
    last = granted;
    fflush(stdout);
  }
  CK(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, 0));
  return 0;
}

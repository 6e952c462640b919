// How many of an access-policy window's streaming lines the L2 keeps (SPEC S4.5). The model
// evicted a line with cudaAccessPropertyStreaming before any other line of its set, so the part of
// persistKernel's 10 MB hot region that misses the hitRatio was read from DRAM at every one of its
// ~26 passes, where the H100 read less (persist_10MB.csv: 516 / 448 / 382 / 320 MB at hitRatio
// 0 / 0.25 / 0.5 / 0.75, the model 518 / 460 / 400 / 339), the H200 less still. This probe finds
// on what that depends (the stores, the number of streaming lines, the set-aside, other lines
// that need the room), which became the preset flag l2.clean_victims_first (docs/model.md).
//
//   streaming_lines [--ncu] [--reps=N]
//   streaming_lines pressure [--ncu] [--reps=N]
//
// Every case runs calibration_kernels.cuh's persistKernel (256 MB streamed, 1024-thread blocks)
// or the same loads without its stores (`loads`), over a hot region of hotKB KB under a window
// that covers it (hitProp persisting, missProp streaming or normal, hitRatio h1000 / 1000) and a
// set-aside of setaside bytes, the persisting lines reset before each case:
//   rw, loads     10 MB, hitRatio 0, 0.25, 0.5, 0.75, 1, the largest set-aside
//   loads         hitRatio 0 over hot regions of 2.5, 5 and 20 MB: as many streaming lines as
//                 hitRatio 0.75 and 0.5 leave of 10 MB, and twice as many
//   rw            hitRatio 0 over 2.5 and 5 MB
//   rw, loads     10 MB, hitRatio 0, missProp normal
//   rw, loads     10 MB, hitRatio 0, no set-aside (the window still marks the lines streaming)
// DRAM bytes read beyond the 256 MB stream are the hot region's misses (under ncu, --cache-control
// all as calibrate measures).
// `pressure`: the loads alone, hitRatio 0 over 2.5 and 10 MB, beside streamed regions of 1, 4, 16
// and 64 MB instead of 256 (tid % size wraps: from 16 MB down the stream itself stays in L2): whether
// the L2 keeps about 1 MiB of streaming lines because other lines push the rest out, or whatever
// else it holds.
#include "calibration_kernels.cuh"
#include "probe_common.cuh"

namespace {

constexpr int kThreads = 1024, kData = 1 << 26;

// persistKernel's loads alone; their sum is kept by a store no value makes (the buffers hold
// neither zeros nor negative numbers).
__global__ void persistLoads(const int* persistent, int* streaming, int dataSize, int freqSize) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  const int hot = persistent[tid % freqSize];
  const int cold = streaming[(tid + (hot >> 31)) % dataSize];  // after the hot load, as persistKernel's
  if (hot + cold == 0) streaming[tid % dataSize] = 1;
}

struct Case {
  bool stores;
  double hot_mb;
  int h1000;
  bool miss_normal;
  bool set_aside;
  int stream_mb = 256;  // the streamed region
};

}  // namespace

int main(int argc, char** argv) {
  const bool pressure = argc > 1 && std::string(argv[1]) == "pressure";
  const probe::Mode mode = probe::parse_mode(argc, argv, pressure ? 2 : 1);
  const cudaDeviceProp prop = probe::device_header();
  if (!mode.profiled) printf("case,params,median_ms,min_ms,reps\n");
  const size_t largest = std::min<size_t>(size_t(prop.l2CacheSize * 0.75), prop.persistingL2CacheMaxSize);
  const int max_hot = (20 << 20) / 4;
  int *hot, *stream;
  CK(cudaMalloc(&hot, size_t(max_hot) * 4));
  CK(cudaMalloc(&stream, size_t(kData) * 4));
  CK(cudaMemset(hot, 1, size_t(max_hot) * 4));
  CK(cudaMemset(stream, 1, size_t(kData) * 4));
  std::vector<Case> cases;
  if (pressure) {
    for (const double mb : {2.5, 10.0})
      for (const int stream_mb : {1, 4, 16, 64}) cases.push_back({false, mb, 0, false, true, stream_mb});
  } else {
    for (const bool stores : {true, false})
      for (const int h : {0, 250, 500, 750, 1000}) cases.push_back({stores, 10, h, false, true});
    for (const double mb : {2.5, 5.0, 20.0}) cases.push_back({false, mb, 0, false, true});
    for (const double mb : {2.5, 5.0}) cases.push_back({true, mb, 0, false, true});
    for (const bool stores : {true, false}) {
      cases.push_back({stores, 10, 0, true, true});
      cases.push_back({stores, 10, 0, false, false});
    }
  }
  cudaStream_t s;
  CK(cudaStreamCreate(&s));
  for (const Case& c : cases) {
    const size_t aside = c.set_aside ? largest : 0;
    CK(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, aside));
    const int freq = int(c.hot_mb * (1 << 20) / 4);
    cudaStreamAttrValue attr;
    memset(&attr, 0, sizeof attr);
    attr.accessPolicyWindow.base_ptr = hot;
    attr.accessPolicyWindow.num_bytes = size_t(freq) * 4;
    attr.accessPolicyWindow.hitRatio = float(c.h1000 / 1000.0);
    attr.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
    attr.accessPolicyWindow.missProp = c.miss_normal ? cudaAccessPropertyNormal : cudaAccessPropertyStreaming;
    CK(cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &attr));
    CK(cudaCtxResetPersistingL2Cache());
    const int data = c.stream_mb * (1 << 20) / 4;
    const std::string params =
        probe::params("hotKB=%lld;h1000=%lld;setaside=%lld", (long long)(c.hot_mb * 1024), c.h1000, (long long)aside) +
        (c.miss_normal ? ";miss=normal" : ";miss=streaming") + (pressure ? probe::params(";streamMB=%lld", c.stream_mb) : "");
    probe::run_case(
        mode, c.stores ? "rw" : "loads", params,
        [&] {
          if (c.stores)
            persistKernel<<<kData / kThreads, kThreads, 0, s>>>(hot, stream, data, freq);
          else
            persistLoads<<<kData / kThreads, kThreads, 0, s>>>(hot, stream, data, freq);
        },
        s);
  }
  CK(cudaStreamDestroy(s));
  CK(cudaFree(hot));
  CK(cudaFree(stream));
  return 0;
}

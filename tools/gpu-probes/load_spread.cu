// Where the spread of a loaded memory system's answers comes from (docs/model.md, "How far apart a
// block's warps finish"): the H100's persistKernel waits 3.5-9.9x as long at the 99th percentile as
// at the 10th, the model 1.7-3.1x. This probe takes DRAM, stores and the set-aside away one at a
// time.
//
//   load_spread     one CSV on stdout, every warp of every 32nd block of each case, launched
//                   twice and the second launch recorded (the first leaves L2 warm):
//     resident           persistKernel's work over a 1 MB hot and an 8 MB streamed region with
//                        2^26 threads (tid % size wraps): after the warm-up launch every access
//                        hits L2 and nothing reaches DRAM
//     resident_loads     the same loads without the stores
//     dram_loads         the loads over a 1 MB hot and a 256 MB streamed region (each streamed
//                        element read once, L2 cannot hold it): DRAM reads, no writes
//     dram               persistKernel itself over those regions (its stores make the streamed
//                        lines dirty: DRAM reads and write-backs), no set-aside
//     dram_setaside      the same with persist_10MB.csv's set-aside for persisting lines
//                        (min(0.75 x L2, the most the GPU allows); no window, so nothing persists)
//     persist            persistKernel over persist_10MB.csv's 10 MB hot region, no set-aside
//     persist_setaside   ... with the set-aside: persist_10MB.csv's launch without a window
//     resident_setaside, dram_loads_setaside, persist_loads_setaside
//                        the set-aside with loads alone (nothing to write back), and with the 9
//                        MB held in L2 and its stores (it fits beside the set-aside; the H100
//                        writes part of it back all the same)
// Columns: case,block,warp,smid,warpid,t_start,t_first_data,t_second_data,t_end: clock64 cycles
// of the warp's SM at entry, right after the hot load's value and the streamed load's value are
// used, and at the end (analysis/validation/load_waits.py reads them). A `#` line per case gives
// its kernel time. Under ncu (measure-h100 load-spread, --cache-control none so the warm-up
// launch's lines stay) the same launches give L2 hit rates, DRAM bytes and sm__warps_active.
//
//   load_spread hot-sizes [--ncu] [--reps=N]
//                   calibration_kernels.cuh's persistKernel (256 MB streamed, 1024-thread blocks)
//                   over hot regions of 1-24 MB, without and with persist_10MB.csv's set-aside and
//                   no window: which hot lines the L2 writes back more than once (DRAM bytes
//                   written under ncu, --cache-control all as calibrate measures), against how
//                   many other lines a set takes between two stores to one of them
#include "calibration_kernels.cuh"
#include "probe_common.cuh"

namespace {

constexpr int kBlockEvery = 32, kThreads = 1024, kGrid = (1 << 26) / kThreads;

struct Record {
  long long t_start, t_first, t_second, t_end;
  unsigned smid, warpid;
};

// persistKernel (calibration_kernels.cuh): persistent[tid % freqSize] *= 2, then
// streaming[tid % dataSize] *= 2; with `stores` false only the loads, their sum kept by a store
// no value makes (the buffers hold no zeros and no negative numbers).
__global__ void spreadTimed(int* persistent, int* streaming, int dataSize, int freqSize, bool stores, Record* out) {
  const long long t0 = clock64();
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  const int hot = persistent[tid % freqSize];
  const long long t1 = probe::clock_after_data<kThreads>(hot);
  if (stores) persistent[tid % freqSize] = 2 * hot;
  // As in persistKernel, where the streamed load follows the hot store, which waits for the hot
  // data: here its index waits for it (hot >> 31 is 0), with or without the stores.
  const int cold = streaming[(tid + (hot >> 31)) % dataSize];
  const long long t2 = probe::clock_after_data<kThreads>(cold);
  if (stores)
    streaming[tid % dataSize] = 2 * cold;
  else if (hot + cold == 0)
    streaming[tid % dataSize] = 1;
  const long long t3 = clock64();
  if (blockIdx.x % kBlockEvery == 0 && threadIdx.x % 32 == 0)
    out[(blockIdx.x / kBlockEvery) * (kThreads / 32) + threadIdx.x / 32] =
        Record{t0, t1, t2, t3, probe::smid(), probe::warpid()};
}

// Each case starts from buffers of 0x01010101 (a case with stores doubles every element it touches).
void record(const char* name, int* hot, int freq, int* stream, int data, bool stores, size_t set_aside = 0) {
  CK(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, set_aside));
  CK(cudaCtxResetPersistingL2Cache());
  CK(cudaMemset(hot, 1, size_t(freq) * 4));
  CK(cudaMemset(stream, 1, size_t(data) * 4));
  const size_t count = size_t(kGrid / kBlockEvery) * (kThreads / 32);
  Record* d;
  CK(cudaMalloc(&d, count * sizeof(Record)));
  const float ms = probe::second_of_two_ms([&](int) { CK(cudaMemset(d, 0, count * sizeof(Record))); },
                                           [&] { spreadTimed<<<kGrid, kThreads>>>(hot, stream, data, freq, stores, d); });
  const std::vector<Record> h = probe::copy_back(d, count);
  printf("# %s kernel_ms=%.5f\n", name, ms);
  for (size_t k = 0; k < count; ++k) {
    const Record& r = h[k];
    if (r.t_start == 0) continue;
    printf("%s,%zu,%zu,%u,%u,%lld,%lld,%lld,%lld\n", name, (k / (kThreads / 32)) * kBlockEvery, k % (kThreads / 32),
           r.smid, r.warpid, r.t_start, r.t_first, r.t_second, r.t_end);
  }
  CK(cudaFree(d));
}

// persistKernel over each hot size, without and with the set-aside.
int hot_sizes(const probe::Mode& mode) {
  const cudaDeviceProp prop = probe::device_header();
  printf("case,params,median_ms,min_ms,reps\n");
  const size_t set_aside = std::min<size_t>(size_t(prop.l2CacheSize * 0.75), prop.persistingL2CacheMaxSize);
  const int data = 1 << 26, max_hot = (24 << 20) / 4;
  int *hot, *stream;
  CK(cudaMalloc(&hot, size_t(max_hot) * 4));
  CK(cudaMalloc(&stream, size_t(data) * 4));
  CK(cudaMemset(hot, 1, size_t(max_hot) * 4));
  CK(cudaMemset(stream, 1, size_t(data) * 4));
  for (const size_t aside : {size_t(0), set_aside}) {
    CK(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, aside));
    CK(cudaCtxResetPersistingL2Cache());
    for (const int mb : {1, 2, 4, 6, 8, 10, 12, 16, 20, 24}) {
      const int freq = (mb << 20) / 4;
      probe::run_case(mode, "persistKernel", probe::params("hotMB=%lld;setaside=%lld", mb, (long long)aside),
                      [&] { persistKernel<<<data / kThreads, kThreads>>>(hot, stream, data, freq); });
    }
  }
  CK(cudaFree(hot));
  CK(cudaFree(stream));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::string(argv[1]) == "hot-sizes") return hot_sizes(probe::parse_mode(argc, argv, 2));
  const cudaDeviceProp prop = probe::device_header();
  printf("case,block,warp,smid,warpid,t_start,t_first_data,t_second_data,t_end\n");
  const int hot_ints = (1 << 20) / 4, persist_ints = (10 << 20) / 4, resident_ints = (8 << 20) / 4,
            dram_ints = 1 << 26;
  const size_t set_aside = std::min<size_t>(size_t(prop.l2CacheSize * 0.75), prop.persistingL2CacheMaxSize);
  int *hot, *stream;
  CK(cudaMalloc(&hot, size_t(persist_ints) * 4));
  CK(cudaMalloc(&stream, size_t(dram_ints) * 4));
  record("resident", hot, hot_ints, stream, resident_ints, true);
  record("resident_loads", hot, hot_ints, stream, resident_ints, false);
  record("dram_loads", hot, hot_ints, stream, dram_ints, false);
  record("dram", hot, hot_ints, stream, dram_ints, true);
  record("dram_setaside", hot, hot_ints, stream, dram_ints, true, set_aside);
  record("persist", hot, persist_ints, stream, dram_ints, true);
  record("persist_setaside", hot, persist_ints, stream, dram_ints, true, set_aside);
  // The set-aside with nothing to write back (loads alone), and with 9 MB that fits beside it.
  record("resident_setaside", hot, hot_ints, stream, resident_ints, true, set_aside);
  record("dram_loads_setaside", hot, hot_ints, stream, dram_ints, false, set_aside);
  record("persist_loads_setaside", hot, persist_ints, stream, dram_ints, false, set_aside);
  CK(cudaFree(hot));
  CK(cudaFree(stream));
  return 0;
}

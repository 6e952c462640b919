// What Nsight Compute's L2 counters count, and what makes persistKernel slow: small kernels
// whose L2 traffic is known exactly, run under ncu with every lts__t_sectors breakdown
// (`measure-h100` says how), and the parts of persistKernel run one at a time.
//
//   l2_probe semantics [--ncu]   empty kernels, one line read/written cold, one line read by
//                                 every SM at once, 4 MB read once/twice, stores, atomics
//   l2_probe persist [--ncu]     persistKernel's streamed read-modify-write alone, a copy with
//                                 the same DRAM traffic, its hot-region read-modify-write alone
//   l2_probe setaside [--ncu]    the same parts, persistKernel without a window, a copy and a
//                                 one-pass write of 32 MB, under set-asides of 0 to 30 MB: what
//                                 reserving persisting L2 does to accesses that use no window
//   l2_probe setaside2 [--ncu]   streams of 256 MB (read, write, copy) and one-pass writes of
//                                 4-48 MB under set-asides of 0 to the maximum in 4 MB steps:
//                                 how much dirty data L2 keeps, and how fast it writes back
//   l2_probe setaside3 [--ncu]   the write and copy streams of setaside2 at no set-aside and at
//                                 the maximum only (for ncu's full section set)
//
// Each case runs twice in a row ("cold" then "warm"): under ncu's default --cache-control all
// both start cold; under --cache-control none the second starts with what the first left in L2.
#include <cstring>
#include <functional>

#include "calibration_kernels.cuh"
#include "probe_common.cuh"

namespace {

using probe::Mode;
using probe::params;
using probe::run_case;

__global__ void nothing(int* sink) {
  if (threadIdx.x == 4096) *sink = 1;  // never: no memory access at all
}
// Lane i of each block reads word i of `words` words (stride in words between lanes).
__global__ void read_words(const int* in, int words, int stride, int* sink) {
  int acc = 0;
  for (int i = threadIdx.x; i < words; i += blockDim.x) acc += __ldcg(&in[size_t(i) * stride]);
  if (acc == -1) *sink = acc;
}
// Grid-stride over n ints: read (op 0), write (1), read-modify-write (2), atomicAdd (3),
// one word per 32-byte sector written (4).
__global__ void sweep(int* data, size_t n, int op) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
    switch (op) {
      case 0:
        if (__ldcg(&data[i]) == -7) data[0] = 0;
        break;
      case 1: data[i] = int(i); break;
      case 2: data[i] = 2 * data[i]; break;
      case 3: atomicAdd(&data[i], 1); break;
      case 4:
        if (i % 8 == 0) data[i] = int(i);
        break;
    }
  }
}
// Blocks b and b + gridDim.x / 2 read the same elements: every line read twice, by two SMs.
__global__ void read_twice(const int* data, size_t n, int* sink) {
  const size_t half = gridDim.x / 2, b = blockIdx.x % half;
  int acc = 0;
  for (size_t i = b * blockDim.x + threadIdx.x; i < n; i += half * blockDim.x) acc += __ldcg(&data[i]);
  if (acc == -1) *sink = acc;
}
// persistKernel's parts: the streamed region alone (read-modify-write in place), a copy with
// the same DRAM traffic, and the hot region alone.
__global__ void streamed_rmw(int* streaming, int dataSize) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  streaming[tid % dataSize] = 2 * streaming[tid % dataSize];
}
__global__ void streamed_copy(const int* in, int* out, int dataSize) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  out[tid % dataSize] = 2 * in[tid % dataSize];
}
__global__ void hot_rmw(int* persistent, int freqSize) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  persistent[tid % freqSize] = 2 * persistent[tid % freqSize];
}

void twice(const Mode& mode, const std::string& name, const std::string& ps, const std::function<void()>& launch) {
  run_case(mode, name, ps + ";pass=cold", launch);
  run_case(mode, name, ps + ";pass=warm", launch);
}

void semantics(const Mode& mode) {
  cudaDeviceProp p;
  CK(cudaGetDeviceProperties(&p, 0));
  const int sms = p.multiProcessorCount;
  const size_t region = 4u << 20;  // 4 MB: far below L2, far above L1
  int *data, *sink;
  CK(cudaMalloc(&data, 64u << 20));
  CK(cudaMalloc(&sink, 4));
  CK(cudaMemset(data, 1, 64u << 20));
  if (!mode.profiled) printf("case,params,event_median_ms,event_min_ms,reps\n");
  twice(mode, "nothing", "grid=1;block=32", [&] { nothing<<<1, 32>>>(sink); });
  twice(mode, "nothing", params("grid=%lld;block=1024", sms), [&] { nothing<<<sms, 1024>>>(sink); });
  twice(mode, "nothing", params("grid=%lld;block=1024", 100 * sms), [&] { nothing<<<100 * sms, 1024>>>(sink); });
  twice(mode, "read_line", "grid=1;words=32", [&] { read_words<<<1, 32>>>(data, 32, 1, sink); });
  twice(mode, "read_line", params("grid=%lld;words=32", sms), [&] { read_words<<<sms, 32>>>(data, 32, 1, sink); });
  twice(mode, "read_sectors", "grid=1;words=32;stride=8", [&] { read_words<<<1, 32>>>(data, 32, 8, sink); });
  twice(mode, "read_lines", "grid=1;words=1024;stride=32", [&] { read_words<<<1, 1024>>>(data, 1024, 32, sink); });
  const size_t n = region / 4;
  const char* ops[] = {"read", "write", "rmw", "atomic", "write_sector_word"};
  for (int op = 0; op < 5; ++op)
    twice(mode, std::string("sweep_") + ops[op], params("bytes=%lld;grid=%lld", region, 4 * sms),
          [&] { sweep<<<4 * sms, 512>>>(data, n, op); });
  twice(mode, "sweep_read_twice", params("bytes=%lld;grid=%lld", region, 8 * sms),
        [&] { read_twice<<<8 * sms, 512>>>(data, n, sink); });
  CK(cudaFree(data));
  CK(cudaFree(sink));
}

void persist_parts(const Mode& mode) {
  const int dataSize = 1 << 28 >> 2, freqSize = (10 << 20) / 4, bs = 1024, grid = dataSize / bs;
  int *streaming, *other, *persistent;
  CK(cudaMalloc(&streaming, size_t(dataSize) * 4));
  CK(cudaMalloc(&other, size_t(dataSize) * 4));
  CK(cudaMalloc(&persistent, 64u << 20));
  CK(cudaMemset(streaming, 1, size_t(dataSize) * 4));
  CK(cudaMemset(other, 1, size_t(dataSize) * 4));
  CK(cudaMemset(persistent, 1, 64u << 20));
  if (!mode.profiled) printf("case,params,event_median_ms,event_min_ms,reps\n");
  run_case(mode, "streamed_rmw", "bytes=268435456", [&] { streamed_rmw<<<grid, bs>>>(streaming, dataSize); });
  run_case(mode, "streamed_copy", "bytes=268435456", [&] { streamed_copy<<<grid, bs>>>(streaming, other, dataSize); });
  run_case(mode, "hot_rmw", "persistMB=10", [&] { hot_rmw<<<grid, bs>>>(persistent, freqSize); });
  run_case(mode, "persist", "persistMB=10;hitRatio=-1.000;window=0",
           [&] { persistKernel<<<grid, bs>>>(persistent, streaming, dataSize, freqSize); });
  CK(cudaFree(streaming));
  CK(cudaFree(other));
  CK(cudaFree(persistent));
}

// cudaLimitPersistingL2CacheSize reserves part of L2 for persisting accesses; none of these
// launches has an access-policy window, so every access is a normal one.
void setaside(const Mode& mode) {
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  if (prop.persistingL2CacheMaxSize <= 0) {
    printf("# setaside: this GPU has no persisting L2\n");
    return;
  }
  const int dataSize = 1 << 28 >> 2, freqSize = (10 << 20) / 4, bs = 1024, grid = dataSize / bs;
  int *streaming, *other, *persistent;
  CK(cudaMalloc(&streaming, size_t(dataSize) * 4));
  CK(cudaMalloc(&other, size_t(dataSize) * 4));
  CK(cudaMalloc(&persistent, 64u << 20));
  CK(cudaMemset(streaming, 1, size_t(dataSize) * 4));
  CK(cudaMemset(other, 1, size_t(dataSize) * 4));
  CK(cudaMemset(persistent, 1, 64u << 20));
  const size_t write_bytes = 32u << 20;
  if (!mode.profiled) printf("case,params,event_median_ms,event_min_ms,reps\n");
  const size_t most = std::min<size_t>(size_t(prop.l2CacheSize * 0.75), prop.persistingL2CacheMaxSize);
  for (size_t mb : {size_t(0), size_t(8), size_t(16), most >> 20}) {
    const size_t bytes = std::min(mb << 20, most);
    CK(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, bytes));
    CK(cudaCtxResetPersistingL2Cache());
    const std::string sa = params("setAsideMB=%lld", (long long)(bytes >> 20));
    run_case(mode, "persist", sa + ";window=0",
             [&] { persistKernel<<<grid, bs>>>(persistent, streaming, dataSize, freqSize); });
    run_case(mode, "streamed_rmw", sa, [&] { streamed_rmw<<<grid, bs>>>(streaming, dataSize); });
    run_case(mode, "hot_rmw", sa, [&] { hot_rmw<<<grid, bs>>>(persistent, freqSize); });
    run_case(mode, "streamed_copy", sa, [&] { streamed_copy<<<grid, bs>>>(streaming, other, dataSize); });
    run_case(mode, "write_once", sa + params(";bytes=%lld", write_bytes),
             [&] { sweep<<<4 * prop.multiProcessorCount, 512>>>(other, write_bytes / 4, 1); });
  }
  CK(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, 0));
  CK(cudaFree(streaming));
  CK(cudaFree(other));
  CK(cudaFree(persistent));
}

// What a set-aside does to plain streams and to how much dirty data stays in L2 (setaside's
// persistKernel rows write twice the bytes at the maximum set-aside and take twice as long; a
// copy with unchanged DRAM bytes 1.5 times as long).
void setaside_streams(const Mode& mode, bool ends_only) {
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  if (prop.persistingL2CacheMaxSize <= 0) {
    printf("# setaside2: this GPU has no persisting L2\n");
    return;
  }
  const size_t stream_bytes = 256u << 20, n = stream_bytes / 4;
  int *a, *b;
  CK(cudaMalloc(&a, stream_bytes));
  CK(cudaMalloc(&b, stream_bytes));
  CK(cudaMemset(a, 1, stream_bytes));
  CK(cudaMemset(b, 1, stream_bytes));
  const int sms = prop.multiProcessorCount;
  const int copy_grid = int(n / 1024);
  if (!mode.profiled) printf("case,params,event_median_ms,event_min_ms,reps\n");
  const size_t most = std::min<size_t>(size_t(prop.l2CacheSize * 0.75), prop.persistingL2CacheMaxSize);
  std::vector<size_t> sizes;
  for (size_t mb = 0; (mb << 20) < most; mb += ends_only ? most : 4) sizes.push_back(mb << 20);
  sizes.push_back(most);
  for (size_t bytes : sizes) {
    CK(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, bytes));
    CK(cudaCtxResetPersistingL2Cache());
    const std::string sa = params("setAsideKB=%lld", (long long)(bytes >> 10));
    if (!ends_only) run_case(mode, "read_stream", sa, [&] { sweep<<<4 * sms, 512>>>(a, n, 0); });
    run_case(mode, "write_stream", sa, [&] { sweep<<<4 * sms, 512>>>(b, n, 1); });
    run_case(mode, "copy_stream", sa, [&] { streamed_copy<<<copy_grid, 1024>>>(a, b, int(n)); });
    if (ends_only) continue;
    const bool ends = bytes == 0 || bytes == most;
    for (size_t mb : {4, 8, 16, 24, 32, 48})
      if (ends || mb == 32)
        run_case(mode, "write_once", sa + params(";bytes=%lld", (long long)(mb << 20)),
                 [&] { sweep<<<4 * sms, 512>>>(b, (mb << 20) / 4, 1); });
  }
  CK(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, 0));
  CK(cudaFree(a));
  CK(cudaFree(b));
}

}  // namespace

int main(int argc, char** argv) {
  const std::string what = argc > 1 ? argv[1] : "";
  const Mode mode = probe::parse_mode(argc, argv, 2);
  if (what == "semantics") semantics(mode);
  else if (what == "persist") persist_parts(mode);
  else if (what == "setaside") setaside(mode);
  else if (what == "setaside2") setaside_streams(mode, false);
  else if (what == "setaside3") setaside_streams(mode, true);
  else {
    fprintf(stderr, "usage: %s semantics|persist|setaside|setaside2|setaside3 [--ncu] [--reps=N]\n", argv[0]);
    return 2;
  }
  return 0;
}

// The measurements a preset and the validation tables need, on any CUDA GPU of compute capability
// 7.0 or later: device properties, dependent-load latency, block dispatch, DRAM and L2 bandwidth,
// and the offset, stride and L2-persistence families of calibration/kernels.cu. The driver script
// `calibrate` runs each family, under Nsight Compute where it needs counters, and writes the CSVs.
//
//   calibrate_kernels FAMILY [--ncu] [--reps=N]
//   FAMILY: device | chase | dispatch | bandwidth | offset | stride | sparse | spacing | persist
//   calibrate_kernels persist --check   (whether this GPU grants a persisting set-aside)
//
// Timed families print "case,params,median_ms,min_ms,reps" rows; with --ncu each case launches
// once after a "#case,NAME,PARAMS" marker (probe_common.cuh).
#include <cstring>

#include "calibration_kernels.cuh"
#include "probe_common.cuh"

namespace {

using probe::Mode;
using probe::params;
using probe::run_case;

cudaDeviceProp device_properties() {
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  return prop;
}

int attribute(cudaDeviceAttr a) {
  int v = 0;
  CK(cudaDeviceGetAttribute(&v, a, 0));
  return v;
}

// device.csv: the columns of ../shared/calibration/h100/device.csv, then the occupancy limits the
// preset also needs.
void device_family() {
  cudaDeviceProp p = device_properties();
  printf("name,sms,l2,persistMax,maxWindow,clockKHz,memClockKHz,busWidth,cc,maxThreadsPerSM,regsPerSM,smemPerSM,"
         "maxBlocksPerSM,maxThreadsPerBlock,smemPerBlockOptin,reservedSmemPerBlock,regsPerBlock,warpSize\n");
  printf("%s,%d,%d,%d,%d,%d,%d,%d,%d.%d,%d,%d,%zu,%d,%d,%zu,%zu,%d,%d\n", p.name, p.multiProcessorCount, p.l2CacheSize,
         p.persistingL2CacheMaxSize, p.accessPolicyMaxWindowSize, attribute(cudaDevAttrClockRate),
         attribute(cudaDevAttrMemoryClockRate), p.memoryBusWidth, p.major, p.minor, p.maxThreadsPerMultiProcessor,
         p.regsPerMultiprocessor, p.sharedMemPerMultiprocessor, attribute(cudaDevAttrMaxBlocksPerMultiprocessor),
         p.maxThreadsPerBlock, p.sharedMemPerBlockOptin, p.reservedSharedMemPerBlock, p.regsPerBlock, p.warpSize);
}

// latency.csv: one thread chases a random cyclic permutation at 128-byte granularity (no two
// loads share a line), as kernels.cu's "chase" case does.
void chase_family() {
  cudaDeviceProp p = device_properties();
  printf("working_set_kb,cycles_per_dependent_load,level\n");
  for (long long kb : {16LL, 1024LL, 16384LL, 1LL << 20}) {
    size_t cnt = kb * 1024 / 4;
    unsigned* next;
    CK(cudaMalloc(&next, cnt * 4));
    size_t lines = cnt / 32;
    std::vector<unsigned> order(lines);
    for (size_t i = 0; i < lines; ++i) order[i] = i;
    srand(7);
    for (size_t i = lines - 1; i > 0; --i) std::swap(order[i], order[rand() % (i + 1)]);
    std::vector<unsigned> h(cnt, 0);
    for (size_t i = 0; i < lines; ++i) h[order[i] * 32] = order[(i + 1) % lines] * 32;
    CK(cudaMemcpy(next, h.data(), cnt * 4, cudaMemcpyHostToDevice));
    unsigned* sink;
    long long* cyc;
    CK(cudaMalloc(&sink, 4));
    CK(cudaMalloc(&cyc, 8));
    const int steps = 20000;
    const bool fits_l2 = kb * 1024 <= p.l2CacheSize / 2;
    if (fits_l2) {  // warm the whole cycle into the level under test
      chase<<<1, 1>>>(next, order[0] * 32, (int)lines, sink, cyc);
      CK(cudaDeviceSynchronize());
    } else {  // evict L2 with a large unrelated write, then chase cold lines
      void* scratch;
      size_t bytes = std::max<size_t>(256u << 20, size_t(p.l2CacheSize) * 4);
      CK(cudaMalloc(&scratch, bytes));
      CK(cudaMemset(scratch, 3, bytes));
      CK(cudaDeviceSynchronize());
      CK(cudaFree(scratch));
    }
    chase<<<1, 1>>>(next, order[lines / 2] * 32, steps, sink, cyc);
    CK(cudaDeviceSynchronize());
    long long c;
    CK(cudaMemcpy(&c, cyc, 8, cudaMemcpyDeviceToHost));
    const char* level = kb <= 64 ? "L1" : fits_l2 ? "L2" : "DRAM";
    printf("%lld,%.1f,%s\n", kb, double(c) / steps, level);
    fflush(stdout);
    CK(cudaFree(next));
    CK(cudaFree(sink));
    CK(cudaFree(cyc));
  }
}

// dispatch.csv: empty blocks, 1 to 1000 per SM, event timing (never under ncu: its serialization
// and flushes would be timed too).
void dispatch_family(const Mode& mode) {
  cudaDeviceProp p = device_properties();
  int* sink;
  CK(cudaMalloc(&sink, 4));
  printf("case,params,event_median_ms,event_min_ms,reps\n");
  for (int bs : {32, 128, 256, 1024})
    for (int per_sm : {1, 10, 100, 1000}) {
      int nb = per_sm * p.multiProcessorCount;
      run_case(mode, "dispatch", params("bs=%lld;blocks=%lld", bs, nb), [&] { emptyKernel<<<nb, bs>>>(sink); });
    }
  CK(cudaFree(sink));
}

// ---- bandwidth: DRAM streams and L2-resident sweeps, 16-byte accesses ---------------------------
__global__ void stream_read(const float4* in, size_t n4, float* sink) {
  float4 acc = make_float4(0, 0, 0, 0);
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n4; i += size_t(gridDim.x) * blockDim.x) {
    float4 v = in[i];
    acc.x += v.x; acc.y += v.y; acc.z += v.z; acc.w += v.w;
  }
  if (acc.x + acc.y + acc.z + acc.w == -1.f) *sink = acc.x;  // never true for the data given: keeps the loads
}
__global__ void stream_write(float4* out, size_t n4) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n4; i += size_t(gridDim.x) * blockDim.x)
    out[i] = make_float4(1.f, 2.f, 3.f, float(i));
}
__global__ void stream_copy(const float4* in, float4* out, size_t n4) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n4; i += size_t(gridDim.x) * blockDim.x)
    out[i] = in[i];
}
// Repeated sweeps of a region that fits in L2, bypassing L1 (ld.global.cg / st.global.cg).
__global__ void l2_read(const float4* in, size_t n4, int sweeps, float* sink) {
  float acc = 0;
  for (int s = 0; s < sweeps; ++s)
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n4; i += size_t(gridDim.x) * blockDim.x) {
      float4 v = __ldcg(&in[i]);
      acc += v.x + v.y + v.z + v.w;
    }
  if (acc == -1.f) *sink = acc;
}
__global__ void l2_write(float4* out, size_t n4, int sweeps) {
  for (int s = 0; s < sweeps; ++s)
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n4; i += size_t(gridDim.x) * blockDim.x)
      __stcg(&out[i], make_float4(float(s), 1.f, 2.f, 3.f));
}

void bandwidth_family(const Mode& mode) {
  cudaDeviceProp p = device_properties();
  const size_t dram_bytes = size_t(1) << 30;                          // far beyond any L2
  const size_t l2_bytes = size_t(p.l2CacheSize) / 4 / 4096 * 4096;    // a quarter of L2: stays resident
  float *a, *b, *sink;
  CK(cudaMalloc(&a, dram_bytes));
  CK(cudaMalloc(&b, dram_bytes));
  CK(cudaMalloc(&sink, 4));
  probe::fill_random(a, dram_bytes / 4);
  const int grid = p.multiProcessorCount * 4, bs = 512, sweeps = 20;
  const size_t n4 = dram_bytes / 16, l2n4 = l2_bytes / 16;
  if (!mode.profiled) printf("case,params,event_median_ms,event_min_ms,reps\n");
  run_case(mode, "dram_read", params("bytes=%lld", dram_bytes), [&] { stream_read<<<grid, bs>>>((float4*)a, n4, sink); });
  run_case(mode, "dram_write", params("bytes=%lld", dram_bytes), [&] { stream_write<<<grid, bs>>>((float4*)b, n4); });
  run_case(mode, "dram_copy", params("bytes=%lld", dram_bytes),  // bytes read plus bytes written
           [&] { stream_copy<<<grid, bs>>>((float4*)a, (float4*)b, n4 / 2); });
  run_case(mode, "l2_read", params("bytes=%lld;region=%lld", l2_bytes * sweeps, l2_bytes),
           [&] { l2_read<<<grid, bs>>>((float4*)a, l2n4, sweeps, sink); });
  run_case(mode, "l2_write", params("bytes=%lld;region=%lld", l2_bytes * sweeps, l2_bytes),
           [&] { l2_write<<<grid, bs>>>((float4*)b, l2n4, sweeps); });
  CK(cudaFree(a));
  CK(cudaFree(b));
  CK(cudaFree(sink));
}

// ---- offset.csv and stride.csv: kernels.cu's "offset" and "stride" cases ------------------------
// The copies' arrays: A and B of random floats, C written; n floats each.
struct CopyArrays {
  float *A = nullptr, *B = nullptr, *C = nullptr;
  explicit CopyArrays(int n) {
    CK(cudaMalloc(&A, size_t(n) * 4));
    CK(cudaMalloc(&B, size_t(n) * 4));
    CK(cudaMalloc(&C, size_t(n) * 4));
    probe::fill_random(A, n, 1);
    probe::fill_random(B, n, 2);
  }
  ~CopyArrays() {
    CK(cudaFree(A));
    CK(cudaFree(B));
    CK(cudaFree(C));
  }
};

void offset_stride_family(const Mode& mode, bool offsets) {
  if (!mode.profiled) printf("case,params,event_median_ms,event_min_ms,reps\n");
  for (int lg : {20, 26}) {
    int n = 1 << lg;
    const CopyArrays arrays(n);
    float *A = arrays.A, *B = arrays.B, *C = arrays.C;
    if (offsets) {
      for (int off : {0, 1, 2, 4, 8, 11, 16, 32, 64, 128}) {
        const int bs = 512;
        dim3 g((n + bs - 1) / bs);
        std::string ps = params("lg=%lld;bs=%lld;offset=%lld", lg, bs, off);
        run_case(mode, "readOffset", ps, [&] { readOffset<<<g, bs>>>(A, B, C, n, off); });
        run_case(mode, "readOffsetNC", ps, [&] { readOffsetNC<<<g, bs>>>(A, B, C, n, off); });
        run_case(mode, "writeOffset", ps, [&] { writeOffset<<<g, bs>>>(A, B, C, n, off); });
      }
    } else {
      for (int st : {1, 2, 4, 8, 16, 32, 64}) {
        int m = n / st, bs = 256;
        dim3 g((m + bs - 1) / bs);
        run_case(mode, "stridedRead", params("lg=%lld;bs=%lld;stride=%lld", lg, bs, st),
                 [&] { stridedRead<<<g, bs>>>(A, C, n, st); });
      }
    }
  }
}

// ---- persist_10MB.csv: kernels.cu's "persist" case at persistMB = 10 ----------------------------
// The largest set-aside the GPU grants (the guide's min(0.75 x L2, persistingL2CacheMaxSize)), or
// 0 where it grants none: no persisting L2 (cc < 8.0), or one that cannot be set aside (under MIG,
// or MPS after the server started; SPEC S4.1). `why` says which.
size_t set_aside_persisting_l2(const cudaDeviceProp& prop, std::string& why) {
  if (prop.persistingL2CacheMaxSize <= 0) {
    why = "this GPU has no persisting L2 (persistingL2CacheMaxSize = 0)";
    return 0;
  }
  const size_t wanted = std::min<size_t>(size_t(prop.l2CacheSize * 0.75), prop.persistingL2CacheMaxSize);
  const cudaError_t e = cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, wanted);
  if (e != cudaSuccess) {
    cudaGetLastError();  // not sticky: clear it
    why = std::string("cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize) failed: ") + cudaGetErrorString(e) +
          " (MIG, or MPS after its server started?)";
    return 0;
  }
  size_t got = 0;
  CK(cudaDeviceGetLimit(&got, cudaLimitPersistingL2CacheSize));
  if (got == 0) why = "the driver granted a set-aside of 0 bytes";
  return got;
}

// `calibrate_kernels persist --check`: "available,<bytes>" or "unavailable,<why>", so that the
// driver script skips the family (and says why) where no set-aside can be had.
void persist_check() {
  std::string why;
  const size_t got = set_aside_persisting_l2(device_properties(), why);
  if (got > 0) printf("available,%zu\n", got);
  else printf("unavailable,%s\n", why.c_str());
}

void persist_family(const Mode& mode) {
  cudaDeviceProp prop = device_properties();
  std::string why;
  const size_t got = set_aside_persisting_l2(prop, why);
  if (got == 0) {
    printf("# persist: %s\n", why.c_str());
    return;
  }
  printf("#persist,setAside=%zu,got=%zu\n", std::min<size_t>(size_t(prop.l2CacheSize * 0.75), prop.persistingL2CacheMaxSize),
         got);
  if (!mode.profiled) printf("case,params,event_median_ms,event_min_ms,reps\n");
  int dataSize = 1 << 28 >> 2;
  int *persistent, *streaming;
  CK(cudaMalloc(&persistent, 64u << 20));
  CK(cudaMalloc(&streaming, size_t(dataSize) * 4));
  CK(cudaMemset(persistent, 1, 64u << 20));
  CK(cudaMemset(streaming, 1, size_t(dataSize) * 4));
  cudaStream_t s;
  CK(cudaStreamCreate(&s));
  const int bs = 1024, mb = 10, freqSize = (mb << 20) / 4;
  dim3 g(dataSize / bs);
  for (double hr : {-1.0, 0.0, 0.25, 0.5, 0.75, 1.0, -2.0}) {  // -1: no window; -2: hitRatio = setAside / num_bytes
    cudaStreamAttrValue attr;
    memset(&attr, 0, sizeof attr);
    double h = hr;
    const bool window = !(hr >= -1.5 && hr < 0);
    if (window) {
      size_t nb = std::min<size_t>(size_t(freqSize) * 4, prop.accessPolicyMaxWindowSize);
      if (hr < -1.5) h = std::min(1.0, double(got) / nb);
      attr.accessPolicyWindow.base_ptr = persistent;
      attr.accessPolicyWindow.num_bytes = nb;
      attr.accessPolicyWindow.hitRatio = (float)h;
      attr.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
      attr.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
    }
    CK(cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &attr));
    CK(cudaCtxResetPersistingL2Cache());
    char buf[128];
    snprintf(buf, sizeof buf, "persistMB=%d;hitRatio=%.3f;window=%d", mb, h, window ? 1 : 0);
    run_case(mode, "persist", buf, [&] { persistKernel<<<g, bs, 0, s>>>(persistent, streaming, dataSize, freqSize); }, s);
  }
  CK(cudaStreamDestroy(s));
  CK(cudaFree(persistent));
  CK(cudaFree(streaming));
}

// ---- sparse and spacing: stridedRead over a 4 GB array ----------------------------------------
// The arrays both families read and write, and one launch of stridedRead over n of them; `label`
// names n in the case's parameters ("lg": log2 n, "n": n itself).
struct StridedArrays {
  static constexpr long long kMost = 1ll << 30;  // floats of `in`
  float *in = nullptr, *out = nullptr;
  explicit StridedArrays(long long out_floats) {
    CK(cudaMalloc(&in, size_t(kMost) * 4));
    CK(cudaMalloc(&out, size_t(out_floats) * 4));
    probe::fill_random(in, size_t(kMost), 1);
  }
  ~StridedArrays() {
    CK(cudaFree(in));
    CK(cudaFree(out));
  }
  void launch(const Mode& mode, long long n, int st, bool label_lg) const {
    const int m = int(n / st), bs = 256;
    dim3 g((m + bs - 1) / bs);
    const std::string p = label_lg ? params("lg=%lld;bs=%lld;stride=%lld", __builtin_ctzll(n), bs, st)
                                   : params("n=%lld;bs=%lld;stride=%lld", n, bs, st);
    run_case(mode, "stridedRead", p, [&] { stridedRead<<<g, bs>>>(in, out, int(n), st); });
  }
};
// n such that the 64-byte pieces read add up to 256 MB (less where n stops at 2^30): far more
// than L2 holds, so every timed launch reads DRAM as the first did.
long long sparse_n(int st) { return std::min(StridedArrays::kMost, (256ll << 20) / 64 * st); }

// sparse: past stride 16 every load is its own 64-byte DRAM piece (a pair of sectors), and
// stride sets how far apart those pieces lie: 64 B at stride 16 up to 4 KB at 1024.
void sparse_family(const Mode& mode) {
  if (!mode.profiled) printf("case,params,event_median_ms,event_min_ms,reps\n");
  const StridedArrays a(StridedArrays::kMost / 16);
  for (int st : {16, 32, 64, 128, 256, 512, 1024}) a.launch(mode, sparse_n(st), st, true);
}

// spacing: what the DRAM model's next mechanisms need (docs/model.md). At n = 2^26, strides 3,
// 5, 6 and 7 read every sector and write one float per 3-7 read (writes 23% to 12% of DRAM's
// bytes, between stride_full.csv's 2 and 8); past stride 16, 64-byte pieces 96 B to 3 KB apart
// at spacings that are not powers of two (sparse.csv has the powers), sized as sparse's are.
void spacing_family(const Mode& mode) {
  if (!mode.profiled) printf("case,params,event_median_ms,event_min_ms,reps\n");
  const StridedArrays a(StridedArrays::kMost / 3);
  for (int st : {3, 5, 6, 7}) a.launch(mode, 1ll << 26, st, false);
  for (int st : {24, 40, 48, 80, 96, 160, 192, 384, 768}) a.launch(mode, sparse_n(st), st, false);
}

// sizes: how a cold launch's time grows with n, 2^16 to 2^25: readOffset at offset 0 (a third of
// DRAM's bytes written) and stridedRead at stride 16 (64-byte pieces 64 B apart, a sixteenth
// written). Where the time stops following the bytes is what a launch costs beyond its stream;
// arch derive's start rule reads n = 2^20 alone.
void sizes_family(const Mode& mode) {
  if (!mode.profiled) printf("case,params,event_median_ms,event_min_ms,reps\n");
  const CopyArrays arrays(1 << 25);
  float *A = arrays.A, *B = arrays.B, *C = arrays.C;
  for (int lg = 16; lg <= 25; ++lg) {
    const int n = 1 << lg, bs = 512, st = 16, sbs = 256;
    dim3 g((n + bs - 1) / bs), sg((n / st + sbs - 1) / sbs);
    run_case(mode, "readOffset", params("lg=%lld;bs=%lld;offset=%lld", lg, bs, 0),
             [&] { readOffset<<<g, bs>>>(A, B, C, n, 0); });
    run_case(mode, "stridedRead", params("lg=%lld;bs=%lld;stride=%lld", lg, sbs, st),
             [&] { stridedRead<<<sg, sbs>>>(A, C, n, st); });
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s device|chase|dispatch|bandwidth|offset|stride|sparse|spacing|sizes|persist [--ncu] [--reps=N] | persist --check\n",
            argv[0]);
    return 2;
  }
  const std::string family = argv[1];
  const Mode mode = probe::parse_mode(argc, argv, 2);
  if (family == "device") device_family();
  else if (family == "chase") chase_family();
  else if (family == "dispatch") dispatch_family(mode);
  else if (family == "bandwidth") bandwidth_family(mode);
  else if (family == "offset") offset_stride_family(mode, true);
  else if (family == "stride") offset_stride_family(mode, false);
  else if (family == "sparse") sparse_family(mode);
  else if (family == "spacing") spacing_family(mode);
  else if (family == "sizes") sizes_family(mode);
  else if (family == "persist" && argc > 2 && std::string(argv[2]) == "--check") persist_check();
  else if (family == "persist") persist_family(mode);
  else {
    fprintf(stderr, "unknown family '%s'\n", family.c_str());
    return 2;
  }
  return 0;
}

// Per-warp timelines of the calibration copies, for what ncu's totals cannot say (README.md,
// "Known gaps"): how long each warp lives and waits for its data, when blocks start and end on
// each SM (achieved occupancy of the long copies), and in which order neighbouring warps of a
// block store (writeOffset's L1 store hits).
//
//   timelines readOffset | writeOffset | stridedRead      (one CSV on stdout)
//   timelines cold      n = 2^20 readOffset, writeOffset (offset 1) and stridedRead (stride 1),
//                       every warp, each recorded launch starting with an L2 that holds none of
//                       its data and nothing dirty, as under ncu's --cache-control all (a 256 MB
//                       memset, then a read of it); and readOffset at n = 2^26,
//                       every warp of every 8th block (where a block ends exactly)
//
// Columns: case,block,warp,smid,warpid,t_start,t_data,t_end,g_start,g_end. t_* are clock64
// cycles of the warp's SM: at entry, once the loaded data is there where a sum of the loads comes
// first (readOffset, writeOffset; probe::clock_beside: for stridedRead's loaded value itself the
// read comes right after the load, so its t_data is not the data's time), and after the
// store has issued; g_* are %globaltimer nanoseconds (comparable across SMs, coarse). A `#` line
// per case gives its kernel time. Only lane 0 of a recorded warp writes a record, after its
// work, so the recorded kernels execute the calibration kernels' loads and stores unchanged.
#include "probe_common.cuh"

namespace {

struct Record {
  long long t_start, t_data, t_end;
  unsigned long long g_start, g_end;
  unsigned smid, warpid;
};

// Which warps record: every warp of every `block_every`-th block (warp_sel 0), or only the
// first and last warp of every block (warp_sel 1); slot is where the record goes (-1: none).
__device__ __forceinline__ long long record_slot(int block_every, int warp_sel) {
  if (threadIdx.x % 32 != 0) return -1;
  const unsigned warp = threadIdx.x / 32, warps = (blockDim.x + 31) / 32;
  if (warp_sel == 1) {
    if (warp != 0 && warp != warps - 1) return -1;
    return 2LL * blockIdx.x + (warp == 0 ? 0 : 1);
  }
  if (blockIdx.x % block_every != 0) return -1;
  return (long long)(blockIdx.x / block_every) * warps + warp;
}

__device__ __forceinline__ void store_record(Record* out, long long slot, long long t0, unsigned long long g0,
                                             long long t1, long long t2) {
  if (slot < 0) return;
  out[slot] = Record{t0, t1, t2, g0, probe::globaltimer(), probe::smid(), probe::warpid()};
}

__global__ void readOffsetTimed(const float* A, const float* B, float* C, int n, int offset, Record* out,
                                int block_every, int warp_sel) {
  const long long t0 = clock64();
  const unsigned long long g0 = probe::globaltimer();
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned k = i + offset;
  long long t1 = 0, t2 = 0;
  if (k < (unsigned)n) {
    const float v = A[k] + B[k];
    t1 = probe::clock_beside(v);
    C[i] = v;
    t2 = clock64();
  }
  store_record(out, record_slot(block_every, warp_sel), t0, g0, t1, t2);
}

__global__ void writeOffsetTimed(const float* A, const float* B, float* C, int n, int offset, Record* out,
                                 int block_every, int warp_sel) {
  const long long t0 = clock64();
  const unsigned long long g0 = probe::globaltimer();
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned k = i + offset;
  long long t1 = 0, t2 = 0;
  if (k < (unsigned)n) {
    const float v = A[i] + B[i];
    t1 = probe::clock_beside(v);
    C[k] = v;
    t2 = clock64();
  }
  store_record(out, record_slot(block_every, warp_sel), t0, g0, t1, t2);
}

__global__ void stridedReadTimed(const float* in, float* out_data, int n, int stride, Record* out, int block_every,
                                 int warp_sel) {
  const long long t0 = clock64();
  const unsigned long long g0 = probe::globaltimer();
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long k = (unsigned long long)i * stride;
  long long t1 = 0, t2 = 0;
  if (k < (unsigned long long)n) {
    const float v = in[k];
    t1 = probe::clock_beside(v);
    out_data[i] = v;
    t2 = clock64();
  }
  store_record(out, record_slot(block_every, warp_sel), t0, g0, t1, t2);
}

struct Sampling {
  int block_every, warp_sel;
  size_t slots(int grid, int bs) const {
    return warp_sel == 1 ? 2 * size_t(grid) : size_t((grid + block_every - 1) / block_every) * ((bs + 31) / 32);
  }
};

// Launches twice (a warm-up, as the calibration timing does), keeps the second's records; with
// `cold`, L2 holds none of the kernel's data and nothing dirty before the second, as after ncu's
// --cache-control all: a memset of `flush` bytes (several times L2), then a read of all of them
// (which writes the memset's dirty lines back and leaves L2 full of clean lines of its own).
void* flush = nullptr;
size_t flush_bytes = 0;
__global__ void read_all(const int* p, size_t n, int* sink) {
  int acc = 0;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
    acc += __ldcg(&p[i]);
  if (acc == -1) *sink = acc;
}
template <class Launch>
void record(const std::string& name, int grid, int bs, Sampling s, Launch launch, bool cold = false) {
  const size_t count = s.slots(grid, bs);
  Record* d;
  CK(cudaMalloc(&d, count * sizeof(Record)));
  const float ms = probe::second_of_two_ms(
      [&](int pass) {
        CK(cudaMemset(d, 0, count * sizeof(Record)));
        if (cold && flush != nullptr) {
          CK(cudaMemset(flush, pass + 1, flush_bytes));
          read_all<<<1056, 512>>>(static_cast<const int*>(flush), flush_bytes / 4, static_cast<int*>(flush));
          CK(cudaGetLastError());
        }
      },
      [&] { launch(d, s.block_every, s.warp_sel); });
  std::vector<Record> h(count);
  CK(cudaMemcpy(h.data(), d, count * sizeof(Record), cudaMemcpyDeviceToHost));
  printf("# %s kernel_ms=%.5f\n", name.c_str(), ms);
  const size_t warps = (bs + 31) / 32;
  for (size_t k = 0; k < count; ++k) {
    const Record& r = h[k];
    if (r.t_start == 0) continue;
    size_t block = s.warp_sel == 1 ? k / 2 : (k / warps) * s.block_every;
    size_t warp = s.warp_sel == 1 ? (k % 2 ? warps - 1 : 0) : k % warps;
    printf("%s,%zu,%zu,%u,%u,%lld,%lld,%lld,%llu,%llu\n", name.c_str(), block, warp, r.smid, r.warpid, r.t_start,
           r.t_data, r.t_end, r.g_start, r.g_end);
  }
  CK(cudaFree(d));
}

}  // namespace

int main(int argc, char** argv) {
  const std::string what = argc > 1 ? argv[1] : "";
  if (what != "readOffset" && what != "writeOffset" && what != "stridedRead" && what != "cold") {
    fprintf(stderr, "usage: %s readOffset|writeOffset|stridedRead|cold\n", argv[0]);
    return 2;
  }
  const cudaDeviceProp prop = probe::device_header();
  printf("case,block,warp,smid,warpid,t_start,t_data,t_end,g_start,g_end\n");
  const int n = 1 << 26;
  float *A, *B, *C;
  CK(cudaMalloc(&A, size_t(n) * 4));
  CK(cudaMalloc(&B, size_t(n) * 4));
  CK(cudaMalloc(&C, size_t(n) * 4));
  probe::fill_random(A, n, 1);
  probe::fill_random(B, n, 2);
  if (what == "cold") {
    flush_bytes = std::max<size_t>(256u << 20, size_t(prop.l2CacheSize) * 4);
    CK(cudaMalloc(&flush, flush_bytes));
    const int m = 1 << 20, bs = 512, grid = m / bs;
    record("readOffset_lg20_offset0_cold", grid, bs, {1, 0}, [&](Record* d, int e, int w) {
      readOffsetTimed<<<grid, bs>>>(A, B, C, m, 0, d, e, w);
    }, true);
    record("writeOffset_lg20_offset1_cold", grid, bs, {1, 0}, [&](Record* d, int e, int w) {
      writeOffsetTimed<<<grid, bs>>>(A, B, C, m, 1, d, e, w);
    }, true);
    const int sgrid = m / 256;
    record("stridedRead_lg20_stride1_cold", sgrid, 256, {1, 0}, [&](Record* d, int e, int w) {
      stridedReadTimed<<<sgrid, 256>>>(A, C, m, 1, d, e, w);
    }, true);
    const int lgrid = n / bs;
    record("readOffset_lg26_offset0_every8", lgrid, bs, {8, 0}, [&](Record* d, int e, int w) {
      readOffsetTimed<<<lgrid, bs>>>(A, B, C, n, 0, d, e, w);
    });
    CK(cudaFree(flush));
  } else if (what == "readOffset") {
    // n = 2^26, 512-thread blocks (offset.csv lg=26): first and last warp of every block.
    for (int off : {0, 11}) {
      const int bs = 512, grid = (n + bs - 1) / bs;
      record("readOffset_lg26_offset" + std::to_string(off), grid, bs, {1, 1}, [&](Record* d, int e, int w) {
        readOffsetTimed<<<grid, bs>>>(A, B, C, n, off, d, e, w);
      });
    }
  } else if (what == "writeOffset") {
    // n = 2^20 (offset.csv lg=20): every warp of every block.
    const int m = 1 << 20;
    for (int off : {0, 1, 8, 16}) {
      const int bs = 512, grid = (m + bs - 1) / bs;
      record("writeOffset_lg20_offset" + std::to_string(off), grid, bs, {1, 0}, [&](Record* d, int e, int w) {
        writeOffsetTimed<<<grid, bs>>>(A, B, C, m, off, d, e, w);
      });
    }
  } else {
    // n = 2^26, 256-thread blocks (stride.csv lg=26): every warp of every 8th block.
    for (int st : {1, 2, 4, 64}) {
      const int bs = 256, m = n / st, grid = (m + bs - 1) / bs;
      record("stridedRead_lg26_stride" + std::to_string(st), grid, bs, {8, 0}, [&](Record* d, int e, int w) {
        stridedReadTimed<<<grid, bs>>>(A, C, n, st, d, e, w);
      });
    }
  }
  CK(cudaFree(A));
  CK(cudaFree(B));
  CK(cudaFree(C));
  return 0;
}

// Which L2 slice serves each line (docs/model.md, "Where a set-aside's loads stall"): with a
// set-aside and dirty lines to write back, the H100's and H200's loads of one 4 KB block stall in
// groups of four lines, {b, b+1, b+4, b+5} (h100-measured/load_spread, h200/load_spread); this
// says whether such a group is one slice's.
//
//   l2_slice_map [LINES] [SMS]   one launch per (SM, line): the first thread on SM s (s = 0 ..
//                                SMS-1; the first of its blocks to get there) reads line k (128 bytes, k = 0 .. LINES-1,
//                                of a 1 GB buffer; the lines past 31 spread over it: 32 x 4 KB
//                                apart, then 32 x 64 KB apart) 4,096 times, each read waiting for
//                                the one before, past L1 (ld.global.cg). Under ncu with
//                                `--print-metric-instances values`, lts__t_requests_srcunit_tex's
//                                instance values say which slice took the 4,096 (the launch's own
//                                instruction fetches spread over every slice). A line homed in
//                                the other L2 half is asked near first (l2_partitions.cu): its
//                                copy there takes the reads after the first.
//   l2_slice_map pairs [LINES]   one launch per pair a < b of those lines: one thread reads a and b
//                                in turn, 2,048 times each: lts__t_requests_srcunit_tex.max is
//                                4,096 where one slice serves both (ncu 2025.3 prints no per-slice
//                                instance values for it), ~2,048 where two do.
//   l2_slice_map blocks [N]      the same for the first lines of N consecutive 4 KB blocks (line k
//                                at 4 KB x k): which blocks' first lines share a slice.
//   l2_slice_map weighted [N]    the same, twelve pairs a launch: the first line of block x read
//                                8,192 times, then those of the next twelve blocks y_i 2^(i+1)
//                                times each; lts__t_requests_srcunit_tex.max is 8,192 plus the
//                                reads of every y_i x's slice serves (bit i+1 set; bit 0 is the
//                                launch's one request of its own), so each launch says which of
//                                twelve blocks share x's slice. "# case x=X y=Y0;Y1;...".
// A `#` line per launch names it: "# case sm=S line=K offset=BYTES", "# case a=A b=B offset_a=BYTES
// offset_b=BYTES" or "# case x=X y=Y0;Y1;...".
#include "probe_common.cuh"

namespace {

constexpr int kReads = 4096;

__global__ void readLine(const int* buffer, long long offset_ints, unsigned sm, int* claimed, int* sink) {
  if (threadIdx.x != 0 || probe::smid() != sm || atomicCAS(claimed, 0, 1) != 0) return;  // one block of SM sm
  const int* p = buffer + offset_ints;
  int v = 0;
  for (int k = 0; k < kReads; ++k) v = __ldcg(p + (v >> 31));  // the buffer holds no negative numbers
  if (v == 12345) *sink = v;  // never (it holds 0x01010101)
}

// Lines a and b read in turn, kReads / 2 each: one slice takes all kReads where they share it.
__global__ void readPair(const int* buffer, long long a_ints, long long b_ints, int* claimed, int* sink) {
  if (threadIdx.x != 0 || atomicCAS(claimed, 0, 1) != 0) return;
  int v = 0;
  for (int k = 0; k < kReads / 2; ++k) {
    v = __ldcg(buffer + a_ints + (v >> 31));
    v = __ldcg(buffer + b_ints + (v >> 31));
  }
  if (v == 12345) *sink = v;
}

// Lines read one after the other, each `reads[i]` times, every read waiting for the one before.
constexpr int kWeighted = 13;
struct Weighted {
  long long offset_ints[kWeighted];
  int reads[kWeighted];
  int lines;
};

__global__ void readWeighted(const int* buffer, Weighted w, int* claimed, int* sink) {
  if (threadIdx.x != 0 || atomicCAS(claimed, 0, 1) != 0) return;
  int v = 0;
  for (int i = 0; i < w.lines; ++i)
    for (int k = 0; k < w.reads[i]; ++k) v = __ldcg(buffer + w.offset_ints[i] + (v >> 31));
  if (v == 12345) *sink = v;
}

long long line_offset_bytes(int k) {
  if (k < 32) return 128LL * k;                     // one 4 KB block, line by line
  if (k < 64) return 4096LL * (k - 31);             // 32 blocks 4 KB apart
  return 65536LL * (k - 63) + 128LL * (k % 3);       // 64 KB apart, off by 0-2 lines
}

}  // namespace

int main(int argc, char** argv) {
  const bool weighted = argc > 1 && std::string(argv[1]) == "weighted";
  const bool blocks = weighted || (argc > 1 && std::string(argv[1]) == "blocks");
  const bool pairs = blocks || (argc > 1 && std::string(argv[1]) == "pairs");
  const int first = pairs ? 2 : 1;
  const auto offset = [blocks](int k) { return blocks ? 4096LL * k : line_offset_bytes(k); };
  const int lines = argc > first ? atoi(argv[first]) : (pairs ? 32 : 96), sms = argc > first + 1 ? atoi(argv[first + 1]) : 2;
  const cudaDeviceProp prop = probe::device_header();
  const size_t bytes = size_t(1) << 30;
  int *buffer, *sink, *claimed;
  CK(cudaMalloc(&buffer, bytes));
  CK(cudaMalloc(&sink, 4));
  CK(cudaMalloc(&claimed, 4));
  CK(cudaMemset(buffer, 1, bytes));
  if (weighted) {
    for (int x = 0; x < lines; ++x)
      for (int first_y = x + 1; first_y < lines; first_y += kWeighted - 1) {
        Weighted w{};
        w.offset_ints[0] = offset(x) / 4;
        w.reads[0] = 1 << kWeighted;
        w.lines = 1;
        printf("# case x=%d y=", x);
        for (int y = first_y; y < lines && w.lines < kWeighted; ++y, ++w.lines) {
          w.offset_ints[w.lines] = offset(y) / 4;
          w.reads[w.lines] = 1 << w.lines;  // 2^(i+1) for the i-th
          printf("%s%d", y == first_y ? "" : ";", y);
        }
        printf("\n");
        fflush(stdout);
        CK(cudaMemset(claimed, 0, 4));
        readWeighted<<<1, 32>>>(buffer, w, claimed, sink);
        CK(cudaDeviceSynchronize());
      }
    return 0;
  }
  if (pairs) {
    for (int a = 0; a < lines; ++a)
      for (int b = a + 1; b < lines; ++b) {
        CK(cudaMemset(claimed, 0, 4));
        printf("# case a=%d b=%d offset_a=%lld offset_b=%lld\n", a, b, offset(a), offset(b));
        fflush(stdout);
        readPair<<<1, 32>>>(buffer, offset(a) / 4, offset(b) / 4, claimed, sink);
        CK(cudaDeviceSynchronize());
      }
    return 0;
  }
  for (int s = 0; s < sms; ++s)
    for (int k = 0; k < lines; ++k) {
      const long long off = line_offset_bytes(k);
      if (off + 128 > (long long)bytes) return 1;
      CK(cudaMemset(claimed, 0, 4));
      printf("# case sm=%d line=%d offset=%lld\n", s, k, off);
      fflush(stdout);
      readLine<<<4 * prop.multiProcessorCount, 32>>>(buffer, off / 4, unsigned(s), claimed, sink);
      CK(cudaDeviceSynchronize());
    }
  CK(cudaFree(buffer));
  CK(cudaFree(sink));
  CK(cudaFree(claimed));
  return 0;
}

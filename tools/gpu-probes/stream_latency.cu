// How long a streamed load takes as more SMs stream at once: readOffset's body (C[i] = A[i] +
// B[i], 512-thread blocks, one block an SM) in a loop on the first S SMs only, the other SMs'
// blocks leaving at once. At S = 1 the memory system is idle but for one SM's 16 warps, so the
// load's own latency shows apart from what other SMs' requests add to it; the occupancy curve
// (occupancy_curve.cu, store_acks.cu curve) has readOffset's loads at 801 / 931 / 1,154 cycles
// (10th / 50th / 90th percentile) with one block an SM on every SM, where the unloaded pointer
// chase (latency.csv) takes 676. Variants without the store, with one load (C[i] = A[i]) and
// with one lane a warp loading (one sector a load, as the chase) say which part of the body
// costs what, and stores that stay in L2 (a 4 MB region stored to again and again, never written
// back during the launch) whether what the stores cost the loads lies in the L2 or beyond it, in
// the write-backs to DRAM. In the hits_ cases SMs 0-3 load (ld.global.cg, past L1) from a 128 KB
// region of their own after the streamed arrays, each line again 16 iterations later, and store
// nothing, beside the others' loads: whether the write-backs slow the L2 itself. three_loads reads
// C too (C[i] = A[i] + B[i] + C[i] without the store): as many DRAM bytes as the body moves with
// its write-backs, all read. lane0_store stores one float a warp: as many lines written back as the
// body's, each with one sector dirty: whether the cost follows the lines or the bytes.
// quiet_beside_body: SMs 0-3 stream their loads but store nothing, beside the others' body: whether
// the write-backs hold every load on its way to DRAM, or the loads of the SMs whose stores wait
// for them. sectors_beside_*: SMs 0-3 load, past L1, one float from each of 32 lines a warp, at
// even iterations in sector 0 of new lines (a miss that takes a line in L2, and may have to write
// its victim back), at odd ones in sector 2 of the same lines (a miss that takes none): whether
// the loads wait for the write-backs of the lines they replace, or for DRAM's. paced_*: one
// sector a warp on SMs 0-3 beside the other SMs' stores alone, paced (pacedWrites): the
// write-backs' cost as their rate grows, with hardly any reads beside them. Every launch starts
// with an L2 full of other lines (probe::L2Filler), so the streamed loads go to DRAM at every S.
//
//   stream_latency   CSV on stdout: case,sms,loads,lanes,stores,sm,warp,iter,t_issue,cycles for
//                    every warp of SMs 0-3 (those of them that stream) and every iteration
//                    (stores: 0 none, 1 C[i], 2 into the 4 MB region, 3 C[i] by lane 0): t_issue
//                    the iteration's first clock read since the warp's first, cycles from it to
//                    the loaded data's being there (stored to shared memory first, as
//                    probe::clock_after_data does, in the dynamic area). A `# CASE kernel_ms=T
//                    bytes=B` line per case gives the second of two launches' time (each after
//                    the L2 filler) and the bytes its loads and stores asked for (paced_: the
//                    readers' loads, after B is written instead of the filler; lines_stored: the
//                    writers' lines, as many as L2 wrote back).
//   stream_latency --ncu   each case once after a "#case,NAME,PARAMS" line (probe::run_case), for
//                    ncu, whose cache control empties the L2 before each launch
#include "probe_common.cuh"

namespace {

constexpr int kThreads = 512, kWarps = kThreads / 32, kIters = 256, kRecordedSms = 4;
constexpr size_t kResident = size_t(1) << 20;  // floats: 4 MB
constexpr size_t kHotFloats = size_t(16) * kRecordedSms * kThreads;  // 128 KB, each line every 16 iterations
// 32 lines a warp every two iterations: sector 0 (a miss that takes a line), then sector 2 (a miss
// in the line now there, which takes none)
constexpr size_t kSectorFloats = size_t(kIters / 2) * kRecordedSms * kWarps * 32 * 32;

struct Case {
  const char* name;
  // stores: 0 none, 1 streamed (C[i]), 2 into kResident floats, 3 streamed by lane 0 alone
  int sms, loads, lanes, stores;
  bool hits = false;  // the recorded SMs load from kHotFloats after the streams (L2 hits), store nothing
  bool quiet = false;  // the recorded SMs stream their loads as the others do but store nothing
  bool sectors = false;  // the recorded SMs load one sector of 32 lines a warp, from kSectorFloats
  int pace_ns = -1;  // >= 0: a paced_ case (pacedWrites), the writers' sleep; -2: its readers alone
};

// Two ints a warp an iteration in dynamic shared memory (the rest of which holds the SM to one
// block): t_issue, cycles; copied to `out` at the end by the recorded SMs. After them a word a
// thread that each loaded value is stored to before the clock is read (a static array, as
// probe::clock_after_data has, would not fit beside the dynamic area that holds one block an SM).
__global__ void streamLoop(const float* A, const float* B, float* C, size_t n, int sms, int loads, int lanes,
                           int stores, bool hits, bool quiet, bool sectors, int* out) {
  extern __shared__ int records[];
  volatile int* sink = records + 2 * kIters * kWarps;
  const unsigned sm = probe::smid();
  if (sm >= unsigned(sms)) return;
  const unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const bool active = lane < unsigned(lanes);
  const bool hit = hits && sm < kRecordedSms, sector = sectors && sm < kRecordedSms;
  const bool silent = hit || sector || (quiet && sm < kRecordedSms);
  const long long first = clock64();
  for (int it = 0; it < kIters; ++it) {
    const size_t i = (size_t(it) * sms + sm) * kThreads + threadIdx.x;
    const long long t0 = clock64();
    float v = 1.f;
    if (hit) {
      const size_t h = n + ((it % 16) * kRecordedSms + sm) * kThreads + threadIdx.x;
      v = __ldcg(&A[h]) + __ldcg(&B[h]);
    } else if (sector) {
      const size_t line = n + kHotFloats + ((size_t(it / 2) * kRecordedSms + sm) * kWarps + warp) * 32 * 32 + lane * 32;
      v = __ldcg(&A[line + (it % 2 == 0 ? 0 : 16)]);
    } else if (active) {
      v = loads == 3 ? A[i] + B[i] + C[i] : loads == 2 ? A[i] + B[i] : A[i];
    }
    sink[threadIdx.x] = __float_as_int(v);
    const long long t1 = clock64();
    if (stores != 0 && active && !silent && (stores != 3 || lane == 0)) C[stores == 2 ? i % kResident : i] = v;
    if (lane == 0) {
      records[2 * (it * kWarps + warp)] = int(t0 - first);
      records[2 * (it * kWarps + warp) + 1] = int(t1 - t0);
    }
  }
  __syncthreads();
  if (sm < kRecordedSms)
    for (int r = threadIdx.x; r < 2 * kIters * kWarps; r += kThreads) out[sm * 2 * kIters * kWarps + r] = records[r];
}

// paced_ cases: lane 0 of each warp of SMs 0-3 loads one float of a line of its own (one sector a
// load, as the pointer chase), timed as streamLoop times its loads, while every warp of the other
// SMs stores a line of C, then sleeps `pace_ns` (0: none), until the readers' blocks are done
// (`done` reaches `until`: a counter that each launch's readers add kRecordedSms to; looked at
// every 16 lines, not to make the writers wait for L2). Each launch starts with L2 full of dirty
// lines (main: B just written), so every line stored makes L2 write a line back: `lines` counts
// them. The write-backs' cost to a read with hardly any reads beside it, as their rate grows.
__global__ void pacedWrites(const float* A, float* C, size_t n, unsigned pace_ns, bool writers, unsigned* done,
                            unsigned until, unsigned long long* lines, int* out) {
  extern __shared__ int records[];
  volatile int* sink = records + 2 * kIters * kWarps;
  const unsigned sm = probe::smid(), warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (sm >= kRecordedSms) {
    if (!writers) return;
    const size_t step = size_t(gridDim.x) * kThreads;
    unsigned long long stored = 0;
    size_t i = size_t(sm) * kThreads + threadIdx.x;
    while (*reinterpret_cast<volatile unsigned*>(done) < until)
      for (int k = 0; k < 16; ++k, ++stored) {
        C[i] = 1.f;
        i = i + step < n ? i + step : (i + step) % n;
        if (pace_ns != 0) __nanosleep(pace_ns);
      }
    if (lane == 0) atomicAdd(lines, stored);
    return;
  }
  const long long first = clock64();
  for (int it = 0; it < kIters; ++it) {
    const long long t0 = clock64();
    const float v = lane == 0 ? A[(size_t(it) * kRecordedSms + sm) * kThreads + warp * 32] : 1.f;
    sink[threadIdx.x] = __float_as_int(v);
    const long long t1 = clock64();
    if (lane == 0) {
      records[2 * (it * kWarps + warp)] = int(t0 - first);
      records[2 * (it * kWarps + warp) + 1] = int(t1 - t0);
    }
  }
  __syncthreads();
  if (threadIdx.x == 0) atomicAdd(done, 1u);
  for (int r = threadIdx.x; r < 2 * kIters * kWarps; r += kThreads) out[sm * 2 * kIters * kWarps + r] = records[r];
}

}  // namespace

int main(int argc, char** argv) {
  const probe::Mode mode = probe::parse_mode(argc, argv, 1);
  const cudaDeviceProp prop = probe::device_header();
  const int sms = prop.multiProcessorCount;
  const size_t n = size_t(sms) * kIters * kThreads;
  float* a = probe::random_floats(n + kHotFloats + kSectorFloats, 1);  // never zeros (METHOD.md)
  float* b = probe::random_floats(n + kHotFloats, 2);
  float* c;
  CK(cudaMalloc(&c, n * sizeof(float)));
  const size_t smem = probe::shared_bytes_for_blocks(streamLoop, 1, kThreads);
  if (probe::shared_bytes_for_blocks(pacedWrites, 1, kThreads) != smem) {
    fprintf(stderr, "the two kernels need different shared memory for one block an SM\n");
    return 1;
  }
  if (smem < (2 * kIters * kWarps + kThreads) * sizeof(int)) {
    fprintf(stderr, "%zu bytes of shared memory cannot hold the records\n", smem);
    return 1;
  }
  const size_t count = size_t(kRecordedSms) * 2 * kIters * kWarps;
  int* d;
  CK(cudaMalloc(&d, count * sizeof(int)));
  const Case cases[] = {
      {"body", 1, 2, 32, 1},        {"body", 4, 2, 32, 1},         {"body", 16, 2, 32, 1},
      {"body", 33, 2, 32, 1},       {"body", 66, 2, 32, 1},        {"body", sms, 2, 32, 1},
      {"no_store", 1, 2, 32, 0},   {"no_store", 33, 2, 32, 0},   {"no_store", sms, 2, 32, 0},
      {"one_load", 1, 1, 32, 0},   {"one_load", sms, 1, 32, 0},  {"one_lane", 1, 1, 1, 0},
      {"one_lane", sms, 1, 1, 0},      {"l2_store", 66, 2, 32, 2},       {"l2_store", sms, 2, 32, 2},
      {"hits_alone", 4, 2, 32, 0, true}, {"hits_beside_no_store", sms, 2, 32, 0, true},
      {"hits_beside_body", sms, 2, 32, 1, true}, {"three_loads", 1, 3, 32, 0}, {"three_loads", sms, 3, 32, 0},
      {"lane0_store", sms, 2, 32, 3},  {"quiet_beside_body", sms, 2, 32, 1, false, true},
      {"sectors_beside_no_store", sms, 2, 32, 0, false, false, true},
      {"sectors_beside_body", sms, 2, 32, 1, false, false, true},
      {"paced_none", sms, 1, 1, 0, false, false, false, -2},
      {"paced_w10000", sms, 1, 1, 1, false, false, false, 10000},
      {"paced_w2500", sms, 1, 1, 1, false, false, false, 2500},
      {"paced_w700", sms, 1, 1, 1, false, false, false, 700},
      {"paced_w250", sms, 1, 1, 1, false, false, false, 250},
      {"paced_w0", sms, 1, 1, 1, false, false, false, 0},
  };
  unsigned* done;
  CK(cudaMalloc(&done, sizeof(unsigned)));
  CK(cudaMemset(done, 0, sizeof(unsigned)));
  unsigned long long* lines;
  CK(cudaMalloc(&lines, sizeof(unsigned long long)));
  unsigned launches = 0;  // of pacedWrites: `done` counts their readers' blocks
  auto launch = [&](const Case& k) {
    if (k.pace_ns == -1) {
      streamLoop<<<sms, kThreads, smem>>>(a, b, c, n, k.sms, k.loads, k.lanes, k.stores, k.hits, k.quiet, k.sectors, d);
      return;
    }
    ++launches;
    pacedWrites<<<sms, kThreads, smem>>>(a, c, n, unsigned(std::max(k.pace_ns, 0)), k.pace_ns != -2, done,
                                         launches * kRecordedSms, lines, d);
  };
  if (mode.profiled) {  // under ncu, whose cache control flushes the L2 before each launch
    for (const Case& k : cases)
      probe::run_case(mode, std::string(k.name) + "_s" + std::to_string(k.sms),
                      probe::params("sms=%lld;loads=%lld;lanes=%lld", k.sms, k.loads, k.lanes) + ";stores=" +
                          std::to_string(k.stores) + ";hits=" + std::to_string(int(k.hits)) +
                          ";quiet=" + std::to_string(int(k.quiet)) + ";sectors=" + std::to_string(int(k.sectors)) +
                          ";pace_ns=" + std::to_string(k.pace_ns),
                      [&] { launch(k); });
    return 0;
  }
  const probe::L2Filler filler;
  printf("case,sms,loads,lanes,stores,sm,warp,iter,t_issue,cycles\n");
  for (const Case& k : cases) {
    const std::string name = std::string(k.name) + "_s" + std::to_string(k.sms);
    const auto before = [&](int) {
      CK(cudaMemset(d, 0, count * sizeof(int)));
      CK(cudaMemset(lines, 0, sizeof(unsigned long long)));
      if (k.pace_ns == -1) {
        filler.fill();
      } else {  // L2 full of dirty lines: B's, which the paced cases do not read
        CK(cudaMemset(b, 0x3f, n * sizeof(float)));
        CK(cudaDeviceSynchronize());
      }
    };
    const float ms = probe::second_of_two_ms(before, [&] { launch(k); });
    const double stored = k.stores == 0 ? 0 : k.stores == 3 ? 1.0 / 32 : 1;  // of a load's bytes
    const double bytes = k.pace_ns != -1  // paced_: the readers' loads (ncu gives the writes)
                             ? double(kRecordedSms) * kIters * kWarps * 4.0
                             : double(k.sms) * kIters * kWarps * (k.lanes == 32 ? 128.0 : 4.0) * (k.loads + stored);
    unsigned long long lines_stored = 0;
    CK(cudaMemcpy(&lines_stored, lines, sizeof lines_stored, cudaMemcpyDeviceToHost));
    printf("# %s kernel_ms=%.5f bytes=%.0f lines_stored=%llu\n", name.c_str(), ms, bytes, lines_stored);
    const std::vector<int> h = probe::copy_back(d, count);
    for (int sm = 0; sm < std::min(k.sms, kRecordedSms); ++sm)
      for (int it = 0; it < kIters; ++it)
        for (int w = 0; w < kWarps; ++w) {
          const int* r = &h[size_t(sm) * 2 * kIters * kWarps + 2 * (it * kWarps + w)];
          printf("%s,%d,%d,%d,%d,%d,%d,%d,%d,%d\n", name.c_str(), k.sms, k.loads, k.lanes, k.stores, sm, w, it,
                 r[0], r[1]);
        }
  }
  return 0;
}

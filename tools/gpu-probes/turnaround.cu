// How long an SM's block slot stays empty between one block and the next, and how long a store
// takes to be acknowledged: what decides the achieved occupancy of long kernels (README.md of
// this folder, "achieved occupancy") and what ncu's totals do not show.
//
//   turnaround blocks   CSV rows "block,<bs>,<store_at_end>,<block>,<smid>,<t_start>,<g_start>"
//                       for every block of kernels whose blocks spin a fixed time and exit:
//                       block sizes 32-1024 threads, 20 waves each, with and without one store
//                       per warp just before exit. Thread 0 records the block's start (and
//                       waits for that record to be acknowledged at once, __threadfence), then
//                       every warp spins until start + spin cycles: all warps of a block exit
//                       together, so the next block's start on the SM, less (start + spin), is
//                       the exit-to-next-start time of a slot.
//                       Rows "warp,<bs>,<block>,<warp>,<t_start>" give each warp's first clock
//                       for the first 132 blocks: how far apart a block's warps start.
//   turnaround blocks --ncu
//                       the same kernels once each under Nsight Compute, after a case marker
//                       (probe_common.cuh): what sm__warps_active counts, set beside the
//                       records above (a warp spins a known time; its slot turns over in ~390
//                       cycles)
//   turnaround ack      rows "ack,<smid>,<k>,<store_cold>,<load_after>,<store_warm>,<load_cold>":
//                       one thread per SM stores to a line no one has touched and waits for the
//                       acknowledgement (__threadfence), loads it back (ld.cg), stores again;
//                       then loads a second untouched line. The lines' home L2 halves are
//                       random, so each column is bimodal (near / far half).
#include "probe_common.cuh"

namespace {

constexpr long long kSpin = 3000;  // cycles every block lives: far longer than a store's acknowledgement

struct BlockRecord {
  long long t_start;
  unsigned long long g_start;
  unsigned smid, pad;
};

__global__ void spin_blocks(BlockRecord* blocks, long long* warp_starts, int record_warps, int store_at_end,
                            int* sink) {
  const long long t0 = clock64();
  __shared__ long long start;
  const unsigned warp = threadIdx.x / 32;
  if (threadIdx.x == 0) {
    start = t0;
    blocks[blockIdx.x] = BlockRecord{t0, probe::globaltimer(), probe::smid(), 0};
    __threadfence();  // acknowledged long before the block exits
  }
  if (threadIdx.x % 32 == 0 && blockIdx.x < unsigned(record_warps)) {
    warp_starts[blockIdx.x * 32 + warp] = t0;
    __threadfence();
  }
  __syncthreads();
  while (clock64() < start + kSpin) {
  }
  // One 128-byte line per warp, never shared: the block retires once these are acknowledged.
  if (store_at_end && threadIdx.x % 32 == 0) sink[(size_t(blockIdx.x) * 32 + warp) * 32] = 1;
}

void blocks_mode(const probe::Mode& mode) {
  cudaDeviceProp p;
  CK(cudaGetDeviceProperties(&p, 0));
  const int sms = p.multiProcessorCount, waves = 20;
  if (!mode.profiled) {
    printf("# device=%s sms=%d spin=%lld\n", p.name, sms, kSpin);
    printf("kind,bs,store_at_end,block,smid,t_start,g_start\n");
  }
  for (int store : {0, 1})
    for (int bs : {32, 128, 256, 512, 1024}) {
      const int per_sm = std::min(32, p.maxThreadsPerMultiProcessor / bs), grid = sms * per_sm * waves;
      BlockRecord* d;
      long long* w;
      int* sink;
      CK(cudaMalloc(&d, sizeof(BlockRecord) * grid));
      CK(cudaMalloc(&w, sizeof(long long) * 32 * sms));
      CK(cudaMalloc(&sink, size_t(grid) * 32 * 32 * 4));
      if (mode.profiled) {
        probe::run_case(mode, "spin_blocks", probe::params("bs=%lld;store_at_end=%lld;grid=%lld", bs, store, grid),
                        [&] { spin_blocks<<<grid, bs>>>(d, w, sms, store, sink); });
        CK(cudaFree(d));
        CK(cudaFree(w));
        CK(cudaFree(sink));
        continue;
      }
      for (int pass = 0; pass < 2; ++pass) {  // the first launch warms up (module load, pages)
        spin_blocks<<<grid, bs>>>(d, w, sms, store, sink);
        CK(cudaGetLastError());
        CK(cudaDeviceSynchronize());
      }
      std::vector<BlockRecord> h(grid);
      CK(cudaMemcpy(h.data(), d, sizeof(BlockRecord) * grid, cudaMemcpyDeviceToHost));
      for (int b = 0; b < grid; ++b)
        printf("block,%d,%d,%d,%u,%lld,%llu\n", bs, store, b, h[b].smid, h[b].t_start, h[b].g_start);
      if (store == 0) {
        std::vector<long long> hw(32 * sms);
        CK(cudaMemcpy(hw.data(), w, sizeof(long long) * 32 * sms, cudaMemcpyDeviceToHost));
        for (int b = 0; b < sms; ++b)
          for (int k = 0; k < (bs + 31) / 32; ++k) printf("warp,%d,%d,%d,%lld\n", bs, b, k, hw[b * 32 + k]);
      }
      CK(cudaFree(d));
      CK(cudaFree(w));
      CK(cudaFree(sink));
    }
}

__device__ __forceinline__ long long clock_after(unsigned v) {
  long long t;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(t) : "r"(v));
  return t;
}

// One thread per block; the block whose SM has not been claimed yet measures, the others exit.
__global__ void ack_probe(unsigned* lines, const unsigned* order, int per_sm, unsigned* claimed, long long* out) {
  if (threadIdx.x != 0) return;
  const unsigned sm = probe::smid();
  if (atomicCAS(&claimed[sm], 0u, 1u) != 0u) return;
  for (int k = 0; k < per_sm; ++k) {
    unsigned* a = lines + size_t(order[(sm * per_sm + k) * 2]) * 32;
    const unsigned* b = lines + size_t(order[(sm * per_sm + k) * 2 + 1]) * 32;
    long long t0 = clock64();
    *a = unsigned(k) + 1;
    __threadfence();
    long long t1 = clock64();
    const unsigned v = __ldcg(a);
    long long t2 = clock_after(v);
    *a = v + 1;
    __threadfence();
    long long t3 = clock64();
    const unsigned u = __ldcg(b);
    long long t4 = clock_after(u);
    long long* o = out + (size_t(sm) * per_sm + k) * 4;
    o[0] = t1 - t0;
    o[1] = t2 - t1;
    o[2] = t3 - t2;
    o[3] = t4 - t3;
  }
}

void ack_mode() {
  cudaDeviceProp p;
  CK(cudaGetDeviceProperties(&p, 0));
  const int sms = p.multiProcessorCount, per_sm = 64;
  const size_t lines = (256u << 20) / 128;  // 256 MB of lines: five times any L2
  unsigned *data, *order_d, *claimed;
  long long* out;
  CK(cudaMalloc(&data, lines * 128));
  CK(cudaMalloc(&order_d, sizeof(unsigned) * sms * per_sm * 2));
  CK(cudaMalloc(&claimed, sizeof(unsigned) * 1024));
  CK(cudaMalloc(&out, sizeof(long long) * sms * per_sm * 4));
  std::vector<unsigned> order(lines);
  for (size_t i = 0; i < lines; ++i) order[i] = unsigned(i);
  srand(7);
  for (size_t i = lines - 1; i > 0; --i) std::swap(order[i], order[size_t(rand()) % (i + 1)]);
  CK(cudaMemcpy(order_d, order.data(), sizeof(unsigned) * sms * per_sm * 2, cudaMemcpyHostToDevice));
  CK(cudaMemset(data, 1, lines * 128));  // every line written back and evicted by the memset's 256 MB
  CK(cudaMemset(claimed, 0, sizeof(unsigned) * 1024));
  CK(cudaDeviceSynchronize());
  ack_probe<<<sms * 8, 32>>>(data, order_d, per_sm, claimed, out);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  std::vector<long long> h(size_t(sms) * per_sm * 4);
  CK(cudaMemcpy(h.data(), out, sizeof(long long) * h.size(), cudaMemcpyDeviceToHost));
  printf("# device=%s sms=%d\n", p.name, sms);
  printf("kind,smid,k,store_cold,load_after,store_warm,load_cold\n");
  for (int sm = 0; sm < sms; ++sm)
    for (int k = 0; k < per_sm; ++k) {
      const long long* o = &h[(size_t(sm) * per_sm + k) * 4];
      if (o[0] == 0 && o[1] == 0) continue;  // no block reached this SM
      printf("ack,%d,%d,%lld,%lld,%lld,%lld\n", sm, k, o[0], o[1], o[2], o[3]);
    }
}

}  // namespace

int main(int argc, char** argv) {
  const std::string what = argc > 1 ? argv[1] : "";
  if (what == "blocks") blocks_mode(probe::parse_mode(argc, argv, 2));
  else if (what == "ack") ack_mode();
  else {
    fprintf(stderr, "usage: %s blocks [--ncu] | ack\n", argv[0]);
    return 2;
  }
  return 0;
}

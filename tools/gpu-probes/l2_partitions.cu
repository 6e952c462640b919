// The two halves of a large L2 (A100, H100): which SMs sit near which half, and how long a load
// takes when its line is in the near half, only in the far half, or in neither.
//
// Nsight Compute counts a load that misses in the SM's near L2 partition and is forwarded to the
// line's home partition twice: once as an lts__t_sectors_srcunit_tex lookup (a miss) and once as
// an lts__t_sectors_srcunit_ltcfabric lookup (l2_probe semantics shows it). This probe times the
// three paths with one thread chasing a random cycle of 128-byte lines through ld.global.cg (L2
// only), so that every load depends on the one before:
//   cold    after a 256 MB memset: every load misses in L2 (the near half, then the home half)
//   near    the same chase again on the same SM: every line now has a copy in its near half
//   other   the chase on another SM after `near`: lines whose home is the far half of that SM
//           and that only the first SM's half holds a copy of are far hits; the rest near hits
//
//   l2_partitions      (CSV on stdout)
// Rows "latency,<experiment>,<sm>,<step>,<cycles>" for every step of the first SM's cold and near
// chases and of one SM of each half, and "sm,<sm>,<median>,<p90>,<fraction over threshold>"
// for every SM's `other` chase: the fraction tells which half each SM is near.
//
//   l2_partitions lines      (CSV on stdout)
// Which half is home to each of consecutive lines: the chase walks two runs of 16,384 lines in
// address order (2 MB each, at the buffer's start and 32 MB in: two of its 2 MB pages), `cold`
// and then `other` on the first SM found in the far half (a far hit: the line's home is the first
// SM's half) and on one in the same half (every load a near hit, the control). Rows
// "line,<experiment>,<sm>,<line index in the buffer>,<cycles>".
#include "probe_common.cuh"

namespace {

constexpr int kSteps = 2048;

// Only the first block that lands on `target_sm` chases; every other block exits at once.
__global__ void chase_on_sm(const unsigned* next, unsigned start, int steps, unsigned target_sm, unsigned* claimed,
                            unsigned* latencies, unsigned* sink) {
  if (threadIdx.x != 0 || probe::smid() != target_sm) return;
  if (atomicCAS(claimed, 0u, 1u) != 0u) return;
  unsigned p = start;
  for (int s = 0; s < steps; ++s) {
    long long t0 = clock64();
    p = __ldcg(&next[p]);
    long long t1;
    asm volatile("mov.u64 %0, %%clock64;" : "=l"(t1) : "r"(p));  // waits for the load's data
    latencies[s] = unsigned(t1 - t0);
  }
  *sink = p;
}

struct Chase {
  unsigned *next, *claimed, *lat, *sink;
  unsigned start;
  int grid;
  std::vector<unsigned> run(unsigned sm) {
    CK(cudaMemset(claimed, 0, 4));
    chase_on_sm<<<grid, 32>>>(next, start, kSteps, sm, claimed, lat, sink);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    std::vector<unsigned> h(kSteps);
    CK(cudaMemcpy(h.data(), lat, kSteps * 4, cudaMemcpyDeviceToHost));
    return h;
  }
};

void flush_l2(size_t l2_bytes) {
  void* scratch;
  size_t bytes = std::max<size_t>(256u << 20, l2_bytes * 4);
  CK(cudaMalloc(&scratch, bytes));
  CK(cudaMemset(scratch, 3, bytes));
  CK(cudaDeviceSynchronize());
  CK(cudaFree(scratch));
}

void print_steps(const char* what, unsigned sm, const std::vector<unsigned>& lat) {
  for (int s = 0; s < kSteps; ++s) printf("latency,%s,%u,%d,%u\n", what, sm, s, lat[s]);
}

}  // namespace

// The `lines` mode (header): consecutive lines' homes.
int consecutive_lines(const cudaDeviceProp& p) {
  constexpr unsigned kRun = 16384, kSecondRun = (32u << 20) / 128;
  constexpr int kLineSteps = 2 * kRun;
  const size_t bytes = 64u << 20, words = bytes / 4;
  std::vector<unsigned> visited;
  for (unsigned first : {0u, kSecondRun})
    for (unsigned i = 0; i < kRun; ++i) visited.push_back(first + i);
  std::vector<unsigned> h(words, 0);
  for (int s = 0; s < kLineSteps; ++s) h[visited[s] * 32] = visited[(s + 1) % kLineSteps] * 32;
  unsigned *next, *claimed, *lat, *sink;
  CK(cudaMalloc(&next, bytes));
  CK(cudaMalloc(&claimed, 4));
  CK(cudaMalloc(&lat, kLineSteps * 4));
  CK(cudaMalloc(&sink, 4));
  CK(cudaMemcpy(next, h.data(), bytes, cudaMemcpyHostToDevice));
  auto run = [&](unsigned sm) {
    CK(cudaMemset(claimed, 0, 4));
    chase_on_sm<<<p.multiProcessorCount * 16, 32>>>(next, visited[0] * 32, kLineSteps, sm, claimed, lat, sink);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    std::vector<unsigned> out(kLineSteps);
    CK(cudaMemcpy(out.data(), lat, kLineSteps * 4, cudaMemcpyDeviceToHost));
    return out;
  };
  auto print = [&](const char* what, unsigned sm, const std::vector<unsigned>& l) {
    for (int s = 0; s < kLineSteps; ++s) printf("line,%s,%u,%u,%u\n", what, sm, visited[s], l[s]);
  };
  const unsigned first = 0;
  flush_l2(p.l2CacheSize);
  print("cold", first, run(first));
  const unsigned threshold = 360;  // between a near hit (~270 cycles) and a far one (~450), both GPUs
  printf("# threshold=%u cycles\n", threshold);
  bool printed_same = false, printed_far = false;
  for (unsigned sm = 1; sm < unsigned(p.multiProcessorCount) && !(printed_same && printed_far); ++sm) {
    flush_l2(p.l2CacheSize);
    run(first);
    std::vector<unsigned> l = run(sm);
    double slow = 0;
    for (unsigned v : l) slow += v > threshold;
    slow /= kLineSteps;
    if (slow < 0.1 && !printed_same) print("other_same_half", sm, l), printed_same = true;
    if (slow > 0.3 && !printed_far) print("other_far_half", sm, l), printed_far = true;
    fflush(stdout);
  }
  return printed_far ? 0 : 1;
}

int main(int argc, char** argv) {
  cudaDeviceProp p;
  CK(cudaGetDeviceProperties(&p, 0));
  printf("# device=%s sms=%d l2=%d\n", p.name, p.multiProcessorCount, p.l2CacheSize);
  if (argc > 1 && std::string(argv[1]) == "lines") return consecutive_lines(p);
  if (argc > 1) {
    fprintf(stderr, "usage: l2_partitions [lines]\n");
    return 2;
  }
  // A random cycle over 64 MB of lines: far more lines than steps, so no line repeats in a chase.
  const size_t bytes = 64u << 20, words = bytes / 4, lines = words / 32;
  std::vector<unsigned> order(lines);
  for (size_t i = 0; i < lines; ++i) order[i] = i;
  srand(11);
  for (size_t i = lines - 1; i > 0; --i) std::swap(order[i], order[rand() % (i + 1)]);
  std::vector<unsigned> h(words, 0);
  for (size_t i = 0; i < lines; ++i) h[order[i] * 32] = order[(i + 1) % lines] * 32;
  Chase c{};
  CK(cudaMalloc(&c.next, bytes));
  CK(cudaMalloc(&c.claimed, 4));
  CK(cudaMalloc(&c.lat, kSteps * 4));
  CK(cudaMalloc(&c.sink, 4));
  CK(cudaMemcpy(c.next, h.data(), bytes, cudaMemcpyHostToDevice));
  c.start = order[0] * 32;
  c.grid = p.multiProcessorCount * 16;  // every SM gets blocks
  const unsigned first = 0;
  flush_l2(p.l2CacheSize);
  print_steps("cold", first, c.run(first));
  print_steps("near", first, c.run(first));
  // Which half each SM is near: after the first SM's cold chase, its half holds a copy of every
  // line and the other half only the lines it is home to.
  unsigned threshold = 0;
  {
    std::vector<unsigned> near = c.run(first);
    std::sort(near.begin(), near.end());
    threshold = near[kSteps / 2] + 60;  // slower than a near hit by more than its jitter
  }
  printf("# threshold=%u cycles\n", threshold);
  printf("sm,median,p90,fraction_slow\n");
  bool printed_same = false, printed_other = false;
  for (unsigned sm = 0; sm < unsigned(p.multiProcessorCount); ++sm) {
    flush_l2(p.l2CacheSize);
    c.run(first);
    std::vector<unsigned> lat = c.run(sm), sorted = lat;
    std::sort(sorted.begin(), sorted.end());
    double slow = 0;
    for (unsigned v : lat) slow += v > threshold;
    slow /= kSteps;
    printf("sm,%u,%u,%u,%.4f\n", sm, sorted[kSteps / 2], sorted[kSteps * 9 / 10], slow);
    if (sm != first && slow < 0.1 && !printed_same) print_steps("other_same_half", sm, lat), printed_same = true;
    if (slow > 0.3 && !printed_other) print_steps("other_far_half", sm, lat), printed_other = true;
    fflush(stdout);
  }
  return 0;
}

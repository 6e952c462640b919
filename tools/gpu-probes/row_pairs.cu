// Whether a DRAM row a read opened answers the next read sooner: a cold line B read right after
// a cold line A, against B read alone. Where a bank keeps A's row open, B in that row answers
// sooner, and B in the same bank but another row later (A's row must close first); B in another
// bank or channel is unaffected. Timed pair by pair at distances d = B - A from 64 B to 512 KB,
// that would also give the address bits that choose a line's channel, bank and row, which
// docs/model.md needs to say why the H100 reads sparse pieces less efficiently than the model.
// On the H100 neither shows (h100-measured/README.md), nor on the H200 (h200/README.md): ~300 ns
// after a read their banks answer as if the row were closed.
//
//   row_pairs scan|near [REPS=7]   CSV on stdout: kind,rep,page,d_bytes,lat_primer,lat_a,lat_b
//
// scan: page p's B at d = 128 p (page 0: 64). near: every B in A's 256 bytes, d = 64 (even pages)
// or 128 (odd), one row whatever the mapping: how much sooner, if at all, a line comes from a row
// a read opened just before.
//
// One thread walks a 8 GB buffer's 2 MB pages, one trial a page, each trial's loads waiting on
// the one before (every word is 0, and the next address adds it): first a primer line at 1.5 MB
// into the page (the page walk of a page no trial touched before), then A at the page's start and
// B = A + d ("pair"), or only B ("alone": the same B addresses in a pass of their own). Each pass
// starts after a 256 MB read of another buffer, so A and B come from DRAM. Each pass takes the
// pages in an order of its own (a fixed shuffle per pass): in one order every pass, a trial met
// the channels' refreshes at the same point of each pass, and those waits (hundreds of cycles)
// fell on the same pages rep after rep (h100-measured/row_pairs_one_order.csv.xz). The minimum
// over the reps leaves them out.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "probe_common.cuh"

namespace {

constexpr size_t kPage = size_t(2) << 20;
constexpr int kPages = 4096;  // 8 GB: every trial in a page of its own

__host__ __device__ size_t distance(bool near, int page) {
  if (near) return page % 2 == 0 ? 64 : 128;
  return page == 0 ? 64 : size_t(page) * 128;
}

__global__ void walk(const unsigned char* base, const int* order, int pages, bool near, bool pair, int* lat,
                     unsigned* sink) {
  __shared__ unsigned seen;
  unsigned dep = 0;
  for (int i = 0; i < pages; ++i) {
    const int p = order[i];
    const unsigned char* page = base + size_t(p) * kPage;
    const size_t d = distance(near, p);
    int lp = 0, la = 0, lb = 0;
    dep = probe::timed_load(reinterpret_cast<const unsigned*>(page + 3 * kPage / 4 + dep), &seen, lp);
    if (pair) dep = probe::timed_load(reinterpret_cast<const unsigned*>(page + dep), &seen, la);
    dep = probe::timed_load(reinterpret_cast<const unsigned*>(page + d + dep), &seen, lb);
    lat[3 * p] = lp;
    lat[3 * p + 1] = la;
    lat[3 * p + 2] = lb;
  }
  if (dep == 7) *sink = dep;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  if (mode != "scan" && mode != "near") {
    fprintf(stderr, "usage: row_pairs scan|near [REPS]\n");
    return 2;
  }
  const bool near = mode == "near";
  const int reps = argc > 2 ? std::max(1, atoi(argv[2])) : 7;
  const size_t bytes = size_t(kPages) * kPage;
  unsigned char* a;
  unsigned* sink;
  int* lat;
  CK(cudaMalloc(&a, bytes));
  CK(cudaMemset(a, 0, bytes));
  CK(cudaMalloc(&sink, 4));
  CK(cudaMalloc(&lat, 3 * kPages * sizeof(int)));
  int* order;
  CK(cudaMalloc(&order, kPages * sizeof(int)));
  std::vector<int> h_order(kPages);
  for (int p = 0; p < kPages; ++p) h_order[p] = p;
  std::uint64_t state = 0x9e3779b97f4a7c15ull;  // a fixed sequence of shuffles: runs repeat
  auto next = [&state]() {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
  };
  const probe::L2Filler l2;
  std::vector<int> h(3 * kPages);
  printf("kind,rep,page,d_bytes,lat_primer,lat_a,lat_b\n");
  for (int rep = 0; rep < reps; ++rep)
    for (bool pair : {true, false}) {
      for (int p = kPages - 1; p > 0; --p) std::swap(h_order[p], h_order[next() % (p + 1)]);
      CK(cudaMemcpy(order, h_order.data(), kPages * sizeof(int), cudaMemcpyHostToDevice));
      l2.fill();
      walk<<<1, 1>>>(a, order, kPages, near, pair, lat, sink);
      CK(cudaGetLastError());
      CK(cudaDeviceSynchronize());
      CK(cudaMemcpy(h.data(), lat, h.size() * sizeof(int), cudaMemcpyDeviceToHost));
      for (int p = 0; p < kPages; ++p)
        printf("%s,%d,%d,%zu,%d,%d,%d\n", pair ? "pair" : "alone", rep, p, distance(near, p),
               h[3 * p], h[3 * p + 1], h[3 * p + 2]);
    }
  fflush(stdout);
  return 0;
}

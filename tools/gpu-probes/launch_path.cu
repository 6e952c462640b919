// What a small launch waits for, and what Nsight Compute's cache flush adds to it: one thread
// times each step of a short dependent chain, launch after launch, under ncu --cache-control all
// and none (measure-h100's launch-path step).
//
//   launch_path RECORDS
//
// Each launch (one block of 32 threads; thread 0 works) records, with clock64 from its first:
//   t_param   a word of a __constant__ array is there (the first constant access of the launch)
//   t_load1   the first cold line of page P0 has been asked for (P0: the same 2 MB page in every
//             launch). ptxas still moves the clock read ahead of the wait (~114 cycles in every
//             launch), so this load is timed with the next one:
//   t_load2   a second cold line of P0 is there (the two dependent loads together)
//   t_load3   a cold line of a 2 MB page no launch touched before is there
//   t_store   a store has issued; the kernel then ends
// and %globaltimer at its start. Every line is one no launch read before and L2 does not hold
// (the buffer was written long before, and 256 MB of other data read since), so the data comes
// from DRAM under either cache control. What the flush adds is what else it empties: the
// constant caches (t_param), the translation caches (t_load2, t_load3), and whatever the launch
// waits for outside the thread (ncu's gpu__time_duration less t_store). Each loaded word is 0 and
// feeds the next address, so the loads form one dependent chain.
// RECORDS gets rows "launch,smid,t_param,t_load1,t_load2,t_load3,t_store,g_start" (cycles from
// the thread's first clock); stdout gets a "#case" marker before each launch (probe_common.cuh),
// which pairs it with its ncu row when the program runs under ncu. Then the pieces of a launch,
// each a kernel of its own, 20 launches each: nothing, one store, one constant read, both (their
// times under ncu against each other: what a store at the end and a constant at the start add).
#include <cstdint>

#include "probe_common.cuh"

namespace {

constexpr size_t kLineWords = 32;                        // 128-byte lines of unsigned
constexpr size_t kPageWords = (2u << 20) / 4;             // 2 MB pages
constexpr size_t kBufferWords = size_t(2) << 30 >> 2;     // 2 GB: pages far apart for every launch
constexpr int kLaunches = 20;

struct Record {
  long long t_param, t_load1, t_load2, t_load3, t_store;
  unsigned long long g_start;
  unsigned smid, pad;
};

__constant__ unsigned c_words[64];  // a constant bank of the program's own, zeros

// Each step's address depends on the clock read before it (t >> 62 is 0 for any clock64 value a
// run reaches, which the compiler cannot know), so no load is hoisted above the clock that times
// it; and each value's store to shared memory is volatile asm, as clock64 is, so the compiler
// keeps it before the next clock read, and the store cannot issue before the value is there.
__device__ __forceinline__ void wait_for(unsigned* slot, unsigned v) {
  asm volatile("st.shared.u32 [%0], %1;" ::"l"(__cvta_generic_to_shared(slot)), "r"(v) : "memory");
}

__global__ void launch_path(const unsigned* a, size_t line1, size_t line2, size_t line3, unsigned* sink,
                            Record* rec, int launch) {
  const long long t0 = clock64();
  const unsigned long long g0 = probe::globaltimer();
  if (threadIdx.x != 0) return;
  __shared__ unsigned seen[4];
  wait_for(&seen[0], c_words[unsigned(t0 >> 62)]);
  const long long t1 = clock64();
  const unsigned v1 = a[line1 * kLineWords + unsigned(t1 >> 62)];
  wait_for(&seen[1], v1);
  const long long t2 = clock64();
  const unsigned v2 = a[line2 * kLineWords + v1];
  wait_for(&seen[2], v2);
  const long long t3 = clock64();
  const unsigned v3 = a[line3 * kLineWords + v2];
  wait_for(&seen[3], v3);
  const long long t4 = clock64();
  sink[launch * kLineWords] = v3 + seen[0] + seen[1] + seen[2] + seen[3];
  const long long t5 = clock64();
  rec[launch] = Record{t1 - t0, t2 - t0, t3 - t0, t4 - t0, t5 - t0, g0, probe::smid(), 0};
}

// The pieces of a launch's time, one kernel each (one thread of one block): nothing; one store;
// one constant read (its value kept by a store only if it were nonzero, which it never is); both.
__global__ void nothing() {}
__global__ void one_store(unsigned* sink) { sink[0] = 1; }
__global__ void one_constant(unsigned* sink) {
  if (c_words[unsigned(clock64() >> 62)] == 1u) sink[0] = 2;
}
__global__ void constant_then_store(unsigned* sink) { sink[0] = c_words[unsigned(clock64() >> 62)] + 3; }

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s RECORDS\n", argv[0]);
    return 2;
  }
  unsigned *a, *sink;
  Record* rec;
  CK(cudaMalloc(&a, kBufferWords * 4));
  CK(cudaMalloc(&sink, kLaunches * kLineWords * 4));
  CK(cudaMalloc(&rec, kLaunches * sizeof(Record)));
  CK(cudaMemset(a, 0, kBufferWords * 4));
  const probe::L2Filler l2;
  l2.fill();
  for (int k = 0; k < kLaunches; ++k) {
    // P0 is page 1; each launch's new page is 4 MB further on (pages 3, 5, ...).
    const size_t line1 = kPageWords / kLineWords + 8 * size_t(k);
    const size_t line2 = line1 + 4;
    const size_t line3 = (size_t(2 * k + 3) * kPageWords) / kLineWords + 8 * size_t(k);
    probe::run_case(probe::Mode{true, 1}, "launch_path", probe::params("launch=%lld", k + 1),
                    [&] { launch_path<<<1, 32>>>(a, line1, line2, line3, sink, rec, k); });
  }
  // The pieces, kLaunches launches each, after the chain so that they do not disturb it.
  for (int k = 0; k < kLaunches; ++k) {
    const std::string ps = probe::params("launch=%lld", k + 1);
    const probe::Mode once{true, 1};
    probe::run_case(once, "nothing", ps, [&] { nothing<<<1, 1>>>(); });
    probe::run_case(once, "one_store", ps, [&] { one_store<<<1, 1>>>(sink + 64); });
    probe::run_case(once, "one_constant", ps, [&] { one_constant<<<1, 1>>>(sink + 64); });
    probe::run_case(once, "constant_then_store", ps, [&] { constant_then_store<<<1, 1>>>(sink + 64); });
  }
  Record h[kLaunches];
  CK(cudaMemcpy(h, rec, sizeof h, cudaMemcpyDeviceToHost));
  FILE* f = fopen(argv[1], "a");  // after the '#' lines the driver may have written
  if (!f) {
    fprintf(stderr, "cannot write %s\n", argv[1]);
    return 1;
  }
  fprintf(f, "launch,smid,t_param,t_load1,t_load2,t_load3,t_store,g_start\n");
  for (int k = 0; k < kLaunches; ++k)
    fprintf(f, "%d,%u,%lld,%lld,%lld,%lld,%lld,%llu\n", k + 1, h[k].smid, h[k].t_param, h[k].t_load1, h[k].t_load2,
            h[k].t_load3, h[k].t_store, h[k].g_start - h[0].g_start);
  fclose(f);
  return 0;
}

#pragma once
// The boundary between the SM model and the memory system (SPEC S3, S4). An SM hands every
// memory instruction of a warp to access() when its LD/ST unit issues it; the memory system
// coalesces it (per preset and cache operator), walks L1 / read-only / L2 (+ persistence) /
// DRAM, queues it behind earlier traffic on each resource, and answers when the data is back.
// Timing is computed when the request is made ("busy-until" per port, slice and channel), which
// keeps the simulator fast and deterministic: requests arrive in simulated-time order.
#include <cstdint>
#include <memory>

#include "models/memory/coalescer.hpp"
#include "models/memory/memory_system_specs.hpp"
#include "sim/stats.hpp"
#include "sim/time.hpp"
#include "traces/instruction.hpp"
#include "traces/kernel_source.hpp"

namespace warpsim::models {

// A global (or local) memory instruction as the SM coalesced it when it issued (coalesce()): the
// passes its LD/ST unit takes, and the byte range of its lanes when they form one contiguous run
// (empty otherwise). With a range, the access that follows reads none of the 32 addresses.
struct CoalescedAccess {
  std::uint32_t passes = 1;
  memory::ByteRange range;
};

struct MemoryAccessResult {
  sim::Cycle ready = 0;            // core cycle at which load results are written / the store is done
  std::uint32_t passes = 1;  // 1 + replays (S3.1): the LD/ST issue slots it takes, one L1 or bank cycle each
};

// Counters in ncu's terms (CONTRACT.md names); totals over the whole GPU. Only std::uint64_t
// counters: sim::Attribution splits them among kernels field by field.
struct MemoryCounters {
  // requests: warp instructions with an active lane; sectors: distinct 32-byte sectors touched;
  // transactions: accesses to the next level (128-byte lines on Fermi's caching L1 path, S3.4's
  // 1/2/4-segment transactions for Fermi/Kepler stores, else sectors); bytes_requested: distinct
  // bytes the lanes use; bytes_moved: what the transactions carry, so
  // gld_efficiency = gld_bytes_requested / gld_bytes_moved (S3.7).
  std::uint64_t gld_requests = 0, gld_sectors = 0, gld_transactions = 0, gld_bytes_requested = 0;
  std::uint64_t gld_bytes_moved = 0;
  std::uint64_t gst_requests = 0, gst_sectors = 0, gst_transactions = 0, gst_bytes_requested = 0;
  std::uint64_t gst_bytes_moved = 0;
  // L1 lookups include store sectors on a sectored L1 (they pass through it and miss), as
  // ncu's l1tex__t_sector_hit_rate does.
  std::uint64_t l1_sector_hits = 0, l1_sector_lookups = 0;
  std::uint64_t l2_sector_hits = 0, l2_sector_lookups = 0;
  std::uint64_t dram_read_bytes = 0, dram_write_bytes = 0;
  std::uint64_t shared_requests = 0, shared_bank_conflicts = 0;
  std::uint64_t replays = 0;
  // Passes through the LSU's L1 path (global, local: one 128-byte line each, the queue the LD/ST
  // units wait on) and shared-memory wavefronts (one per pass, bank conflicts included).
  std::uint64_t l1_wavefronts = 0, shared_wavefronts = 0;
};

class MemorySystem {
 public:
  virtual ~MemorySystem() = default;
  // A kernel starts: its access-policy window and the device's set-aside (S4.1, S4.2).
  virtual void begin_kernel(std::uint32_t kernel_slot, const traces::KernelInfo& kernel) = 0;
  virtual void end_kernel(std::uint32_t kernel_slot) = 0;
  // A host-to-device copy: the bytes land in DRAM.
  virtual void memcpy_to_device(std::uint64_t address, std::uint64_t bytes) = 0;
  // One warp memory instruction from SM `sm`, issued at core cycle `now`, by kernel `kernel_slot`.
  // `range`, when not empty, is the byte range coalesce() found for it: `inst`'s addresses are
  // then not read.
  virtual MemoryAccessResult access(std::uint32_t sm, std::uint32_t kernel_slot, const traces::Instruction& inst,
                                    const memory::ByteRange& range, sim::Cycle now) = 0;
  MemoryAccessResult access(std::uint32_t sm, std::uint32_t kernel_slot, const traces::Instruction& inst,
                            sim::Cycle now) {
    return access(sm, kernel_slot, inst, memory::ByteRange{}, now);
  }
  // Whether access() for `inst` (a memory instruction with an active lane) reads or changes what
  // other SMs' accesses also change (L2, DRAM): such accesses must reach the memory system in
  // time order across SMs. The SMs hold them back to the end of a tick window (models/core/gpu.cpp)
  // and answer the rest (shared memory, constants) at once.
  virtual bool shared_state(const traces::Instruction& inst) const = 0;
  // For an instruction for which shared_state() holds: the issue cycles access() will report
  // (1 + replays, S3.1), which follow from its addresses alone, so an SM knows them when it
  // issues, before the memory system answers; and its byte range, if its lanes are contiguous.
  virtual CoalescedAccess coalesce(const traces::Instruction& inst) const = 0;
  // No access for which shared_state() holds is answered sooner than this many cycles after it
  // is made: the longest an SM can run ahead of the others without needing such an answer.
  virtual sim::Cycle min_latency() const = 0;
  // Host-side only, no simulated effect: SM `sm` will hand `inst` to access() within a few
  // cycles (it is a warp's next instruction), so the host memory its lookups read can start
  // loading now and arrive by then.
  // `range` as for access().
  virtual void prefetch(std::uint32_t /*sm*/, const traces::Instruction& /*inst*/,
                        const memory::ByteRange& /*range*/) const {}
  // SMs ticking at once on several host threads (models/core/gpu.hpp): from now on access() for
  // an instruction for which shared_state() does not hold may run for different SMs at the same
  // time, and what it counts waits, SM by SM, until take_sm_counts(sm), which the caller makes in
  // the order those accesses would have come had the SMs ticked one after another.
  virtual void count_sm_accesses_later() {}
  virtual void take_sm_counts(std::uint32_t /*sm*/) {}
  virtual const MemoryCounters& counters() const = 0;
  // The counters of kernel slot `slot` alone. Every count of counters() belongs to the kernel
  // whose access caused it (a DRAM write-back to the kernel whose access evicted or cleaned the
  // line); what flush_caches() writes back belongs to none.
  virtual MemoryCounters kernel_counters(std::uint32_t slot) const = 0;
  // S4.6: cudaCtxResetPersistingL2Cache(): every persisting L2 line becomes normal.
  virtual void reset_persisting() = 0;
  // Bytes of L2 held by persisting lines now (S4.6: they shrink the L2 left for normal use).
  virtual std::uint64_t persisting_bytes() const = 0;
  // Writes dirty L2 sectors back to DRAM. ncu's dram__bytes_write counts only what a kernel
  // writes back while it runs (offset.csv lg=20: 0 bytes for 4 MB stored; the L2 writes back on
  // eviction and past its per-set dirty limit, l2_cache.hpp), so the simulator need not call this.
  virtual void flush(sim::Cycle now) = 0;
  // Nsight Compute's --cache-control all before each profiled launch: every cache's dirty data
  // written back, then every line invalidated (L1s, read-only caches, L2 with its persisting
  // lines). Returns the cycle at which DRAM has finished those write-backs; a launch that
  // starts then finds it as idle as the profiled launch does.
  virtual sim::Cycle flush_caches(sim::Cycle now) = 0;
};

// The full memory system of SPEC S3 and S4 (memory_system_specs(arch), arch.hpp, for a preset's).
std::unique_ptr<MemorySystem> make_memory_system(const MemorySystemSpecs& specs, sim::StatsRegistry& stats,
                                                 std::uint64_t seed);

}  // namespace warpsim::models

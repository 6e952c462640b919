#pragma once
// The memory system of SPEC S3 and S4 (make_memory_system, memory_system.hpp): the coalescer, the
// per-SM L1 and read-only caches, the L2 with persistence and DRAM, and ncu's counters. Internal to
// models/memory: memory_system.cpp (kernels, coalescing, local, shared and constant memory,
// counters), memory_loads.cpp (global loads through L1 or the read-only cache), memory_stores.cpp
// (global stores and atomics).
#include <algorithm>
#include <string>
#include <vector>

#include "models/memory/coalescer.hpp"
#include "models/memory/dram_models.hpp"
#include "models/memory/l2_cache.hpp"
#include "models/memory/memory_system.hpp"
#include "models/memory/persistence_policy.hpp"
#include "models/memory/sector_cache.hpp"
#include "sim/attribution.hpp"

namespace warpsim::models::gpu_memory {


using memory::L2Hint;
using memory::LineClass;
using memory::SectorCache;
using traces::CacheOp;
using traces::Instruction;
using traces::MemOp;
using traces::MemSpace;

// How a global load travels, chosen per preset and cache operator at construction.
enum class LoadPath : std::uint8_t {
  L1Lines,    // Fermi: 128-byte lines in L1, one access per line, replays per extra line (S3.2)
  L1Sectors,  // Hopper: 128-byte lines of four 32-byte sectors, ncu's request/sector counting
  ReadOnly,   // Kepler's read-only data cache, 32-byte granularity (S3.6)
  L2Only,     // .cg, or an L1 that holds no global data (Kepler, S3.5): 32-byte segments (S3.3)
};

class GpuMemorySystem final : public MemorySystem {
 public:
  GpuMemorySystem(const MemorySystemSpecs& specs, sim::StatsRegistry& stats, std::uint64_t seed)
      : specs_(specs),
        dram_(memory::make_dram(specs.dram, specs.core_clock_khz, seed)),
        l2_(specs.l2, specs.core_clock_khz, *dram_, stats),
        policy_(specs.l2, seed),
        sectored_l1_(specs.l1.sector_bytes < specs.l1.line_bytes) {
    const memory::SectorCacheGeometry l1{specs.l1.size_bytes, specs.l1.line_bytes, specs.l1.sector_bytes,
                                         specs.l1.ways, specs.l1.replacement};
    // The read-only cache is a 32-byte-line cache (S3.6); the preset gives no associativity or
    // replacement, we assume the L1's.
    const memory::SectorCacheGeometry ro{specs.l1.readonly_size_bytes, specs.l1.readonly_line_bytes,
                                         specs.l1.readonly_line_bytes, specs.l1.ways, specs.l1.replacement};
    // The SMs' caches share one mapping of zero pages: a short run touches few of their sets, but
    // of every SM's, so an H100's 7.5 MB of L1s lie on huge pages (four faults, not ~500).
    caches_arena_ = sim::ZeroPagesArena(std::size_t{specs.sms} *
                                        (SectorCache::arena_bytes(l1) + SectorCache::arena_bytes(ro)));
    l1_.reserve(specs.sms);
    readonly_.reserve(specs.sms);
    for (std::uint32_t sm = 0; sm < specs.sms; ++sm) {
      l1_.emplace_back(l1, &caches_arena_);
      readonly_.emplace_back(ro, &caches_arena_);
      near_.push_back(static_cast<std::uint8_t>(specs.l2.partition_near(sm)));
    }
    l1_free_.assign(specs.sms, 0);
    for (CacheOp op : {CacheOp::Default, CacheOp::Global, CacheOp::ReadOnly, CacheOp::Streaming})
      load_path_[static_cast<int>(op)] = choose_load_path(op);
    policy_.set_window(0, {});
    l2_.set_set_aside(policy_.resolve_set_aside(traces::KernelInfo::kNoSetAside));
    register_stats(stats);
  }

  void begin_kernel(std::uint32_t kernel_slot, const traces::KernelInfo& kernel) override {
    // S4.1: the set-aside this run asked for; S4.2: this slot's window (num_bytes 0 disables).
    l2_.set_set_aside(policy_.resolve_set_aside(kernel));
    policy_.set_window(kernel_slot, kernel.window);
    // L1s are not coherent: the GPU invalidates them at a kernel boundary.
    for (auto& l1 : l1_) l1.invalidate_all();
    for (auto& ro : readonly_) ro.invalidate_all();
  }

  void end_kernel(std::uint32_t kernel_slot) override {
    // Persisting lines stay (S4.6); only the window goes.
    policy_.clear_window(kernel_slot);
    charge(kernel_slot);
    l2_.count_launch();  // its closing memory barrier and instruction fetches (l2.launch_lookups)
  }

  void memcpy_to_device(std::uint64_t address, std::uint64_t bytes) override;

  MemoryAccessResult access(std::uint32_t sm, std::uint32_t kernel_slot, const Instruction& inst,
                            const memory::ByteRange& range, sim::Cycle now) override {
    if (inst.active_mask == 0 || !inst.is_memory()) {
      charge(kernel_slot);
      return {now + 1, 1};
    }
    // Shared memory and constants touch only counters, and may be asked for by SMs on several
    // threads at once (count_sm_accesses_later).
    if (inst.space == MemSpace::Shared) return shared(inst, now, counters_for(sm, kernel_slot));
    if (inst.space == MemSpace::Constant) return constant(inst, now, counters_for(sm, kernel_slot));
    charge(kernel_slot);
    // The sectors every path below walks (sectors_), from the range the SM found at issue when
    // it found one, else from the lanes' addresses.
    if (range.empty())
      memory::gather_sectors(inst, sectors_);
    else
      memory::gather_range(range, sectors_);
    if (inst.space == MemSpace::Local) return local(sm, inst, now);
    if (inst.mem_op == MemOp::Load) return global_load(sm, kernel_slot, inst, now);
    if (inst.mem_op == MemOp::Store) return global_store(sm, kernel_slot, now);
    return global_atomic(sm, kernel_slot, now);
  }

  bool shared_state(const Instruction& inst) const override {
    return inst.space == MemSpace::Global || inst.space == MemSpace::None || inst.space == MemSpace::Local;
  }

  // The passes global_load, global_store, global_atomic and local() count.
  CoalescedAccess coalesce(const Instruction& inst) const override;

  // An L1 (or read-only cache) hit, an L2 hit or DRAM's shortest answer, whichever is soonest.
  sim::Cycle min_latency() const override {
    return std::max<sim::Cycle>(1, std::min({specs_.l1.hit_latency, specs_.l2.hit_latency, specs_.dram.latency_min}));
  }

  void prefetch(std::uint32_t sm, const traces::Instruction& inst, const memory::ByteRange& range) const override;

  void count_sm_accesses_later() override { sm_counts_.resize(specs_.sms); }
  void take_sm_counts(std::uint32_t sm) override;

  const MemoryCounters& counters() const override {
    counters_.l2_sector_hits = l2_.sector_hits();
    counters_.l2_sector_lookups = l2_.sector_lookups();
    counters_.dram_read_bytes = dram_->bytes_read();
    counters_.dram_write_bytes = dram_->bytes_written();
    return counters_;
  }
  void reset_persisting() override { l2_.reset_persisting(); }
  std::uint64_t persisting_bytes() const override { return l2_.persisting_bytes(); }
  void flush(sim::Cycle now) override { l2_.flush(now); }
  MemoryCounters kernel_counters(std::uint32_t slot) const override { return by_kernel_.of(slot, counters()); }
  sim::Cycle flush_caches(sim::Cycle now) override {
    charge(sim::Attribution<MemoryCounters>::kNobody);  // ncu flushes outside the profiled launch
    for (auto& l1 : l1_) l1.invalidate_all();
    for (auto& ro : readonly_) ro.invalidate_all();
    l2_.flush(now);
    l2_.invalidate(0, ~std::uint64_t{0});
    return std::max(now, dram_->quiet_at());
  }

 private:
  // What is counted from here on belongs to kernel slot `slot` (kernel_counters).
  void charge(std::uint32_t slot) {
    if (slot != by_kernel_.charged()) [[unlikely]]
      by_kernel_.charge(slot, counters());
  }

  LoadPath choose_load_path(CacheOp op) const {
    if (op == CacheOp::ReadOnly && specs_.l1.readonly_size_bytes > 0) return LoadPath::ReadOnly;
    if (op == CacheOp::Global || !specs_.l1.caches_global || specs_.l1.size_bytes == 0) return LoadPath::L2Only;
    return sectored_l1_ ? LoadPath::L1Sectors : LoadPath::L1Lines;
  }

  // The LD/ST path through L1 handles one 128-byte line per cycle: an instruction touching N
  // lines occupies it N cycles (S3.1: N-1 replays). Returns the cycle the first line is looked up.
  // The L1 counter keeps ncu's word for a pass, a wavefront.
  sim::Cycle occupy_l1(std::uint32_t sm, sim::Cycle now, std::uint32_t passes) {
    const sim::Cycle start = std::max(now, l1_free_[sm]);
    l1_free_[sm] = start + passes;
    counters_.l1_wavefronts += passes;
    return start;
  }

  MemoryAccessResult finish(sim::Cycle ready, std::uint32_t passes) { return finish(counters_, ready, passes); }
  static MemoryAccessResult finish(MemoryCounters& counters, sim::Cycle ready, std::uint32_t passes) {
    const std::uint32_t at_least_one = std::max<std::uint32_t>(1, passes);
    counters.replays += at_least_one - 1;
    return {ready, at_least_one};
  }

  // Where SM `sm`'s shared-memory and constant accesses for kernel slot `slot` count: counters_,
  // charged to the slot; or, after count_sm_accesses_later(), the SM's own counts for the slot,
  // until take_sm_counts (memory_system.cpp).
  MemoryCounters& counters_for(std::uint32_t sm, std::uint32_t slot) {
    if (sm_counts_.empty()) [[likely]] {
      charge(slot);
      return counters_;
    }
    return sm_counts_[sm].of(slot);
  }

  L2Hint property(std::uint32_t kernel_slot, std::uint64_t address) const {
    return policy_.property(kernel_slot, address, l2_.line_of(address));
  }

  std::uint32_t l2_sector_of(std::uint64_t address) const { return l2_.sector_of(address); }

  // The L2 partition SM `sm` is near (l2_cache.hpp).
  std::uint32_t near(std::uint32_t sm) const { return near_[sm]; }

  sim::Cycle l2_read(std::uint32_t sm, std::uint32_t kernel_slot, std::uint64_t address, sim::Cycle now) {
    bool hit = false;
    return l2_.read(address, now, property(kernel_slot, address), near(sm), hit);
  }

  // How an instruction's 32-byte pieces (address(k) for k < n, in address order) go to L2: as few
  // requests as the hardware makes, each a maximal run of pieces on distinct sectors of one L2
  // line with one property. Calls request(first, last, line_address, sector_bits, property) for
  // pieces [first, last) of each, in order.
  template <class AddressOf, class Request>
  void for_each_l2_request(std::uint32_t kernel_slot, std::uint32_t n, AddressOf address, Request request) const {
    // Without a window every piece is Default: no property to look up per piece.
    const bool windowed = policy_.window(kernel_slot) != nullptr;
    for (std::uint32_t first = 0, last = 0; first < n; first = last) {
      const std::uint64_t line = l2_.line_of(address(first));
      const L2Hint hint = windowed ? property(kernel_slot, address(first)) : L2Hint::Default;
      std::uint32_t sectors = 0;
      for (last = first; last < n; ++last) {
        const std::uint64_t a = address(last);
        const std::uint32_t bit = 1u << l2_sector_of(a);
        if (l2_.line_of(a) != line || (sectors & bit) || (windowed && property(kernel_slot, a) != hint)) break;
        sectors |= bit;
      }
      request(first, last, line * specs_.l2.line_bytes, sectors, hint);
    }
  }

  // Calls run(begin, end, line) for each run sectors_[begin, end) of pieces on one line of
  // `cache`, in order (gather_sectors leaves sectors_ in address order).
  template <class Run>
  void for_each_line_run(const SectorCache& cache, Run run) const {
    for (std::uint32_t i = 0, end = 0; i < sectors_.count; i = end) {
      const std::uint64_t line = cache.line_of(sectors_.address[i]);
      const std::uint64_t next_line_start = (line + 1) * cache.line_bytes();
      if (sectors_.consecutive) {  // the run's sectors follow each other up to the line's end
        const std::uint64_t left = next_line_start - sectors_.address[i];
        end = static_cast<std::uint32_t>(
            std::min<std::uint64_t>(sectors_.count, i + (left + memory::kSectorBytes - 1) / memory::kSectorBytes));
      } else {
        for (end = i + 1; end < sectors_.count && sectors_.address[end] < next_line_start;) ++end;
      }
      run(i, end, line);
    }
  }

  // All of sectors_ through a sectored cache (Hopper's L1, Kepler's read-only cache), one line at
  // a time. Returns when the last sector's data is back.
  sim::Cycle sectors_through(std::uint32_t sm, SectorCache& cache, std::uint32_t kernel_slot, sim::Cycle t,
                             LineClass cls);

  // The 32-byte pieces sectors_[begin, end), all on one line of `cache`, in address order. A
  // piece whose cache sector is present is a hit (waiting for its fill if that is still under
  // way). The first piece of a missing cache sector reads it from L2 (the misses of the line in
  // as few requests as for_each_l2_request makes), and the sector records when its fill
  // arrives, so later misses merge with it -- including the later pieces of this instruction
  // that fall in the same cache sector (a sector wider than 32 bytes): they are hits on that fill.
  // Worked per cache sector (a hit sector answers the same for each of its pieces), so the
  // pieces are walked once to find their sectors and once more only when some miss.
  sim::Cycle line_sectors_through(std::uint32_t sm, SectorCache& cache, std::uint32_t kernel_slot, std::uint32_t begin,
                                  std::uint32_t end, std::uint64_t line_number, sim::Cycle t, LineClass cls);

  // Whether each 32-byte piece is a sector of `cache` and of the L2, and each line of `cache` lies
  // inside one L2 line.
  bool sectors_are_l2_sectors(const SectorCache& cache) const {
    return cache.sector_bytes() == memory::kSectorBytes && specs_.l2.sector_bytes == memory::kSectorBytes &&
           specs_.l2.line_bytes % cache.line_bytes() == 0;
  }

  // The latest of `ready` and the fill cycles of `line`'s sectors in `sectors`.
  static sim::Cycle latest_fill(const SectorCache& cache, const SectorCache::Line& line, std::uint32_t sectors,
                                sim::Cycle ready) {
    for (std::uint32_t bits = sectors; bits != 0; bits &= bits - 1)
      ready = std::max(ready, cache.sector_ready(line, static_cast<std::uint32_t>(__builtin_ctz(bits))));
    return ready;
  }

  // One 128-byte line through Fermi's L1: a miss fetches all of the line's L2 sectors, in as few
  // L2 requests as for_each_l2_request makes.
  sim::Cycle line_through(std::uint32_t sm, SectorCache& cache, std::uint32_t kernel_slot, std::uint64_t line_address,
                          sim::Cycle t);

  // The access paths below walk sectors_, which access() has gathered for the instruction.
  MemoryAccessResult global_load(std::uint32_t sm, std::uint32_t kernel_slot, const Instruction& inst,
                                 sim::Cycle now);

  void count_sector_transactions(std::uint64_t& transactions, std::uint64_t& moved) const {
    transactions += sectors_.count;
    moved += std::uint64_t{sectors_.count} * memory::kSectorBytes;
  }

  // S3.4: stores never allocate in L1 and invalidate a line they hit (Fermi; presets with
  // l1.stores_allocate allocate instead, allocate_in_l1); they go to L2 in 32-byte segments.
  // Fermi/Kepler group them into 1/2/4-segment transactions, each pass a replay; on a sectored L1
  // (Hopper) ncu counts sectors and the LSU handles one 128-byte line per pass.
  MemoryAccessResult global_store(std::uint32_t sm, std::uint32_t kernel_slot, sim::Cycle now);

  // l1.stores_allocate (Volta and later): the L1 writes stores through to L2 and allocates their
  // line without fetching it. ncu counts a store sector as an L1 hit when its line is resident,
  // whichever of its sectors are valid: persist_10MB.csv's l1tex__t_sector_hit_rate is 50.1%
  // (every store sector hits the line its own warp loaded), and offset.csv's writeOffset at
  // offset 16 hits 13.6% although no two warps store to one sector (a warp finds the line its
  // neighbour's store allocated), 0 at line-aligned offsets. Sectors the store writes whole
  // become valid in L1 (their data is all there); a partly written one stays as it was, so a
  // later load of it fetches it from L2. Returns the store sectors that hit.
  std::uint32_t allocate_in_l1(std::uint32_t sm, sim::Cycle t);

  // The sectors of `cache` (bit s = sector s of their line) that the pieces sectors_[begin, end),
  // all on one line, write entirely: every 32-byte piece of the sector, every byte of each.
  std::uint32_t sectors_written_whole(const SectorCache& cache, std::uint32_t begin, std::uint32_t end) const;

  void invalidate_in_l1(std::uint32_t sm);

  // Atomics are performed at L2: each sector is read (a miss fetches it) and written back dirty.
  // They are neither gld nor gst requests in ncu's counting.
  MemoryAccessResult global_atomic(std::uint32_t sm, std::uint32_t kernel_slot, sim::Cycle now);

  // Local memory (register spills) is cached in L1 on every preset (S3.5: even Kepler's L1 holds
  // it); it is not global traffic in ncu's counters. Stores write through to L2.
  MemoryAccessResult local(std::uint32_t sm, const Instruction& inst, sim::Cycle now);

  // S3.10: one pass per conflicting word in the busiest bank. Counts into `counters`.
  MemoryAccessResult shared(const Instruction& inst, sim::Cycle now, MemoryCounters& counters) const;

  static bool uniform_address(const Instruction& inst) {
    std::uint32_t mask = inst.active_mask;
    if (mask == 0) return false;
    if (inst.lane_linear) return (mask & (mask - 1)) == 0;  // consecutive elements: one lane or distinct
    const std::uint64_t first = inst.addr[static_cast<std::size_t>(__builtin_ctz(mask))];
    if (mask == traces::kFullMask) {
      // The common case, branch-free: a few vector operations instead of a branch per lane.
      std::uint64_t differs = 0;
      for (std::size_t lane = 0; lane < traces::kWarpSize; ++lane) differs |= inst.addr[lane] ^ first;
      return differs == 0;
    }
    for (; mask != 0; mask &= mask - 1)
      if (inst.addr[static_cast<std::size_t>(__builtin_ctz(mask))] != first) return false;
    return true;
  }

  // The constant cache broadcasts one address per pass; distinct addresses serialise. Constants
  // are resident, at the L1's hit latency: so are kernel parameters on the H100 (a store to a
  // parameter's address adds 16 ns to an empty kernel, h100-measured/launch_path_*.csv), and the
  // traces mark no other bank; a program's own __constant__ arrays miss to L2 at a launch's first
  // read (+144 ns, +336 after ncu's flush), which is not modelled.
  MemoryAccessResult constant(const Instruction& inst, sim::Cycle now, MemoryCounters& counters) const;

  void register_stats(sim::StatsRegistry& stats);

  static constexpr std::uint32_t kLsuLineBytes = 128;
  static constexpr std::uint32_t kWholeSector = 0xffffffffu;  // SectorSet::used: all 32 bytes
  static constexpr std::uint32_t kNoWindow = 0xffffffffu;  // local memory: never in a window

  const MemorySystemSpecs specs_;
  std::unique_ptr<memory::DramModel> dram_;  // the preset's dram.model
  memory::L2Cache l2_;
  memory::PersistencePolicy policy_;
  bool sectored_l1_;
  sim::ZeroPagesArena caches_arena_;  // the words of l1_ and readonly_: declared first, goes last
  std::vector<SectorCache> l1_, readonly_;
  std::vector<sim::Cycle> l1_free_;
  std::vector<std::uint8_t> near_;  // by SM: the L2 partition it is near (L2Spec::partition_near)
  LoadPath load_path_[4] = {};
  mutable MemoryCounters counters_;
  sim::Attribution<MemoryCounters> by_kernel_;
  // One SM's counts of a window, by kernel slot in the order its accesses charged them, while
  // SMs tick at once (count_sm_accesses_later).
  struct alignas(64) SmCounts {
    struct Run {
      std::uint32_t slot;
      MemoryCounters counts;
    };
    std::vector<Run> runs;
    MemoryCounters& of(std::uint32_t slot) {
      if (runs.empty() || runs.back().slot != slot) runs.push_back({slot, {}});
      return runs.back().counts;
    }
  };
  std::vector<SmCounts> sm_counts_;  // by SM; empty unless count_sm_accesses_later()
  // Scratch for the instruction being handled (no allocation per access).
  memory::SectorSet sectors_;
  memory::BlockList blocks_;
  memory::StoreTransactionList stores_;
};

}  // namespace warpsim::models::gpu_memory

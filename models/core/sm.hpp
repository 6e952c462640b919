#pragma once
// One streaming multiprocessor (SPEC S1, S2): resident blocks and warps, warp schedulers with one
// or two dispatch units, execution-unit issue limits, per-warp scoreboards, block barriers.
// It ticks only while some warp can issue; otherwise it sleeps until the first scoreboard entry
// it waits on becomes ready, a finished block's memory operations complete, or the GigaThread
// engine hands it a block.
#include <algorithm>
#include <array>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "models/core/dispatch_spec.hpp"
#include "models/core/sm_spec.hpp"
#include "models/core/units_spec.hpp"
#include "models/core/access_log.hpp"
#include "models/core/issue_policies.hpp"
#include "models/core/stall_reason.hpp"
#include "models/core/unit_pool.hpp"
#include "models/core/warp.hpp"
#include "models/core/warp_scan.hpp"
#include "models/core/warp_slots.hpp"
#include "models/core/warp_timeline.hpp"
#include "models/memory/memory_system.hpp"
#include "models/occupancy.hpp"
#include "sim/attribution.hpp"
#include "sim/clocked_component.hpp"
#include "sim/stats.hpp"

namespace warpsim::models {

// Told when a block has retired, so its resources can go to the next one.
class BlockRetireListener {
 public:
  virtual ~BlockRetireListener() = default;
  // Called once the block's warps have exited and its memory operations have completed. The
  // block still holds its resources: the listener gives them back with Sm::release_block when
  // its own clock reaches `now` (the SM may have ticked past `now` by then, sm.hpp).
  virtual void on_block_retired(std::uint32_t sm, std::uint32_t block, std::uint32_t kernel_slot, sim::Cycle now) = 0;
};

struct SmCounters {
  std::uint64_t instructions = 0;  // warp instructions issued
  std::uint64_t active_lanes = 0;  // lanes that executed them (S1.3: dummy lanes never do)
  std::uint64_t issue_events = 0;  // scheduler-cycles that issued one or two instructions
  std::uint64_t dual_issues = 0;   // of those, the ones that issued two (S2.3)
  std::uint64_t state_cycles[kSchedulerStateCount] = {};
  // Sum over cycles of active warps (achieved occupancy): a warp from the cycle it starts (its
  // place in the block's launch sequence, not while the block waits to start) until the last warp
  // of its block exits. The per-warp records of readOffset at n = 2^26 (h100-measured/
  // timeline_cold.csv.xz) gave 0.578 of the slots from the warps' own windows and 0.765 from their
  // blocks' spans where ncu counted 0.756, and h100-apps' occupancy rows agree this way. A later
  // probe (store_acks.cu, analysis/validation/store_acks.py) finds ncu counting each warp to its
  // own exit in eight launches, and the H100 not holding a finished block's slot for its stores as
  // this model does (Sm::tick); this rule stands in until both change together (docs/model.md,
  // "Occupancy as ncu counts it"). dispatch.warps_counted_to_block_end off counts each warp to
  // its own exit, dispatch.block_waits_for_stores off frees the slot without the stores.
  std::uint64_t warp_cycles = 0;
  std::uint64_t active_cycles = 0;  // cycles with at least one resident warp
  std::uint64_t blocks = 0;         // blocks run to completion
  // Issue slots each execution-unit class gave (traces::Unit order): one per instruction, and a
  // memory instruction's replays too (S3.1), as the unit pools are charged.
  std::uint64_t pipe_slots[traces::kUnitCount] = {};
};

// The SM counters that belong to one warp's work, so they split exactly among kernels that
// share the SM (Sm::launch_counts): instructions, lanes, issues and warp-cycles of SmCounters.
struct SmLaunchCounts {
  std::uint64_t instructions = 0, active_lanes = 0, issue_events = 0, dual_issues = 0, warp_cycles = 0;
  std::uint64_t pipe_slots[traces::kUnitCount] = {};
};

class Sm final : public sim::ClockedComponent {
 public:
  static constexpr std::uint32_t kMaxSchedulers = SmSpec::kMaxSchedulers;

  // The SMs of a GPU tick through one group (`ticks`), each through a whole window of it before
  // the next (sim/tick_group.hpp); accesses to the memory system's shared state wait in `log`
  // until the window closes (access_log.hpp), and come back through answer() and settle().
  // Built from its own spec and its units' (`spec`, `units`, which outlive it), and the SM's side
  // of dispatch (`dispatch`: a block's warps' start interval, its retirement).
  Sm(sim::Engine& engine, sim::TickGroup& ticks, sim::ClockDomain clock, const SmSpec& spec, const UnitsSpec& units,
     const DispatchSpec& dispatch, std::uint32_t id, MemorySystem& memory, AccessLog& log,
     BlockRetireListener& listener, sim::StatsRegistry& stats, sim::ZeroPagesArena& warp_slots_arena);
  // The warp slots an SM of `spec` has (each scheduler's slots rounded up to a multiple of 4 for
  // the scans: scheduler_width), and what they take of the arena its warp slots come from.
  static std::uint32_t scheduler_width(const SmSpec& spec);
  static std::size_t warp_slot_count(const SmSpec& spec);
  static std::size_t warp_slots_arena_bytes(const SmSpec& spec) { return WarpSlots::arena_bytes(warp_slot_count(spec)); }

  bool fits(const BlockFootprint& block) const;
  // Gives a retired block's resources back (BlockRetireListener).
  void release_block(std::uint32_t block);
  // Takes the block's resources now; its warps join the schedulers at cycle `start`, when the
  // first of them may issue. `block_id`: its linear id in the grid (for the timeline).
  void launch_block(std::uint32_t kernel_slot, const BlockFootprint& footprint,
                    std::vector<std::unique_ptr<traces::WarpStream>> warps, sim::Cycle start,
                    std::uint64_t block_id = 0);
  // Records every warp's start and exit into `timeline` from now on (nullptr: stops).
  void record_timeline(WarpTimeline* timeline) { timeline_ = timeline; }
  // Closes the books at the end of the run: stall states and occupancy up to `end`.
  void finish(sim::Cycle end);
  // Brings the stall states and active cycles up to `at` without ending the run, so that the
  // counters read then cover exactly [0, at): for per-launch accounts taken between launches.
  // Changes no result: the cycles are only counted sooner.
  void close_books(sim::Cycle at);
  // The warp-cycles up to `at` of the blocks still resident (their exited warps too), which
  // SmCounters::warp_cycles counts only when the block ends: a reading of occupancy in the middle
  // of a run (sampled simulation).
  std::uint64_t live_warp_cycles(sim::Cycle at) const;
  // The SmLaunchCounts of kernel slot `slot`'s warps on this SM.
  SmLaunchCounts launch_counts(std::uint32_t slot) const { return by_launch_.of(slot, launch_totals()); }

  // The window [.., window_end) has closed. answer(): the memory system's answer to one of this
  // SM's accesses of the window. settle(): after the answers, what waited on them is decided.
  void answer(const DeferredAccess& access);
  // run --timeline: notes when a load of a warp's first two had its data (WarpRecord).
  void record_load_data(const DeferredAccess& access);
  void settle(sim::Cycle window_end);
  bool needs_settling() const { return needs_settling_; }

  const SmCounters& counters() const { return counters_; }
  std::uint32_t resident_warps() const { return resident_warps_; }
  bool has_pending_work() const override {
    return resident_warps_ > 0 || !retire_queue_.empty() || !arrivals_.empty();
  }
  void prefetch() const override;
  std::string waiting_for() const override;

 protected:
  bool tick(sim::Cycle now) override;

 private:
  // One warp scheduler: what it looks at every cycle, as bit masks over its warps (bit i = warp
  // index i) and contiguous arrays (ready_at_ ...), kept apart from the large Warp objects so
  // that finding an issuable warp is a branch-free pass over 16 ready stamps and a few word
  // operations (S2.1, S2.6); and where it stands, all in one small block of host memory.
  struct Scheduler {
    std::uint64_t active = 0;
    std::uint64_t at_barrier = 0;
    std::uint64_t operands_pending = 0;  // ready_at comes from an operand, not launch or a barrier
    std::uint64_t waits_on_memory = 0;   // ... and that operand comes from a load
    // The first cycle its scan could find something new: after it issues, the next cycle; after
    // it stalls, when its closest warp's operands land. Until then its state stands and the scan
    // is skipped; launches and barrier releases pull it earlier.
    sim::Cycle recheck_at = kNever;
    sim::Cycle state_since = 0;
    IssuePolicies::States policy;   // what the issue policy remembers (issue_policies.hpp)
    SchedulerState state = SchedulerState::Idle;
    bool undecided = false;         // `state` stands in until settle() (undecided_ says more)
  };

  struct Block {
    bool active = false;
    std::uint32_t kernel_slot = 0;
    BlockFootprint footprint;
    std::uint32_t warps_total = 0, warps_finished = 0, warps_at_barrier = 0;
    sim::Cycle last_memory_ready = 0;  // its last load's data back, its last store acknowledged
    // Its exited warps' start cycles, summed: achieved occupancy counts a warp until its block's
    // last warp exits (dispatch.warps_counted_to_block_end; off, until its own exit, as ncu does:
    // SmCounters::warp_cycles).
    std::uint64_t exited_warp_starts = 0;
    sim::Cycle start = 0;              // its first warp may issue (later ones follow, S1.1)
    std::uint64_t id = 0;              // its linear id in the grid
    std::vector<std::unique_ptr<traces::WarpStream>> arriving;  // its warps, from dispatch until start
  };

  // A scheduler that finds nothing to issue sleeps until its closest warp can go, and records why
  // it waits (the stall breakdown). When that warp lies at or after the window's end, it may be
  // waiting on an access of this window whose answer is not known yet (its stamp holds the
  // window's end meanwhile), so the decision waits for settle(): the warps it chooses among
  // cannot change before then, since none of them can issue inside the window.
  struct Undecided {
    bool unit_busy = false;    // the stall's reason is a busy unit; only the wake-up waits
    bool after_issue = false;  // the stall may not start at `from` (issued warp's next is due then)
    sim::Cycle from = 0;       // the stall's first cycle
    sim::Cycle unit_free = 0;  // with unit_busy: when the unit has room
    std::uint64_t candidates = 0;  // the warps the closest is chosen among
  };
  struct ClosedUndecided {
    std::uint32_t scheduler;
    sim::Cycle until;  // woken inside the window (a barrier released) at this cycle
    Undecided what;
  };
  // Warp slots are numbered scheduler by scheduler: warp i of scheduler s is slot
  // s * width_ + i, the same index in warps_ and in the arrays the scans read, so the hot path
  // never divides by the scheduler count to find a warp's scheduler (S1.4 decides which
  // scheduler a warp joins, launch_block).
  std::uint32_t slot_of(std::uint32_t scheduler, std::uint32_t index) const { return scheduler * width_ + index; }
  // Each scheduler's occupied warp indices, and the slot a block's next warp takes given them.
  using ActiveMasks = std::array<std::uint64_t, kMaxSchedulers>;
  ActiveMasks active_masks() const;
  std::uint32_t free_slot(const ActiveMasks& active, std::uint32_t from) const;
  void arrive(std::uint32_t block, sim::Cycle now);  // places a dispatched block's warps
  // Asks the due schedulers in `order` (bit k: scheduler (first + k) % n is due) to issue, with
  // the issue policy `Policy`; whether any did. The SM picks its instance once (issue_due_for).
  template <IssuePolicy Policy>
  bool issue_due(std::uint32_t order, std::uint32_t first, sim::Cycle now);
  using IssueDue = bool (Sm::*)(std::uint32_t order, std::uint32_t first, sim::Cycle now);
  static IssueDue issue_due_for(std::uint32_t policy);
  template <IssuePolicy Policy>
  bool issue_from(std::uint32_t scheduler, sim::Cycle now);
  // The waiting warp (in `candidates`) whose operands land first.
  Earliest closest(std::uint32_t scheduler, std::uint64_t candidates) const {
    return earliest(&ready_at_[std::size_t(scheduler) * width_], width_, candidates);
  }
  sim::Cycle cycle_of(const Earliest& e) const { return stamps_.cycle(e.ready); }
  SchedulerState stall_reason(std::uint32_t scheduler, const Earliest& c) const;
  // The stall reason of a scheduler with runnable warps: what its closest warp `c` waits for.
  SchedulerState operand_stall(std::uint32_t scheduler, const Earliest& c) const;
  void recheck(std::uint32_t scheduler, sim::Cycle at) {
    sim::Cycle& r = sched_[scheduler].recheck_at;
    r = std::min(r, at);
  }
  bool is_at_barrier(std::uint32_t scheduler, std::uint32_t index) const {
    return (sched_[scheduler].at_barrier >> index & 1u) != 0;
  }
  // Head instruction of warp `index` of `scheduler` changed or became ready at `ready`: refresh
  // what the scheduler scans.
  void set_head(std::uint32_t scheduler, std::uint32_t index, sim::Cycle ready, bool operands_pending,
                bool waits_on_memory);
  bool try_dual_issue(Warp& warp, std::uint32_t scheduler, std::uint32_t index, sim::Cycle now);
  void issue(Warp& warp, std::uint32_t scheduler, std::uint32_t index, sim::Cycle now);
  // The warp issued at `now`; its next instruction becomes its head. `branch_pc`: the pc of the
  // branch it issued last (kNoBranch if none), which costs latency.taken_branch if taken.
  void advance(Warp& warp, std::uint32_t scheduler, std::uint32_t index, sim::Cycle now, std::uint32_t branch_pc);
  static constexpr std::uint32_t kNoBranch = ~std::uint32_t{0};
  // `in`'s pc if it may branch (a control instruction that neither exits nor waits at a
  // barrier: BRA, BRX, JMP, ... and the reconvergence and fence instructions, which go on to the
  // next pc) and the preset gives taken branches a cost; kNoBranch otherwise.
  std::uint32_t branch_at(const traces::InstructionHead& in) const {
    return units_.taken_branch != 0 && in.unit == traces::Unit::Control && in.control == traces::Control::None ? in.pc
                                                                                                            : kNoBranch;
  }
  void arrive_at_barrier(Block& block, sim::Cycle now);
  void release_barrier_if_complete(Block& block, sim::Cycle now);
  void retire_warp(std::uint32_t scheduler, std::uint32_t index, sim::Cycle now);
  // Block `b`'s last warp has exited at `now`: it retires once reported done (block_retire_cycles)
  // and its memory operations have completed.
  void block_exited(std::uint32_t b, sim::Cycle now);
  void set_state(std::uint32_t scheduler, SchedulerState state, sim::Cycle now);
  // Stall decisions that wait for the window's memory answers (see Undecided).
  bool decided(std::uint32_t scheduler, const Earliest& closest) const;
  void leave_undecided(std::uint32_t scheduler, bool unit_busy, sim::Cycle unit_free, bool after_issue,
                       sim::Cycle from, std::uint64_t candidates);
  SchedulerState resolve(std::uint32_t scheduler, const Undecided& undecided, const Earliest& c) const;
  // Recomputes a warp's head stamp after answers changed its scoreboard, as the advance (or the
  // barrier release) that set it would have with the answers known.
  void refresh_head(Warp& warp, std::uint32_t scheduler, std::uint32_t index);
  void change_resident_warps(int delta, sim::Cycle now);
  // The warp-cycles up to `at` of the exited warps of blocks that still run (SmCounters::warp_cycles).
  std::uint64_t exited_warp_cycles(sim::Cycle at) const;
  // What follows in SmLaunchCounts belongs to kernel slot `slot` (its warp issues or retires).
  void charge(std::uint32_t slot) {
    if (slot != by_launch_.charged()) [[unlikely]]
      by_launch_.charge(slot, launch_totals());
  }
  SmLaunchCounts launch_totals() const {
    SmLaunchCounts c{counters_.instructions, counters_.active_lanes, counters_.issue_events, counters_.dual_issues,
                     counters_.warp_cycles};
    std::copy(std::begin(counters_.pipe_slots), std::end(counters_.pipe_slots), c.pipe_slots);
    return c;
  }
  UnitPool& pool(std::uint32_t scheduler, traces::Unit unit) { return pools_of(scheduler)[static_cast<int>(unit)]; }
  UnitPool* pools_of(std::uint32_t scheduler) { return &pools_[(spec_.units_per_scheduler ? scheduler : 0) * traces::kUnitCount]; }

  const SmSpec& spec_;
  const UnitsSpec& units_;
  const DispatchSpec& dispatch_;
  const std::uint32_t id_;
  MemorySystem& memory_;
  AccessLog& log_;
  const sim::TickGroup& ticks_;
  BlockRetireListener& listener_;
  const int buffer_depth_;  // 2 when the preset can dual-issue, else 1
  const IssueDue issue_due_;  // issue_due for the preset's sm.scheduler_policy

  const std::uint32_t per_scheduler_;                 // warp slots per scheduler
  const std::uint32_t width_;                         // per_scheduler_ rounded up to a multiple of 4 (warp_scan.hpp)
  WarpSlots warps_;                                   // slot -> warp (slot_of)
  std::vector<Scheduler> sched_;                      // scheduler -> its masks and standing
  ReadyStamps stamps_;                                // ready cycles <-> the stamps below
  // When each warp's head instruction may issue, as a stamp, by slot; a scheduler's warps are
  // width_ consecutive entries (slots past per_scheduler_ hold kNeverStamp).
  std::vector<Stamp> ready_at_;
  // Only warps that could issue hold a stamp in ready_at_: an empty slot and a warp waiting at a
  // barrier read kNeverStamp, so a look's minimum needs no mask. The waiting warp's head stamp
  // is kept here until the barrier releases.
  std::vector<Stamp> barrier_ready_at_;
  std::vector<traces::Unit> head_unit_;               // by slot: unit of the head instruction
  std::vector<std::uint64_t> age_;                    // by slot: dispatch order, for gto
  std::vector<Block> blocks_;
  std::vector<UnitPool> pools_;                       // [pool group][unit]
  std::vector<std::uint32_t> retire_queue_;           // blocks whose warps all exited, until their memory completes
  std::deque<std::uint32_t> arrivals_;                // dispatched blocks not started, in dispatch (and start) order
  bool heads_changed_ = false;  // an issue released a barrier: other warps' stamps moved

  // What waits for the window's memory answers (settle()).
  std::vector<Undecided> undecided_;     // by scheduler: its current stall's
  std::vector<ClosedUndecided> closed_undecided_;
  std::vector<std::uint32_t> answered_;  // slots of warps whose scoreboard got answers this window
  bool needs_settling_ = false;

  std::uint32_t used_threads_ = 0, used_warps_ = 0, used_blocks_ = 0, used_registers_ = 0, used_shared_ = 0;
  std::uint32_t resident_warps_ = 0;
  std::uint32_t next_scheduler_ = 0;
  std::uint64_t warps_launched_ = 0;
  sim::Cycle occupancy_since_ = 0;
  SmCounters counters_;
  WarpTimeline* timeline_ = nullptr;  // run --timeline
  // run --timeline: per warp slot, when its warp's first two memory-system loads' data came back
  // (WarpRecord::first_data, second_data); empty when no timeline is recorded.
  std::vector<std::array<sim::Cycle, 2>> load_data_;
  sim::Attribution<SmLaunchCounts> by_launch_;  // SmLaunchCounts split by kernel slot
};

}  // namespace warpsim::models

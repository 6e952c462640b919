// The metrics of CONTRACT.md with their Nsight Compute counterparts.
#include "models/metric_info.hpp"

#include <string>

#include "models/simulate.hpp"

namespace warpsim::models {

const std::vector<MetricInfo>& metric_infos() {
  // ncu names as `ncu --query-metrics` spells them; where only nvprof (Fermi, Kepler) had one, its
  // name; "-" where the hardware counts nothing comparable, with the reason.
  static const std::vector<MetricInfo> infos = {
      {"warp_instructions", "smsp__inst_executed.sum", "warp instructions issued (a dual-issued pair counts two)",
       "instructions"},
      {"ipc", "sm__inst_executed.avg.per_cycle_elapsed",
       "warp instructions per elapsed cycle per SM (cycles from the launch, kernel start time included)",
       "instructions/cycle/SM"},
      {"achieved_occupancy", "sm__warps_active.avg.pct_of_peak_sustained_active / 100",
       "warps active (from their first issue cycle to their exit), averaged over the cycles each SM had a "
       "resident warp, over the SM's warp slots",
       "fraction"},
      {"dual_issue_fraction", "- (nvprof on Kepler: inst_issued2 / (inst_issued1 + inst_issued2))",
       "scheduler-cycles that issued two instructions, of those that issued any (S2.3); 0 on presets without dual "
       "issue",
       "fraction"},
      {"gld_requests", "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
       "global load warp instructions with an active lane", "requests"},
      {"gld_sectors", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
       "distinct 32-byte sectors global loads touch, per instruction", "sectors"},
      {"gld_transactions", "nvprof gld_transactions (on a sectored L1, Volta on: the sectors above)",
       "global load accesses to the next level: 128-byte lines on a caching L1 (Fermi), else 32-byte sectors",
       "transactions"},
      {"gld_efficiency", "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct",
       "bytes the lanes of global loads use / bytes their transactions move (S3.7)", "%"},
      {"gst_requests", "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
       "global store warp instructions with an active lane", "requests"},
      {"gst_sectors", "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
       "distinct 32-byte sectors global stores touch, per instruction", "sectors"},
      {"gst_transactions", "nvprof gst_transactions (on a sectored L1: the sectors above)",
       "global store transactions to L2: S3.4's 1/2/4-segment transactions (Fermi, Kepler), else sectors",
       "transactions"},
      {"gst_efficiency", "smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct",
       "bytes the lanes of global stores write / bytes their transactions move (S3.7)", "%"},
      {"l1_hit_rate", "l1tex__t_sector_hit_rate.pct",
       "L1 (or read-only cache) sector lookups that hit; on a sectored L1 store sectors are lookups too, hits "
       "where their line is resident",
       "%"},
      {"l2_hit_rate", "lts__t_sector_hit_rate.pct",
       "L2 sector lookups that hit (loads, stores, atomics; a sector still being filled is a miss)", "%"},
      {"dram_read_bytes", "dram__bytes_read.sum", "bytes read from DRAM (L2 fills)", "bytes"},
      {"dram_write_bytes", "dram__bytes_write.sum",
       "bytes written to DRAM (L2 write-backs while the run lasts; not the dirty lines left at its end)", "bytes"},
      {"shared_bank_conflicts",
       "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum + l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
       "extra shared-memory passes caused by bank conflicts (S3.10)", "passes"},
      {"replays", "- (nvprof on Fermi and Kepler: inst_issued - inst_executed, which also counts other replays)",
       "extra LD/ST passes beyond the first of memory instructions (S3.1)", "passes"},
      {"stall_no_eligible",
       "- (ncu samples warps, smsp__pcsamp_warps_issue_stalled_*; these are scheduler-cycles)",
       "scheduler-cycles with resident warps none of which had an instruction to try", "fraction"},
      {"stall_alu_dependency", "- (as stall_no_eligible)",
       "scheduler-cycles not issuing while the closest warp waited on an arithmetic result", "fraction"},
      {"stall_memory_dependency", "- (as stall_no_eligible)",
       "scheduler-cycles not issuing while the closest warp waited on a load", "fraction"},
      {"stall_unit_busy", "- (as stall_no_eligible)",
       "scheduler-cycles not issuing while a ready warp's execution unit was taken", "fraction"},
      {"stall_barrier", "- (as stall_no_eligible)", "scheduler-cycles whose every warp waited at a barrier",
       "fraction"},
      {"stall_idle",
       "- (1 - the sum of all stall_* is the issuing share, ncu's smsp__issue_active.avg.pct_of_peak_sustained_elapsed "
       "/ 100)",
       "scheduler-cycles with no resident warp", "fraction"},
      {"lane_efficiency", "smsp__thread_inst_executed_pred_on.sum / (32 x smsp__inst_executed.sum) x 100",
       "lanes that executed of the 32 of each issued warp instruction (dummy and predicated-off lanes did not)",
       "%"},
      // The bound of a run (models/bound/, docs/limiter.md). Utilisations are of the preset's peaks over
      // the elapsed cycles, kernel start included, as ncu's pct_of_peak_sustained_elapsed.
      {"theoretical_occupancy", "sm__maximum_warps_per_active_cycle_pct / 100",
       "warps per SM the occupancy calculator allows the launch's block (S1.1), of the SM's warp slots; the "
       "resource that caps it is occupancy_limit (a run of several launches: its longest launch's)",
       "fraction"},
      {"waves", "launch__waves_per_multiprocessor",
       "thread blocks / (SMs x blocks per SM the occupancy calculator allows)", "waves"},
      {"utilization_issue", "smsp__issue_active.avg.pct_of_peak_sustained_elapsed / 100 (= sm__inst_issued on Hopper)",
       "scheduler-cycles that issued, of all scheduler-cycles", "fraction"},
      {"utilization_int", "sm__inst_executed_pipe_alu.avg.pct_of_peak_sustained_elapsed / 100 (a different split of "
       "instructions into pipes)",
       "issue slots of the INT unit class, of its lanes / 32 a cycle per SM (S2.5)", "fraction"},
      {"utilization_fp32", "sm__inst_executed_pipe_fma.avg.pct_of_peak_sustained_elapsed / 100",
       "issue slots of the FP32 unit class, of its lanes / 32 a cycle per SM", "fraction"},
      {"utilization_fp64", "sm__inst_executed_pipe_fp64.avg.pct_of_peak_sustained_elapsed / 100",
       "issue slots of the FP64 unit class, of its lanes / 32 a cycle per SM", "fraction"},
      {"utilization_sfu", "sm__inst_executed_pipe_xu.avg.pct_of_peak_sustained_elapsed / 100",
       "issue slots of the SFU class, of its lanes / 32 a cycle per SM", "fraction"},
      {"utilization_ldst", "sm__inst_executed_pipe_lsu.avg.pct_of_peak_sustained_elapsed / 100",
       "issue slots of the LD/ST units, replays included (S3.1), of their lanes / 32 a cycle per SM", "fraction"},
      {"utilization_tensor", "sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_elapsed / 100",
       "issue slots of the tensor unit class, of its lanes / 32 a cycle per SM", "fraction"},
      {"utilization_control", "sm__inst_executed_pipe_cbu.avg.pct_of_peak_sustained_elapsed / 100",
       "issue slots of branches and other control instructions, of their lanes / 32 a cycle per SM", "fraction"},
      {"utilization_l1_wavefronts",
       "l1tex__data_pipe_lsu_wavefronts.avg.pct_of_peak_sustained_elapsed / 100 (ncu also counts each missed "
       "line's fill)",
       "LSU passes through L1 (global and local loads, stores, atomics: one 128-byte line each), of one a cycle "
       "per SM",
       "fraction"},
      {"utilization_l1_sectors", "l1tex__t_sectors.avg.pct_of_peak_sustained_elapsed / 100",
       "L1 sector lookups, of a 128-byte line's sectors a cycle per SM", "fraction"},
      {"utilization_shared", "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum.pct_of_peak_sustained_elapsed / 100",
       "shared-memory wavefronts, bank conflicts included (S3.10), of one a cycle per SM", "fraction"},
      {"utilization_l2",
       "lts__t_sectors_srcunit_tex.sum / (L2 slices x sm__cycles_elapsed.avg x the preset's sectors a cycle per "
       "slice); ncu's own pct_of_peak is of 2 sectors per L2 cycle (docs/limiter.md)",
       "L2 sector lookups (loads, stores, atomics), of the slices' port rate (l2.bytes_per_cycle_per_slice), "
       "averaged over the slices",
       "fraction"},
      {"utilization_dram", "gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed / 100",
       "DRAM bytes read and written, of the preset's bandwidth (bus width x data rate)", "fraction"},
  };
  return infos;
}

const std::vector<std::string>& text_metric_names() {
  static const std::vector<std::string> names = {"limiter", "limiter_evidence", "occupancy_limit"};
  return names;
}

std::string utilization_key(const std::string& metric) {
  static const std::string prefix = "utilization_";
  return metric.rfind(prefix, 0) == 0 ? metric.substr(prefix.size()) : std::string();
}

const std::vector<std::string>& metric_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const auto& m : metric_infos()) out.emplace_back(m.name);
    return out;
  }();
  return names;
}

bool exact_when_sampled(const std::string& name) {
  // Counts of instructions and of their accesses, which sampling walks for the blocks it skips
  // (models/sampling/block_walk.hpp), and ratios of two of them.
  static const char* const exact[] = {"warp_instructions", "gld_requests",     "gld_sectors",    "gld_transactions",
                                      "gld_efficiency",    "gst_requests",     "gst_sectors",    "gst_transactions",
                                      "gst_efficiency",    "shared_bank_conflicts", "replays",   "lane_efficiency"};
  for (const char* e : exact)
    if (name == e) return true;
  return false;
}

}  // namespace warpsim::models

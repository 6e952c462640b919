#pragma once
// The counters every H100 table holds exact: warp instructions and the coalescer's global
// load/store requests and sectors are counts of the kernel's own instructions and addresses
// (SPEC S3), not estimates. Each with its Nsight Compute column.
namespace warpsim::analysis {

struct ExactCounter {
  const char* ncu;
  const char* metric;
};
inline constexpr ExactCounter kExactCounters[] = {
    {"smsp__inst_executed.sum", "warp_instructions"},
    {"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", "gld_requests"},
    {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "gld_sectors"},
    {"l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", "gst_requests"},
    {"l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", "gst_sectors"},
};

}  // namespace warpsim::analysis

#pragma once
// The h100-apps validation table: six real programs traced and profiled on an H100
// (data/h100-apps/, copied from calibration/h100/apps), every launch simulated in Nsight
// Compute's measurement mode beside its ncu row.
#include "analysis/validation/validation.hpp"

namespace warpsim::analysis {

TableBuilder h100_apps_table();
// One program of data/h100-apps simulated on `arch` as ncu measured it (--ncu, --cache-control
// all): the request h100-apps makes, so another table that asks for it shares the run.
models::RunRequest apps_program_request(const std::string& program, const std::string& arch = "hopper-h100");

}  // namespace warpsim::analysis

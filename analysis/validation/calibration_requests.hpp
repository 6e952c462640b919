#pragma once
// The simulations behind rows of the H100 calibration tables (offset.csv, stride.csv,
// persist_10MB.csv and their h100-measured/ counterparts): a row's case and params as the kernel
// library's request. Tables that share a row ask for the same request, so a validate run
// simulates it once (RunCache).
#include <map>
#include <string>
#include <vector>

#include "models/simulate.hpp"

namespace warpsim::analysis {

models::RunRequest library_request(const std::string& arch, const std::string& kernel, std::vector<std::string> params);
// offset.csv / stride.csv rows: kernel, params "lg=26;bs=512;offset=1".
models::RunRequest calibration_request(const std::map<std::string, std::string>& row);
// persist_10MB.csv rows: params "persistMB=10;hitRatio=0.500;window=1".
models::RunRequest persist_request(const std::map<std::string, std::string>& row);

}  // namespace warpsim::analysis

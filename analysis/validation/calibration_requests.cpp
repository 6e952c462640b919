#include "analysis/validation/calibration_requests.hpp"

#include "analysis/validation/reference_data.hpp"

namespace warpsim::analysis {

models::RunRequest library_request(const std::string& arch, const std::string& kernel, std::vector<std::string> params) {
  models::RunRequest r;
  r.arch = arch;
  r.kernel = kernel;
  r.kernel_params = std::move(params);
  return r;
}

models::RunRequest calibration_request(const std::map<std::string, std::string>& row) {
  auto p = split_params(row.at("params"));
  std::vector<std::string> params{"n=" + std::to_string(1LL << std::stoi(p.at("lg"))), "block=" + p.at("bs")};
  if (p.count("offset")) params.push_back("offset=" + p.at("offset"));
  if (p.count("stride")) params.push_back("stride=" + p.at("stride"));
  return library_request("hopper-h100", row.at("kernel"), params);
}

models::RunRequest persist_request(const std::map<std::string, std::string>& row) {
  auto p = split_params(row.at("params"));
  std::vector<std::string> params{"persist_bytes=" + std::to_string(std::stoll(p.at("persistMB")) << 20)};
  if (p.at("window") == "1") {
    params.push_back("window_bytes=" + std::to_string(std::stoll(p.at("persistMB")) << 20));
    params.push_back("hit_ratio=" + p.at("hitRatio"));
    params.push_back("hit_prop=persisting");
    params.push_back("miss_prop=streaming");
  }
  return library_request("hopper-h100", "persistKernel", params);
}

}  // namespace warpsim::analysis

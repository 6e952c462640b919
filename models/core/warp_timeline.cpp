#include "models/core/warp_timeline.hpp"

#include <fstream>
#include <string>

#include "sim/errors.hpp"
#include "sim/output_file.hpp"

namespace warpsim::models {

void WarpTimeline::write_csv(const std::filesystem::path& path, const std::vector<std::uint32_t>& launch_numbers,
                             const std::string& origin) const {
  sim::check_output_file(path, origin);
  const std::filesystem::path target = sim::output_target(path);
  std::filesystem::path temporary = target;
  temporary += ".partial";
  {
    std::ofstream out(temporary);
    if (!out) throw sim::InputError(origin, "cannot write " + temporary.string());
    out << "launch,block,warp,smid,t_start,t_end,t_first_data,t_second_data\n";
    for (const WarpRecord& r : records_) {
      const std::uint32_t launch = r.kernel_slot < launch_numbers.size() ? launch_numbers[r.kernel_slot] : r.kernel_slot + 1;
      out << launch << ',' << r.block << ',' << r.warp << ',' << r.sm << ',' << r.start << ',' << r.exit << ',';
      if (r.first_data != WarpRecord::kNoData) out << r.first_data;
      out << ',';
      if (r.second_data != WarpRecord::kNoData) out << r.second_data;
      out << '\n';
    }
    if (!out.flush()) throw sim::InputError(origin, "cannot write " + temporary.string());
  }
  std::error_code error;
  std::filesystem::rename(temporary, target, error);
  if (error) throw sim::InputError(origin, "cannot write " + target.string() + ": " + error.message());
}

}  // namespace warpsim::models

#include "sweeps/result_checks.hpp"

#include "sim/errors.hpp"
#include "sweeps/result_file.hpp"

namespace warpsim::sweeps {

h5::Handle open_result_file(const std::string& where) {
  h5::Handle file = h5::open_file_readonly(where);
  if (H5Aexists(file, "schema") <= 0)
    throw sim::InputError(where, std::string("an HDF5 file but not a warpsim sweep result (no root attribute schema = ") +
                                     kResultSchema + ")");
  const std::string schema = h5::string_attribute(file, "schema");
  if (schema != kResultSchema)
    throw sim::InputError(where, "schema is '" + schema + "', this warpsim reads " + kResultSchema);
  return file;
}

void require_columns(hid_t file, const std::string& where, const std::vector<std::string>& names) {
  for (const auto& name : names)
    if (!h5::exists(file, name))
      throw sim::InputError(where, "not a complete warpsim sweep result (no column /" + name + ")");
}

void require_rows(const std::string& where, const std::string& name, std::size_t rows, std::size_t points) {
  if (rows != points)
    throw sim::InputError(where, "column /" + name + " has " + std::to_string(rows) + " rows, /point has " +
                                     std::to_string(points));
}

std::string read_config_text(hid_t file, const std::string& where) {
  require_columns(file, where, {"config"});
  const auto text = h5::read_strings(file, "config");
  if (text.size() != 1) throw sim::InputError(where, "/config is not one string");
  return text[0];
}

}  // namespace warpsim::sweeps

#include "analysis/report/result_table.hpp"

#include <hdf5.h>


#include "sim/errors.hpp"
#include "sweeps/h5_util.hpp"
#include "sweeps/points.hpp"
#include "sweeps/result_checks.hpp"
#include "sweeps/result_file.hpp"

namespace warpsim::analysis {
namespace fs = std::filesystem;
namespace h5 = sweeps::h5;

const Column& ResultTable::column(const std::string& name) const {
  auto it = columns.find(name);
  if (it == columns.end()) throw sim::InputError(file, "not a complete warpsim sweep result (no column /" + name + ")");
  return it->second;
}

const std::vector<std::string>& key_metric_names() {
  static const std::vector<std::string> names = {"ipc",           "achieved_occupancy", "gld_efficiency",
                                                 "gst_efficiency", "l2_hit_rate",       "dram_read_bytes",
                                                 "dram_write_bytes"};
  return names;
}

std::string column_name_of_setting(const std::string& setting) {
  return setting == "grid" ? "param." + setting : setting;
}

namespace {

// A 1-D dataset in the type it is stored as: integers as int64, floats as double, else strings.
Column read_column(hid_t file, const std::string& name) {
  h5::Handle d(H5Dopen2(file, name.c_str(), H5P_DEFAULT), H5Dclose, "open dataset " + name);
  h5::Handle type(H5Dget_type(d), H5Tclose, "get the type of " + name);
  switch (H5Tget_class(type)) {
    case H5T_INTEGER: return Column(h5::read_int64(file, name));
    case H5T_FLOAT: return Column(h5::read_double(file, name));
    case H5T_STRING: return Column(h5::read_strings(file, name));
    default: throw sim::InputError("", "column /" + name + " has a type a sweep never writes");
  }
}

std::int64_t int64_attribute(hid_t object, const std::string& name) {
  h5::Handle attr(H5Aopen(object, name.c_str(), H5P_DEFAULT), H5Aclose, "open attribute " + name);
  std::int64_t v = 0;
  h5::check(H5Aread(attr, H5T_NATIVE_INT64, &v), "read attribute " + name);
  return v;
}

ResultTable read_checked(const fs::path& path) {
  const std::string where = path.string();
  h5::Handle file = sweeps::open_result_file(where);

  ResultTable t;
  t.file = where;
  t.warpsim_version = h5::string_attribute_or(file, "warpsim_version", "");
  t.git_commit = h5::string_attribute_or(file, "git_commit", "");
  t.created_utc = h5::string_attribute_or(file, "created_utc", "");
  t.description = h5::string_attribute_or(file, "description", "");
  t.shard = h5::string_attribute_or(file, "shard", "");
  t.spec = sweeps::parse_spec_text(sweeps::read_config_text(file, where), where + ":/config");
  t.total_points = H5Aexists(file, "total_points") > 0 ? int64_attribute(file, "total_points")
                                                        : static_cast<std::int64_t>(t.spec.point_count());

  std::vector<std::string> names = {"point", "study", "arch", "kernel", "cycles", "time_ms", "status", "message"};
  for (const auto& m : key_metric_names()) names.push_back(m);
  for (const auto& p : sweeps::swept_parameter_names(t.spec)) names.push_back(column_name_of_setting(p));
  sweeps::require_columns(file, where, names);
  // Written by every build since the limiter existed; an older file reports without it.
  for (const char* optional : {"limiter", "limiter_evidence"})
    if (h5::exists(file, optional)) names.push_back(optional);
  for (const auto& name : names) t.columns.emplace(name, read_column(file, name));
  t.rows = t.columns.at("point").size();
  for (const auto& [name, column] : t.columns) sweeps::require_rows(where, name, column.size(), t.rows);
  return t;
}

}  // namespace

ResultTable read_result_table(const fs::path& path) {
  return h5::read_file_checked(path, [&] { return read_checked(path); });
}

}  // namespace warpsim::analysis

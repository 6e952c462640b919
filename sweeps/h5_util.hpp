#pragma once
// Thin RAII and typed helpers over the HDF5 C API, shared by the result writer, the grid writer
// and merge. Every dataset is chunked with shuffle + deflate; strings are variable-length UTF-8,
// which h5py, pandas (via h5py) and xarray (h5netcdf) all read as str.
#include <hdf5.h>

#include <cstdint>
#include <exception>
#include <filesystem>
#include <string>
#include <vector>

#include "sim/errors.hpp"

namespace warpsim::sweeps::h5 {

// Owns one hid_t and closes it with the matching H5?close.
class Handle {
 public:
  Handle() = default;
  Handle(hid_t id, herr_t (*close)(hid_t), const std::string& what);
  ~Handle();
  Handle(Handle&& o) noexcept;
  Handle& operator=(Handle&& o) noexcept;
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  hid_t id() const { return id_; }
  operator hid_t() const { return id_; }

 private:
  hid_t id_ = H5I_INVALID_HID;
  herr_t (*close_)(hid_t) = nullptr;
};

// Throws std::runtime_error(what) when an HDF5 call returned a negative status.
void check(herr_t status, const std::string& what);

// Runs `read()` on the HDF5 file at `path`, for readers of files users hand in (merge, report).
// A missing path, a directory or a file that is not HDF5 is refused first. What a damaged or
// truncated file makes the helpers below throw ("HDF5: cannot ...", a short dataset) becomes an
// InputError naming the file; InputErrors from `read` get the file's name in front if they lack it.
void require_hdf5_file(const std::filesystem::path& path);
template <class Read>
auto read_file_checked(const std::filesystem::path& path, Read read) -> decltype(read()) {
  require_hdf5_file(path);
  const std::string where = path.string();
  try {
    return read();
  } catch (const sim::InputError& e) {
    if (std::string(e.what()).rfind(where, 0) == 0) throw;
    throw sim::InputError(where, e.what());
  } catch (const std::exception& e) {
    throw sim::InputError(where, std::string("damaged or truncated HDF5 file (") + e.what() + ")");
  }
}

Handle create_file(const std::string& path);
Handle open_file_readonly(const std::string& path);
Handle create_group(hid_t parent, const std::string& name);
Handle open_group(hid_t parent, const std::string& name);
bool exists(hid_t parent, const std::string& name);

// N-D datasets, row-major; `shape` empty means a scalar.
Handle write_int64(hid_t parent, const std::string& name, const std::vector<std::uint64_t>& shape,
                   const std::vector<std::int64_t>& data);
Handle write_int32(hid_t parent, const std::string& name, const std::vector<std::uint64_t>& shape,
                   const std::vector<std::int32_t>& data);
Handle write_double(hid_t parent, const std::string& name, const std::vector<std::uint64_t>& shape,
                    const std::vector<double>& data);
Handle write_strings(hid_t parent, const std::string& name, const std::vector<std::uint64_t>& shape,
                     const std::vector<std::string>& data);

void set_string_attribute(hid_t object, const std::string& name, const std::string& value);
void set_int64_attribute(hid_t object, const std::string& name, std::int64_t value);
std::string string_attribute(hid_t object, const std::string& name);
// The attribute's text, or `absent` when the object has no such attribute.
std::string string_attribute_or(hid_t object, const std::string& name, const std::string& absent);

// Whole datasets back, converted to the requested type by HDF5.
std::vector<std::int64_t> read_int64(hid_t parent, const std::string& name);
std::vector<double> read_double(hid_t parent, const std::string& name);
std::vector<std::string> read_strings(hid_t parent, const std::string& name);

// Dimension scales (H5DS): what netCDF-4 and xarray read as named dimensions.
void make_dimension_scale(hid_t dataset, const std::string& dim_name);
void attach_dimension(hid_t dataset, hid_t scale, unsigned axis);

}  // namespace warpsim::sweeps::h5

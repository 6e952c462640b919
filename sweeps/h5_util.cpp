#include "sweeps/h5_util.hpp"

#include <hdf5_hl.h>

#include <algorithm>
#include <stdexcept>

namespace warpsim::sweeps::h5 {

Handle::Handle(hid_t id, herr_t (*close)(hid_t), const std::string& what) : id_(id), close_(close) {
  if (id_ < 0) throw std::runtime_error("HDF5: cannot " + what);
}
Handle::~Handle() {
  if (id_ >= 0 && close_) close_(id_);
}
Handle::Handle(Handle&& o) noexcept : id_(o.id_), close_(o.close_) { o.id_ = H5I_INVALID_HID; }
Handle& Handle::operator=(Handle&& o) noexcept {
  if (this != &o) {
    if (id_ >= 0 && close_) close_(id_);
    id_ = o.id_;
    close_ = o.close_;
    o.id_ = H5I_INVALID_HID;
  }
  return *this;
}

void check(herr_t status, const std::string& what) {
  if (status < 0) throw std::runtime_error("HDF5: cannot " + what);
}

namespace {
// Failures become exceptions with our own message; HDF5's own error stack on stderr would only
// confuse (e.g. when merge is given a file that is not a sweep result).
void silence_hdf5_errors() {
  static const bool silenced = [] { return H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr) >= 0; }();
  (void)silenced;
}
}  // namespace

void require_hdf5_file(const std::filesystem::path& path) {
  const std::string where = path.string();
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) throw sim::InputError(where, "no such file");
  if (std::filesystem::is_directory(path, ec)) throw sim::InputError(where, "is a directory, not a result file");
  silence_hdf5_errors();
  if (H5Fis_hdf5(where.c_str()) <= 0) throw sim::InputError(where, "not an HDF5 file (expected a warpsim sweep result)");
}

Handle create_file(const std::string& path) {
  silence_hdf5_errors();
  // Creation order is tracked so h5py and xarray list columns in the order they were written.
  Handle fcpl(H5Pcreate(H5P_FILE_CREATE), H5Pclose, "create file properties");
  check(H5Pset_link_creation_order(fcpl, H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED), "track creation order");
  return Handle(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, fcpl, H5P_DEFAULT), H5Fclose, "create " + path);
}

Handle open_file_readonly(const std::string& path) {
  silence_hdf5_errors();
  return Handle(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose, "open " + path);
}

Handle create_group(hid_t parent, const std::string& name) {
  Handle gcpl(H5Pcreate(H5P_GROUP_CREATE), H5Pclose, "create group properties");
  check(H5Pset_link_creation_order(gcpl, H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED), "track creation order");
  return Handle(H5Gcreate2(parent, name.c_str(), H5P_DEFAULT, gcpl, H5P_DEFAULT), H5Gclose, "create group " + name);
}

Handle open_group(hid_t parent, const std::string& name) {
  return Handle(H5Gopen2(parent, name.c_str(), H5P_DEFAULT), H5Gclose, "open group " + name);
}

bool exists(hid_t parent, const std::string& name) { return H5Lexists(parent, name.c_str(), H5P_DEFAULT) > 0; }

namespace {

Handle string_type() {
  Handle t(H5Tcopy(H5T_C_S1), H5Tclose, "copy the string type");
  check(H5Tset_size(t, H5T_VARIABLE), "make a variable-length string type");
  check(H5Tset_cset(t, H5T_CSET_UTF8), "set UTF-8");
  return t;
}

// Chunks of at most ~64 Ki elements: small enough to read a slice cheaply, big enough to compress.
Handle dataset_properties(const std::vector<std::uint64_t>& shape) {
  Handle dcpl(H5Pcreate(H5P_DATASET_CREATE), H5Pclose, "create dataset properties");
  std::uint64_t total = 1;
  for (auto d : shape) total *= d;
  if (shape.empty() || total == 0) return dcpl;  // scalars and empty datasets stay contiguous
  std::vector<hsize_t> chunk(shape.begin(), shape.end());
  for (std::size_t k = 0; k < chunk.size(); ++k) {
    std::uint64_t product = 1;
    for (auto c : chunk) product *= c;
    if (product <= 65536) break;
    chunk[k] = std::max<hsize_t>(1, chunk[k] * 65536 / product);
  }
  check(H5Pset_chunk(dcpl, static_cast<int>(chunk.size()), chunk.data()), "set chunking");
  check(H5Pset_shuffle(dcpl), "set the shuffle filter");
  check(H5Pset_deflate(dcpl, 4), "set deflate");
  return dcpl;
}

Handle create_dataset(hid_t parent, const std::string& name, hid_t file_type, const std::vector<std::uint64_t>& shape) {
  std::vector<hsize_t> dims(shape.begin(), shape.end());
  Handle space(shape.empty() ? H5Screate(H5S_SCALAR) : H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr),
               H5Sclose, "create a dataspace for " + name);
  Handle dcpl = dataset_properties(shape);
  return Handle(H5Dcreate2(parent, name.c_str(), file_type, space, H5P_DEFAULT, dcpl, H5P_DEFAULT), H5Dclose,
                "create dataset " + name);
}

template <typename T>
Handle write_numbers(hid_t parent, const std::string& name, const std::vector<std::uint64_t>& shape,
                     const std::vector<T>& data, hid_t file_type, hid_t memory_type) {
  Handle d = create_dataset(parent, name, file_type, shape);
  if (!data.empty()) check(H5Dwrite(d, memory_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data.data()), "write " + name);
  return d;
}

}  // namespace

Handle write_int64(hid_t parent, const std::string& name, const std::vector<std::uint64_t>& shape,
                   const std::vector<std::int64_t>& data) {
  return write_numbers(parent, name, shape, data, H5T_STD_I64LE, H5T_NATIVE_INT64);
}
Handle write_int32(hid_t parent, const std::string& name, const std::vector<std::uint64_t>& shape,
                   const std::vector<std::int32_t>& data) {
  return write_numbers(parent, name, shape, data, H5T_STD_I32LE, H5T_NATIVE_INT32);
}
Handle write_double(hid_t parent, const std::string& name, const std::vector<std::uint64_t>& shape,
                    const std::vector<double>& data) {
  return write_numbers(parent, name, shape, data, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE);
}
Handle write_strings(hid_t parent, const std::string& name, const std::vector<std::uint64_t>& shape,
                     const std::vector<std::string>& data) {
  Handle type = string_type();
  Handle d = create_dataset(parent, name, type, shape);
  std::vector<const char*> ptrs;
  ptrs.reserve(data.size());
  for (const auto& s : data) ptrs.push_back(s.c_str());
  if (!ptrs.empty()) check(H5Dwrite(d, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, ptrs.data()), "write " + name);
  return d;
}

void set_string_attribute(hid_t object, const std::string& name, const std::string& value) {
  Handle type = string_type();
  Handle space(H5Screate(H5S_SCALAR), H5Sclose, "create a scalar dataspace");
  Handle attr(H5Acreate2(object, name.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT), H5Aclose,
              "create attribute " + name);
  const char* p = value.c_str();
  check(H5Awrite(attr, type, &p), "write attribute " + name);
}

void set_int64_attribute(hid_t object, const std::string& name, std::int64_t value) {
  Handle space(H5Screate(H5S_SCALAR), H5Sclose, "create a scalar dataspace");
  Handle attr(H5Acreate2(object, name.c_str(), H5T_STD_I64LE, space, H5P_DEFAULT, H5P_DEFAULT), H5Aclose,
              "create attribute " + name);
  check(H5Awrite(attr, H5T_NATIVE_INT64, &value), "write attribute " + name);
}

std::string string_attribute(hid_t object, const std::string& name) {
  Handle attr(H5Aopen(object, name.c_str(), H5P_DEFAULT), H5Aclose, "open attribute " + name);
  Handle type = string_type();
  char* p = nullptr;
  check(H5Aread(attr, type, &p), "read attribute " + name);
  std::string out = p ? p : "";
  H5free_memory(p);
  return out;
}

std::string string_attribute_or(hid_t object, const std::string& name, const std::string& absent) {
  return H5Aexists(object, name.c_str()) > 0 ? string_attribute(object, name) : absent;
}

namespace {

std::size_t element_count(hid_t d) {
  Handle space(H5Dget_space(d), H5Sclose, "get a dataspace");
  hssize_t n = H5Sget_simple_extent_npoints(space);
  if (n < 0) throw std::runtime_error("HDF5: cannot count elements");
  return static_cast<std::size_t>(n);
}

template <typename T>
std::vector<T> read_numbers(hid_t parent, const std::string& name, hid_t memory_type) {
  Handle d(H5Dopen2(parent, name.c_str(), H5P_DEFAULT), H5Dclose, "open dataset " + name);
  std::vector<T> out(element_count(d));
  if (!out.empty()) check(H5Dread(d, memory_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, out.data()), "read " + name);
  return out;
}

}  // namespace

std::vector<std::int64_t> read_int64(hid_t parent, const std::string& name) {
  return read_numbers<std::int64_t>(parent, name, H5T_NATIVE_INT64);
}
std::vector<double> read_double(hid_t parent, const std::string& name) {
  return read_numbers<double>(parent, name, H5T_NATIVE_DOUBLE);
}
std::vector<std::string> read_strings(hid_t parent, const std::string& name) {
  Handle d(H5Dopen2(parent, name.c_str(), H5P_DEFAULT), H5Dclose, "open dataset " + name);
  Handle type = string_type();
  std::vector<char*> ptrs(element_count(d), nullptr);
  std::vector<std::string> out;
  if (ptrs.empty()) return out;
  check(H5Dread(d, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, ptrs.data()), "read " + name);
  out.reserve(ptrs.size());
  for (char* p : ptrs) {
    out.emplace_back(p ? p : "");
    H5free_memory(p);
  }
  return out;
}

void make_dimension_scale(hid_t dataset, const std::string& dim_name) {
  check(H5DSset_scale(dataset, dim_name.c_str()), "make " + dim_name + " a dimension scale");
}

void attach_dimension(hid_t dataset, hid_t scale, unsigned axis) {
  check(H5DSattach_scale(dataset, scale, axis), "attach a dimension scale");
}

}  // namespace warpsim::sweeps::h5

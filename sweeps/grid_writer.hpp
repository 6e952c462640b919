#pragma once
// The N-D view of one study: each metric as a dataset over the study's axes, with the axis
// values as HDF5 dimension scales, so xarray.open_dataset(file, group=..., engine="h5netcdf")
// gives named dimensions and coordinates. Failed points are NaN here (status says why).
#include <hdf5.h>

#include <vector>

#include "sweeps/point_result.hpp"
#include "sweeps/spec.hpp"

namespace warpsim::sweeps {

// `results` holds the study's points in order (first_index .. first_index + count - 1). A
// sampled study's grid also has sampled, detail_fraction and time_error_pct.
void write_grid(hid_t group, const Study& study, const std::vector<const PointResult*>& results);

// Sampled results: on the cycles, time_ms and metric datasets of `group`, the attribute
// when_sampled = "exact" (the value follows from the instruction streams, sampled or not) or
// "extrapolated" (a sampled point's value is partly credited, docs/sampling.md).
void label_sampled_columns(hid_t group);

}  // namespace warpsim::sweeps

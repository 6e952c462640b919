#pragma once
// One PointResult as one line of text, exactly (floats in hexadecimal), with a checksum: the
// journal's record format and what MPI ranks send to rank 0. A line cut short by a kill, or
// damaged any other way, fails the checksum and is treated as never written.
#include <optional>
#include <string>

#include "sweeps/point_result.hpp"

namespace warpsim::sweeps {

std::string encode_result(const PointResult& r);  // ends with '\n'
// nullopt for anything that is not a complete, intact record (the '\n' may be stripped).
std::optional<PointResult> decode_result(const std::string& line, std::size_t metric_count);

// 64-bit FNV-1a, for record checksums and sweep fingerprints.
std::uint64_t fingerprint(const std::string& text);

}  // namespace warpsim::sweeps

#include "sim/spec_reader.hpp"

#include <limits>

#include "sim/errors.hpp"

namespace warpsim::sim {

std::uint32_t SpecReader::u32(const std::string& key) const {
  const auto v = config_.get_int(key);
  if (v < 0 || v > std::int64_t{std::numeric_limits<std::uint32_t>::max()})
    throw InputError(config_.setting(key).origin,
                     key + " = " + std::to_string(v) + " does not fit 32 bits (0 to 4294967295)");
  return static_cast<std::uint32_t>(v);
}

void SpecReader::require(bool ok, const std::string& key, std::initializer_list<const char*> others,
                         const std::string& why) const {
  if (ok) return;
  auto set_on_command_line = [&](const std::string& k) { return config_.setting(k).origin.rfind("--set", 0) == 0; };
  std::string where = config_.setting(key).origin;
  for (const char* k : others)
    if (set_on_command_line(k)) where = config_.setting(k).origin;  // "--set KEY"
  if (set_on_command_line(key)) where = config_.setting(key).origin;
  throw InputError(where, key + ": " + why);
}

}  // namespace warpsim::sim

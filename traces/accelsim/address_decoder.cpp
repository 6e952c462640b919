#include "traces/accelsim/address_decoder.hpp"

#include <bit>
#include <string>

namespace warpsim::traces::accelsim {
namespace {

// True if the set bits of `mask` are one run (no holes); an empty mask counts as one run.
bool contiguous(std::uint32_t mask) {
  if (mask == 0) return true;
  std::uint32_t shifted = mask >> std::countr_zero(mask);
  return (shifted & (shifted + 1)) == 0;
}

}  // namespace

void decode_addresses(FieldCursor& fields, std::uint32_t mask, std::array<std::uint64_t, kWarpSize>& addr) {
  addr.fill(0);
  std::uint64_t mode = fields.unsigned_decimal("address mode");
  switch (mode) {
    case 0: {  // list_all: one full address per active lane
      for (std::uint32_t m = mask; m; m &= m - 1) addr[std::countr_zero(m)] = fields.hex("address");
      return;
    }
    case 1: {  // base_stride
      std::uint64_t base = fields.hex("base address");
      std::int64_t stride = fields.signed_decimal("stride");
      if (!contiguous(mask))
        throw LineError("address mode 1 (base_stride) with a mask that is not one contiguous run of lanes");
      std::uint64_t a = base;
      for (std::uint32_t m = mask; m; m &= m - 1) {
        addr[std::countr_zero(m)] = a;
        a += static_cast<std::uint64_t>(stride);
      }
      return;
    }
    case 2: {  // base_delta: k-1 deltas, each from the previous active lane
      std::uint64_t a = fields.hex("base address");
      bool first = true;
      for (std::uint32_t m = mask; m; m &= m - 1) {
        if (!first) a += static_cast<std::uint64_t>(fields.signed_decimal("address delta"));
        addr[std::countr_zero(m)] = a;
        first = false;
      }
      return;
    }
    default:
      throw LineError("address mode " + std::to_string(mode) + " is not 0 (list_all), 1 (base_stride) or 2 (base_delta)");
  }
}

}  // namespace warpsim::traces::accelsim

#include "traces/instruction.hpp"

namespace warpsim::traces {

std::string_view unit_name(Unit u) {
  switch (u) {
    case Unit::Int: return "int";
    case Unit::Fp32: return "fp32";
    case Unit::Fp64: return "fp64";
    case Unit::Sfu: return "sfu";
    case Unit::LdSt: return "ldst";
    case Unit::Tensor: return "tensor";
    case Unit::Control: return "control";
  }
  return "?";
}

std::string_view space_name(MemSpace s) {
  switch (s) {
    case MemSpace::None: return "none";
    case MemSpace::Global: return "global";
    case MemSpace::Shared: return "shared";
    case MemSpace::Local: return "local";
    case MemSpace::Constant: return "constant";
  }
  return "?";
}

}  // namespace warpsim::traces

#include "traces/kernels/sass_program.hpp"

#include <stdexcept>
#include <string>

#include "sim/errors.hpp"

namespace warpsim::traces::kernels {

const SassProgram& sass_program(const IsaTarget& isa, std::string_view function) {
  const std::vector<SassProgram>* programs = nullptr;
  if (isa.sm_version >= 20 && isa.sm_version < 30)
    programs = &sass_programs_sm20();
  else if (isa.sm_version >= 30 && isa.sm_version < 50)
    programs = &sass_programs_sm35();
  else if (isa.sm_version >= 80 && isa.sm_version < 100)
    programs = &sass_programs_sm90();
  if (!programs)
    throw sim::InputError("--arch", "the kernel library has SASS for sm_20, sm_35 and sm_90 only (asked for sm_" +
                                        std::to_string(isa.sm_version) + ")");
  for (const auto& p : *programs)
    if (p.function == function) return p;
  throw std::logic_error("kernel library: no sm_" + std::to_string(isa.sm_version) + " listing of " +
                         std::string(function));
}

}  // namespace warpsim::traces::kernels

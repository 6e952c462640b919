#include "traces/kernels/kernel_args.hpp"

#include "sim/errors.hpp"

namespace warpsim::traces::kernels {

// "-p key: why", the same place the user wrote the value.
void KernelArgs::reject(const std::string& key, const std::string& why) const {
  throw sim::InputError("-p " + key, why);
}

}  // namespace warpsim::traces::kernels

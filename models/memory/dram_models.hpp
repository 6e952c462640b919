#pragma once
// The table of DRAM models (dram_model.hpp). `dram.model` chooses one by name; its choices come
// from this list. A new model: its own header and source, and one entry here.
#include <memory>
#include <type_traits>

#include "models/memory/banked_dram.hpp"
#include "models/memory/dram_model.hpp"
#include "sim/named_types.hpp"

namespace warpsim::models::memory {

// Add a model here (and include its header above). Each is built from the DRAM's spec, the core
// clock and the seed.
using DramModels = sim::NamedTypes<BankedDram>;

inline std::unique_ptr<DramModel> make_dram(const DramSpec& spec, std::uint64_t core_clock_khz, std::uint64_t seed) {
  return DramModels::visit(spec.model, [&]<class Model>(std::type_identity<Model>) -> std::unique_ptr<DramModel> {
    return std::make_unique<Model>(spec, core_clock_khz, seed);
  });
}

}  // namespace warpsim::models::memory

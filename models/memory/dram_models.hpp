#pragma once
// The table of DRAM models (dram_model.hpp). `dram.model` chooses one by name; its choices come
// from this list. A new model: its own header and source, and one entry here.
#include <memory>
#include <type_traits>

#include "models/arch.hpp"
#include "models/memory/banked_dram.hpp"
#include "models/memory/dram_model.hpp"
#include "sim/named_types.hpp"

namespace warpsim::models::memory {

// Add a model here (and include its header above). Each is built from the preset and the seed.
using DramModels = sim::NamedTypes<BankedDram>;

inline std::unique_ptr<DramModel> make_dram(const Arch& arch, std::uint64_t seed) {
  return DramModels::visit(arch.dram.model, [&]<class Model>(std::type_identity<Model>) -> std::unique_ptr<DramModel> {
    return std::make_unique<Model>(arch, seed);
  });
}

}  // namespace warpsim::models::memory

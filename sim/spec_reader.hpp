#pragma once
// Reads a model's Spec out of a validated Config (each Spec's from_config): typed values, counts
// the models keep in 32 bits (a larger value is an input error, not a silent truncation), and the
// relations between keys that one key's range cannot express.
#include <cstdint>
#include <initializer_list>
#include <string>

#include "sim/config.hpp"

namespace warpsim::sim {

class SpecReader {
 public:
  explicit SpecReader(const Config& config) : config_(config) {}

  // An integer key the model keeps in 32 bits; an InputError naming the key's origin above that.
  std::uint32_t u32(const std::string& key) const;
  std::uint64_t u64(const std::string& key) const { return static_cast<std::uint64_t>(config_.get_int(key)); }
  double real(const std::string& key) const { return config_.get_float(key); }
  bool flag(const std::string& key) const { return config_.get_bool(key); }
  std::string text(const std::string& key) const { return config_.get_string(key); }
  // The position in `Table` (a sim::NamedTypes) of the type a choice key names. The key's
  // choices are the table's names, so the config has refused any other already.
  template <class Table>
  std::uint32_t choice(const std::string& key) const {
    return Table::index_of(config_.get_string(key)).value();
  }

  // Refuses a broken relation between `key` and `others`: an InputError "KEY: why". It is blamed
  // on the --set that changed one of the keys, if any did (a preset alone satisfies them all),
  // `key`'s own --set first, else on `key`'s line in the preset.
  void require(bool ok, const std::string& key, std::initializer_list<const char*> others,
               const std::string& why) const;

  const Config& config() const { return config_; }

 private:
  const Config& config_;
};

}  // namespace warpsim::sim

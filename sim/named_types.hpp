#pragma once
// A table of types chosen by name at run time: the swappable parts of a model (an issue policy, a
// replacement policy) are types, so the code that uses one is compiled for it, and a config value
// picks among them. Each type gives `kName` (the config value) and `kDescription` (one line for a
// parameter listing). The names become a parameter's choices, so an unknown name is an input error
// before anything runs.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <vector>

namespace warpsim::sim {

template <class... Types>
struct NamedTypes {
  static constexpr std::size_t kCount = sizeof...(Types);
  static constexpr std::array<std::string_view, kCount> kNames{Types::kName...};
  static constexpr std::array<std::string_view, kCount> kDescriptions{Types::kDescription...};

  // The type's position in the table, or nothing for a name that is not there.
  static std::optional<std::uint32_t> index_of(std::string_view name) {
    for (std::uint32_t i = 0; i < kCount; ++i)
      if (kNames[i] == name) return i;
    return std::nullopt;
  }
  static std::vector<std::string> names() { return {kNames.begin(), kNames.end()}; }
  // "a: what a does; b: what b does", for the parameter's description.
  static std::string summary() {
    std::string s;
    for (std::size_t i = 0; i < kCount; ++i)
      s += (i ? "; " : "") + std::string(kNames[i]) + ": " + std::string(kDescriptions[i]);
    return s;
  }
  // Calls `f(std::type_identity<Type>{})` for the type at `index` (< kCount) and returns what it
  // returns: `[]<class T>(std::type_identity<T>) { ... }` (a type need not be constructible).
  template <class F>
  static auto visit(std::uint32_t index, F&& f) {
    using Result = decltype(f(std::type_identity<std::tuple_element_t<0, std::tuple<Types...>>>{}));
    if constexpr (std::is_void_v<Result>) {
      std::uint32_t i = 0;
      (void)((i++ == index ? (f(std::type_identity<Types>{}), true) : false) || ...);
    } else {
      Result result{};
      std::uint32_t i = 0;
      (void)((i++ == index ? (result = f(std::type_identity<Types>{}), true) : false) || ...);
      return result;
    }
  }
};

}  // namespace warpsim::sim

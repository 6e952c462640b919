#pragma once
// Splits the growth of a set of running counters among owners (the kernels running at once on
// a GPU): whatever the counters gain while an owner is charged belongs to that owner. Charging
// the owner already charged costs a comparison, so a model can charge at every event and pays
// only when the owner changes; while one owner runs alone, never.
//
// `Counts` is a struct of std::uint64_t counters and nothing else (checked below as far as the
// language allows), added and subtracted field by field.
#include <array>
#include <bit>
#include <cstdint>
#include <type_traits>
#include <vector>

namespace warpsim::sim {

// Field-by-field arithmetic on such structs.
template <class Counts>
struct CountWords {
  static_assert(std::is_trivially_copyable_v<Counts> && std::has_unique_object_representations_v<Counts> &&
                    sizeof(Counts) % sizeof(std::uint64_t) == 0 && alignof(Counts) == alignof(std::uint64_t),
                "Counts must hold std::uint64_t counters only");
  using Words = std::array<std::uint64_t, sizeof(Counts) / sizeof(std::uint64_t)>;
};

template <class Counts>
void add_counts(Counts& into, const Counts& more) {
  using Words = typename CountWords<Counts>::Words;
  Words a = std::bit_cast<Words>(into);
  const Words b = std::bit_cast<Words>(more);
  for (std::size_t i = 0; i < a.size(); ++i) a[i] += b[i];
  into = std::bit_cast<Counts>(a);
}

template <class Counts>
Counts counts_since(const Counts& later, const Counts& earlier) {
  using Words = typename CountWords<Counts>::Words;
  Words a = std::bit_cast<Words>(later);
  const Words b = std::bit_cast<Words>(earlier);
  for (std::size_t i = 0; i < a.size(); ++i) a[i] -= b[i];
  return std::bit_cast<Counts>(a);
}

template <class Counts>
class Attribution {
 public:
  static constexpr std::uint32_t kNobody = 0xffffffffu;

  std::uint32_t charged() const { return charged_; }

  // From now on the counters' growth belongs to `owner` (kNobody: to no one); `totals` are their
  // values now.
  void charge(std::uint32_t owner, const Counts& totals) {
    if (charged_ != kNobody) add_counts(owned(charged_), counts_since(totals, since_));
    charged_ = owner;
    since_ = totals;
  }

  // What `owner` has gained so far, given the counters' values now.
  Counts of(std::uint32_t owner, const Counts& totals) const {
    Counts out = owner < owned_.size() ? owned_[owner] : Counts{};
    if (owner == charged_) add_counts(out, counts_since(totals, since_));
    return out;
  }

 private:
  Counts& owned(std::uint32_t owner) {
    if (owner >= owned_.size()) owned_.resize(owner + 1, Counts{});
    return owned_[owner];
  }

  std::uint32_t charged_ = kNobody;
  Counts since_{};
  std::vector<Counts> owned_;
};

}  // namespace warpsim::sim

#pragma once
// Where this build came from: printed by --version and stored in every result file.
namespace warpsim::sim {
inline constexpr const char* kVersion = WARPSIM_VERSION;
// The source tree's commit when this binary was built ("unknown" outside a git checkout).
extern const char* const kGitCommit;
}  // namespace warpsim::sim

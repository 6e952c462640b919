#pragma once
// Where this build came from: printed by --version and stored in every result file.
namespace warpsim::sim {
inline constexpr const char* kVersion = WARPSIM_VERSION;
inline constexpr const char* kGitCommit = WARPSIM_GIT_COMMIT;
}  // namespace warpsim::sim

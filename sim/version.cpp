#include "sim/version.hpp"

#include "warpsim_git_commit.h"  // generated at every build by cmake/git_commit.cmake

namespace warpsim::sim {
const char* const kGitCommit = WARPSIM_GIT_COMMIT;
}  // namespace warpsim::sim

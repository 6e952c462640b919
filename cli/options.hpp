#pragma once
// Shared command-line handling: every subcommand parses with Boost.Program_options, answers
// --help with its usage and options, and rejects unknown options and stray arguments.
#include <boost/program_options.hpp>
#include <iostream>

#include "cli/command.hpp"

namespace warpsim::cli {

namespace po = boost::program_options;

// Parses `args` against `options` (+ positional); returns false if --help was printed.
bool parse_options(const char* command, const char* usage, po::options_description& options,
                   const po::positional_options_description& positional, const Args& args, po::variables_map& vm);

}  // namespace warpsim::cli

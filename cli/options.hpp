#pragma once
// Shared command-line handling: every subcommand parses with Boost.Program_options, answers
// --help with its usage and options, and rejects unknown options and stray arguments.
#include <boost/program_options.hpp>
#include <cstdint>
#include <iostream>
#include <string>

#include "cli/command.hpp"

namespace warpsim::cli {

namespace po = boost::program_options;

// Parses `args` against `options` (+ positional); returns false if --help was printed.
bool parse_options(const char* command, const char* usage, po::options_description& options,
                   const po::positional_options_description& positional, const Args& args, po::variables_map& vm);

// An option holding a count or id, declared po::value<std::string>: Program_options reads "-1"
// into an unsigned option as 2^64 - 1, so such options are read as text and checked here.
// Throws InputError naming `--name` unless the text is a whole decimal number in range.
std::uint64_t unsigned_option(const po::variables_map& vm, const std::string& name);

}  // namespace warpsim::cli

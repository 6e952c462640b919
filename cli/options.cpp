#include "cli/options.hpp"

#include <cerrno>
#include <cstdlib>

#include "cli/help_examples.hpp"
#include "sim/errors.hpp"

namespace warpsim::cli {

bool parse_options(const char* command, const char* usage, po::options_description& options,
                   const po::positional_options_description& positional, const Args& args, po::variables_map& vm) {
  options.add_options()("help,h", "show this help");
  po::store(po::command_line_parser(args).options(options).positional(positional).run(), vm);
  if (vm.count("help")) {
    std::cout << "usage: warpsim " << usage << "\n\n" << options << '\n' << help_examples(command);
    return false;
  }
  po::notify(vm);
  return true;
}

std::uint64_t unsigned_option(const po::variables_map& vm, const std::string& name) {
  const std::string text = vm[name].as<std::string>();
  const bool digits = !text.empty() && text.find_first_not_of("0123456789") == std::string::npos;
  errno = 0;
  char* end = nullptr;
  const unsigned long long value = digits ? std::strtoull(text.c_str(), &end, 10) : 0;
  if (!digits || errno == ERANGE || *end != '\0')
    throw sim::InputError("--" + name, "expected a whole number from 0 to 18446744073709551615, found '" + text + "'");
  return value;
}

}  // namespace warpsim::cli

#include "cli/options.hpp"

namespace warpsim::cli {

bool parse_options(const char* command, const char* usage, po::options_description& options,
                   const po::positional_options_description& positional, const Args& args, po::variables_map& vm) {
  options.add_options()("help,h", "show this help");
  po::store(po::command_line_parser(args).options(options).positional(positional).run(), vm);
  if (vm.count("help")) {
    std::cout << "usage: warpsim " << usage << "\n\n" << options << '\n';
    (void)command;
    return false;
  }
  po::notify(vm);
  return true;
}

}  // namespace warpsim::cli

#pragma once
// Helpers the Accel-Sim reader tests share to check input errors: the message of the InputError
// a call throws, the error of decoding one line or reading a whole .traceg text, a substring
// test for messages, and writing a test file.
#include <fstream>
#include <string>

#include "sim/errors.hpp"
#include "tests/traces/accelsim_test_helpers.hpp"

namespace warpsim::test {

// Message of the InputError that `f` throws ("" if none).
template <typename F>
std::string input_error_of(F f) {
  try {
    f();
  } catch (const sim::InputError& e) {
    return e.what();
  }
  return "";
}

inline std::string decode_error(int version, const std::string& line) {
  return input_error_of([&] { decode_one(version, line); });
}

inline std::string read_error(const std::string& text) {
  return input_error_of([&] {
    auto s = source_from_text(text);
    read_all(*s);
  });
}

inline bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

inline void write_file(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

}  // namespace warpsim::test

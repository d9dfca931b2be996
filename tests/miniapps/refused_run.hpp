#pragma once
// A miniapp run that must be refused as bad input: exit status 2, a message
// naming the place (file:line, option) and key, and no output folder.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "miniapps/common/time_loop.hpp"

namespace tb::test {

struct CapturedRun {
  int status = -1;
  std::string error;   // stderr
  std::string output;  // stdout
};

// run_miniapp in this process with the program name and args, stdout and stderr captured.
inline CapturedRun run_captured(const harness::MiniappDescription& app, const std::vector<std::string>& args) {
  std::vector<const char*> argv{app.name.c_str()};
  for (const auto& a : args) argv.push_back(a.c_str());
  testing::internal::CaptureStdout();
  testing::internal::CaptureStderr();
  CapturedRun r;
  r.status = harness::run_miniapp(app, int(argv.size()), argv.data());
  r.error = testing::internal::GetCapturedStderr();
  r.output = testing::internal::GetCapturedStdout();
  return r;
}

// args gets "--out OUT" appended; the run must exit 2 with every one of
// `mentions` in its message and leave OUT absent.
inline void expect_refused(const harness::MiniappDescription& app, std::vector<std::string> args,
                           const std::filesystem::path& out, const std::vector<std::string>& mentions) {
  std::filesystem::remove_all(out);
  args.insert(args.end(), {"--out", out.string()});
  const CapturedRun r = run_captured(app, args);
  EXPECT_EQ(r.status, 2) << r.error;
  for (const auto& m : mentions) EXPECT_NE(r.error.find(m), std::string::npos) << "no '" << m << "' in: " << r.error;
  EXPECT_FALSE(std::filesystem::exists(out)) << out << " was created";
  std::filesystem::remove_all(out);
}

}  // namespace tb::test

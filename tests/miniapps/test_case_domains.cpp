// The domains of case keys (docs/harness.md): each kind refuses the values just
// outside it and takes those on its edge, where the value enters (a case file
// with its line, --set), in the one message shape KEY: given VALUE, allowed DOMAIN.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "miniapps/common/case_config.hpp"
#include "run_files.hpp"
#include "solvers/core/error.hpp"

namespace tb {
namespace {

namespace fs = std::filesystem;
using namespace harness;

CaseSchema schema() {
  CaseSchema s;
  s.add({"run.steps", KeyType::integer, "10", "steps", at_least(1)});
  s.add({"time.dt", KeyType::real, "0.1", "time step", greater_than(0)});
  s.add({"cfl.min", KeyType::real, "1", "smallest CFL", greater_than(0)});
  s.add({"cfl.max", KeyType::real, "10", "largest CFL", greater_than(0)});
  s.add({"relax.omega", KeyType::real, "0.5", "relaxation", in_range(0, 1)});
  s.add({"scheme.flux", KeyType::text, "roe", "flux", one_of({"roe", "hllc"})});
  s.add({"scheme.order", KeyType::integer, "2", "order", one_of({"1", "2"})});
  s.add({"body.file", KeyType::text, "", "STL file", existing_file(true)});
  s.add({"solver.heat", KeyType::text, "cg+jacobi", "solver", solver_specification()});
  s.add({"flow.alpha", KeyType::real, "0", "any angle"});
  return s;
}

// The message of the tb::Error that f throws, or "no error".
template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

TEST(CaseDomains, NumericBoundsOnAndJustOutsideTheirEdges) {
  CaseConfig c(schema());
  EXPECT_NO_THROW(c.set("run.steps", "1"));
  EXPECT_EQ(error_of([&] { c.set("run.steps", "0"); }), "--set: run.steps: given 0, allowed >= 1");
  EXPECT_EQ(error_of([&] { c.set("run.steps", "-5", "--steps"); }), "--steps: run.steps: given -5, allowed >= 1");
  EXPECT_NO_THROW(c.set("time.dt", "1e-300"));
  EXPECT_EQ(error_of([&] { c.set("time.dt", "0"); }), "--set: time.dt: given 0, allowed > 0");
  EXPECT_NO_THROW(c.set("relax.omega", "0"));
  EXPECT_NO_THROW(c.set("relax.omega", "1"));
  EXPECT_EQ(error_of([&] { c.set("relax.omega", "1.5"); }), "--set: relax.omega: given 1.5, allowed >= 0 and <= 1");
  EXPECT_NO_THROW(c.set("flow.alpha", "-1e9"));
  // A refused value leaves the one before it.
  EXPECT_EQ(c.integer("run.steps"), 1);
  EXPECT_DOUBLE_EQ(c.real("relax.omega"), 1.0);
  // Not a number at all: the type's refusal, same shape.
  EXPECT_EQ(error_of([&] { c.set("time.dt", "fast"); }), "--set: time.dt: given \"fast\", allowed a real number");
}

TEST(CaseDomains, NamesForTextAndIntegers) {
  CaseConfig c(schema());
  EXPECT_NO_THROW(c.set("scheme.flux", "hllc"));
  EXPECT_EQ(error_of([&] { c.set("scheme.flux", "ausm"); }),
            "--set: scheme.flux: given \"ausm\", allowed one of roe, hllc");
  EXPECT_NO_THROW(c.set("scheme.order", "1"));
  EXPECT_EQ(error_of([&] { c.set("scheme.order", "3"); }), "--set: scheme.order: given 3, allowed one of 1, 2");
}

TEST(CaseDomains, FilesAreCheckedOnceEveryOverrideIsIn) {
  const fs::path dir = test::fresh_dir("tb-domains", "files");
  fs::create_directories(dir);
  const std::string stl = (dir / "body.stl").string(), toml = (dir / "case.toml").string();
  std::ofstream(stl) << "solid x\nendsolid x\n";
  CaseConfig c(schema());
  EXPECT_NO_THROW(c.check_files());  // "" is allowed here
  c.set("body.file", dir.string());
  EXPECT_EQ(error_of([&] { c.check_files(); }), "--set: body.file: given \"" + dir.string() +
                                                    "\", allowed an existing regular file or \"\" (none) (not a "
                                                    "regular file)");
  // A case file's missing path replaced by --set is no error; left alone it is, with its line.
  std::ofstream(toml) << "[body]\nfile = \"no/such.stl\"\n";
  CaseConfig d(schema());
  d.load_toml(toml);
  // A relative path names the directory it was looked for in: the working directory, not the case file's.
  EXPECT_EQ(error_of([&] { d.check_files(); }),
            toml +
                ":2: body.file: given \"no/such.stl\", allowed an existing regular file or \"\" (none) (no such "
                "file in the working directory " +
                fs::current_path().string() + ")");
  d.set("body.file", (dir / "no/such.stl").string());
  EXPECT_EQ(error_of([&] { d.check_files(); }),
            "--set: body.file: given \"" + (dir / "no/such.stl").string() +
                "\", allowed an existing regular file or \"\" (none) (no such file)");
  d.set("body.file", stl);
  EXPECT_NO_THROW(d.check_files());
  fs::remove_all(dir);
}

TEST(CaseDomains, SolverSpecificationsBuildWhereTheyAreGiven) {
  CaseConfig c(schema());
  EXPECT_NO_THROW(c.set("solver.heat", "gmres(restart=20)+bilu0"));
  const std::string e = error_of([&] { c.set("solver.heat", "cgg+jacobi"); });
  EXPECT_EQ(e.rfind("--set: solver.heat: given \"cgg+jacobi\", allowed a solver specification", 0), 0u) << e;
  EXPECT_NE(e.find("did you mean 'cg'"), std::string::npos) << e;
  // An autopilot's parameters and candidates' syntax are checked here; a
  // candidate the registry cannot build is the autopilot's to refuse.
  EXPECT_NO_THROW(c.set("solver.heat", "autopilot(candidates=[cg+jacobi; nosuch+bilu0])"));
  EXPECT_NE(error_of([&] { c.set("solver.heat", "autopilot(candidates=[cg+jacobi], every=-1)"); }).find("every"),
            std::string::npos);
}

TEST(CaseDomains, CaseFileErrorsCarryTheLineAndOriginsAreKept) {
  const fs::path dir = test::fresh_dir("tb-domains", "lines");
  fs::create_directories(dir);
  const std::string toml = (dir / "case.toml").string();
  std::ofstream(toml) << "[run]\nsteps = 4\n\n[cfl]\nmin = 50\nmax = 40\n";
  CaseConfig c(schema());
  c.load_toml(toml);
  c.set("time.dt", "0.2");
  EXPECT_EQ(c.origin("run.steps"), toml + ":2");
  EXPECT_EQ(c.origin("cfl.max"), toml + ":6");
  EXPECT_EQ(c.origin("time.dt"), "--set");
  EXPECT_EQ(c.origin("relax.omega"), "");
  // A cross-key refusal names both keys, their values and places.
  EXPECT_EQ(std::string(c.refusal("cfl.max", ">= " + c.key_and_value("cfl.min")).what()),
            toml + ":6: cfl.max: given 40, allowed >= cfl.min = 50 (" + toml + ":5)");
  EXPECT_EQ(std::string(c.refusal("relax.omega", "something else").what()),
            "relax.omega: given 0.5 (the default), allowed something else");
  std::ofstream(toml) << "[run]\nsteps = 4\n\n[time]\ndt = -0.1\n";
  EXPECT_EQ(error_of([&] { CaseConfig(schema()).load_toml(toml); }), toml + ":5: time.dt: given -0.1, allowed > 0");
  std::ofstream(toml) << "[scheme]\nflux = 3\n";
  EXPECT_EQ(error_of([&] { CaseConfig(schema()).load_toml(toml); }),
            toml + ":2: scheme.flux: given 3, allowed a string (the key must be a string)");
  EXPECT_EQ(error_of([&] { CaseConfig(schema()).load_toml(dir.string()); }),
            dir.string() + ": the case file: given a directory, allowed a regular TOML file");
  EXPECT_EQ(error_of([&] { CaseConfig(schema()).load_toml((dir / "none.toml").string()); }),
            (dir / "none.toml").string() + ": case file not found");
  fs::remove_all(dir);
}

TEST(CaseDomains, TheSchemaRefusesADefaultOutsideItsDomainAndListsDomainsInHelp) {
  CaseSchema s = schema();
  EXPECT_NE(error_of([&] {
              s.add({"run.every", KeyType::integer, "-1", "period", at_least(0)});
            }).find("run.every"),
            std::string::npos);
  EXPECT_NE(s.help().find("steps [allowed: >= 1]"), std::string::npos) << s.help();
  EXPECT_NE(s.help().find("flux [allowed: one of roe, hllc]"), std::string::npos) << s.help();
}

}  // namespace
}  // namespace tb

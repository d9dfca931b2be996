#include <gtest/gtest.h>

#include "solvers/factory/registry.hpp"

namespace tb {
namespace {

std::string error_of(const std::string& spec) {
  try {
    make_solver(spec);
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

TEST(SpecParser, ComponentsAndParameters) {
  const SolverSpec s = parse_spec(" fgmres( restart=30, rtol=1e-1 ,maxit=60 ) + bilu0 ");
  ASSERT_EQ(s.components.size(), 2u);
  EXPECT_EQ(s.components[0].name, "fgmres");
  ASSERT_EQ(s.components[0].params.size(), 3u);
  EXPECT_EQ(s.components[0].params[1].first, "rtol");
  EXPECT_EQ(s.components[0].params[1].second, "1e-1");
  EXPECT_EQ(s.components[1].name, "bilu0");
  EXPECT_TRUE(s.components[1].params.empty());
}

TEST(SpecParser, SyntaxErrorsGiveColumn) {
  EXPECT_TRUE(contains(error_of("gmres(restart=30"), "column 17")) << error_of("gmres(restart=30");
  EXPECT_TRUE(contains(error_of("gmres(restart)"), "expected '=' after parameter 'restart'"));
  EXPECT_TRUE(contains(error_of("gmres(restart=)"), "expected a value"));
  EXPECT_TRUE(contains(error_of("gmres bilu0"), "expected '+'"));
  EXPECT_TRUE(contains(error_of(""), "expected a solver name"));
  EXPECT_TRUE(contains(error_of("gmres(rtol=1,rtol=2)"), "given twice"));
}

TEST(Registry, UnknownNamesListWhatIsAllowed) {
  const std::string e = error_of("gmress+bilu0");
  EXPECT_TRUE(contains(e, "unknown Krylov method 'gmress'")) << e;
  EXPECT_TRUE(contains(e, "did you mean 'gmres'")) << e;
  EXPECT_TRUE(contains(e, "bicgstab")) << e;
  const std::string p = error_of("gmres+ilu7");
  EXPECT_TRUE(contains(p, "unknown preconditioner 'ilu7'")) << p;
  EXPECT_TRUE(contains(p, "block_jacobi")) << p;
  EXPECT_TRUE(contains(error_of("bilu0"), "write e.g. richardson+bilu0"));
  EXPECT_TRUE(contains(error_of("gmres+bilu0+jacobi"), "at most one '+'"));
}

TEST(Registry, UnknownAndBadParameters) {
  const std::string e = error_of("gmres(restrat=10)");
  EXPECT_TRUE(contains(e, "no parameter 'restrat'")) << e;
  EXPECT_TRUE(contains(e, "did you mean 'restart'")) << e;
  EXPECT_TRUE(contains(error_of("gmres(restart=ten)"), "expected an integer"));
  EXPECT_TRUE(contains(error_of("cg(rtol=abc)"), "expected a finite real number"));
  EXPECT_TRUE(contains(error_of("cg(backend=gpu)"), "one of host, cuda"));
  EXPECT_TRUE(contains(error_of("cg(rtol=-1)"), "must not be negative"));
  EXPECT_TRUE(contains(error_of("gmres(restart=0)"), "restart must be at least 1"));
  EXPECT_TRUE(contains(error_of("bicgstab+jacobi(omega=2)"), "jacobi has no parameter 'omega'"));
}

TEST(Registry, BuiltSolverCarriesSpecAndDefaults) {
  auto s = make_solver("gmres(restart=12)+jacobi");
  EXPECT_EQ(s->spec(), "gmres(restart=12)+jacobi");
  EXPECT_EQ(s->backend(), Backend::host);
  EXPECT_DOUBLE_EQ(s->method().stop().rtol, 1e-8);
  EXPECT_EQ(s->method().stop().maxit, 1000);
}

TEST(Registry, HostOnlyPreconditionerRefusesCuda) {
  const std::string e = error_of("gmres(backend=cuda)+bilu0");
  EXPECT_TRUE(contains(e, "no cuda backend")) << e;
}

TEST(Registry, HelpListsEveryName) {
  const std::string h = Registry::builtin().help();
  for (const auto& n : Registry::builtin().krylov_names()) EXPECT_TRUE(contains(h, n));
  for (const auto& n : Registry::builtin().preconditioner_names()) EXPECT_TRUE(contains(h, n));
  EXPECT_TRUE(contains(h, "restart=30"));
}

TEST(NearestName, EditDistance) {
  EXPECT_EQ(nearest_name("bicgstb", {"cg", "bicgstab", "gmres"}), "bicgstab");
  EXPECT_EQ(nearest_name("xyz", {"cg", "bicgstab", "gmres"}), "");
}

}  // namespace
}  // namespace tb

// Generated systems by name: each generator is reachable, the description
// names every parameter, and bad specifications are refused with the reason.
#include <gtest/gtest.h>

#include <string>

#include "solvers/core/error.hpp"
#include "solvers/matrix/generator_spec.hpp"

namespace tb {
namespace {

std::string error_of(const std::string& spec) {
  try {
    generate_system(spec);
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

TEST(GeneratorSpec, EachGeneratorByName) {
  const GeneratedSystem s = generate_system("stencil7:nx=3,ny=4,nz=2,n=2");
  EXPECT_EQ(s.a.block_rows, 24);
  EXPECT_EQ(s.a.block_size, 2);
  const GeneratedSystem t = generate_system("tetbox:nx=3,ny=3,nz=3,n=4,seed=2");
  EXPECT_EQ(t.a.block_rows, 27);
  EXPECT_EQ(t.a.block_size, 4);
  EXPECT_EQ(t.description, "tetbox:nx=3,ny=3,nz=3,n=4,seed=2");
  const GeneratedSystem a = generate_system("anisotropic:nx=5,ny=4");
  EXPECT_EQ(a.a.block_rows, 20);
  EXPECT_EQ(a.a.block_size, 1);
  EXPECT_NE(a.description.find("eps=0.01"), std::string::npos) << a.description;
}

TEST(GeneratorSpec, BadSpecificationsSayWhatIsAllowed) {
  EXPECT_NE(error_of("cube:nx=3").find("allowed: stencil7, tetbox, anisotropic"), std::string::npos);
  EXPECT_NE(error_of("tetbox:nx=3,size=4").find("unknown key 'size' (allowed: nx, ny, nz, n, seed)"),
            std::string::npos);
  EXPECT_NE(error_of("stencil7:nx=three").find("nx needs an integer"), std::string::npos);
  EXPECT_NE(error_of("anisotropic:eps=nan").find("eps needs a finite number"), std::string::npos);
  EXPECT_NE(error_of("anisotropic:nx=2").find("nx needs an integer >= 3"), std::string::npos);
  EXPECT_NE(error_of("stencil7:nx").find("is not key=value"), std::string::npos);
}

}  // namespace
}  // namespace tb

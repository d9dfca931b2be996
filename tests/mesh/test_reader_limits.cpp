// The mesh readers trust no count, tag or size in a file. Each
// refusal names the file and the line.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <string>

#include "mesh/io/gmsh_reader.hpp"
#include "mesh/io/su2_format.hpp"
#include "mesh_fixtures.hpp"
#include "sample_files.hpp"
#include "solvers/core/error.hpp"

namespace tb {
namespace {

using testing::kGmsh22;
using testing::kGmsh41;
using testing::kSu2;
using testing::replace;

void gmsh_error(const std::string& text, long line, const std::string& what) {
  testing::expect_parse_error([](const std::string& path) { return read_gmsh(path); }, "bad.msh", text, line, what);
}

void su2_error(const std::string& text, long line, const std::string& what) {
  testing::expect_parse_error([](const std::string& path) { return read_su2(path); }, "bad.su2", text, line, what);
}

TEST(ReaderLimits, Gmsh22TagsAndTypesMustFitAnInt) {
  // 4294967298 used to wrap to 2, a triangle.
  gmsh_error(replace(kGmsh22, "9 2 2 9 1 2 3 6", "9 4294967298 2 9 1 2 3 6"), 28,
             "element type: 4294967298 is out of range");
  gmsh_error(replace(kGmsh22, "8 3 2 9 1", "8 3 2 4294967305 1"), 27, "physical tag: 4294967305 is out of range");
  gmsh_error(replace(kGmsh22, "8 3 2 9 1", "8 3 2 9 -4294967295"), 27, "elementary tag: -4294967295 is out of range");
  gmsh_error(replace(kGmsh22, "1 3 \"bottom wall\"", "1 3000000000 \"bottom wall\""), 6,
             "physical tag: 3000000000 is out of range");
  gmsh_error(replace(kGmsh22, "1 0 0 0\n", "0 0 0 0\n"), 11, "node tag 0: Gmsh tags start at 1");
}

TEST(ReaderLimits, Gmsh22CountsAreNeverTrusted) {
  gmsh_error(replace(kGmsh22, "$Nodes\n6", "$Nodes\n-6"), 10, "number of nodes: -6 is negative");
  gmsh_error(replace(kGmsh22, "$Elements\n10", "$Elements\n-1"), 19, "number of elements: -1 is negative");
  gmsh_error(replace(kGmsh22, "$PhysicalNames\n2", "$PhysicalNames\n-2"), 5,
             "number of physical names: -2 is negative");
  // A count far past what the file holds reserves only what the bytes can hold
  // and fails where the nodes run out.
  gmsh_error(replace(kGmsh22, "$Nodes\n6", "$Nodes\n1000000000000"), 17, "$Nodes ended after 6 of 1000000000000 nodes");
}

TEST(ReaderLimits, Gmsh22CoordinatesMustBeFinite) {
  gmsh_error(replace(kGmsh22, "2 1 0 0\n", "2 inf 0 0\n"), 12, "x: 'inf' is not a finite number");
  gmsh_error(replace(kGmsh22, "2 1 0 0\n", "2 1 nan 0\n"), 12, "y: 'nan' is not a finite number");
  gmsh_error(replace(kGmsh22, "2 1 0 0\n", "2 1 0 1e999\n"), 12, "z: '1e999' is not a number");
}

TEST(ReaderLimits, Gmsh41BlocksAreChecked) {
  gmsh_error(replace(kGmsh41, "2 1 0 4", "7 1 0 4"), 22, "entity dimension 7 is not 0, 1, 2 or 3");
  gmsh_error(replace(kGmsh41, "2 1 0 4", "2 1 2 4"), 22, "parametric flag 2 is not 0 or 1");
  gmsh_error(replace(kGmsh41, "2 6 1 6", "2 5 1 6"), 22,
             "the node blocks hold more than the 5 nodes the $Nodes header declares");
  gmsh_error(replace(kGmsh41, "3 7 1 7", "3 4 1 7"), 40,
             "the element blocks hold more than the 4 elements the $Elements header declares");
  gmsh_error(replace(kGmsh41, "2 1 3 1", "2 1 4294967299 1"), 40, "element type: 4294967299 is out of range");
  gmsh_error(replace(kGmsh41, "0 2 1 0", "0 -2 1 0"), 10, "number of entities: -2 is negative");
  gmsh_error(replace(kGmsh41, "2 1 0 4", "2 1 0 -4"), 22, "number of nodes in block: -4 is negative");
  // A total the blocks do not reach is only a reservation hint, bounded by the bytes left.
  testing::TempFile f("hint.msh", replace(kGmsh41, "2 6 1 6", "2 600000000000 1 6"));
  EXPECT_EQ(read_gmsh(f.path()).num_nodes(), 6);
}

TEST(ReaderLimits, Su2TypesAndCoordinates) {
  su2_error(replace(kSu2, "5 1 2 5\n", "4294967301 1 2 5\n"), 12, "element type: 4294967301 is out of range");
  su2_error(replace(kSu2, "0 1 3\n", "0 nan 3\n"), 7, "y: 'nan' is not a finite number");
  su2_error(replace(kSu2, "NPOIN= 6", "NPOIN= 100000000000"), 10, "x: 'NELEM=' is not a number");
  su2_error(replace(kSu2, "NPOIN= 6", "NPOIN= -6"), 3, "NPOIN must not be negative");
}

TEST(ReaderLimits, FilesPastTheInputLimitAreNotRead) {
  std::string big = kGmsh22;
  big += "$Junk\n" + std::string(std::size_t(2) << 20, 'x') + "\n$EndJunk\n";
  ::setenv("TB_INPUT_LIMIT_MB", "1", 1);
  gmsh_error(big, 1,
             "the file has " + std::to_string(big.size()) +
                 " bytes, which would need 3 MiB, above the input "
                 "limit of 1 MiB (raise it with TB_INPUT_LIMIT_MB=3)");
  ::unsetenv("TB_INPUT_LIMIT_MB");
  testing::TempFile f("big.msh", big);
  EXPECT_EQ(read_gmsh(f.path()).num_cells(), 3);
}

}  // namespace
}  // namespace tb

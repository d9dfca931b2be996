// STL surfaces: ASCII and binary files written here read back to the same
// triangles; malformed files are refused naming the file and the line or
// triangle; a closed triangulated cube classifies cells like its analytic
// inside test.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>

#include "ib_fixtures.hpp"
#include "physics/immersed/ghost_cells.hpp"
#include "physics/immersed/stl_reader.hpp"

namespace tb::test {
namespace {

using namespace tb::immersed;
namespace fs = std::filesystem;

std::string temp_path(const std::string& name) {
  return (fs::temp_directory_path() / ("tb-ib-" + std::to_string(::getpid()) + "-" + name)).string();
}

// The closed cube [lo, hi]^3 as 12 outward-oriented triangles.
std::vector<Triangle> cube(double lo, double hi) {
  std::vector<Triangle> t;
  for (int d = 0; d < 3; ++d)
    for (int s : {0, 1}) {
      const int a = (d + 1) % 3, b = (d + 2) % 3;
      auto corner = [&](int u, int v) {
        Vec3 x{};
        x[d] = s ? hi : lo;
        x[a] = u ? hi : lo;
        x[b] = v ? hi : lo;
        return x;
      };
      if (s) {
        t.push_back({{corner(0, 0), corner(1, 0), corner(1, 1)}});
        t.push_back({{corner(0, 0), corner(1, 1), corner(0, 1)}});
      } else {
        t.push_back({{corner(0, 0), corner(1, 1), corner(1, 0)}});
        t.push_back({{corner(0, 0), corner(0, 1), corner(1, 1)}});
      }
    }
  return t;
}

void expect_same(const std::vector<Triangle>& a, const std::vector<Triangle>& b, double tol) {
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t t = 0; t < a.size(); ++t)
    for (int v = 0; v < 3; ++v)
      for (int d = 0; d < 3; ++d) EXPECT_NEAR(a[t].v[v][d], b[t].v[v][d], tol) << "triangle " << t;
}

std::string error_of(const std::string& path) {
  try {
    read_stl(path);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(Stl, AsciiAndBinaryRoundTrip) {
  const std::vector<Triangle> t = cube(0.3, 0.71);
  const std::string ascii = temp_path("cube_ascii.stl"), binary = temp_path("cube_binary.stl");
  write_stl_ascii(ascii, t);
  write_stl_binary(binary, t);
  expect_same(read_stl(ascii), t, 0.0);
  expect_same(read_stl(binary), t, 1e-7);  // binary STL stores floats
  fs::remove(ascii);
  fs::remove(binary);
}

// A body is the inside of its surface: a cube with a face missing has none.
TEST(Stl, AnOpenSurfaceIsRefused) {
  std::vector<Triangle> t = cube(0.3, 0.71);
  t.pop_back();
  t.pop_back();
  for (const bool binary : {false, true}) {
    const std::string path = temp_path(binary ? "open_binary.stl" : "open_ascii.stl");
    binary ? write_stl_binary(path, t) : write_stl_ascii(path, t);
    const std::string e = error_of(path);
    EXPECT_NE(e.find("the surface is not closed: 4 edge(s) belong to one triangle only and 0 to more than two"),
              std::string::npos)
        << e;
    fs::remove(path);
  }
  // Two cubes sharing a face: an edge of the shared face joins four triangles.
  std::vector<Triangle> two = cube(0.0, 1.0);
  for (Triangle tri : cube(0.0, 1.0)) {
    for (Vec3& v : tri.v) v[0] += 1.0;
    two.push_back(tri);
  }
  const std::string path = temp_path("two_cubes.stl");
  write_stl_ascii(path, two);
  EXPECT_NE(error_of(path).find("the surface is not closed"), std::string::npos) << error_of(path);
  fs::remove(path);
}

TEST(Stl, MalformedFilesNameTheFileAndPlace) {
  const std::string bad = temp_path("bad.stl");
  {
    std::ofstream f(bad);
    f << "solid s\n facet normal 0 0 1\n  outer loop\n   vertex 0 0 0\n   vertex 1 0 zero\n";
  }
  const std::string e = error_of(bad);
  EXPECT_NE(e.find(bad + ":5:"), std::string::npos) << e;
  EXPECT_NE(e.find("'zero'"), std::string::npos) << e;
  {
    std::ofstream f(bad);
    f << "solid s\n facet normal 0 0 1\n  outer loop\n   vertex 0 0 0\n";
  }
  EXPECT_NE(error_of(bad).find("end of the file"), std::string::npos) << error_of(bad);
  {
    std::ofstream f(bad, std::ios::binary);
    f << std::string(100, 'x');
  }
  EXPECT_NE(error_of(bad).find("neither ASCII STL"), std::string::npos) << error_of(bad);
  EXPECT_NE(error_of(temp_path("missing.stl")).find("cannot open"), std::string::npos);
  fs::remove(bad);
}

// Each refusal names the file and the line (ASCII) or the triangle (binary).
TEST(Stl, EmptyAndNonFiniteSurfacesAreRefused) {
  const std::string bad = temp_path("bad27.stl");
  std::ofstream(bad) << "solid empty\nendsolid empty\n";
  EXPECT_NE(error_of(bad).find(bad + ":2: the solid has no facets"), std::string::npos) << error_of(bad);
  std::ofstream(bad) << "solid s\n facet normal 0 0 1\n  outer loop\n   vertex 0 inf 0\n";
  EXPECT_NE(error_of(bad).find(bad + ":4: expected a vertex coordinate, found 'inf'"), std::string::npos)
      << error_of(bad);
  write_stl_binary(bad, {});
  EXPECT_NE(error_of(bad).find(bad + ":0: binary STL with 0 triangles"), std::string::npos) << error_of(bad);
  std::vector<Triangle> t = cube(0.0, 1.0);
  t[3].v[1][2] = std::nan("");
  write_stl_binary(bad, t);
  EXPECT_NE(error_of(bad).find(bad + ":0: binary triangle 4: vertex 2 has a non-finite coordinate"), std::string::npos)
      << error_of(bad);
  fs::remove(bad);
}

TEST(Stl, SurfacesPastTheInputLimitAreRefused) {
  const std::string big = temp_path("big27.stl");
  // 20000 triangles: a 1,000,084-byte file (under 1 MiB) whose triangles need 1.4 MiB as doubles.
  write_stl_binary(big, std::vector<Triangle>(20000, cube(0.0, 1.0)[0]));
  ::setenv("TB_INPUT_LIMIT_MB", "1", 1);
  const std::string e = error_of(big);
  std::ofstream(big, std::ios::app) << std::string(std::size_t(1) << 20, ' ');  // now 2 MiB: not even read
  const std::string e_file = error_of(big);
  ::unsetenv("TB_INPUT_LIMIT_MB");
  EXPECT_NE(e.find(big + ":0: binary STL with 20000 triangles, which would need 2 MiB, above the input limit of 1 MiB"),
            std::string::npos)
      << e;
  EXPECT_NE(e_file.find(big + ":1: the file has 2048660 bytes, which would need 2 MiB"), std::string::npos) << e_file;
  fs::remove(big);
}

TEST(Stl, CubeClassifiesLikeTheAnalyticInsideTest) {
  const TriangulatedBody body(cube(0.3, 0.71));
  const CartesianGrid grid({uniform_nodes(0.0, 1.0, 13), uniform_nodes(0.0, 1.0, 11), uniform_nodes(0.0, 1.0, 12)});
  const GhostCells ib = build_ghost_cells(grid, body);
  for (index_t cell = 0; cell < grid.num_cells(); ++cell) {
    const Vec3 x = grid.centre(grid.ijk(cell));
    bool inside = true;
    for (int d = 0; d < 3; ++d) inside = inside && x[d] > 0.3 && x[d] < 0.71;
    EXPECT_EQ(ib.types[cell] != CellType::fluid, inside) << "cell " << cell;
  }
  ASSERT_FALSE(ib.ghosts.empty());
  for (const GhostCell& g : ib.ghosts) {
    const Vec3 x = grid.centre(grid.ijk(g.cell));
    // Inside the cube the nearest surface point is on the nearest face.
    double depth = 1.0;
    for (int d = 0; d < 3; ++d) depth = std::min({depth, x[d] - 0.3, 0.71 - x[d]});
    EXPECT_NEAR(norm(g.boundary_point - x), std::max(depth, 0.0), 1e-12) << "ghost cell " << g.cell;
    EXPECT_NEAR(norm(g.normal), 1.0, 1e-12);
  }
}

}  // namespace
}  // namespace tb::test

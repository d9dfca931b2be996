#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "mesh/io/vtu_writer.hpp"
#include "mesh_fixtures.hpp"
#include "solvers/core/error.hpp"

namespace tb {
namespace {

TEST(VtuWriter, WritesCellsAndFieldsAtomically) {
  const Mesh2D m = testing::uniform_quad_mesh(4, 3);
  testing::TempFile f("mesh.vtu", "");
  std::vector<double> ids(m.num_cells());
  for (index_t c = 0; c < m.num_cells(); ++c) ids[c] = c;
  if (!vtu_writer_available()) {
    EXPECT_THROW(write_vtu(f.path(), m, {{"id", ids}}), Error);
    GTEST_SKIP() << "built without VTK";
  }
  write_vtu(f.path(), m, {{"cell_id", ids}, {"colour", std::vector<double>(m.num_cells(), 1.0)}});
  std::stringstream text;
  text << std::ifstream(f.path()).rdbuf();
  const std::string s = text.str();
  EXPECT_NE(s.find("NumberOfCells=\"12\""), std::string::npos);
  EXPECT_NE(s.find("NumberOfPoints=\"20\""), std::string::npos);
  EXPECT_NE(s.find("Name=\"cell_id\""), std::string::npos);
  EXPECT_NE(s.find("Name=\"colour\""), std::string::npos);
  index_t files = 0;
  for (const auto& e : std::filesystem::directory_iterator(f.dir())) ++files, (void)e;
  EXPECT_EQ(files, 1) << "a temporary file was left behind";
}

// A vector is one 3-component array, as ParaView's glyphs and stream tracers want it.
TEST(VtuWriter, WritesVectorFieldsAsThreeComponents) {
  const Mesh2D m = testing::uniform_quad_mesh(3, 2);
  testing::TempFile f("vectors.vtu", "");
  if (!vtu_writer_available()) GTEST_SKIP() << "built without VTK";
  write_vtu(f.path(), m, {{"velocity", std::vector<double>(3 * std::size_t(m.num_cells()), 1.0), 3}});
  std::stringstream text;
  text << std::ifstream(f.path()).rdbuf();
  const std::string s = text.str();
  const std::size_t at = s.find("Name=\"velocity\"");
  ASSERT_NE(at, std::string::npos);
  EXPECT_NE(s.substr(at, 120).find("NumberOfComponents=\"3\""), std::string::npos) << s.substr(at, 120);
  // Three values per cell, not one.
  EXPECT_THROW(write_vtu(f.path(), m, {{"velocity", std::vector<double>(std::size_t(m.num_cells()), 1.0), 3}}), Error);
}

TEST(VtuWriter, RejectsFieldOfWrongSize) {
  const Mesh2D m = testing::uniform_quad_mesh(2, 2);
  testing::TempFile f("mesh.vtu", "");
  EXPECT_THROW(write_vtu(f.path(), m, {{"short", {1.0, 2.0}}}), Error);
  EXPECT_FALSE(std::filesystem::exists(f.path()));
}

}  // namespace
}  // namespace tb

#pragma once
// Small meshes and files the mesh tests build by hand.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

#include "mesh/mesh2d.hpp"
#include "solvers/core/error.hpp"

namespace tb::testing {

// A file in a fresh temporary directory, removed with the object.
class TempFile {
 public:
  TempFile(const std::string& name, const std::string& text) {
    static int counter = 0;
    dir_ = std::filesystem::temp_directory_path() /
           ("tb_mesh_test_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
    std::filesystem::create_directories(dir_);
    path_ = (dir_ / name).string();
    if (!text.empty()) std::ofstream(path_) << text;
  }
  ~TempFile() {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
  const std::string& path() const { return path_; }
  std::filesystem::path dir() const { return dir_; }

 private:
  std::filesystem::path dir_;
  std::string path_;
};

// `s` with its first `from` replaced by `to`: a sample file broken in one place.
inline std::string replace(std::string s, const std::string& from, const std::string& to) {
  s.replace(s.find(from), from.size(), to);
  return s;
}

// `read` on `text` written to a file `name` must throw a ParseError at `line`
// whose message starts with "path:line: " and contains `what`.
template <class Read>
void expect_parse_error(Read read, const std::string& name, const std::string& text, long line,
                        const std::string& what) {
  TempFile f(name, text);
  try {
    read(f.path());
    FAIL() << "no error for: " << what;
  } catch (const ParseError& e) {
    EXPECT_EQ(e.line(), line) << e.what();
    EXPECT_EQ(e.file(), f.path());
    EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
    EXPECT_EQ(std::string(e.what()).rfind(f.path() + ":" + std::to_string(line) + ": ", 0), 0u) << e.what();
  }
}

// nx-by-ny quadrilaterals on [0,1] x [0,height], rows of height growing
// geometrically by `ratio` from y = 0 (the wall), markers wall (y=0), top,
// left, right. Cell (i, j) is number j*nx + i.
inline Mesh2D stretched_quad_mesh(index_t nx, index_t ny, double first_height, double ratio) {
  Mesh2D m;
  std::vector<double> y{0.0};
  for (index_t j = 0; j < ny; ++j) y.push_back(y.back() + first_height * std::pow(ratio, j));
  for (index_t j = 0; j <= ny; ++j)
    for (index_t i = 0; i <= nx; ++i) m.nodes.push_back({double(i) / nx, y[j]});
  auto node = [&](index_t i, index_t j) { return j * (nx + 1) + i; };
  for (index_t j = 0; j < ny; ++j)
    for (index_t i = 0; i < nx; ++i) m.add_cell({node(i, j), node(i + 1, j), node(i + 1, j + 1), node(i, j + 1)});
  const index_t wall = m.marker_index("wall"), top = m.marker_index("top"), left = m.marker_index("left"),
                right = m.marker_index("right");
  for (index_t i = 0; i < nx; ++i) {
    m.boundary_edges.push_back({{node(i, 0), node(i + 1, 0)}, wall});
    m.boundary_edges.push_back({{node(i, ny), node(i + 1, ny)}, top});
  }
  for (index_t j = 0; j < ny; ++j) {
    m.boundary_edges.push_back({{node(0, j), node(0, j + 1)}, left});
    m.boundary_edges.push_back({{node(nx, j), node(nx, j + 1)}, right});
  }
  build_faces(m);
  return m;
}

inline Mesh2D uniform_quad_mesh(index_t nx, index_t ny) { return stretched_quad_mesh(nx, ny, 1.0 / ny, 1.0); }

inline std::string shipped_mesh(const std::string& name) {
  return std::string(TB_SOURCE_DIR) + "/inputs/meshes/" + name;
}

}  // namespace tb::testing

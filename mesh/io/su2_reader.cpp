#include <limits>
#include <string>
#include <vector>

#include "mesh/io/su2_format.hpp"
#include "mesh/io/text_reader.hpp"
#include "solvers/core/error.hpp"

namespace tb {
namespace {

// SU2 element types are VTK cell type numbers.
constexpr int kSu2Line = 3;
constexpr int kSu2Triangle = 5;
constexpr int kSu2Quadrilateral = 9;

// The shortest point line, "0 0" and its newline: what NPOIN= may reserve.
constexpr std::size_t kMinPointLine = 4;

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

class Su2Reader {
 public:
  explicit Su2Reader(const std::string& path) : in_(path, '%') {}
  Mesh2D read();

 private:
  // "KEY= value": false when the line holds no '='.
  bool split_key(std::string& key, std::string& value) const;
  long long count_value(const std::string& key, const std::string& value) const;
  int element_nodes(int type) const;
  void read_elements(long long n);
  void read_points(long long n);
  void read_markers(long long n);
  void check_node_indices() const;

  TextReader in_;
  Mesh2D mesh_;
  bool have_dim_ = false, have_elements_ = false, have_points_ = false;
  std::vector<long> element_line_;  // per cell and then per marker edge, for late index checks
};

bool Su2Reader::split_key(std::string& key, std::string& value) const {
  const std::string_view raw = in_.raw_line();
  const auto eq = raw.find('=');
  if (eq == std::string_view::npos) return false;
  key = std::string(trim(raw.substr(0, eq)));
  value = std::string(trim(raw.substr(eq + 1)));
  return true;
}

long long Su2Reader::count_value(const std::string& key, const std::string& value) const {
  const std::string first = value.substr(0, value.find_first_of(" \t"));
  const long long n = in_.to_integer(first, key);
  if (n < 0) in_.fail(key + " must not be negative");
  return n;
}

int Su2Reader::element_nodes(int type) const {
  switch (type) {
    case kSu2Line:
      return 2;
    case kSu2Triangle:
      return 3;
    case kSu2Quadrilateral:
      return 4;
    case 10:
    case 12:
    case 13:
    case 14:
      in_.fail("element type " + std::to_string(type) + " is a 3D element; tb::Mesh2D holds 2D meshes only");
    default:
      in_.fail("unknown SU2 element type " + std::to_string(type) + " (2D meshes use 3, 5 and 9)");
  }
}

void Su2Reader::read_elements(long long n) {
  index_t nodes[4];
  for (long long i = 0; i < n; ++i) {
    in_.require_line("NELEM elements");
    const int type = in_.to_int(in_.tokens()[0], "element type");
    const int nn = element_nodes(type);
    if (type == kSu2Line) in_.fail("a line element among NELEM: boundary edges belong under a MARKER_TAG");
    in_.expect_tokens(1 + nn, 2 + nn, "element of type " + std::to_string(type));
    for (int k = 0; k < nn; ++k) nodes[k] = in_.to_index(in_.tokens()[1 + k], "node index");
    for (int k = 0; k < nn; ++k)
      for (int l = 0; l < k; ++l)
        if (nodes[k] == nodes[l]) in_.fail("element lists node " + std::to_string(nodes[k]) + " twice");
    mesh_.add_cell(nodes, nn);
    element_line_.push_back(in_.line_number());
  }
}

void Su2Reader::read_points(long long n) {
  mesh_.nodes.reserve(in_.affordable(n, kMinPointLine));
  for (long long i = 0; i < n; ++i) {
    in_.require_line("NPOIN points");
    in_.expect_tokens(2, 4, "point (x y [index])");
    mesh_.nodes.push_back({in_.real(0, "x"), in_.real(1, "y")});
  }
}

void Su2Reader::read_markers(long long n) {
  std::string key, value;
  for (long long m = 0; m < n; ++m) {
    in_.require_line("MARKER_TAG");
    if (!split_key(key, value) || key != "MARKER_TAG")
      in_.fail("expected MARKER_TAG= for marker " + std::to_string(m + 1) + " of " + std::to_string(n));
    if (value.empty()) in_.fail("MARKER_TAG has no name");
    const index_t marker = mesh_.marker_index(value);
    in_.require_line("MARKER_ELEMS");
    if (!split_key(key, value) || key != "MARKER_ELEMS") in_.fail("expected MARKER_ELEMS= after MARKER_TAG");
    const long long edges = count_value(key, value);
    for (long long e = 0; e < edges; ++e) {
      in_.require_line("marker elements");
      const int type = in_.to_int(in_.tokens()[0], "marker element type");
      if (type != kSu2Line)
        in_.fail("marker element of type " + std::to_string(type) + ": a 2D mesh's markers hold lines (type 3)");
      in_.expect_tokens(3, 3, "marker line (3 node node)");
      mesh_.boundary_edges.push_back(
          {{in_.to_index(in_.tokens()[1], "node index"), in_.to_index(in_.tokens()[2], "node index")}, marker});
      element_line_.push_back(in_.line_number());
    }
  }
}

void Su2Reader::check_node_indices() const {
  auto check = [&](index_t node, std::size_t item) {
    if (node >= mesh_.num_nodes())
      throw ParseError(
          in_.path(), element_line_[item],
          "node index " + std::to_string(node) + " is not below NPOIN= " + std::to_string(mesh_.num_nodes()));
  };
  for (index_t c = 0; c < mesh_.num_cells(); ++c)
    for (index_t k = 0; k < mesh_.cell_size(c); ++k) check(mesh_.cell_begin(c)[k], c);
  for (std::size_t e = 0; e < mesh_.boundary_edges.size(); ++e)
    for (index_t node : mesh_.boundary_edges[e].nodes) check(node, mesh_.num_cells() + e);
}

Mesh2D Su2Reader::read() {
  std::string key, value;
  while (in_.next_line()) {
    if (!split_key(key, value))
      in_.fail("expected a keyword such as NELEM=, found '" + std::string(in_.raw_line()) + "'");
    if (key == "NDIME") {
      if (count_value(key, value) != 2) in_.fail("NDIME= " + value + ": tb::Mesh2D holds 2D meshes only");
      have_dim_ = true;
    } else if (key == "NZONE" || key == "IZONE") {
      in_.fail("multi-zone SU2 meshes are not supported");
    } else if (key == "NELEM") {
      if (have_elements_) in_.fail("a second NELEM section");
      read_elements(count_value(key, value));
      have_elements_ = true;
    } else if (key == "NPOIN") {
      if (have_points_) in_.fail("a second NPOIN section");
      read_points(count_value(key, value));
      have_points_ = true;
    } else if (key == "NMARK") {
      if (!have_elements_) in_.fail("NMARK before NELEM");
      read_markers(count_value(key, value));
    } else if (key.rfind("FFD_", 0) == 0) {
      break;  // free-form deformation boxes follow the mesh and describe no part of it
    } else {
      in_.fail("unknown keyword '" + key + "'");
    }
  }
  if (!have_dim_) in_.fail("the file has no NDIME= line");
  if (!have_elements_ || mesh_.num_cells() == 0) in_.fail("the file has no elements (NELEM=)");
  if (!have_points_) in_.fail("the file has no points (NPOIN=)");
  check_node_indices();
  build_faces(mesh_);
  return std::move(mesh_);
}

}  // namespace

Mesh2D read_su2(const std::string& path) { return Su2Reader(path).read(); }

}  // namespace tb

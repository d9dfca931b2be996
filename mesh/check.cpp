#include "mesh/check.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "mesh/geometry.hpp"
#include "solvers/core/error.hpp"

namespace tb {
namespace {

double mesh_extent(const Mesh2D& mesh) {
  if (mesh.nodes.empty()) return 0.0;
  double xmin = mesh.nodes[0].x, xmax = xmin, ymin = mesh.nodes[0].y, ymax = ymin;
  for (const Vec2& p : mesh.nodes) {
    xmin = std::min(xmin, p.x), xmax = std::max(xmax, p.x);
    ymin = std::min(ymin, p.y), ymax = std::max(ymax, p.y);
  }
  return std::max(xmax - xmin, ymax - ymin);
}

std::string count_of(index_t n, const std::string& what) { return std::to_string(n) + " " + what; }

// "cell 12 at (0.5, 0.25)": a place to look at in ParaView.
std::string where_cell(const MeshGeometry& g, index_t c) {
  char at[96];
  std::snprintf(at, sizeof at, " at (%.6g, %.6g)", g.cell_centroid[c].x, g.cell_centroid[c].y);
  return "cell " + std::to_string(c) + at;
}

// Relative to the cell's own size: boundary-layer cells of 1e-10 chords^2 are fine.
void check_areas(const Mesh2D& mesh, const MeshGeometry& g, MeshCheck& out) {
  index_t bad = 0, first = -1;
  for (index_t c = 0; c < mesh.num_cells(); ++c) {
    double longest2 = 0.0;
    const index_t* n = mesh.cell_begin(c);
    for (index_t k = 0; k < mesh.cell_size(c); ++k) {
      const Vec2& a = mesh.nodes[n[k]];
      const Vec2& b = mesh.nodes[n[(k + 1) % mesh.cell_size(c)]];
      longest2 = std::max(longest2, (b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y));
    }
    if (!(g.cell_area[c] > 1e-12 * longest2)) {
      if (bad++ == 0) first = c;
    }
  }
  if (bad > 0)
    out.problems.push_back(count_of(bad, "cells with zero or negative area (first: ") + where_cell(g, first) + ")");
}

// Sum over a closed polygon's faces of n*|f| vanishes (divergence theorem for a
// constant field): a cell that misses a face or carries a stray one fails.
void check_closed_cells(const Mesh2D& mesh, const MeshGeometry& g, MeshCheck& out) {
  std::vector<Vec2> sum(mesh.num_cells(), Vec2{0.0, 0.0});
  std::vector<double> perimeter(mesh.num_cells(), 0.0);
  for (index_t f = 0; f < mesh.num_faces(); ++f) {
    const Face& face = mesh.faces[f];
    const Vec2 s{g.face_normal[f].x * g.face_length[f], g.face_normal[f].y * g.face_length[f]};
    sum[face.left] = {sum[face.left].x + s.x, sum[face.left].y + s.y};
    perimeter[face.left] += g.face_length[f];
    if (!face.is_boundary()) {
      sum[face.right] = {sum[face.right].x - s.x, sum[face.right].y - s.y};
      perimeter[face.right] += g.face_length[f];
    }
  }
  index_t open = 0, first = -1;
  for (index_t c = 0; c < mesh.num_cells(); ++c)
    if (std::hypot(sum[c].x, sum[c].y) > 1e-10 * perimeter[c]) {
      if (open++ == 0) first = c;
    }
  if (open > 0)
    out.problems.push_back(count_of(open, "cells are not closed by their faces (first: ") + where_cell(g, first) + ")");
}

bool cell_runs(const Mesh2D& mesh, index_t cell, index_t from, index_t to) {
  const index_t* n = mesh.cell_begin(cell);
  const index_t k = mesh.cell_size(cell);
  for (index_t i = 0; i < k; ++i)
    if (n[i] == from && n[(i + 1) % k] == to) return true;
  return false;
}

void check_neighbour_orientation(const Mesh2D& mesh, const MeshGeometry& g, MeshCheck& out) {
  index_t folded = 0, first = -1;
  for (index_t f = 0; f < mesh.num_interior_faces; ++f) {
    const Face& face = mesh.faces[f];
    if (!cell_runs(mesh, face.right, face.nodes[1], face.nodes[0])) {
      if (folded++ == 0) first = f;
    }
  }
  if (folded > 0)
    out.problems.push_back(count_of(folded,
                                    "interior faces run the same way in both cells, so the cells overlap "
                                    "(first: face ") +
                           std::to_string(first) + " of " + where_cell(g, mesh.faces[first].left) + ")");
}

void check_duplicate_nodes(const Mesh2D& mesh, double extent, MeshCheck& out) {
  std::vector<index_t> order(mesh.nodes.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<index_t>(i);
  std::sort(order.begin(), order.end(), [&](index_t a, index_t b) {
    return std::make_pair(mesh.nodes[a].x, mesh.nodes[a].y) < std::make_pair(mesh.nodes[b].x, mesh.nodes[b].y);
  });
  const double tol = 1e-12 * extent;
  index_t dup = 0, first_a = -1, first_b = -1;
  for (std::size_t i = 0; i < order.size(); ++i)
    for (std::size_t j = i + 1; j < order.size(); ++j) {
      const Vec2& a = mesh.nodes[order[i]];
      const Vec2& b = mesh.nodes[order[j]];
      if (b.x - a.x > tol) break;
      if (std::abs(b.y - a.y) <= tol) {
        if (dup++ == 0) first_a = order[i], first_b = order[j];
      }
    }
  if (dup > 0)
    out.problems.push_back(count_of(dup, "pairs of duplicate nodes (first: nodes ") + std::to_string(first_a) +
                           " and " + std::to_string(first_b) + ")");
}

void check_boundary(const Mesh2D& mesh, MeshCheck& out) {
  index_t unmarked = 0;
  for (index_t f = mesh.num_interior_faces; f < mesh.num_faces(); ++f)
    if (mesh.faces[f].marker < 0) ++unmarked;
  if (unmarked > 0) out.problems.push_back(count_of(unmarked, "boundary faces carry no marker"));
  if (mesh.unmatched_edges > 0)
    out.problems.push_back(count_of(mesh.unmatched_edges, "marker edges are not boundary faces of any cell"));
}

void add_notes(const Mesh2D& mesh, MeshCheck& out) {
  if (mesh.flipped_cells > 0)
    out.notes.push_back(count_of(mesh.flipped_cells, "clockwise cells were made counter-clockwise"));
  std::vector<char> used(mesh.nodes.size(), 0);
  for (index_t n : mesh.cell_nodes) used[n] = 1;
  const auto unused = std::count(used.begin(), used.end(), 0);
  if (unused > 0) out.notes.push_back(count_of(static_cast<index_t>(unused), "nodes belong to no cell"));
}

}  // namespace

MeshCheck check_mesh(const Mesh2D& mesh) {
  MeshCheck out;
  if (mesh.num_cells() == 0) {
    out.problems.push_back("the mesh has no cells");
    return out;
  }
  const MeshGeometry g = compute_geometry(mesh);
  const double extent = mesh_extent(mesh);
  check_areas(mesh, g, out);
  check_closed_cells(mesh, g, out);
  check_neighbour_orientation(mesh, g, out);
  check_duplicate_nodes(mesh, extent, out);
  check_boundary(mesh, out);
  add_notes(mesh, out);
  return out;
}

void require_valid_mesh(const Mesh2D& mesh, const std::string& what) {
  const MeshCheck check = check_mesh(mesh);
  if (check.ok()) return;
  std::string msg = what + ": the mesh fails its consistency checks:";
  for (const std::string& p : check.problems) msg += "\n  " + p;
  throw Error(msg);
}

}  // namespace tb

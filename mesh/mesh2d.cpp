#include "mesh/mesh2d.hpp"

#include <algorithm>
#include <string>
#include <tuple>

#include "mesh/geometry.hpp"
#include "solvers/core/error.hpp"

namespace tb {

void Mesh2D::add_cell(std::initializer_list<index_t> cell_node_list) {
  add_cell(cell_node_list.begin(), static_cast<index_t>(cell_node_list.size()));
}

void Mesh2D::add_cell(const index_t* first, index_t count) {
  TB_REQUIRE(count == 3 || count == 4, "a cell has 3 or 4 nodes, not " + std::to_string(count));
  cell_nodes.insert(cell_nodes.end(), first, first + count);
  cell_ptr.push_back(static_cast<index_t>(cell_nodes.size()));
}

index_t Mesh2D::marker_index(const std::string& name) {
  index_t m = find_marker(name);
  if (m >= 0) return m;
  marker_names.push_back(name);
  return num_markers() - 1;
}

index_t Mesh2D::find_marker(const std::string& name) const {
  auto it = std::find(marker_names.begin(), marker_names.end(), name);
  return it == marker_names.end() ? -1 : static_cast<index_t>(it - marker_names.begin());
}

namespace {

void validate_cells(const Mesh2D& mesh) {
  for (index_t c = 0; c < mesh.num_cells(); ++c) {
    const index_t* n = mesh.cell_begin(c);
    for (index_t k = 0; k < mesh.cell_size(c); ++k) {
      if (n[k] < 0 || n[k] >= mesh.num_nodes())
        throw Error("cell " + std::to_string(c) + " refers to node " + std::to_string(n[k]) + " of " +
                    std::to_string(mesh.num_nodes()));
      for (index_t l = 0; l < k; ++l)
        if (n[l] == n[k]) throw Error("cell " + std::to_string(c) + " lists node " + std::to_string(n[k]) + " twice");
    }
  }
  for (const BoundaryEdge& e : mesh.boundary_edges)
    for (index_t n : e.nodes)
      if (n < 0 || n >= mesh.num_nodes())
        throw Error("boundary edge refers to node " + std::to_string(n) + " of " + std::to_string(mesh.num_nodes()));
}

index_t orient_counter_clockwise(Mesh2D& mesh) {
  index_t flipped = 0;
  for (index_t c = 0; c < mesh.num_cells(); ++c) {
    if (signed_area(mesh, c) < 0.0) {
      std::reverse(mesh.cell_nodes.begin() + mesh.cell_ptr[c], mesh.cell_nodes.begin() + mesh.cell_ptr[c + 1]);
      ++flipped;
    }
  }
  return flipped;
}

struct HalfEdge {
  index_t lo, hi;    // sorted node pair: the key
  index_t from, to;  // as the cell runs counter-clockwise
  index_t cell;
};

std::vector<HalfEdge> cell_half_edges(const Mesh2D& mesh) {
  std::vector<HalfEdge> edges;
  edges.reserve(mesh.cell_nodes.size());
  for (index_t c = 0; c < mesh.num_cells(); ++c) {
    const index_t* n = mesh.cell_begin(c);
    const index_t k = mesh.cell_size(c);
    for (index_t i = 0; i < k; ++i) {
      index_t a = n[i], b = n[(i + 1) % k];
      edges.push_back({std::min(a, b), std::max(a, b), a, b, c});
    }
  }
  std::sort(edges.begin(), edges.end(), [](const HalfEdge& p, const HalfEdge& q) {
    return std::tie(p.lo, p.hi, p.cell) < std::tie(q.lo, q.hi, q.cell);
  });
  return edges;
}

using EdgeKey = std::pair<index_t, index_t>;

EdgeKey key_of(const BoundaryEdge& e) { return {std::min(e.nodes[0], e.nodes[1]), std::max(e.nodes[0], e.nodes[1])}; }

}  // namespace

void build_faces(Mesh2D& mesh) {
  validate_cells(mesh);
  mesh.flipped_cells = orient_counter_clockwise(mesh);
  const std::vector<HalfEdge> edges = cell_half_edges(mesh);

  std::vector<std::pair<EdgeKey, index_t>> marked;  // boundary edge key -> marker
  marked.reserve(mesh.boundary_edges.size());
  for (const BoundaryEdge& e : mesh.boundary_edges) marked.push_back({key_of(e), e.marker});
  std::sort(marked.begin(), marked.end());
  std::vector<char> edge_used(marked.size(), 0);

  std::vector<Face> interior, boundary;
  for (std::size_t i = 0; i < edges.size();) {
    std::size_t j = i + 1;
    while (j < edges.size() && edges[j].lo == edges[i].lo && edges[j].hi == edges[i].hi) ++j;
    const HalfEdge& e = edges[i];
    if (j - i > 2)
      throw Error("edge (" + std::to_string(e.lo) + ", " + std::to_string(e.hi) + ") is shared by " +
                  std::to_string(j - i) + " cells (" + std::to_string(edges[i].cell) + ", " +
                  std::to_string(edges[i + 1].cell) + ", " + std::to_string(edges[i + 2].cell) +
                  ", ...): the mesh is not a 2D manifold");
    if (j - i == 2) {
      interior.push_back({{e.from, e.to}, e.cell, edges[i + 1].cell, -1});
    } else {
      index_t marker = -1;
      auto it = std::lower_bound(marked.begin(), marked.end(), std::make_pair(EdgeKey{e.lo, e.hi}, index_t{-1}));
      if (it != marked.end() && it->first == EdgeKey{e.lo, e.hi}) {
        marker = it->second;
        // The same edge listed under several markers: the first one wins.
        for (auto m = it; m != marked.end() && m->first == it->first; ++m) edge_used[m - marked.begin()] = 1;
      }
      boundary.push_back({{e.from, e.to}, e.cell, -1, marker});
    }
    i = j;
  }
  mesh.unmatched_edges = static_cast<index_t>(std::count(edge_used.begin(), edge_used.end(), 0));

  // Interior faces by cell pair and boundary faces grouped by marker (unmarked
  // last) keep face loops cache-friendly and boundary conditions contiguous.
  std::sort(interior.begin(), interior.end(),
            [](const Face& p, const Face& q) { return std::tie(p.left, p.right) < std::tie(q.left, q.right); });
  auto marker_key = [](const Face& f) { return static_cast<std::uint32_t>(f.marker); };
  std::stable_sort(boundary.begin(), boundary.end(), [&](const Face& p, const Face& q) {
    return std::make_pair(marker_key(p), p.left) < std::make_pair(marker_key(q), q.left);
  });
  mesh.num_interior_faces = static_cast<index_t>(interior.size());
  mesh.faces = std::move(interior);
  mesh.faces.insert(mesh.faces.end(), boundary.begin(), boundary.end());
}

}  // namespace tb

#include "mesh/geometry.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <string>

namespace tb {

double signed_area(const Mesh2D& mesh, index_t cell) {
  const index_t* n = mesh.cell_begin(cell);
  const index_t k = mesh.cell_size(cell);
  double twice = 0.0;
  for (index_t i = 0; i < k; ++i) {
    const Vec2& a = mesh.nodes[n[i]];
    const Vec2& b = mesh.nodes[n[(i + 1) % k]];
    twice += a.x * b.y - b.x * a.y;
  }
  return 0.5 * twice;
}

namespace {

// Area-weighted polygon centroid; for a quadrilateral this differs from the node
// average unless it is a parallelogram, and only it makes the midpoint rule exact.
Vec2 polygon_centroid(const Mesh2D& mesh, index_t cell) {
  const index_t* n = mesh.cell_begin(cell);
  const index_t k = mesh.cell_size(cell);
  // Relative to the first node, so far-field cells keep their digits.
  const Vec2 o = mesh.nodes[n[0]];
  double twice_area = 0.0, cx = 0.0, cy = 0.0;
  for (index_t i = 0; i < k; ++i) {
    const Vec2 a{mesh.nodes[n[i]].x - o.x, mesh.nodes[n[i]].y - o.y};
    const Vec2 b{mesh.nodes[n[(i + 1) % k]].x - o.x, mesh.nodes[n[(i + 1) % k]].y - o.y};
    const double cross = a.x * b.y - b.x * a.y;
    twice_area += cross;
    cx += (a.x + b.x) * cross;
    cy += (a.y + b.y) * cross;
  }
  if (twice_area == 0.0) {  // degenerate: the node average, so the checks can still report it
    Vec2 s{0.0, 0.0};
    for (index_t i = 0; i < k; ++i) s = {s.x + mesh.nodes[n[i]].x / k, s.y + mesh.nodes[n[i]].y / k};
    return s;
  }
  return {o.x + cx / (3.0 * twice_area), o.y + cy / (3.0 * twice_area)};
}

double segment_distance(const Vec2& p, const Vec2& a, const Vec2& b) {
  const double dx = b.x - a.x, dy = b.y - a.y;
  const double len2 = dx * dx + dy * dy;
  double t = len2 > 0.0 ? ((p.x - a.x) * dx + (p.y - a.y) * dy) / len2 : 0.0;
  t = std::clamp(t, 0.0, 1.0);
  return std::hypot(p.x - (a.x + t * dx), p.y - (a.y + t * dy));
}

}  // namespace

MeshGeometry compute_geometry(const Mesh2D& mesh) {
  MeshGeometry g;
  g.cell_area.resize(mesh.num_cells());
  g.cell_centroid.resize(mesh.num_cells());
  for (index_t c = 0; c < mesh.num_cells(); ++c) {
    g.cell_area[c] = signed_area(mesh, c);
    g.cell_centroid[c] = polygon_centroid(mesh, c);
  }
  g.face_normal.resize(mesh.num_faces());
  g.face_length.resize(mesh.num_faces());
  g.face_midpoint.resize(mesh.num_faces());
  for (index_t f = 0; f < mesh.num_faces(); ++f) {
    const Vec2& a = mesh.nodes[mesh.faces[f].nodes[0]];
    const Vec2& b = mesh.nodes[mesh.faces[f].nodes[1]];
    const double dx = b.x - a.x, dy = b.y - a.y;
    const double len = std::hypot(dx, dy);
    g.face_length[f] = len;
    g.face_normal[f] = len > 0.0 ? Vec2{dy / len, -dx / len} : Vec2{0.0, 0.0};
    g.face_midpoint[f] = {0.5 * (a.x + b.x), 0.5 * (a.y + b.y)};
  }
  return g;
}

double aspect_ratio(const Mesh2D& mesh, index_t cell) {
  const index_t* n = mesh.cell_begin(cell);
  const index_t k = mesh.cell_size(cell);
  double longest2 = 0.0;
  for (index_t i = 0; i < k; ++i) {
    const Vec2& a = mesh.nodes[n[i]];
    const Vec2& b = mesh.nodes[n[(i + 1) % k]];
    longest2 = std::max(longest2, (b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y));
  }
  const double area = std::abs(signed_area(mesh, cell));
  if (area == 0.0) return std::numeric_limits<double>::infinity();
  const double shape = k == 3 ? 4.0 / std::sqrt(3.0) : 1.0;
  return longest2 / area / shape;
}

std::vector<index_t> guess_wall_markers(const Mesh2D& mesh) {
  static const char* const wall_words[] = {"wall",   "airfoil", "aerofoil", "cylinder", "body",
                                           "noslip", "no_slip", "no-slip",  "euler",    "solid"};
  std::vector<index_t> walls;
  for (index_t m = 0; m < mesh.num_markers(); ++m) {
    std::string name = mesh.marker_names[m];
    std::transform(name.begin(), name.end(), name.begin(), [](unsigned char ch) { return std::tolower(ch); });
    for (const char* w : wall_words)
      if (name.find(w) != std::string::npos) {
        walls.push_back(m);
        break;
      }
  }
  return walls;
}

std::vector<double> wall_distance(const Mesh2D& mesh, const std::vector<Vec2>& points,
                                  const std::vector<index_t>& wall_markers) {
  std::vector<index_t> wall_faces;
  for (index_t f = mesh.num_interior_faces; f < mesh.num_faces(); ++f)
    if (std::find(wall_markers.begin(), wall_markers.end(), mesh.faces[f].marker) != wall_markers.end())
      wall_faces.push_back(f);
  // Brute force, O(points x wall faces): a few seconds at most for the fine
  // meshes, and done once per mesh.
  std::vector<double> d(points.size(), std::numeric_limits<double>::infinity());
  for (std::size_t i = 0; i < points.size(); ++i)
    for (index_t f : wall_faces) {
      const Face& face = mesh.faces[f];
      d[i] = std::min(d[i], segment_distance(points[i], mesh.nodes[face.nodes[0]], mesh.nodes[face.nodes[1]]));
    }
  return d;
}

}  // namespace tb

#include "physics/immersed/stl_reader.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "solvers/core/atomic_file.hpp"
#include "solvers/core/error.hpp"
#include "solvers/core/input_limit.hpp"

namespace tb::immersed {

namespace {

std::vector<Triangle> read_binary(const std::string& path, const std::string& bytes, std::uint32_t count) {
  // The count already matches the file's size; the triangles take 72 bytes each against 50 in the file.
  const std::string excess = input_limit_excess(storage_bytes(count, sizeof(Triangle)));
  if (!excess.empty()) throw ParseError(path, 0, "binary STL with " + std::to_string(count) + " triangles" + excess);
  std::vector<Triangle> out(count);
  for (std::uint32_t t = 0; t < count; ++t) {
    const char* rec = bytes.data() + 84 + 50 * std::size_t(t) + 12;  // past the stored normal
    for (int v = 0; v < 3; ++v)
      for (int d = 0; d < 3; ++d) {
        float f;
        std::memcpy(&f, rec + 4 * (3 * v + d), 4);
        if (!std::isfinite(f))
          throw ParseError(path, 0,
                           "binary triangle " + std::to_string(t + 1) + ": vertex " + std::to_string(v + 1) +
                               " has a non-finite coordinate");
        out[t].v[v][d] = f;
      }
  }
  return out;
}

// Whitespace-separated words with the line each one is on, for error messages.
class AsciiTokens {
 public:
  AsciiTokens(const std::string& path, const std::string& text) : path_(path), text_(text) {}
  bool next(std::string& word) {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) line_ += text_[pos_++] == '\n';
    const std::size_t begin = pos_;
    while (pos_ < text_.size() && !std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
    word.assign(text_, begin, pos_ - begin);
    return pos_ > begin;
  }
  void expect(const char* word) {
    std::string w;
    if (!next(w)) fail(std::string("expected '") + word + "', found the end of the file");
    if (w != word) fail(std::string("expected '") + word + "', found '" + w + "'");
  }
  double number(const char* what) {
    std::string w;
    if (!next(w)) fail(std::string("expected ") + what + ", found the end of the file");
    char* end = nullptr;
    const double v = std::strtod(w.c_str(), &end);
    if (end == w.c_str() || *end != '\0' || !std::isfinite(v))
      fail(std::string("expected ") + what + ", found '" + w + "'");
    return v;
  }
  [[noreturn]] void fail(const std::string& what) const { throw ParseError(path_, line_, what); }

 private:
  std::string path_;
  const std::string& text_;
  std::size_t pos_ = 0;
  long line_ = 1;
};

std::vector<Triangle> read_ascii(const std::string& path, const std::string& text) {
  AsciiTokens tok(path, text);
  tok.expect("solid");
  std::string w;
  // The solid's name runs to the first "facet" (or "endsolid" for an empty one).
  while (tok.next(w) && w != "facet" && w != "endsolid") {
  }
  std::vector<Triangle> out;
  while (w == "facet") {
    tok.expect("normal");
    for (int d = 0; d < 3; ++d) tok.number("a normal component");
    tok.expect("outer");
    tok.expect("loop");
    Triangle t;
    for (int v = 0; v < 3; ++v) {
      tok.expect("vertex");
      for (int d = 0; d < 3; ++d) t.v[v][d] = tok.number("a vertex coordinate");
    }
    tok.expect("endloop");
    tok.expect("endfacet");
    out.push_back(t);
    if (!tok.next(w)) tok.fail("expected 'facet' or 'endsolid', found the end of the file");
  }
  if (w != "endsolid") tok.fail("expected 'facet' or 'endsolid', found '" + w + "'");
  if (out.empty()) tok.fail("the solid has no facets: a body needs a closed surface");
  return out;
}

std::string point_text(const Vec3& p) {
  std::ostringstream s;
  s << '(' << p[0] << ", " << p[1] << ", " << p[2] << ')';
  return s.str();
}

// A body is the inside of a closed surface (TriangulatedBody classifies cells
// by ray parity): every edge must join exactly two triangles, vertices being
// matched by their exact coordinates as STL files repeat them.
void require_closed(const std::string& path, const std::vector<Triangle>& triangles) {
  std::vector<Vec3> points;
  points.reserve(3 * triangles.size());
  for (const Triangle& t : triangles) points.insert(points.end(), t.v.begin(), t.v.end());
  std::vector<Vec3> unique = points;
  std::sort(unique.begin(), unique.end());
  unique.erase(std::unique(unique.begin(), unique.end()), unique.end());
  auto id = [&](const Vec3& p) { return std::lower_bound(unique.begin(), unique.end(), p) - unique.begin(); };
  std::vector<std::pair<std::ptrdiff_t, std::ptrdiff_t>> edges;
  edges.reserve(points.size());
  for (const Triangle& t : triangles)
    for (int k = 0; k < 3; ++k) {
      const std::ptrdiff_t a = id(t.v[std::size_t(k)]), b = id(t.v[std::size_t((k + 1) % 3)]);
      edges.emplace_back(std::min(a, b), std::max(a, b));
    }
  std::sort(edges.begin(), edges.end());
  std::size_t open = 0, overused = 0;
  std::pair<std::ptrdiff_t, std::ptrdiff_t> first_bad{-1, -1};
  for (std::size_t i = 0; i < edges.size();) {
    std::size_t j = i;
    while (j < edges.size() && edges[j] == edges[i]) ++j;
    if (j - i != 2) {
      (j - i == 1 ? open : overused) += 1;
      if (first_bad.first < 0) first_bad = edges[i];
    }
    i = j;
  }
  if (open == 0 && overused == 0) return;
  throw ParseError(path, 0,
                   "the surface is not closed: " + std::to_string(open) + " edge(s) belong to one triangle only and " +
                       std::to_string(overused) + " to more than two (the first from " +
                       point_text(unique[std::size_t(first_bad.first)]) + " to " +
                       point_text(unique[std::size_t(first_bad.second)]) +
                       "); a body needs a closed (watertight) surface whose triangles share their vertices");
}

}  // namespace

std::vector<Triangle> read_stl(const std::string& path) {
  const std::string bytes = read_input_file(path, "STL file", InputContent::binary);
  if (bytes.size() >= 84) {
    std::uint32_t count;
    std::memcpy(&count, bytes.data() + 80, 4);
    if (bytes.size() == 84 + 50 * std::size_t(count)) {
      if (count == 0) throw ParseError(path, 0, "binary STL with 0 triangles: a body needs a closed surface");
      std::vector<Triangle> surface = read_binary(path, bytes, count);
      require_closed(path, surface);
      return surface;
    }
  }
  if (bytes.compare(0, 5, "solid") != 0) {
    if (bytes.size() >= 84)
      throw ParseError(path, 0,
                       "neither ASCII STL (no leading 'solid') nor binary STL (size " + std::to_string(bytes.size()) +
                           " is not 84 + 50 x the header's triangle count)");
    throw ParseError(path, 1, "not an STL file: ASCII STL begins with 'solid' and binary STL has at least 84 bytes");
  }
  std::vector<Triangle> surface = read_ascii(path, bytes);
  require_closed(path, surface);
  return surface;
}

void write_stl_ascii(const std::string& path, const std::vector<Triangle>& triangles) {
  std::ostringstream s;
  s.precision(17);
  s << "solid body\n";
  for (const Triangle& t : triangles) {
    const Vec3 n = cross(t.v[1] - t.v[0], t.v[2] - t.v[0]);
    s << " facet normal " << n[0] << ' ' << n[1] << ' ' << n[2] << "\n  outer loop\n";
    for (const Vec3& v : t.v) s << "   vertex " << v[0] << ' ' << v[1] << ' ' << v[2] << '\n';
    s << "  endloop\n endfacet\n";
  }
  s << "endsolid body\n";
  write_file_atomically(path, s.str());
}

void write_stl_binary(const std::string& path, const std::vector<Triangle>& triangles) {
  std::string bytes(84 + 50 * triangles.size(), '\0');
  std::memcpy(bytes.data(), "binary STL written by tb-ib", 27);
  const auto count = std::uint32_t(triangles.size());
  std::memcpy(bytes.data() + 80, &count, 4);
  for (std::size_t t = 0; t < triangles.size(); ++t)
    for (int v = 0; v < 3; ++v)
      for (int d = 0; d < 3; ++d) {
        const auto f = float(triangles[t].v[v][d]);
        std::memcpy(bytes.data() + 84 + 50 * t + 12 + 4 * (3 * v + d), &f, 4);
      }
  write_file_atomically(path, bytes);
}

}  // namespace tb::immersed

#pragma once
// STL surfaces, ASCII ("solid ... facet normal ... outer loop / vertex x y z
// (x3) / endloop / endfacet ... endsolid") and binary (80-byte header, uint32
// triangle count, 50 bytes per triangle). The file is binary when its size is
// exactly 84 + 50 n for the count n in its header, whatever its first bytes say
// (binary files often begin with "solid" too). Stored normals are ignored: the
// vertex order defines the orientation.
#include <string>
#include <vector>

#include "physics/immersed/body.hpp"

namespace tb::immersed {

// Throws tb::ParseError naming the file and the line (ASCII) or the triangle
// (binary) of the first malformed input, and tb::Error for unreadable files.
// Refused too: a file or a triangle list past the input limit
// (TB_INPUT_LIMIT_MB, solvers/core/input_limit.hpp), a surface without
// triangles, a non-finite coordinate, a surface that is not closed (an edge
// not shared by exactly two triangles).
std::vector<Triangle> read_stl(const std::string& path);

// Writers, for tests and for exporting analytic bodies.
void write_stl_ascii(const std::string& path, const std::vector<Triangle>& triangles);
void write_stl_binary(const std::string& path, const std::vector<Triangle>& triangles);

}  // namespace tb::immersed

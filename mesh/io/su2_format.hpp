#pragma once
#include <string>

#include "mesh/mesh2d.hpp"

namespace tb {

// SU2 native mesh (NDIME= 2, NELEM=, NPOIN=, NMARK= with MARKER_TAG= and
// MARKER_ELEMS=), single zone. Node indices are 0-based; the trailing element
// and point indices SU2 writes are optional. Markers keep their tags, names or
// numbers alike. Throws tb::ParseError (file:line) on malformed input.
Mesh2D read_su2(const std::string& path);

// Writes the mesh atomically; boundary faces without a marker are left out.
void write_su2(const std::string& path, const Mesh2D& mesh);

}  // namespace tb

// Damaged files give a tb::Error (a ParseError with file:line for the format
// readers), never a crash: every truncation by lines and every token replaced
// by junk, a negative, a huge or a missing value. Run it under the sanitize
// preset to catch what does not crash outright.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "mesh/io/mesh_io.hpp"
#include "mesh_fixtures.hpp"
#include "sample_files.hpp"
#include "solvers/core/error.hpp"

namespace tb {
namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::stringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::string join(const std::vector<std::string>& lines) {
  std::string s;
  for (const auto& l : lines) s += l + "\n";
  return s;
}

// Reads `text` as `name`; a clean read or a tb::Error is fine, anything else fails.
void read_survives(const std::string& name, const std::string& text, const std::string& what) {
  testing::TempFile f(name, text);
  try {
    const Mesh2D m = read_mesh(f.path());
    EXPECT_GT(m.num_cells(), 0) << what;
  } catch (const Error&) {
  } catch (const std::exception& e) {
    ADD_FAILURE() << what << ": escaped as a non-tb exception: " << e.what();
  }
}

void damage_everywhere(const std::string& name, const std::string& text) {
  const std::vector<std::string> lines = lines_of(text);
  for (std::size_t n = 0; n < lines.size(); ++n)
    read_survives(name, join({lines.begin(), lines.begin() + static_cast<std::ptrdiff_t>(n)}),
                  "truncated to " + std::to_string(n) + " lines");
  for (std::size_t l = 0; l < lines.size(); ++l) {
    std::stringstream tokens(lines[l]);
    std::vector<std::string> words;
    for (std::string w; tokens >> w;) words.push_back(w);
    for (std::size_t t = 0; t < words.size(); ++t)
      for (const char* junk : {"x", "-1", "99999999999", "2147483647", "0", ""}) {
        std::vector<std::string> changed = lines;
        std::string line;
        for (std::size_t k = 0; k < words.size(); ++k) {
          if (k > 0) line += ' ';
          line += k == t ? junk : words[k].c_str();
        }
        changed[l] = line;
        read_survives(name, join(changed),
                      "line " + std::to_string(l + 1) + " token " + std::to_string(t) + " -> '" + junk + "'");
      }
  }
}

TEST(ReaderRobustness, Gmsh22) { damage_everywhere("mesh.msh", testing::kGmsh22); }
TEST(ReaderRobustness, Gmsh41) { damage_everywhere("mesh.msh", testing::kGmsh41); }
TEST(ReaderRobustness, Su2) { damage_everywhere("mesh.su2", testing::kSu2); }

}  // namespace
}  // namespace tb

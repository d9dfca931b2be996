#pragma once
// The inputs of the multicolour kernel tests, host and GPU: a random
// tetrahedral-box matrix split into colours, D and O in either precision, and
// random b and starting x.
#include <algorithm>
#include <vector>

#include "../../common/random.hpp"
#include "solvers/matrix/generate.hpp"
#include "solvers/matrix/tetrahedral_box.hpp"
#include "solvers/multicolor/colour_pattern.hpp"
#include "solvers/multicolor/kernels.hpp"
#include "solvers/multicolor/split_values.hpp"

namespace tb::test {

struct RelaxInputs {
  multicolor::ColourPattern pattern;
  multicolor::SplitValues values;
  std::vector<double> b, x;
};

// A's colours, D and O in `precision`, random b and x.
inline RelaxInputs relax_inputs(const BsrMatrix& a, multicolor::Precision precision, unsigned seed) {
  RelaxInputs in;
  in.pattern = multicolor::build_colour_pattern(a, true);
  in.values = multicolor::allocate_split_values(in.pattern, precision);
  multicolor::fill_split_values(in.pattern, a, in.values);
  in.b = random_vector(std::size_t(a.rows()), seed + 1);
  in.x = random_vector(std::size_t(a.rows()), seed + 2);
  return in;
}

// A small random tetrahedral box, 6 x 5 x 4 nodes with blocks of nb: the
// serial path, about 8 colours.
inline RelaxInputs small_relax_inputs(index_t nb, multicolor::Precision precision, unsigned seed) {
  TetrahedralBoxParams p;
  p.nx = 6, p.ny = 5, p.nz = 4, p.block_size = nb, p.seed = seed;
  return relax_inputs(generate_tetrahedral_box(p), precision, seed);
}

// The widest colour's block rows.
inline index_t widest_colour(const multicolor::ColourPattern& p) {
  index_t w = 0;
  for (index_t k = 0; k < p.num_colours(); ++k) w = std::max(w, p.colour_begin[k + 1] - p.colour_begin[k]);
  return w;
}

template <class Real>
const std::vector<Real>& off_diagonal(const multicolor::SplitValues& v);
template <>
inline const std::vector<float>& off_diagonal<float>(const multicolor::SplitValues& v) {
  return v.o32;
}
template <>
inline const std::vector<double>& off_diagonal<double>(const multicolor::SplitValues& v) {
  return v.o64;
}

template <class Real>
multicolor::RelaxView<Real> host_view(const RelaxInputs& in) {
  return {in.pattern.block_size, in.pattern.ia.data(), in.pattern.ja.data(), in.values.d.data(),
          off_diagonal<Real>(in.values).data()};
}

template <class Real>
multicolor::Precision precision_of() {
  return sizeof(Real) == sizeof(float) ? multicolor::Precision::mixed : multicolor::Precision::fp64;
}

// Every colour in order, one sweep, by the reference twin: what each backend's
// relax_colour must reproduce colour by colour.
template <class Real>
std::vector<double> ref_sweep(const RelaxInputs& in) {
  std::vector<double> x = in.x;
  const multicolor::RelaxView<Real> m = host_view<Real>(in);
  for (index_t k = 0; k < in.pattern.num_colours(); ++k)
    multicolor::kernels::ref::relax_colour(m, in.pattern.colour_begin[k], in.pattern.colour_begin[k + 1], in.b.data(),
                                           x.data());
  return x;
}

}  // namespace tb::test

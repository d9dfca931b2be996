#pragma once
// The split storage on the GPU: the pattern copied once, the values (blocks
// transposed to column-major, the layout of cuda/kernels.cu)
// copied after every update, and the colour-major work vectors of a solve.
#include <memory>
#include <vector>

#include "colour_pattern.hpp"
#include "options.hpp"
#include "solvers/core/array.hpp"
#include "solvers/core/stage_groups.hpp"

namespace tb::multicolor {

namespace kernels::cuda {
struct LibraryColourSolver;
}

class DeviceSplit {
 public:
  DeviceSplit(const ColourPattern& p, const Options& o);
  void upload_values(const SplitValues& v);
  // z = M^{-1} r with r and z on the device.
  void apply(const ColourPattern& p, const Vector& r, Vector& z);
  // Step 1 alone (q = b - O x for every colour, Table I kernels) on the work
  // vectors as they stand: what the benchmark times against the 60 %-of-triad
  // target for the block SpMV.
  void matvec_only(const ColourPattern& p);

 private:
  template <class Real>
  void sweep(const ColourPattern& p, const Array<Real>& o);

  Options opt_;
  index_t block_size_;
  Array<index_t> new_to_old_, ia_, ja_;
  Array<double> d_, o64_;
  Array<float> o32_;
  Array<double> b_, x_, q_;
  std::vector<double> staging64_;  // column-major copies before upload, sized once
  std::vector<float> staging32_;
  std::shared_ptr<kernels::cuda::LibraryColourSolver> library_;
  StageSchedule colours_;  // kernel = fused: the colours as stages of one launch
};

}  // namespace tb::multicolor

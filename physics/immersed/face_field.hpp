#pragma once
// Normal velocities on the faces of the Cartesian grid (Mittal 2008 §2.1): the
// projection corrects them with the same pressure differences as the Poisson
// operator of Eq. 7, so their divergence on fluid cells vanishes to the
// solver's tolerance. Direction d has (n_d + 1) faces per grid line.
#include <array>
#include <vector>

#include "physics/immersed/cartesian_grid.hpp"

namespace tb::immersed {

class FaceField {
 public:
  explicit FaceField(const CartesianGrid& grid);
  // The face on side s (-1, +1) of cell c in direction d.
  index_t face(int d, const std::array<index_t, 3>& c, int s) const {
    std::array<index_t, 3> f = c;
    f[d] += s > 0 ? 1 : 0;
    return f[0] + ext_[d][0] * (f[1] + ext_[d][1] * f[2]);
  }
  std::vector<double>& normal(int d) { return u_[d]; }
  const std::vector<double>& normal(int d) const { return u_[d]; }
  // The plain views the kernels read (kernels.hpp).
  FaceView view();
  ConstFaceView view() const;

 private:
  std::array<std::array<index_t, 2>, 3> ext_{};  // face counts along x and y for each direction
  std::array<std::vector<double>, 3> u_;
};

// Sum over d of (U_{d,+} - U_{d,-}) / Delta x_d: the divergence of Eq. 3 in
// the form of Eq. 7.
double face_divergence(const CartesianGrid& grid, const FaceField& faces, const std::array<index_t, 3>& c);

}  // namespace tb::immersed

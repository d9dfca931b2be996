#include "physics/immersed/face_field.hpp"

namespace tb::immersed {

FaceField::FaceField(const CartesianGrid& grid) {
  for (int d = 0; d < 3; ++d) {
    std::array<index_t, 3> n = {grid.cells(0), grid.cells(1), grid.cells(2)};
    n[d] += 1;
    ext_[d] = {n[0], n[1]};
    u_[d].assign(std::size_t(n[0]) * n[1] * n[2], 0.0);
  }
}

FaceView FaceField::view() {
  FaceView v;
  for (int d = 0; d < 3; ++d) {
    v.normal[d] = u_[d].data();
    v.ext[d][0] = ext_[d][0], v.ext[d][1] = ext_[d][1];
  }
  return v;
}

ConstFaceView FaceField::view() const {
  ConstFaceView v;
  for (int d = 0; d < 3; ++d) {
    v.normal[d] = u_[d].data();
    v.ext[d][0] = ext_[d][0], v.ext[d][1] = ext_[d][1];
  }
  return v;
}

double face_divergence(const CartesianGrid& grid, const FaceField& faces, const std::array<index_t, 3>& c) {
  double div = 0.0;
  for (int d = 0; d < 3; ++d)
    div += (faces.normal(d)[faces.face(d, c, 1)] - faces.normal(d)[faces.face(d, c, -1)]) / grid.axis(d).widths[c[d]];
  return div;
}

}  // namespace tb::immersed

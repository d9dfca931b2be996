#pragma once
// The length of the closed recirculation behind a body in a stream along +x
// (the figure Johnson & Patel 1999 tabulate for the sphere: L/D = 0.88 at
// Re 100): along the line y = y_c, z = z_c through the body's centre, from the
// rear of the body (x_rear) to where the trilinearly interpolated u_x turns
// from negative to positive, in steps of a quarter of the finest width; zero
// where u_x is positive behind the body. Decomposed: the rank owning each
// sample's z plane evaluates it and the samples are summed over the ranks.
#include "physics/immersed/fractional_step.hpp"

namespace tb::immersed {

double recirculation_length(const ImmersedFlow& flow, double x_rear, double y_c, double z_c);

}  // namespace tb::immersed

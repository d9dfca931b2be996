#pragma once
// Velocity profiles along grid lines through the domain, for the cavity's
// centreline comparison with Ghia et al. (1982) and the channel's outlet profile.
#include <array>

#include "physics/incompressible/fractional_step.hpp"
#include "physics/incompressible/ghia1982.hpp"

namespace tb::incompressible {

// Component 'component' of the velocity along direction 'along' through
// 'point' (the coordinate along 'along' is ignored): one value per cell centre
// plus the two boundary values, interpolated linearly across the other directions.
Profile sample_line(const FractionalStep& flow, int component, int along, const std::array<double, 3>& point);

// Linear interpolation of a profile at x (clamped to its ends).
double interpolate(const Profile& p, double x);

// max_i |interpolate(computed, reference.coord[i] * scale) - reference.value[i]|
double max_deviation(const Profile& computed, const Profile& reference, double scale = 1.0);

}  // namespace tb::incompressible

#include "physics/compressible/viscous.hpp"

#include <cmath>

namespace tb::compressible {

FluxJacobians thin_layer_jacobians(const Viscosity& visc, const Gas& gas, const State& left, const State& right,
                                   double nx, double ny, double dist, double mu) {
  const VelocityTemperature l = velocity_temperature(visc, gas, left), r = velocity_temperature(visc, gas, right);
  const double ax = (r.u - l.u) / dist, ay = (r.v - l.v) / dist, an = ax * nx + ay * ny;
  const double fx = mu * (ax + an * nx / 3.0), fy = mu * (ay + an * ny / 3.0);
  const double ubar = 0.5 * (l.u + r.u), vbar = 0.5 * (l.v + r.v), k = visc.conductivity(mu);
  FluxJacobians j;
  // side: +1 for the right state (d/dn = +1/dist), -1 for the left one.
  const auto fill = [&](Block& b, const VelocityTemperature& q, double side) {
    for (int m = 0; m < num_vars; ++m) {
      const double dax = side * q.du[m] / dist, day = side * q.dv[m] / dist, dan = dax * nx + day * ny;
      const double dfx = mu * (dax + dan * nx / 3.0), dfy = mu * (day + dan * ny / 3.0);
      b[0 * num_vars + m] = 0.0;
      b[1 * num_vars + m] = dfx;
      b[2 * num_vars + m] = dfy;
      b[3 * num_vars + m] = dfx * ubar + dfy * vbar + 0.5 * (fx * q.du[m] + fy * q.dv[m]) + side * k * q.dt[m] / dist;
    }
  };
  fill(j.left, l, -1.0);
  fill(j.right, r, 1.0);
  return j;
}

}  // namespace tb::compressible

#pragma once
// The two pieces of JSON writing every report needs; documents are assembled
// by the caller. Non-finite numbers become null (JSON has no NaN or Inf).
#include <string>
#include <string_view>

namespace tb::json {

std::string quote(std::string_view s);
std::string number(double v);
// All 17 significant digits (reads back to the same double): for residual
// histories that runs compare digit by digit (seed 000, Table 1).
std::string number_exact(double v);

}  // namespace tb::json

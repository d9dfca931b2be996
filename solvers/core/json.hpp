#pragma once
// The two pieces of JSON writing every report needs; documents are assembled
// by the caller. Non-finite numbers become null (JSON has no NaN or Inf).
#include <string>
#include <string_view>

namespace tb::json {

std::string quote(std::string_view s);
std::string number(double v);

}  // namespace tb::json

#pragma once
// What every executable that links tb_core sets in its own environment before
// main() and before any library reads it (process_environment.cpp):
//   OMP_WAIT_POLICY=passive          OpenMP waits sleep instead of spinning
//                                    (docs/threading.md: spinning collapses on a
//                                    shared machine; libgomp reads it on load)
//   GLIBC_TUNABLES=glibc.malloc.hugetlb=1
//                                    large allocations on transparent huge pages:
//                                    the first touch of a factor takes 512x fewer
//                                    page faults than on 4 KiB pages (docs/threading.md)
// A variable the user set is left alone. The program executes itself again
// with the additions, from its .preinit_array, which the dynamic loader runs
// before any shared library's constructor.
#include <string_view>

namespace tb::process_environment {

// Whether the program (not the user) set this variable.
bool set_by_program(std::string_view name);

}  // namespace tb::process_environment

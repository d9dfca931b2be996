# cmake -DBUILD=<testbed build> -DWORK=<scratch> -DSOURCE=<consumer sources> [-DSPECS=a|b] -P install_consumer.cmake
# Installs the testbed's build into WORK/prefix, configures and builds the
# consumer against that prefix alone, and runs it with each specification.
foreach(v BUILD WORK SOURCE)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "install_consumer.cmake: -D${v}=... is required")
  endif()
endforeach()
file(REMOVE_RECURSE ${WORK})
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message(STATUS "${out}${err}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}")
  endif()
endfunction()
run(${CMAKE_COMMAND} --install ${BUILD} --prefix ${WORK}/prefix)
run(${CMAKE_COMMAND} -S ${SOURCE} -B ${WORK}/build -G Ninja -DCMAKE_BUILD_TYPE=Release
    -DCMAKE_PREFIX_PATH=${WORK}/prefix)
run(${CMAKE_COMMAND} --build ${WORK}/build)
string(REPLACE "|" ";" specs "${SPECS}")
foreach(spec IN LISTS specs)
  run(${WORK}/build/consumer ${spec})
endforeach()

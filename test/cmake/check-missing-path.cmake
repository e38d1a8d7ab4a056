# SPDX-License-Identifier: GPL-2.0-only
#
# CTest "ai-fabric-missing-path-message":
#   cmake -DAI_FABRIC_ROOT=<repo> -DWORK_DIR=<dir> -P test/cmake/check-missing-path.cmake
# Configures test/cmake/missing-path and checks that configuring stops, naming
# each missing path with its Debian package (or apt-file for an unknown one).
cmake_minimum_required(VERSION 3.16)
file(REMOVE_RECURSE "${WORK_DIR}")
execute_process(
  COMMAND ${CMAKE_COMMAND} -S ${AI_FABRIC_ROOT}/test/cmake/missing-path -B ${WORK_DIR}
          -DAI_FABRIC_ROOT=${AI_FABRIC_ROOT}
  RESULT_VARIABLE rc
  OUTPUT_VARIABLE out
  ERROR_VARIABLE err)
set(text "${out}${err}")
set(problems)
if(rc EQUAL 0)
  list(APPEND problems "configure succeeded (exit 0)")
endif()
set(prefix /nonexistent-ai-fabric-test)
foreach(expected
        "${prefix}/usr/include/libxml2 \\(named by fake::libcore\\): Debian package libxml2-dev"
        "${prefix}/usr/lib/libgsl.so \\(named by fake::libstats\\): Debian package libgsl-dev"
        "libunknown-to-ai-fabric.so \\(named by fake::libstats\\): no package known"
        "apt-get install libxml2-dev libgsl-dev")
  if(NOT text MATCHES "${expected}")
    list(APPEND problems "the message lacks '${expected}'")
  endif()
endforeach()
if(text MATCHES "include/libxml2[^\n]*\n[^\n]*include/libxml2")
  list(APPEND problems "a path is named twice")
endif()
if(problems)
  message("${text}")
  string(REPLACE ";" "\n  " problems "${problems}")
  message(FATAL_ERROR "ai-fabric-missing-path-message:\n  ${problems}")
endif()
message("ai-fabric-missing-path-message: configure stopped (exit ${rc}) and named every path and package")

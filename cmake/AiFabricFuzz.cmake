# SPDX-License-Identifier: GPL-2.0-only
#
# libFuzzer targets for the module's text readers (-DAI_FABRIC_FUZZ=ON, clang only;
# `./ai-fabric test --sanitize` and `./ai-fabric fuzz [SECONDS]` build build-sanitize/
# with it, and with AI_FABRIC_SANITIZE, so that one instrumented library serves both).
# Included by CMakeLists.txt after cmake/AiFabricStandalone.cmake; off by default,
# and then it changes nothing in the build.
#
# One executable ai-fabric-fuzz-<name> per test/fuzz/<name>-fuzz.cc listed in
# ai-fabric-files.txt, its seed corpus in test/fuzz/corpus/<name>/. The readers
# run inside the module library, so the library is compiled with
# -fsanitize=fuzzer-no-link,address,undefined (coverage feedback and the same
# sanitizers); the target sources with -fsanitize=fuzzer,address,undefined (libFuzzer's
# main). The JSON configuration reader needs the registries, i.e. the whole module,
# so every target links the one instrumented library instead of copies of the parser
# sources. The examples, tests and ai-fabric-sim link it too, which needs the sanitizer
# runtime (AI_FABRIC_SANITIZE=ON: its empty coverage hooks stand in for libFuzzer's);
# without it, build only the aggregate target `ai-fabric-fuzz`.

option(AI_FABRIC_FUZZ "Build the libFuzzer targets of test/fuzz/ (clang; instruments the library)"
       OFF)
if(NOT AI_FABRIC_FUZZ)
  return()
endif()
if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
  message(FATAL_ERROR "AI_FABRIC_FUZZ=ON needs clang (libFuzzer); this is ${CMAKE_CXX_COMPILER_ID} "
                      "(configure a new build directory with -DCMAKE_CXX_COMPILER=clang++)")
endif()
if(AI_FABRIC_PGO AND NOT AI_FABRIC_PGO STREQUAL "OFF")
  message(FATAL_ERROR "AI_FABRIC_FUZZ=ON and AI_FABRIC_PGO=${AI_FABRIC_PGO}: allowed with the fuzz "
                      "build: AI_FABRIC_PGO=OFF")
endif()

# -O1 as libFuzzer's documentation suggests; asserts (NS_ASSERT, nlohmann's) stay on.
set(AI_FABRIC_FUZZ_COMMON -O1 -g -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
target_compile_options(ai-fabric PRIVATE -fsanitize=fuzzer-no-link,address,undefined
                                         ${AI_FABRIC_FUZZ_COMMON})
target_compile_definitions(ai-fabric PRIVATE NS3_ASSERT_ENABLE)
target_link_options(ai-fabric PRIVATE -fsanitize=address,undefined)

add_custom_target(ai-fabric-fuzz)
set(AI_FABRIC_FUZZ_TARGETS)
foreach(source IN LISTS AI_FABRIC_FUZZ_SOURCES)
  get_filename_component(stem ${source} NAME_WE)
  string(REGEX REPLACE "-fuzz$" "" name ${stem})
  set(target ai-fabric-fuzz-${name})
  add_executable(${target} ${AI_FABRIC_ROOT}/${source})
  target_link_libraries(${target} PRIVATE ai-fabric)
  ai_fabric_target_options(${target})
  target_compile_definitions(${target} PRIVATE NS3_ASSERT_ENABLE)
  target_compile_options(${target} PRIVATE -fsanitize=fuzzer,address,undefined
                                           ${AI_FABRIC_FUZZ_COMMON})
  target_link_options(${target} PRIVATE -fsanitize=fuzzer,address,undefined)
  set_target_properties(${target} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/fuzz)
  if(NOT EXISTS ${AI_FABRIC_ROOT}/test/fuzz/corpus/${name})
    message(WARNING "ai-fabric: ${source} has no seed corpus test/fuzz/corpus/${name}/")
  endif()
  add_dependencies(ai-fabric-fuzz ${target})
  list(APPEND AI_FABRIC_FUZZ_TARGETS ${name})
endforeach()
message(STATUS "ai-fabric: libFuzzer targets: ${AI_FABRIC_FUZZ_TARGETS}")

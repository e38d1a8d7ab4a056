# SPDX-License-Identifier: GPL-2.0-only
#
# Reads ai-fabric-files.txt and sorts its entries by folder and suffix. Shared
# by CMakeLists.txt (standalone and in-tree) and by check-file-list.cmake, so
# the build and the check can never disagree about what a path means.
#
# Plain CMake only (no project-specific commands), so it also runs under
# `cmake -P`. Variable names avoid a brace directly before "lib": ns-3's module
# scanner treats such tokens as module dependencies.

# ai_fabric_read_file_list(<root>)
# Sets in the caller's scope (paths relative to <root>):
#   AI_FABRIC_LISTED        every entry, in file order
#   AI_FABRIC_SOURCES       model/ helper/ *.cc
#   AI_FABRIC_HEADERS       model/ helper/ *.h
#   AI_FABRIC_TEST_SOURCES  test/*.cc (suites and shared test code)
#   AI_FABRIC_TEST_HEADERS  test/*.h
#   AI_FABRIC_CLI_SOURCE    utils/ai-fabric-sim.cc when listed, else empty
#   AI_FABRIC_FUZZ_SOURCES  test/fuzz/*.cc (libFuzzer targets, built with AI_FABRIC_FUZZ=ON)
#   AI_FABRIC_PROTOS        model/ *.proto (protobuf schemas, compiled when protobuf is found)
#   AI_FABRIC_LIST_ERRORS   one message per bad line (unknown kind, duplicate)
function(ai_fabric_read_file_list root)
  set(list_file "${root}/ai-fabric-files.txt")
  if(NOT EXISTS "${list_file}")
    message(FATAL_ERROR "ai-fabric: ${list_file} is missing; it lists the module's files")
  endif()
  file(STRINGS "${list_file}" lines)
  set(listed)
  set(sources)
  set(headers)
  set(test_sources)
  set(test_headers)
  set(cli_source)
  set(fuzz_sources)
  set(protos)
  set(errors)
  set(line_number 0)
  foreach(line IN LISTS lines)
    math(EXPR line_number "${line_number} + 1")
    string(REGEX REPLACE "#.*$" "" line "${line}")
    string(STRIP "${line}" path)
    if(path STREQUAL "")
      continue()
    endif()
    if(path IN_LIST listed)
      list(APPEND errors "ai-fabric-files.txt:${line_number}: '${path}' is listed twice")
      continue()
    endif()
    list(APPEND listed "${path}")
    if(path MATCHES "^(model|helper)/.+\\.cc$")
      list(APPEND sources "${path}")
    elseif(path MATCHES "^(model|helper)/.+\\.h$")
      list(APPEND headers "${path}")
    elseif(path STREQUAL "test/ai-fabric-test-runner.cc")
      list(APPEND errors
           "ai-fabric-files.txt:${line_number}: '${path}' is built by CMakeLists.txt itself; remove the line")
    elseif(path MATCHES "^test/[^/]+\\.cc$")
      list(APPEND test_sources "${path}")
    elseif(path MATCHES "^test/[^/]+\\.h$")
      list(APPEND test_headers "${path}")
    elseif(path STREQUAL "utils/ai-fabric-sim.cc")
      set(cli_source "${path}")
    elseif(path MATCHES "^test/fuzz/[^/]+\\.cc$")
      list(APPEND fuzz_sources "${path}")
    elseif(path MATCHES "^model/.+\\.proto$")
      list(APPEND protos "${path}")
    else()
      list(APPEND errors
           "ai-fabric-files.txt:${line_number}: '${path}' is not a known kind of file; allowed: "
           "model/**/*.cc|h, helper/**/*.cc|h, test/*.cc|h, utils/ai-fabric-sim.cc, test/fuzz/*.cc, "
           "model/**/*.proto")
    endif()
  endforeach()
  set(AI_FABRIC_LISTED "${listed}" PARENT_SCOPE)
  set(AI_FABRIC_SOURCES "${sources}" PARENT_SCOPE)
  set(AI_FABRIC_HEADERS "${headers}" PARENT_SCOPE)
  set(AI_FABRIC_TEST_SOURCES "${test_sources}" PARENT_SCOPE)
  set(AI_FABRIC_TEST_HEADERS "${test_headers}" PARENT_SCOPE)
  set(AI_FABRIC_CLI_SOURCE "${cli_source}" PARENT_SCOPE)
  set(AI_FABRIC_FUZZ_SOURCES "${fuzz_sources}" PARENT_SCOPE)
  set(AI_FABRIC_PROTOS "${protos}" PARENT_SCOPE)
  set(AI_FABRIC_LIST_ERRORS "${errors}" PARENT_SCOPE)
endfunction()

# ai_fabric_files_on_disk(<root> <out-var>)
# The files that must appear in the list: model/ and helper/ sources and
# headers at any depth, test/*.cc and test/*.h (not the runner), utils/*.cc,
# test/fuzz/*.cc, model/**/*.proto.
function(ai_fabric_files_on_disk root out_var)
  file(GLOB_RECURSE found RELATIVE "${root}"
       "${root}/model/*.cc" "${root}/model/*.h" "${root}/model/*.proto"
       "${root}/helper/*.cc" "${root}/helper/*.h")
  file(GLOB found_test RELATIVE "${root}" "${root}/test/*.cc" "${root}/test/*.h")
  file(GLOB found_utils RELATIVE "${root}" "${root}/utils/*.cc")
  file(GLOB found_fuzz RELATIVE "${root}" "${root}/test/fuzz/*.cc")
  list(APPEND found ${found_test} ${found_utils} ${found_fuzz})
  list(REMOVE_ITEM found "test/ai-fabric-test-runner.cc")
  list(SORT found)
  set(${out_var} "${found}" PARENT_SCOPE)
endfunction()

# ai_fabric_find_test_suites(<root> <out-var> <test sources...>)
# Suite names, read from the first string literal of each `TestSuite(` call
# (the constructor's base initialiser `: TestSuite("ai-fabric-x", ...)`).
function(ai_fabric_find_test_suites root out_var)
  set(suites)
  foreach(source IN LISTS ARGN)
    if(NOT EXISTS "${root}/${source}")
      continue()
    endif()
    file(READ "${root}/${source}" text)
    string(REGEX MATCHALL "TestSuite[ \t\r\n]*\\([ \t\r\n]*\"[^\"]+\"" calls "${text}")
    foreach(call IN LISTS calls)
      string(REGEX REPLACE "^.*\"([^\"]+)\"$" "\\1" name "${call}")
      if(name IN_LIST suites)
        message(WARNING "ai-fabric: test suite '${name}' is defined twice (second time in ${source})")
      else()
        list(APPEND suites "${name}")
      endif()
    endforeach()
  endforeach()
  set(${out_var} "${suites}" PARENT_SCOPE)
endfunction()

# ai_fabric_listed_examples(<root> <out-var>)
# The names in the set(ai_fabric_examples ...) block of examples/CMakeLists.txt.
function(ai_fabric_listed_examples root out_var)
  set(names)
  if(EXISTS "${root}/examples/CMakeLists.txt")
    file(STRINGS "${root}/examples/CMakeLists.txt" lines)
    set(inside FALSE)
    foreach(line IN LISTS lines)
      string(REGEX REPLACE "#.*$" "" line "${line}")
      if(NOT inside)
        if(line MATCHES "set\\([ \t]*ai_fabric_examples(.*)$")
          set(inside TRUE)
          set(line "${CMAKE_MATCH_1}")
        else()
          continue()
        endif()
      endif()
      if(line MATCHES "\\)")
        string(REGEX REPLACE "\\).*$" "" line "${line}")
        set(inside FALSE)
      endif()
      string(REGEX MATCHALL "[A-Za-z0-9_.+-]+" words "${line}")
      list(APPEND names ${words})
      if(NOT inside)
        break()
      endif()
    endforeach()
  endif()
  set(${out_var} "${names}" PARENT_SCOPE)
endfunction()

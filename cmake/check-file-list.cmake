# SPDX-License-Identifier: GPL-2.0-only
#
# CTest "ai-fabric-file-list":
#   cmake -DAI_FABRIC_ROOT=<repo> -P cmake/check-file-list.cmake
# Fails, naming each file, when a source or header on disk is missing from
# ai-fabric-files.txt or a listed file does not exist; the same for
# examples/*.cc and examples/CMakeLists.txt. A forgotten line would
# otherwise leave a file unbuilt (or a test suite unregistered) without notice.
cmake_minimum_required(VERSION 3.13)
if(NOT AI_FABRIC_ROOT)
  get_filename_component(AI_FABRIC_ROOT "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
endif()
include("${CMAKE_CURRENT_LIST_DIR}/AiFabricFiles.cmake")

ai_fabric_read_file_list("${AI_FABRIC_ROOT}")
ai_fabric_files_on_disk("${AI_FABRIC_ROOT}" on_disk)

set(problems ${AI_FABRIC_LIST_ERRORS})
foreach(path IN LISTS on_disk)
  if(NOT path IN_LIST AI_FABRIC_LISTED)
    list(APPEND problems "${path} exists but is not listed in ai-fabric-files.txt")
  endif()
endforeach()
foreach(path IN LISTS AI_FABRIC_LISTED)
  if(NOT EXISTS "${AI_FABRIC_ROOT}/${path}")
    list(APPEND problems "${path} is listed in ai-fabric-files.txt but does not exist")
  endif()
endforeach()

ai_fabric_listed_examples("${AI_FABRIC_ROOT}" examples)
file(GLOB example_sources RELATIVE "${AI_FABRIC_ROOT}/examples" "${AI_FABRIC_ROOT}/examples/*.cc")
foreach(source IN LISTS example_sources)
  string(REGEX REPLACE "\\.cc$" "" name "${source}")
  if(NOT name IN_LIST examples)
    list(APPEND problems "examples/${source} exists but '${name}' is not listed in examples/CMakeLists.txt")
  endif()
endforeach()
foreach(name IN LISTS examples)
  if(NOT EXISTS "${AI_FABRIC_ROOT}/examples/${name}.cc")
    list(APPEND problems "example '${name}' is listed in examples/CMakeLists.txt but examples/${name}.cc does not exist")
  endif()
endforeach()

list(LENGTH AI_FABRIC_LISTED listed_count)
if(problems)
  foreach(problem IN LISTS problems)
    message("ai-fabric-file-list: ${problem}")
  endforeach()
  message(FATAL_ERROR "ai-fabric-file-list: the file list and the tree disagree (see above)")
endif()
message("ai-fabric-file-list: ${listed_count} listed files, all present, none unlisted")

# SPDX-License-Identifier: GPL-2.0-only
#
# Writes what CMake made of ai-fabric-files.txt and examples/CMakeLists.txt to
# <build>/ai-fabric-cmake-files.txt, one "<kind> <path>" per line, so that the
# CTest test python-test_wscript_sync can check that wscript-compat/wscript
# (waf-era ns-3 trees) builds exactly the same files. Included by
# cmake/AiFabricTests.cmake after ai_fabric_load_file_list().
#
# Kinds: the AI_FABRIC_* lists the build uses (listed files that exist), the
# raw classification of every line ("listed-<kind>"), the test suites and the
# examples.

function(ai_fabric_write_waf_sync_file)
  set(out "${CMAKE_BINARY_DIR}/ai-fabric-cmake-files.txt")
  set(text "# written by cmake/AiFabricWafSync.cmake; read by test/python/test_wscript_sync.py\n")
  foreach(kind SOURCES HEADERS TEST_SOURCES TEST_HEADERS CLI_SOURCE TEST_SUITES)
    string(TOLOWER "${kind}" name)
    foreach(item IN LISTS AI_FABRIC_${kind})
      string(APPEND text "${name} ${item}\n")
    endforeach()
  endforeach()
  ai_fabric_listed_examples(${AI_FABRIC_ROOT} examples)
  foreach(item IN LISTS examples)
    if(EXISTS "${AI_FABRIC_ROOT}/examples/${item}.cc")
      string(APPEND text "examples ${item}\n")
    endif()
  endforeach()
  # Function scope: this re-read does not touch the caller's (filtered) lists.
  ai_fabric_read_file_list(${AI_FABRIC_ROOT})
  foreach(kind SOURCES HEADERS TEST_SOURCES TEST_HEADERS CLI_SOURCE FUZZ_SOURCES PROTOS)
    string(TOLOWER "${kind}" name)
    foreach(item IN LISTS AI_FABRIC_${kind})
      string(APPEND text "listed-${name} ${item}\n")
    endforeach()
  endforeach()
  # Only touch the file when it changed (CMake 3.16 has no COPY_FILE).
  set(old)
  if(EXISTS "${out}")
    file(READ "${out}" old)
  endif()
  if(NOT old STREQUAL text)
    file(WRITE "${out}" "${text}")
  endif()
endfunction()
ai_fabric_write_waf_sync_file()

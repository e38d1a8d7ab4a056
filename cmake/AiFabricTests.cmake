# SPDX-License-Identifier: GPL-2.0-only
#
# CTest registration for the standalone build: the file-list check, one test
# per ns-3 TestSuite and one per Python test file.

enable_testing()

add_test(NAME ai-fabric-file-list
         COMMAND ${CMAKE_COMMAND} -DAI_FABRIC_ROOT=${AI_FABRIC_ROOT} -P
                 ${AI_FABRIC_ROOT}/cmake/check-file-list.cmake)
set_tests_properties(ai-fabric-file-list PROPERTIES LABELS "build")
add_test(NAME ai-fabric-missing-path-message
         COMMAND ${CMAKE_COMMAND} -DAI_FABRIC_ROOT=${AI_FABRIC_ROOT}
                 -DWORK_DIR=${CMAKE_BINARY_DIR}/test-missing-path -P
                 ${AI_FABRIC_ROOT}/test/cmake/check-missing-path.cmake)
set_tests_properties(ai-fabric-missing-path-message PROPERTIES LABELS "build")
include(${AI_FABRIC_ROOT}/cmake/AiFabricWafSync.cmake) # lists for test_wscript_sync.py

# Suites register themselves through static constructors, so they are linked
# into the runner executable itself; a shared test library nobody references
# could be dropped by --as-needed.
add_executable(ai-fabric-test-runner ${AI_FABRIC_ROOT}/test/ai-fabric-test-runner.cc
                                     ${AI_FABRIC_TEST_SOURCES})
target_link_libraries(ai-fabric-test-runner PRIVATE ai-fabric)
target_include_directories(ai-fabric-test-runner PRIVATE ${AI_FABRIC_ROOT}/test)
target_compile_definitions(ai-fabric-test-runner PRIVATE AI_FABRIC_SOURCE_DIR="${AI_FABRIC_ROOT}")
ai_fabric_target_options(ai-fabric-test-runner)
# The suites' own code only sets up and checks (the simulation runs in the library, which
# keeps its optimization): -O1 in optimized builds compiles it in about half the time
# of -O3 (test/collective-test-suite.cc: 8.0 s against 15.0 s with g++ 12).
target_compile_options(
  ai-fabric-test-runner
  PRIVATE $<$<OR:$<CONFIG:Release>,$<CONFIG:RelWithDebInfo>,$<CONFIG:MinSizeRel>>:-O1>)
set_target_properties(ai-fabric-test-runner PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR})

set(AI_FABRIC_TEST_LABELS unit)
set(AI_FABRIC_TEST_ENV)
# ns-3's test durations: QUICK cases check behaviour, EXTENSIVE ones measure a figure on a
# large run (the C++ twin of the pytest marker 'figures'). Every build runs both, except
# the sanitizer build, where a large run takes minutes and its code paths are the QUICK
# cases' own.
set(AI_FABRIC_TEST_FULLNESS EXTENSIVE)
if(AI_FABRIC_SANITIZE)
  set(AI_FABRIC_TEST_FULLNESS QUICK)
  list(APPEND AI_FABRIC_TEST_LABELS sanitize)
  list(APPEND AI_FABRIC_TEST_ENV "ASAN_OPTIONS=detect_leaks=1:abort_on_error=0"
       "UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1")
endif()

foreach(suite IN LISTS AI_FABRIC_TEST_SUITES)
  add_test(NAME ${suite} COMMAND ai-fabric-test-runner --suite=${suite}
                                   --fullness=${AI_FABRIC_TEST_FULLNESS}
           WORKING_DIRECTORY ${CMAKE_BINARY_DIR})
  set_tests_properties(${suite} PROPERTIES LABELS "${AI_FABRIC_TEST_LABELS}" TIMEOUT 600)
  if(AI_FABRIC_TEST_ENV)
    set_tests_properties(${suite} PROPERTIES ENVIRONMENT "${AI_FABRIC_TEST_ENV}")
  endif()
endforeach()
list(LENGTH AI_FABRIC_TEST_SUITES suite_count)
message(STATUS "ai-fabric: ${suite_count} test suite(s) registered with CTest")

# Python tests: one CTest test per test/python/test_*.py, when pytest is there.
file(GLOB AI_FABRIC_PY_TESTS CONFIGURE_DEPENDS ${AI_FABRIC_ROOT}/test/python/test_*.py)
if(AI_FABRIC_PY_TESTS)
  find_package(Python3 COMPONENTS Interpreter)
  set(have_pytest FALSE)
  if(Python3_Interpreter_FOUND)
    execute_process(COMMAND ${Python3_EXECUTABLE} -c "import pytest" RESULT_VARIABLE pytest_rc
                    OUTPUT_QUIET ERROR_QUIET)
    if(pytest_rc EQUAL 0)
      set(have_pytest TRUE)
    endif()
  endif()
  if(NOT have_pytest)
    message(WARNING "ai-fabric: python3 with pytest not found; the Python tests are not registered")
  else()
    set(sim_path "")
    if(TARGET ai-fabric-sim)
      set(sim_path $<TARGET_FILE:ai-fabric-sim>)
    endif()
    foreach(py_test IN LISTS AI_FABRIC_PY_TESTS)
      get_filename_component(stem ${py_test} NAME_WE)
      # -p no:cacheprovider: do not write .pytest_cache into the source tree.
      add_test(NAME python-${stem}
               COMMAND ${Python3_EXECUTABLE} -m pytest -q -p no:cacheprovider ${py_test}
               WORKING_DIRECTORY ${CMAKE_BINARY_DIR})
      set_tests_properties(
        python-${stem}
        # pytest exits 5 when every test of the file was skipped (e.g. the Python
        # module is not built in a sanitizer build): CTest reports that as skipped.
        PROPERTIES LABELS "python" TIMEOUT 900 SKIP_RETURN_CODE 5
                   ENVIRONMENT
                   "AI_FABRIC_BUILD_DIR=${CMAKE_BINARY_DIR};AI_FABRIC_SIM=${sim_path};AI_FABRIC_SOURCE_DIR=${AI_FABRIC_ROOT};AI_FABRIC_PCAP_WRITER=${CMAKE_BINARY_DIR}/examples/rocev2-pcap-sample;PYTHONDONTWRITEBYTECODE=1")
    endforeach()
  endif()
endif()

# SPDX-License-Identifier: GPL-2.0-only
#
# In-tree build (contrib/ai-fabric of an ns-3 >= 3.36 source tree), after
# build_lib(): ns-3 has already built the library, staged the headers into
# build/include/ns3/, built examples/ and put the test suites into
# libai-fabric-test, which ns-3's own test-runner loads:
#     ./ns3 run "test-runner --suite=ai-fabric-..."   or   ./test.py -s ai-fabric-...

# The command-line program, as ns-3 builds its own utils/ programs, so that
# `./ns3 run "ai-fabric-sim --workload=..."` finds it.
if(AI_FABRIC_CLI_SOURCE)
  set(module_target libai-fabric)
  build_exec(
    EXECNAME ai-fabric-sim
    SOURCE_FILES ${AI_FABRIC_CLI_SOURCE}
    LIBRARIES_TO_LINK ${${module_target}}
    EXECUTABLE_DIRECTORY_PATH ${CMAKE_RUNTIME_OUTPUT_DIRECTORY}/contrib/ai-fabric/
  )
endif()

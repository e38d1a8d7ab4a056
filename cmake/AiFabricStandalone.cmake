# SPDX-License-Identifier: GPL-2.0-only
#
# Standalone build against an installed ns-3 (find_package(ns3)).
# Included by CMakeLists.txt after project() and ai_fabric_load_file_list().

include(GNUInstallDirs)

# Without a build type CMake passes no -O at all.
if(NOT CMAKE_BUILD_TYPE AND NOT CMAKE_CONFIGURATION_TYPES)
  set(CMAKE_BUILD_TYPE Release CACHE STRING "Debug, Release, RelWithDebInfo or MinSizeRel" FORCE)
endif()
set(CMAKE_CXX_STANDARD 17)
set(CMAKE_CXX_STANDARD_REQUIRED ON)
set(CMAKE_CXX_EXTENSIONS OFF)
set(CMAKE_EXPORT_COMPILE_COMMANDS ON)

option(AI_FABRIC_WERROR "Treat warnings in this module's own targets as errors" OFF)
option(AI_FABRIC_SANITIZE "Build with AddressSanitizer and UndefinedBehaviorSanitizer" OFF)
option(AI_FABRIC_EXAMPLES "Build the programs in examples/" ON)
option(AI_FABRIC_TESTS "Build ai-fabric-test-runner and register the CTest tests" ON)
option(AI_FABRIC_LTO "Link-time optimization of the library in Release builds" ON)
set(AI_FABRIC_PGO OFF CACHE STRING
    "Profile-guided optimization of the library: OFF, GENERATE (instrumented; then build pgo-train) or USE")
set_property(CACHE AI_FABRIC_PGO PROPERTY STRINGS OFF GENERATE USE)
set(AI_FABRIC_PGO_DIR ${CMAKE_BINARY_DIR}/pgo-profile CACHE PATH
    "Directory of the profile AI_FABRIC_PGO writes (GENERATE) and reads (USE)")

# --- ns-3 ----------------------------------------------------------------------
# ns-3's package version file accepts only an exact version match, so ask for
# any version and check the minimum here.
find_package(ns3 CONFIG REQUIRED)
if(ns3_VERSION AND ns3_VERSION VERSION_LESS 3.36)
  message(FATAL_ERROR "ai-fabric: ns-3 ${ns3_VERSION} found in ${ns3_DIR}; ns-3 3.36 or newer is needed")
endif()
# Exported target names: ns3::libcore up to 3.42, ns3::core from 3.43.
if(TARGET ns3::libcore)
  set(AI_FABRIC_NS3_PREFIX ns3::lib)
elseif(TARGET ns3::core)
  set(AI_FABRIC_NS3_PREFIX ns3::)
else()
  message(FATAL_ERROR "ai-fabric: the ns-3 package in ${ns3_DIR} defines neither ns3::libcore "
                      "nor ns3::core")
endif()
set(AI_FABRIC_NS3_TARGETS)
foreach(module core network internet applications flow-monitor)
  if(NOT TARGET ${AI_FABRIC_NS3_PREFIX}${module})
    message(FATAL_ERROR "ai-fabric: the installed ns-3 lacks module '${module}' "
                        "(target ${AI_FABRIC_NS3_PREFIX}${module})")
  endif()
  list(APPEND AI_FABRIC_NS3_TARGETS ${AI_FABRIC_NS3_PREFIX}${module})
endforeach()

find_package(nlohmann_json 3 REQUIRED)
find_package(Boost 1.71 REQUIRED)
if(TARGET Boost::headers)
  set(AI_FABRIC_BOOST Boost::headers)
else()
  set(AI_FABRIC_BOOST Boost::boost)
endif()

# Debian's ns-3 targets name include folders and libraries of packages libns3-dev
# does not depend on; say which package is missing before CMake's generate step
# stops with a generic error (cmake/AiFabricImportedPaths.cmake).
include(${AI_FABRIC_ROOT}/cmake/AiFabricImportedPaths.cmake)
ai_fabric_check_imported_paths(
  PACKAGE_LIST ${AI_FABRIC_ROOT}/utils/debian-packages.txt
  RECORD ${CMAKE_BINARY_DIR}/ai-fabric-imported-paths.txt
  TARGETS ${AI_FABRIC_NS3_TARGETS} nlohmann_json::nlohmann_json ${AI_FABRIC_BOOST})

# --- flags for this module's own targets ---------------------------------------
# The imported ns-3 targets carry no compile definitions: without
# NS3_LOG_ENABLE every NS_LOG_* here compiles to nothing.
function(ai_fabric_target_options target)
  target_compile_options(${target} PRIVATE -Wall -Wextra)
  if(AI_FABRIC_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
  target_compile_definitions(
    ${target} PRIVATE NS3_LOG_ENABLE
                      $<$<OR:$<CONFIG:Debug>,$<BOOL:${AI_FABRIC_SANITIZE}>>:NS3_ASSERT_ENABLE>)
  if(AI_FABRIC_SANITIZE)
    set(flags -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer)
    target_compile_options(${target} PRIVATE ${flags} -g)
    target_link_options(${target} PRIVATE ${flags})
  endif()
endfunction()

# --- headers staged as ns3/<name>.h ----------------------------------------------
# Sources include this module's headers from other folders as "ns3/<name>.h",
# exactly as in an ns-3 tree. Symbolic links keep compiler messages pointing at
# the real file and need no re-configure when a header changes.
set(AI_FABRIC_INCLUDE_DIR ${CMAKE_BINARY_DIR}/include)
file(MAKE_DIRECTORY ${AI_FABRIC_INCLUDE_DIR}/ns3)
foreach(header IN LISTS AI_FABRIC_HEADERS)
  get_filename_component(name ${header} NAME)
  file(CREATE_LINK ${AI_FABRIC_ROOT}/${header} ${AI_FABRIC_INCLUDE_DIR}/ns3/${name} SYMBOLIC
       COPY_ON_ERROR)
endforeach()

# --- the library: libns3-ai-fabric.so ------------------------------------------------
add_library(ai-fabric SHARED ${AI_FABRIC_SOURCES} ${AI_FABRIC_HEADERS})
add_library(ns3::ai-fabric ALIAS ai-fabric)
set_target_properties(ai-fabric PROPERTIES OUTPUT_NAME ns3-ai-fabric)
target_include_directories(
  ai-fabric BEFORE PUBLIC $<BUILD_INTERFACE:${AI_FABRIC_INCLUDE_DIR}>
                          $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
target_link_libraries(ai-fabric PUBLIC ${AI_FABRIC_NS3_TARGETS} nlohmann_json::nlohmann_json
                                       ${AI_FABRIC_BOOST})
# --- MPI (doc/distributed.md) ------------------------------------------------------
# -DAI_FABRIC_MPI=ON: link ns-3's mpi module as `./ai-fabric mpi-setup` builds it into
# AI_FABRIC_MPI_PREFIX (Debian's ns-3 has no mpi module); the library then has the
# remote channels' MPI path and ai-fabric-sim --mpi. OFF (default): as without MPI.
option(AI_FABRIC_MPI "Link ns-3's mpi module (./ai-fabric mpi-setup builds it)" OFF)
if(DEFINED ENV{XDG_CACHE_HOME} AND NOT "$ENV{XDG_CACHE_HOME}" STREQUAL "")
  set(_ai_fabric_cache $ENV{XDG_CACHE_HOME})
else()
  set(_ai_fabric_cache $ENV{HOME}/.cache)
endif()
set(AI_FABRIC_MPI_PREFIX ${_ai_fabric_cache}/ai-fabric/ns3-mpi-${ns3_VERSION} CACHE PATH
    "Where ./ai-fabric mpi-setup installed ns-3's mpi module")
if(AI_FABRIC_MPI)
  find_package(ns3-mpi CONFIG PATHS ${AI_FABRIC_MPI_PREFIX}/lib/cmake/ns3-mpi NO_DEFAULT_PATH)
  if(NOT ns3-mpi_FOUND)
    message(FATAL_ERROR "ai-fabric: AI_FABRIC_MPI=ON, but ns-3's mpi module is not in "
                        "AI_FABRIC_MPI_PREFIX='${AI_FABRIC_MPI_PREFIX}': run ./ai-fabric mpi-setup "
                        "(or set AI_FABRIC_MPI_PREFIX to where it installed it)")
  endif()
  if(NOT "${ns3-mpi_NS3_VERSION}" STREQUAL "${ns3_VERSION}")
    message(FATAL_ERROR "ai-fabric: the mpi module in ${AI_FABRIC_MPI_PREFIX} was built for "
                        "ns-3 ${ns3-mpi_NS3_VERSION}, this build uses ${ns3_VERSION}")
  endif()
  target_link_libraries(ai-fabric PUBLIC ns3mpi::ns3-mpi)
  # Installed, the library finds the module in mpi-setup's folder (a program's own
  # run path does not apply to its libraries' dependencies).
  set_property(TARGET ai-fabric APPEND PROPERTY INSTALL_RPATH ${AI_FABRIC_MPI_PREFIX}/lib)
  target_compile_definitions(ai-fabric PUBLIC AI_FABRIC_MPI)
  # METIS (Debian's libmetis-dev, installed by ./ai-fabric mpi-setup): the balanced
  # graph partition of RankPartition's "graph" method (topology files); private, as
  # only rank-partition.cc calls it
  find_path(AI_FABRIC_METIS_INCLUDE_DIR metis.h)
  find_library(AI_FABRIC_METIS_LIBRARY metis)
  if(NOT AI_FABRIC_METIS_INCLUDE_DIR OR NOT AI_FABRIC_METIS_LIBRARY)
    message(FATAL_ERROR "ai-fabric: AI_FABRIC_MPI=ON needs METIS (metis.h, libmetis): "
                        "install libmetis-dev (./ai-fabric mpi-setup does)")
  endif()
  # (the define and include folder on that one file, so the others' flags stay as
  # without METIS)
  set_source_files_properties(${AI_FABRIC_ROOT}/model/topology/rank-partition.cc
                              PROPERTIES COMPILE_DEFINITIONS AI_FABRIC_METIS)
  if(NOT AI_FABRIC_METIS_INCLUDE_DIR IN_LIST CMAKE_CXX_IMPLICIT_INCLUDE_DIRECTORIES)
    set_source_files_properties(${AI_FABRIC_ROOT}/model/topology/rank-partition.cc
                                PROPERTIES INCLUDE_DIRECTORIES ${AI_FABRIC_METIS_INCLUDE_DIR})
  endif()
  target_link_libraries(ai-fabric PRIVATE ${AI_FABRIC_METIS_LIBRARY})
  message(STATUS "ai-fabric: MPI on, ns-3's mpi module from ${AI_FABRIC_MPI_PREFIX}")
endif()
# --- Chakra execution traces (doc/training.md) ----------------------------------------
# Debian's libprotobuf-dev and protobuf-compiler: the schemas listed in ai-fabric-files.txt
# (model/**/*.proto) compiled into the library, and AI_FABRIC_CHAKRA on the reader. Without
# protobuf the library builds without them and --workload=chakra is refused, saying so.
find_package(Protobuf QUIET)
if(Protobuf_FOUND AND Protobuf_PROTOC_EXECUTABLE AND Protobuf_LITE_LIBRARIES AND AI_FABRIC_PROTOS)
  set(AI_FABRIC_PROTO_DIR ${CMAKE_BINARY_DIR}/proto)
  file(MAKE_DIRECTORY ${AI_FABRIC_PROTO_DIR})
  set(generated)
  foreach(proto IN LISTS AI_FABRIC_PROTOS)
    get_filename_component(name ${proto} NAME_WE)
    get_filename_component(folder ${AI_FABRIC_ROOT}/${proto} DIRECTORY)
    add_custom_command(
      OUTPUT ${AI_FABRIC_PROTO_DIR}/${name}.pb.cc ${AI_FABRIC_PROTO_DIR}/${name}.pb.h
      COMMAND ${Protobuf_PROTOC_EXECUTABLE} --cpp_out=${AI_FABRIC_PROTO_DIR} -I${folder}
              ${AI_FABRIC_ROOT}/${proto}
      DEPENDS ${AI_FABRIC_ROOT}/${proto} ${Protobuf_PROTOC_EXECUTABLE}
      COMMENT "ai-fabric: protoc ${proto}"
      VERBATIM)
    list(APPEND generated ${AI_FABRIC_PROTO_DIR}/${name}.pb.cc)
  endforeach()
  target_sources(ai-fabric PRIVATE ${generated})
  set_source_files_properties(${AI_FABRIC_ROOT}/model/training/chakra-trace.cc
                              PROPERTIES COMPILE_DEFINITIONS AI_FABRIC_CHAKRA)
  target_include_directories(ai-fabric PRIVATE ${AI_FABRIC_PROTO_DIR} ${Protobuf_INCLUDE_DIRS})
  # the lite runtime (the schema's optimize_for): every program of the library loads it
  target_link_libraries(ai-fabric PRIVATE ${Protobuf_LITE_LIBRARIES})
  set(AI_FABRIC_CHAKRA ON)
  message(STATUS "ai-fabric: Chakra traces on (protobuf ${Protobuf_VERSION})")
else()
  set(AI_FABRIC_CHAKRA OFF)
  message(STATUS "ai-fabric: no Chakra traces (protobuf not found: install libprotobuf-dev "
                 "and protobuf-compiler)")
endif()

# Public, so programs and tests including this module's headers log too.
target_compile_definitions(ai-fabric PUBLIC NS3_LOG_ENABLE)
ai_fabric_target_options(ai-fabric)
# A shared library's exported functions may be interposed at load time, so GCC may
# not inline one into another within the library (-fPIC's default): small per-packet
# helpers (MMU index and accounting, header helpers) then cost a call through the PLT
# each. Nobody interposes this library's symbols.
target_compile_options(ai-fabric PRIVATE -fno-semantic-interposition)
# Link-time optimization of the library in Release builds: the per-packet path crosses
# files (device, channel, switch, MMU, event list); -2.4% instructions on the k=4
# permutation benchmark (doc/performance.md). Debug and sanitizer builds stay without it.
# -DAI_FABRIC_LTO=OFF skips it (faster edit-build cycles while developing).
include(CheckIPOSupported)
check_ipo_supported(RESULT AI_FABRIC_IPO OUTPUT AI_FABRIC_IPO_WHY LANGUAGES CXX)
if(NOT AI_FABRIC_LTO)
  message(STATUS "ai-fabric: no link-time optimization (AI_FABRIC_LTO=OFF)")
elseif(AI_FABRIC_IPO)
  set_property(TARGET ai-fabric PROPERTY INTERPROCEDURAL_OPTIMIZATION_RELEASE TRUE)
else()
  message(STATUS "ai-fabric: no link-time optimization (${AI_FABRIC_IPO_WHY})")
endif()
# Profile-guided optimization of the library (GCC): the per-packet path is branchy and
# full of indirect calls (event kinds, port owners), which a profile lays out and
# inlines: -10% instructions and 6-9% less time on medium (doc/performance.md).
# GENERATE builds an instrumented library, the pgo-train target (below) runs
# ai-fabric-sim on small scenarios of every fabric, congestion control and topology
# family, USE rebuilds with that profile; ./ai-fabric does the three steps for build/.
# The profile changes the code's speed, never its results.
if(NOT AI_FABRIC_PGO MATCHES "^(OFF|GENERATE|USE)$")
  message(FATAL_ERROR "AI_FABRIC_PGO='${AI_FABRIC_PGO}': allowed OFF, GENERATE, USE")
endif()
if(NOT AI_FABRIC_PGO STREQUAL "OFF")
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    message(FATAL_ERROR "AI_FABRIC_PGO=${AI_FABRIC_PGO} needs GCC (this is ${CMAKE_CXX_COMPILER_ID}); "
                        "allowed with it: OFF")
  endif()
  if(AI_FABRIC_PGO STREQUAL "GENERATE")
    # One thread runs a simulation: plain counter updates suffice.
    set(AI_FABRIC_PGO_FLAGS -fprofile-generate=${AI_FABRIC_PGO_DIR} -fprofile-update=single)
  else()
    if(NOT EXISTS ${AI_FABRIC_PGO_DIR}/trained.stamp)
      message(FATAL_ERROR "AI_FABRIC_PGO=USE: no profile in ${AI_FABRIC_PGO_DIR} (allowed: USE "
                          "after building the pgo-train target with AI_FABRIC_PGO=GENERATE, or OFF)")
    endif()
    # Code the training did not run keeps its normal optimization (partial training);
    # a source edited since the training uses what still matches (no -Werror stop).
    set(AI_FABRIC_PGO_FLAGS -fprofile-use=${AI_FABRIC_PGO_DIR} -fprofile-partial-training
                            -Wno-missing-profile -Wno-coverage-mismatch)
  endif()
  target_compile_options(ai-fabric PRIVATE ${AI_FABRIC_PGO_FLAGS})
  target_link_options(ai-fabric PRIVATE ${AI_FABRIC_PGO_FLAGS})
  message(STATUS "ai-fabric: profile-guided optimization ${AI_FABRIC_PGO} (${AI_FABRIC_PGO_DIR})")
endif()

# --- the command-line program ---------------------------------------------------
if(AI_FABRIC_CLI_SOURCE)
  add_executable(ai-fabric-sim ${AI_FABRIC_CLI_SOURCE})
  target_link_libraries(ai-fabric-sim PRIVATE ai-fabric)
  ai_fabric_target_options(ai-fabric-sim)
  set_target_properties(ai-fabric-sim PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}
                                                 INSTALL_RPATH "$ORIGIN/../${CMAKE_INSTALL_LIBDIR}")
else()
  message(STATUS "ai-fabric: utils/ai-fabric-sim.cc is not listed yet; not building ai-fabric-sim")
endif()

# --- profile-guided optimization: the training runs --------------------------------
# Small scenarios that together run every per-packet path: RoCEv2 under DCQCN with
# web-search background and ECN, a PFC incast, Swift with packet spraying, InfiniBand
# credits, torus and dragonfly routing, each collective algorithm. None is a benchmark
# or BENCHMARKS.md scenario (those measure the profile out of sample: k=8, not k=6).
# Counters add up over runs, so the profile starts empty (remove_directory: CMake 3.16
# has no -E rm).
if(AI_FABRIC_PGO STREQUAL "GENERATE" AND TARGET ai-fabric-sim)
  set(pgo_out ${CMAKE_BINARY_DIR}/pgo-train-out)
  set(pgo_sim $<TARGET_FILE:ai-fabric-sim>)
  add_custom_target(
    pgo-train
    COMMAND ${CMAKE_COMMAND} -E remove_directory ${AI_FABRIC_PGO_DIR} ${pgo_out}
    COMMAND ${pgo_sim} --topology=fattree --k=6 --mtu=4096 --workload=allreduce --algorithm=ring
            --bytes=4MB --cc=dcqcn --background=websearch --load=0.4 --background-duration=1ms
            --out=${pgo_out}/allreduce-dcqcn
    COMMAND ${pgo_sim} --topology=fattree --k=4 --workload=incast --fanin=15 --bytes=1MB
            --out=${pgo_out}/incast-pfc
    COMMAND ${pgo_sim} --topology=leafspine --workload=permutation --bytes=1MB --cc=swift --lb=spray
            --out=${pgo_out}/permutation-swift-spray
    COMMAND ${pgo_sim} --fabric=infiniband --topology=fattree --k=4 --mtu=4096 --workload=allreduce
            --algorithm=hd --bytes=1MB --out=${pgo_out}/infiniband-hd
    COMMAND ${pgo_sim} --topology=torus --dims=4x4 --workload=allreduce --algorithm=2d --bytes=1MB
            --cc=dcqcn --out=${pgo_out}/torus-2d
    COMMAND ${pgo_sim} --topology=dragonfly --workload=allreduce --algorithm=tree --bytes=512KB
            --routing=ugal --out=${pgo_out}/dragonfly-tree
    COMMAND ${CMAKE_COMMAND} -E touch ${AI_FABRIC_PGO_DIR}/trained.stamp
    DEPENDS ai-fabric-sim
    COMMENT "ai-fabric: profile-guided optimization, training runs (profile: ${AI_FABRIC_PGO_DIR})"
    VERBATIM)
endif()

# Debian's python3-pytest, python3-numpy and pybind11-dev belong to
# /usr/bin/python3; a python3 found earlier on PATH (pyenv, venv) may lack them.
# -DPython3_EXECUTABLE=... overrides.
if(NOT DEFINED Python3_EXECUTABLE AND EXISTS /usr/bin/python3)
  set(Python3_EXECUTABLE /usr/bin/python3 CACHE FILEPATH "Python used for tests and bindings")
endif()

# --- examples and Python bindings ---------------------------------------------------
if(AI_FABRIC_EXAMPLES AND EXISTS ${AI_FABRIC_ROOT}/examples/CMakeLists.txt)
  add_subdirectory(examples)
endif()
if(EXISTS ${AI_FABRIC_ROOT}/bindings/CMakeLists.txt)
  add_subdirectory(bindings)
endif()
if(AI_FABRIC_EXAMPLES AND EXISTS ${AI_FABRIC_ROOT}/bench/CMakeLists.txt)
  add_subdirectory(bench)
endif()

# --- tests ----------------------------------------------------------------------------
if(AI_FABRIC_TESTS)
  include(${AI_FABRIC_ROOT}/cmake/AiFabricTests.cmake)
endif()

# --- install ----------------------------------------------------------------------------
# The library, its headers, ns3/ai-fabric-module.h and the CMake and pkg-config
# package files.
include(${AI_FABRIC_ROOT}/cmake/AiFabricPackage.cmake)
if(TARGET ai-fabric-sim)
  install(TARGETS ai-fabric-sim RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()

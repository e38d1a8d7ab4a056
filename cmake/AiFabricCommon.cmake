# SPDX-License-Identifier: GPL-2.0-only
#
# Parts shared by the standalone and the in-tree build. Included before
# build_lib() because ns-3 processes examples/ from inside build_lib().

# Reads ai-fabric-files.txt into AI_FABRIC_* variables (see AiFabricFiles.cmake)
# and the test suite names into AI_FABRIC_TEST_SUITES. A listed file that does
# not exist is left out with a warning, so one colleague's half-landed change
# does not stop everyone's build; the ai-fabric-file-list test still fails on it.
macro(ai_fabric_load_file_list)
  ai_fabric_read_file_list(${AI_FABRIC_ROOT})
  if(AI_FABRIC_LIST_ERRORS)
    string(REPLACE ";" "\n" _ai_fabric_errors "${AI_FABRIC_LIST_ERRORS}")
    message(FATAL_ERROR "${_ai_fabric_errors}")
  endif()
  foreach(_ai_fabric_kind SOURCES HEADERS TEST_SOURCES TEST_HEADERS CLI_SOURCE FUZZ_SOURCES)
    set(_ai_fabric_present)
    foreach(_ai_fabric_path IN LISTS AI_FABRIC_${_ai_fabric_kind})
      if(EXISTS ${AI_FABRIC_ROOT}/${_ai_fabric_path})
        list(APPEND _ai_fabric_present ${_ai_fabric_path})
      else()
        message(WARNING "ai-fabric: ${_ai_fabric_path} is listed in ai-fabric-files.txt "
                        "but does not exist; building without it")
      endif()
    endforeach()
    set(AI_FABRIC_${_ai_fabric_kind} ${_ai_fabric_present})
  endforeach()

  # Headers are included as "ns3/<name>.h", so two with one name would collide.
  set(_ai_fabric_names)
  foreach(_ai_fabric_path IN LISTS AI_FABRIC_HEADERS)
    get_filename_component(_ai_fabric_name ${_ai_fabric_path} NAME)
    if(_ai_fabric_name IN_LIST _ai_fabric_names)
      message(FATAL_ERROR "ai-fabric: two public headers are named ${_ai_fabric_name}; "
                          "they would both be ns3/${_ai_fabric_name} (rename ${_ai_fabric_path})")
    endif()
    list(APPEND _ai_fabric_names ${_ai_fabric_name})
  endforeach()

  # Re-run configure when the list or a test source changes, so a new file or
  # a new suite is picked up by a plain rebuild.
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
               ${AI_FABRIC_ROOT}/ai-fabric-files.txt)
  foreach(_ai_fabric_path IN LISTS AI_FABRIC_TEST_SOURCES)
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
                 ${AI_FABRIC_ROOT}/${_ai_fabric_path})
  endforeach()
  ai_fabric_find_test_suites(${AI_FABRIC_ROOT} AI_FABRIC_TEST_SUITES ${AI_FABRIC_TEST_SOURCES})
endmacro()

# ai_fabric_add_example(<name>): builds examples/<name>.cc, linked with this
# module. Called from examples/CMakeLists.txt.
function(ai_fabric_add_example name)
  set(source ${name}.cc)
  if(NOT EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/${source})
    message(FATAL_ERROR "ai-fabric: example '${name}' is listed in examples/CMakeLists.txt "
                        "but examples/${source} does not exist")
  endif()
  if(AI_FABRIC_IN_TREE)
    # ns-3's own helper: filtering, output folder and `./ns3 run <name>`.
    set(module_target libai-fabric)
    build_lib_example(NAME ${name} SOURCE_FILES ${source} LIBRARIES_TO_LINK ${${module_target}})
  else()
    add_executable(${name} ${source})
    target_link_libraries(${name} PRIVATE ai-fabric)
    ai_fabric_target_options(${name})
    set_target_properties(${name} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/examples)
  endif()
endfunction()

# Third-party header-only libraries for the in-tree build, if CMake can see them.
function(ai_fabric_in_tree_third_party out_var)
  set(found)
  find_package(nlohmann_json 3 QUIET)
  if(TARGET nlohmann_json::nlohmann_json)
    list(APPEND found nlohmann_json::nlohmann_json)
  endif()
  set(${out_var} ${found} PARENT_SCOPE)
endfunction()

# Hardware presets (--cluster, doc/hardware.md): helper/scenario/clusters/*.json, shipped
# and installed with the module. ClusterPreset (helper/scenario/cluster-preset.cc) reads
# them from the source copy, then from the installed one; the paths are given to that
# one file only, so no other object's compile line changes.
include(GNUInstallDirs)
set(AI_FABRIC_CLUSTER_DIRS
    "${AI_FABRIC_ROOT}/helper/scenario/clusters:${CMAKE_INSTALL_FULL_DATADIR}/ai-fabric/clusters")
set_source_files_properties(
  helper/scenario/cluster-preset.cc PROPERTIES COMPILE_DEFINITIONS
                                               "AI_FABRIC_CLUSTER_DIRS=\"${AI_FABRIC_CLUSTER_DIRS}\"")
install(DIRECTORY ${AI_FABRIC_ROOT}/helper/scenario/clusters/
        DESTINATION ${CMAKE_INSTALL_DATADIR}/ai-fabric/clusters FILES_MATCHING PATTERN "*.json")

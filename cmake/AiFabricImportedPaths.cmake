# SPDX-License-Identifier: GPL-2.0-only
#
# Configure-time check of the files and folders that imported targets name.
#
# Debian's libns3-dev exports include folders and libraries of packages it does
# not depend on (/usr/include/libxml2, libgsl.so, libsqlite3.so, ...). Without
# them CMake configures, then stops at its generate step with "Imported target
# ns3::libcore includes non-existent path", or the link fails with "no rule to
# make target": neither says what to install. This check runs before either and
# names, for each missing path, the Debian package that provides it, from the
# `path=` entries of utils/debian-packages.txt (the list ./ai-fabric installs).

# ai_fabric_read_debian_packages(<file> <names-var> <paths-var>): the package names
# of <file> in order, and "package|regex" pairs for its `path=` entries.
function(ai_fabric_read_debian_packages file names_var paths_var)
  file(STRINGS "${file}" lines)
  set(names)
  set(paths)
  foreach(line IN LISTS lines)
    string(REGEX REPLACE "#.*" "" line "${line}")
    string(STRIP "${line}" line)
    if(line STREQUAL "")
      continue()
    endif()
    if(line MATCHES "^([^ \t]+)[ \t]+path=(.+)$")
      list(APPEND names "${CMAKE_MATCH_1}")
      list(APPEND paths "${CMAKE_MATCH_1}|${CMAKE_MATCH_2}")
    elseif(line MATCHES "^([^ \t]+)([ \t]+(optional|test))?$")
      list(APPEND names "${CMAKE_MATCH_1}")
    else()
      message(FATAL_ERROR "ai-fabric: ${file}: '${line}' is not 'package', "
                          "'package path=REGEX', 'package test' or 'package optional'")
    endif()
  endforeach()
  set(${names_var} "${names}" PARENT_SCOPE)
  set(${paths_var} "${paths}" PARENT_SCOPE)
endfunction()

# ai_fabric_check_imported_paths(PACKAGE_LIST <file> [RECORD <file>] TARGETS <target>...):
# walks the targets and every target they link, checks each absolute path in their
# INTERFACE_INCLUDE_DIRECTORIES, INTERFACE_SYSTEM_INCLUDE_DIRECTORIES and
# INTERFACE_LINK_LIBRARIES, and stops with one message naming every missing path and
# its package. RECORD writes the paths that exist, one a line (python-test_packages
# asks dpkg which package owns each).
function(ai_fabric_check_imported_paths)
  cmake_parse_arguments(arg "" "PACKAGE_LIST;RECORD" "TARGETS" ${ARGN})
  ai_fabric_read_debian_packages("${arg_PACKAGE_LIST}" names path_rules)
  set(pending ${arg_TARGETS})
  set(seen)
  set(present)
  set(missing)
  while(pending)
    list(POP_FRONT pending target)
    if(target IN_LIST seen OR NOT TARGET ${target})
      continue()
    endif()
    list(APPEND seen ${target})
    set(items)
    foreach(property INTERFACE_INCLUDE_DIRECTORIES INTERFACE_SYSTEM_INCLUDE_DIRECTORIES
                     INTERFACE_LINK_LIBRARIES)
      get_target_property(values ${target} ${property})
      if(values)
        list(APPEND items ${values})
      endif()
    endforeach()
    foreach(item IN LISTS items)
      if(item MATCHES "\\$<")
        continue() # a generator expression: evaluated at generate time
      elseif(TARGET ${item})
        list(APPEND pending ${item})
      elseif(IS_ABSOLUTE "${item}")
        if(EXISTS "${item}")
          list(APPEND present "${item}")
        else()
          list(APPEND missing "${item}|${target}")
        endif()
      endif()
    endforeach()
  endwhile()
  if(arg_RECORD)
    list(REMOVE_DUPLICATES present)
    list(SORT present)
    string(REPLACE ";" "\n" text "${present}")
    file(WRITE "${arg_RECORD}" "${text}\n")
  endif()
  if(NOT missing)
    return()
  endif()
  set(lines)
  set(packages)
  set(seen_paths)
  foreach(entry IN LISTS missing)
    string(REPLACE "|" ";" entry "${entry}")
    list(GET entry 0 path)
    list(GET entry 1 target)
    if(path IN_LIST seen_paths)
      continue()
    endif()
    list(APPEND seen_paths "${path}")
    set(package)
    foreach(rule IN LISTS path_rules)
      string(FIND "${rule}" "|" bar)
      string(SUBSTRING "${rule}" 0 ${bar} name)
      math(EXPR start "${bar} + 1")
      string(SUBSTRING "${rule}" ${start} -1 regex)
      if(path MATCHES "${regex}")
        set(package ${name})
        break()
      endif()
    endforeach()
    if(package)
      list(APPEND packages ${package})
      list(APPEND lines "  ${path} (named by ${target}): Debian package ${package}")
    else()
      list(APPEND lines "  ${path} (named by ${target}): no package known for it in \
${arg_PACKAGE_LIST}, `apt-file search ${path}` finds one")
    endif()
  endforeach()
  string(REPLACE ";" "\n" lines "${lines}")
  set(install "")
  if(packages)
    list(REMOVE_DUPLICATES packages)
    string(REPLACE ";" " " packages "${packages}")
    set(install "\nInstall them (./ai-fabric installs its whole list itself):\n  apt-get install ${packages}")
  endif()
  message(FATAL_ERROR "ai-fabric: ns-3's CMake targets name paths that do not exist:\n"
                      "${lines}${install}")
endfunction()

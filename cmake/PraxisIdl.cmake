# praxis_idl_generate(<target> [NO_INSTALL] FILES a.idl b.idl ...)
# Runs Cyclone DDS's idlc (package cyclonedds-tools) on each IDL file at build time and adds the
# generated C sources to <target>. The headers land in <binary dir>/generated/praxis/idl/, so code
# includes them as <praxis/idl/NAME.h>; they are installed with the library unless NO_INSTALL
# (types only the tests use).
#
# idlc runs with "-x final": Unitree's types are final, and saying so keeps idlc quiet without
# annotating the IDL (the XTypes type hashes were verified on annotation-free IDL).
function(praxis_idl_generate target)
  cmake_parse_arguments(ARG "NO_INSTALL" "" "FILES" ${ARGN})
  find_program(PRAXIS_IDLC idlc REQUIRED)
  set(out_dir "${CMAKE_CURRENT_BINARY_DIR}/generated/praxis/idl")
  file(MAKE_DIRECTORY "${out_dir}")
  set(sources)
  # An IDL file may #include another of the same call (ROS 2 headers shared by several vendors).
  set(include_flags)
  set(all_idl)
  foreach(idl IN LISTS ARG_FILES)
    get_filename_component(abs "${idl}" ABSOLUTE)
    get_filename_component(dir "${abs}" DIRECTORY)
    list(APPEND include_flags "-I${dir}")
    list(APPEND all_idl "${abs}")
  endforeach()
  list(REMOVE_DUPLICATES include_flags)
  foreach(idl IN LISTS ARG_FILES)
    get_filename_component(abs "${idl}" ABSOLUTE)
    get_filename_component(name "${idl}" NAME_WE)
    set(c "${out_dir}/${name}.c")
    set(h "${out_dir}/${name}.h")
    add_custom_command(
      OUTPUT "${c}" "${h}"
      COMMAND "${PRAXIS_IDLC}" -l c -x final ${include_flags} -o "${out_dir}" "${abs}"
      DEPENDS ${all_idl}
      COMMENT "idlc ${name}.idl"
      VERBATIM)
    list(APPEND sources "${c}")
    if(NOT ARG_NO_INSTALL)
      install(FILES "${h}" DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/praxis/idl)
    endif()
  endforeach()
  target_sources(${target} PRIVATE ${sources})
  target_include_directories(${target} PUBLIC
    $<BUILD_INTERFACE:${CMAKE_CURRENT_BINARY_DIR}/generated>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
endfunction()

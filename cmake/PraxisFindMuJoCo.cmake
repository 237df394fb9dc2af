# Finds the MuJoCo physics library and provides the imported target PraxisMuJoCo::mujoco. Debian's
# libmujoco-dev 2.2.2 ships a mujocoConfig.cmake whose target names /usr/include/libqhull_r/, a
# directory no package installs, so find_package(mujoco) fails to generate; the header and the
# library are looked up directly instead, under a target name of our own so that a consumer's
# find_package(mujoco) never collides with it. Sets PRAXIS_MUJOCO_FOUND. Used by praxis' build and
# by the installed praxisConfig.cmake.
set(PRAXIS_MUJOCO_FOUND OFF)
if(NOT TARGET PraxisMuJoCo::mujoco)
  find_path(PRAXIS_MUJOCO_INCLUDE_DIR mujoco/mujoco.h)
  find_library(PRAXIS_MUJOCO_LIBRARY mujoco)
  mark_as_advanced(PRAXIS_MUJOCO_INCLUDE_DIR PRAXIS_MUJOCO_LIBRARY)
  if(PRAXIS_MUJOCO_INCLUDE_DIR AND PRAXIS_MUJOCO_LIBRARY)
    add_library(PraxisMuJoCo::mujoco UNKNOWN IMPORTED)
    set_target_properties(PraxisMuJoCo::mujoco PROPERTIES
      IMPORTED_LOCATION "${PRAXIS_MUJOCO_LIBRARY}"
      INTERFACE_INCLUDE_DIRECTORIES "${PRAXIS_MUJOCO_INCLUDE_DIR}")
  endif()
endif()
if(TARGET PraxisMuJoCo::mujoco)
  set(PRAXIS_MUJOCO_FOUND ON)
endif()

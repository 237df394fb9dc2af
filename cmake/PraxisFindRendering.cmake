# Finds what praxis::sim's offscreen renderer needs: EGL (libglvnd's libEGL from libegl-dev; Mesa's
# libegl-mesa0 and libgl1-mesa-dri supply the surfaceless platform and llvmpipe at run time) and
# libpng (libpng-dev). Provides the imported target PraxisRender::egl and PNG::PNG, and sets
# PRAXIS_RENDERING_FOUND. Used by praxis' build and by the installed praxisConfig.cmake, because
# praxis_sim is a static library whose private dependencies its consumers link.
set(PRAXIS_RENDERING_FOUND OFF)
if(NOT TARGET PraxisRender::egl)
  find_path(PRAXIS_EGL_INCLUDE_DIR EGL/egl.h)
  find_library(PRAXIS_EGL_LIBRARY EGL)
  mark_as_advanced(PRAXIS_EGL_INCLUDE_DIR PRAXIS_EGL_LIBRARY)
  if(PRAXIS_EGL_INCLUDE_DIR AND PRAXIS_EGL_LIBRARY)
    add_library(PraxisRender::egl UNKNOWN IMPORTED)
    set_target_properties(PraxisRender::egl PROPERTIES
      IMPORTED_LOCATION "${PRAXIS_EGL_LIBRARY}"
      INTERFACE_INCLUDE_DIRECTORIES "${PRAXIS_EGL_INCLUDE_DIR}")
  endif()
endif()
find_package(PNG QUIET)
if(TARGET PraxisRender::egl AND TARGET PNG::PNG)
  set(PRAXIS_RENDERING_FOUND ON)
endif()

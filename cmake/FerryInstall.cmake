# What `cmake --install` puts beside the tool and the runtime (whose own
# install rules are in tool/ and runtime/), and the .deb CPack makes of it.
#
#   <prefix>/bin/ferry
#   <prefix>/include/ferry/*.hpp
#   <prefix>/lib/libferry_runtime.a
#   <prefix>/lib/cmake/Ferry/{FerryConfig,FerryConfigVersion,FerryTargets*,
#                             FerryTargetSources}.cmake

include(CMakePackageConfigHelpers)

set(FERRY_CONFIG_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/Ferry)
install(EXPORT FerryTargets NAMESPACE ferry:: DESTINATION ${FERRY_CONFIG_DIR})
configure_package_config_file(
  ${CMAKE_CURRENT_LIST_DIR}/FerryConfig.cmake.in
  ${PROJECT_BINARY_DIR}/FerryConfig.cmake
  INSTALL_DESTINATION ${FERRY_CONFIG_DIR})
# 0.x: a minor version may change the contract.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/FerryConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES
  ${PROJECT_BINARY_DIR}/FerryConfig.cmake
  ${PROJECT_BINARY_DIR}/FerryConfigVersion.cmake
  ${CMAKE_CURRENT_LIST_DIR}/FerryTargetSources.cmake
  DESTINATION ${FERRY_CONFIG_DIR})

# `cpack` in the build directory: ferry_<version>_<arch>.deb, for /usr.
# No `package` build step runs first: build, then package what was built.
#
# Depends is written out rather than computed (CPACK_DEBIAN_PACKAGE_SHLIBDEPS)
# so that packaging needs no dpkg-dev; test/install checks it against the
# libraries the tool really loads. Besides those: Clang's resource headers
# (stddef.h, ...), which the tool parses with, and the OpenCL loader and
# headers, which every program linking the static runtime needs (as does
# FerryConfig.cmake's find_dependency(OpenCL)). An OpenCL device to run on is
# recommended: PoCL runs kernels on the CPU.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME ferry)
set(CPACK_PACKAGE_VENDOR "Ferry")
set(CPACK_PACKAGE_CONTACT "Ferry developers <ferry@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
  "Plans host/device transfers for annotated C++ and emits OpenCL C kernels")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_DEPENDS
  "libc6 (>= 2.34), libstdc++6 (>= 11), libgcc-s1 (>= 3.0), libclang-cpp19 (>= 1:19.1.7), libllvm19, libclang-common-19-dev, ocl-icd-opencl-dev")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS
  "pocl-opencl-icd | opencl-icd, cmake (>= 3.21), g++ | c++-compiler")
include(CPack)

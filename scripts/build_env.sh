# Sourced by setup.sh and test_install.sh. Compile through ccache when it is installed, with
# paths relative to the clone (CCACHE_BASEDIR): a fresh clone, and the wheel's build of the
# same sources in build-wheel/, then reuse earlier compiles (a full build takes minutes on
# two cores). CMake reads CMAKE_CXX_COMPILER_LAUNCHER from the environment.
if command -v ccache >/dev/null; then
  export CMAKE_CXX_COMPILER_LAUNCHER="${CMAKE_CXX_COMPILER_LAUNCHER:-ccache}"
  export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$PWD}"
fi

# Sourced by every script that compiles (setup.sh, test.sh,
# python/setup-venv.sh): what lets ccache serve one build tree's objects to
# another. ccache keys on paths relative to CCACHE_BASEDIR (so a clone
# elsewhere, CI's, matches too; the trees sit one level below the checkout
# for the same reason) and on the compiler's name: CMake alone picks c++,
# while scikit-build-core gives the Python builds the compiler Python was
# built with (g++) unless CXX names one.
export CCACHE_BASEDIR
CCACHE_BASEDIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export CCACHE_NOHASHDIR=1 CXX="${CXX:-g++}"
# The sanitized trees' compiler (test.sh's build-sanitize, whose fuzz targets
# need clang, and python/run-sanitized-tests.sh's extension): one name, so
# that they share objects.
export PARQ_SANITIZE_CXX="${PARQ_SANITIZE_CXX:-clang++}"

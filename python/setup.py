"""Builds dpforest._core through the project's CMake (the checkout that holds this python/ folder):
configure the repository root, build the target dpf_python, and ship the module with the package.

Environment (all optional):
  DPFOREST_SOURCE_ROOT  the checkout to build (default: the parent of this folder)
  DPFOREST_BUILD_DIR    the CMake build directory, relative to the checkout's root or absolute
                        (default: setuptools' build_temp/cmake), kept
                        between builds, so a rebuild only recompiles what changed. An existing build
                        tree of the checkout (e.g. build/ after `make`) is reused as it is when it was
                        configured for the same interpreter (a venv's python3 is its base interpreter)
  CMAKE_CXX_COMPILER_LAUNCHER  e.g. ccache (used when ccache is on PATH and this is unset)
The extension is built for the interpreter running this script (a venv's base python3).
"""
import os
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent


def _build_tools_problem():
    """Why this interpreter cannot build and use the package offline (None: it can). pip's
    --no-build-isolation build uses the interpreter's own setuptools and wheel; a python3 that is not
    Debian's (pyenv, or a venv made from it) often has neither wheel nor numpy, and pip would stop at
    a bare "invalid command 'bdist_wheel'"."""
    missing = []
    try:
        import wheel  # noqa: F401  (setuptools < 70.1 takes bdist_wheel from it)
    except ImportError:
        try:
            import setuptools.command.bdist_wheel  # noqa: F401
        except ImportError:
            missing.append("wheel")
    try:
        import numpy  # noqa: F401
    except ImportError:
        missing.append("numpy")
    if not missing:
        return None
    return (f"dpforest: {sys.executable} has no {' and no '.join(missing)}, which the offline build "
            "(pip install --no-build-isolation) and the package need. Make the venv from Debian's python3, "
            "whose packages it sees: /usr/bin/python3 -m venv --system-site-packages .venv "
            "(experiments/tools/deps.sh python installs python3-wheel, python3-numpy and python3-sklearn)")


if _build_tools_problem():
    sys.exit(_build_tools_problem())


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        root = Path(os.environ.get("DPFOREST_SOURCE_ROOT") or HERE.parent).resolve()
        if not (root / "CMakeLists.txt").exists() or not (root / "python" / "src" / "module.cpp").exists():
            raise RuntimeError(f"dpforest: {root} is not a dpforest checkout (set DPFOREST_SOURCE_ROOT); the "
                               "package builds from the checkout, not from an sdist")
        given = os.environ.get("DPFOREST_BUILD_DIR")
        # A relative DPFOREST_BUILD_DIR is taken from the checkout's root (pip runs this in python/).
        build = root / given if given else Path(self.build_temp).resolve() / "cmake"
        build.mkdir(parents=True, exist_ok=True)
        # The interpreter itself, not a venv's link to it: the tree stays valid when the venv goes.
        python = os.path.realpath(sys.executable)
        configured = _configured_python(build)
        same = configured is not None and os.path.realpath(configured) == python
        if given and configured and not same and os.path.exists(configured):
            raise RuntimeError(f"dpforest: the build tree {build} is configured for {configured}, not for {python}; "
                               "set DPFOREST_BUILD_DIR to another directory")
        if not same:
            configure = ["cmake", "-S", str(root), "-B", str(build), "-DCMAKE_BUILD_TYPE=Release",
                         f"-DPython_EXECUTABLE={python}", "-DDPF_PYTHON=ON"]
            if not os.environ.get("CMAKE_CXX_COMPILER_LAUNCHER") and shutil.which("ccache"):
                configure.append("-DCMAKE_CXX_COMPILER_LAUNCHER=ccache")
            subprocess.run(configure, check=True)
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL") or str(os.cpu_count() or 2)
        subprocess.run(["cmake", "--build", str(build), "--target", "dpf_python", "-j", jobs], check=True)
        built = sorted((build / "python" / "dpforest").glob("_core*.so"))
        if not built:
            raise RuntimeError(f"dpforest: the CMake build in {build} produced no python/dpforest/_core*.so "
                               "(is pybind11-dev installed? experiments/tools/deps.sh python)")
        target = Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(built[0], target)


def _configured_python(build):
    """The interpreter a CMake build tree was configured for (None: not configured yet)."""
    cache = build / "CMakeCache.txt"
    if not cache.exists():
        return None
    found = {}
    for line in cache.read_text().splitlines():
        for key in ("Python_EXECUTABLE", "_Python_EXECUTABLE"):
            if line.startswith(key + ":"):
                found[key] = line.split("=", 1)[1]
    return found.get("_Python_EXECUTABLE") or found.get("Python_EXECUTABLE")


setup(ext_modules=[Extension("dpforest._core", sources=[])], cmdclass={"build_ext": CMakeBuild})

"""The wheel's two built parts, made by this repository's own build rather than by setuptools:
the extension module `attention_by_hand._core` (the CMake target attention_python, pybind11 over
src/) and the walkthrough's script (web/generated/attention-walkthrough.js, from `make bundle`),
which show() inlines into a notebook's output. Everything else is in pyproject.toml.

ATTENTION_CMAKE_BUILD names a configured CMake build to take the module from (`make wheel` gives
build/native, where `make test` has just built it); without it, build/python is configured for a
release build without the tests."""

import os
import pathlib
import shutil
import subprocess

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

ROOT = pathlib.Path(__file__).resolve().parent
SCRIPT = ROOT / "web/generated/attention-walkthrough.js"


class CMakeExtension(build_ext):
    """Builds attention_python with CMake and copies it, without its debug information, to
    where setuptools packs the extension."""

    def build_extension(self, ext: Extension) -> None:
        build = pathlib.Path(os.environ.get("ATTENTION_CMAKE_BUILD") or ROOT / "build/python")
        if not (build / "CMakeCache.txt").exists():
            subprocess.run(["cmake", "-S", str(ROOT), "-B", str(build), "-DCMAKE_BUILD_TYPE=Release",
                            "-DBUILD_TESTING=OFF"], check=True)
        subprocess.run(["cmake", "--build", str(build), "-j2", "--target", "attention_python"], check=True)
        built = sorted(build.glob("_core.*.so"))
        if len(built) != 1:
            raise RuntimeError(f"expected one _core module in {build}, found {[p.name for p in built]}")
        target = pathlib.Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run(["strip", "--strip-debug", "-o", str(target), str(built[0])], check=True)


class WithScript(build_py):
    """Packs the walkthrough's script beside show.py."""

    def run(self) -> None:
        super().run()
        if not SCRIPT.exists():
            raise RuntimeError(f"{SCRIPT.relative_to(ROOT)} is not built: run make bundle first")
        shutil.copy(SCRIPT, pathlib.Path(self.build_lib) / "attention_by_hand" / SCRIPT.name)


setup(ext_modules=[Extension("attention_by_hand._core", sources=[])],
      cmdclass={"build_ext": CMakeExtension, "build_py": WithScript})

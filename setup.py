"""Build the Cython core ``solver._core`` from ``ext/``.

Compiler directives live here and nowhere else.  ``DURAK_DEBUG=1`` turns
bounds checks and assertions back on for a debugging build.
"""
import importlib.util
import os
import platform
from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent

DEBUG = os.environ.get("DURAK_DEBUG") == "1"

directives = {
    "language_level": 3,
    "boundscheck": DEBUG,
    "wraparound": DEBUG,
    "initializedcheck": DEBUG,
    "cdivision": True,
    "infer_types": True,
}

# the hardware popcount instruction (every x86-64 CPU since 2008) instead of a
# libgcc call in the hot paths
POPCNT = ["-mpopcnt"] if platform.machine().lower() in ("x86_64", "amd64") else []

extensions = [
    Extension(
        "solver._core",
        ["ext/_core.pyx"],
        # the declarations (ext/solver/_core.pxd is where Cython looks for
        # solver._core's; it includes ext/_core.pxd) and the units _core.pyx
        # includes
        depends=["ext/_core.pxd", "ext/solver/_core.pxd",
                 "ext/bits.pxi", "ext/seats.pxi", "ext/movegen.pxi", "ext/key.pxi",
                 "ext/table.pxi", "ext/ordering.pxi", "ext/prunings.pxi", "ext/search.pxi",
                 "ext/face.pxi", "ext/playout.pxi", "ext/learn.pxi",
                 "ext/retrokey.pxi", "ext/retrobuild.pxi", "ext/retrosolve.pxi", "ext/retro.pxi",
                 "ext/uct.pxi", "ext/anytime.pxi", "ext/ismcts.pxi", "ext/deal.pxi",
                 "ext/chance.pxi"],
        extra_compile_args=(["-O3"] + POPCNT) if not DEBUG else ["-O0", "-g"],
    )
]



class BuildPyWithCatalogues(build_py):
    """build_py that first compiles the message catalogues (solver/locale/*/LC_MESSAGES/
    durak.po -> .mo, with Babel, a build requirement): the .po files are the one source,
    and every install -- from the clone, the sdist or editable -- gets the .mo that
    Python's gettext reads at run time (solver/i18n/compile.py)."""

    def run(self) -> None:
        spec = importlib.util.spec_from_file_location(
            "durak_compile_catalogues", HERE / "solver" / "i18n" / "compile.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        module.compile_catalogues(HERE / "solver" / "locale")
        self.__dict__.pop("data_files", None)  # the package data again, the .mo files with it
        super().run()


setup(ext_modules=cythonize(extensions, compiler_directives=directives),
      cmdclass={"build_py": BuildPyWithCatalogues})

"""Build the Cython core ``solver._core`` from ``ext/``.

Compiler directives live here and nowhere else.  ``DURAK_DEBUG=1`` turns
bounds checks and assertions back on for a debugging build.
"""
import os
import platform

from Cython.Build import cythonize
from setuptools import Extension, setup

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
                 "ext/face.pxi", "ext/playout.pxi", "ext/learn.pxi", "ext/retro.pxi", "ext/uct.pxi",
                 "ext/ismcts.pxi", "ext/deal.pxi"],
        extra_compile_args=(["-O3"] + POPCNT) if not DEBUG else ["-O0", "-g"],
    )
]

setup(ext_modules=cythonize(extensions, compiler_directives=directives))

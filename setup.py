"""Build the Cython core (extension/) into spacy_agreement._core.

OpenMP (for the parallel all-pairs sums) is switched on with the flag the compiler
understands: ``/openmp`` for MSVC, ``-fopenmp`` for gcc and clang when a test program
compiles and links with it. Where it does not (Apple clang without libomp, say), or with
``SPACY_AGREEMENT_NO_OPENMP=1``, the core is built without OpenMP: the ``prange`` loops then
run serially and everything else is the same.
"""
import glob
import os
import sys
import tempfile

import numpy
from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext


def _links_with(compiler, flag: str) -> bool:
    """Whether a small OpenMP program compiles and links with ``flag``."""
    with tempfile.TemporaryDirectory() as tmp:
        source = os.path.join(tmp, "omp.c")
        with open(source, "w") as handle:
            handle.write("#include <omp.h>\nint main(void) { return omp_get_max_threads() > 0 ? 0 : 1; }\n")
        try:
            objects = compiler.compile([source], output_dir=tmp, extra_postargs=[flag])
            compiler.link_executable(objects, os.path.join(tmp, "omp"), extra_postargs=[flag])
        except Exception:  # any compile or link failure means: no OpenMP with this flag
            return False
    return True


class BuildExt(build_ext):
    def build_extensions(self):
        kind = self.compiler.compiler_type
        compile_args, link_args = (["/O2"], []) if kind == "msvc" else (["-O3"], [])
        if os.environ.get("SPACY_AGREEMENT_NO_OPENMP") == "1":
            print("spacy-agreement: building without OpenMP (SPACY_AGREEMENT_NO_OPENMP=1)", file=sys.stderr)
        elif kind == "msvc":
            compile_args.append("/openmp")
        elif _links_with(self.compiler, "-fopenmp"):
            compile_args.append("-fopenmp")
            link_args.append("-fopenmp")
        else:
            print("spacy-agreement: the compiler has no OpenMP: the all-pairs sums will run on one thread",
                  file=sys.stderr)
        for ext in self.extensions:
            ext.extra_compile_args = compile_args
            ext.extra_link_args = link_args
        super().build_extensions()


extensions = [
    Extension(
        "spacy_agreement._core",
        ["extension/_core.pyx"],  # includes the extension/*.pxi parts
        include_dirs=[numpy.get_include(), "extension"],
        depends=sorted(glob.glob("extension/*.h")),  # the C kernels it includes: a change rebuilds
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
    )
]

setup(
    cmdclass={"build_ext": BuildExt},
    ext_modules=cythonize(
        extensions,
        compiler_directives={
            "language_level": "3",
            "boundscheck": False,
            "wraparound": False,
            "cdivision": True,
            "initializedcheck": False,
        },
    ),
)

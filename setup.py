"""Build the Cython core (extension/) into spacy_agreement._core.

OpenMP (for the parallel all-pairs sums) is switched on with the flag the compiler
understands: ``/openmp`` for MSVC, ``-fopenmp`` for gcc and clang when a test program
compiles and links with it. Where it does not (Apple clang without libomp, say), or with
``SPACY_AGREEMENT_NO_OPENMP=1``, the core is built without OpenMP: the ``prange`` loops then
run serially and everything else is the same.

Without a working C compiler the build ends with one line saying so (and that wheels exist),
not with the compiler's traceback.
"""
import glob
import os
import shutil
import sys
import tempfile

import numpy
from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.errors import CCompilerError, ExecError, PlatformError

WHEELS = ("wheels, which need none, exist for CPython 3.10-3.13 on Linux (x86_64, aarch64), macOS and Windows "
          "(pip install --only-binary=spacy-agreement spacy-agreement)")
HOW_TO_GET_ONE = ("Debian/Ubuntu: apt-get install gcc python3-dev; Fedora: dnf install gcc python3-devel; "
                  "macOS: xcode-select --install; Windows: Microsoft C++ Build Tools")


def _no_compiler(detail: str) -> SystemExit:
    return SystemExit(f"spacy-agreement: building the Cython core from source needs a C compiler ({detail}): "
                      f"install one ({HOW_TO_GET_ONE}), or install a wheel: {WHEELS}")


def _missing_executable(compiler):
    """The compiler program that is not on PATH (a unix-style compiler), else None."""
    command = getattr(compiler, "compiler_so", None)
    if not command:  # MSVC: found (or not) when it is first used
        return None
    return None if shutil.which(command[0]) else command[0]


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
        missing = _missing_executable(self.compiler)
        if missing is not None:
            raise _no_compiler(f"{missing!r} not found")
        try:
            self._build_extensions()
        except PlatformError as err:  # MSVC not installed
            raise _no_compiler(str(err).strip()) from None
        except (CCompilerError, ExecError) as err:
            if "No such file" in str(err) or "not found" in str(err):  # a compiler or linker missing
                raise _no_compiler(str(err).strip()) from None
            raise SystemExit(f"spacy-agreement: compiling the Cython core failed (the compiler's messages "
                             f"are above): building from source needs a working C "
                             f"compiler and the Python headers ({HOW_TO_GET_ONE}), or install a wheel: {WHEELS}"
                             ) from None

    def _build_extensions(self):
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
            ext.extra_compile_args = list(compile_args)
            ext.extra_link_args = link_args
            if ext.name == "spacy_agreement._drawing" and kind != "msvc":
                # the pictures repeat Python's floating-point operations one by one: no fused
                # multiply-adds (gcc and clang contract by default where the target has them)
                ext.extra_compile_args.append("-ffp-contract=off")
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
# every other extension/_NAME.pyx is a module of its own, spacy_agreement._NAME (readers and
# metric loops), built the same way
for _source in sorted(glob.glob("extension/_*.pyx")):
    _name = os.path.splitext(os.path.basename(_source))[0]
    if _name != "_core":
        extensions.append(Extension(
            f"spacy_agreement.{_name}", [_source], include_dirs=[numpy.get_include(), "extension"],
            depends=sorted(glob.glob(f"extension/{_name[1:]}*.pxi")),
            define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")]))

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

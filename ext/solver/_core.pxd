# Where Cython looks for the declarations of the module ``solver._core``
# (the package layout under the .pyx's directory: ext/solver/_core.pxd); they
# live in ext/_core.pxd, next to the implementation.
include "../_core.pxd"

# Included by _core.pyx (one extension module): the distances δ of Skjærholt (2014), §2.
# -------------------------------------------------------------------- distances δ
#
# The one definition of the built-in δ, used by every kernel that sums δ² (the serial and
# the parallel α sums) and, through ``delta_values``, by the Python side
# (``spacy_agreement.agreement.deltas``): code 0 δplain = TED, 1 δdiff = TED − abs(|x| − |y|),
# 2 δnorm = TED / (|x| + |y|) (0 when both sizes are 0).

KERNEL_DELTAS = ("plain", "diff", "norm")
cdef enum:
    N_KERNEL_DELTAS = 3


cdef inline double _delta(int code, double ted, double nx, double ny) noexcept nogil:
    if code == 1:
        return ted - fabs(nx - ny)
    if code == 2:
        if nx + ny > 0:
            return ted / (nx + ny)
        return 0.0
    return ted


def delta_values(int code, const double[::1] ted, const int64_t[::1] size_a, const int64_t[::1] size_b):
    """δ number ``code`` (an index into ``KERNEL_DELTAS``) of many pairs from their TEDs and
    sizes |x|, |y|, as float64."""
    if code < 0 or code >= N_KERNEL_DELTAS:
        raise ValueError(f"delta code {code} out of range 0..{N_KERNEL_DELTAS - 1}")
    cdef Py_ssize_t n = ted.shape[0], k
    if size_a.shape[0] != n or size_b.shape[0] != n:
        raise ValueError("ted, size_a and size_b must have the same length")
    out_arr = np.empty(n, dtype=np.float64)
    cdef double[::1] out = out_arr
    with nogil:
        for k in range(n):
            out[k] = _delta(code, ted[k], <double>size_a[k], <double>size_b[k])
    return out_arr

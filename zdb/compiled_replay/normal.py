"""Φ⁻¹, the standard normal quantile, as plain arithmetic a compiler can take.

The engine starts its rating solvers from ``statistics.NormalDist().inv_cdf`` (Wichura's
algorithm AS241). The compiled pass cannot call into the standard library, so this is the same
rational approximation, each polynomial by Horner's rule with the same coefficients in the same
order, and so the same double on every input in (0, 1); the tests compare the two.
"""

from __future__ import annotations

from math import fabs, log, sqrt

__all__ = ["inv_cdf"]

# AS241's coefficients, highest power first (as CPython's ``statistics`` writes them).
_CENTRAL_NUM = (
    2.5090809287301226727e3,
    3.3430575583588128105e4,
    6.7265770927008700853e4,
    4.5921953931549871457e4,
    1.3731693765509461125e4,
    1.9715909503065514427e3,
    1.3314166789178437745e2,
    3.3871328727963666080e0,
)
_CENTRAL_DEN = (
    5.2264952788528545610e3,
    2.8729085735721942674e4,
    3.9307895800092710610e4,
    2.1213794301586595867e4,
    5.3941960214247511077e3,
    6.8718700749205790830e2,
    4.2313330701600911252e1,
    1.0,
)
_NEAR_NUM = (
    7.74545014278341407640e-4,
    2.27238449892691845833e-2,
    2.41780725177450611770e-1,
    1.27045825245236838258e0,
    3.64784832476320460504e0,
    5.76949722146069140550e0,
    4.63033784615654529590e0,
    1.42343711074968357734e0,
)
_NEAR_DEN = (
    1.05075007164441684324e-9,
    5.47593808499534494600e-4,
    1.51986665636164571966e-2,
    1.48103976427480074590e-1,
    6.89767334985100004550e-1,
    1.67638483018380384940e0,
    2.05319162663775882187e0,
    1.0,
)
_FAR_NUM = (
    2.01033439929228813265e-7,
    2.71155556874348757815e-5,
    1.24266094738807843860e-3,
    2.65321895265761230930e-2,
    2.96560571828504891230e-1,
    1.78482653991729133580e0,
    5.46378491116411436990e0,
    6.65790464350110377720e0,
)
_FAR_DEN = (
    2.04426310338993978564e-15,
    1.42151175831644588870e-7,
    1.84631831751005468180e-5,
    7.86869131145613259100e-4,
    1.48753612908506148525e-2,
    1.36929880922735805310e-1,
    5.99832206555887937690e-1,
    1.0,
)


def _horner(coefficients: tuple[float, ...], r: float) -> float:
    value = coefficients[0]
    for c in coefficients[1:]:
        value = value * r + c
    return value


def inv_cdf(p: float) -> float:
    """Φ⁻¹(p) for 0 < p < 1 (``statistics._normal_dist_inv_cdf`` with μ = 0, σ = 1)."""
    q = p - 0.5
    if fabs(q) <= 0.425:
        r = 0.180625 - q * q
        return 0.0 + (_horner(_CENTRAL_NUM, r) * q / _horner(_CENTRAL_DEN, r)) * 1.0
    r = p if q <= 0.0 else 1.0 - p
    r = sqrt(-log(r))
    if r <= 5.0:
        r = r - 1.6
        x = _horner(_NEAR_NUM, r) / _horner(_NEAR_DEN, r)
    else:
        r = r - 5.0
        x = _horner(_FAR_NUM, r) / _horner(_FAR_DEN, r)
    if q < 0.0:
        x = -x
    return 0.0 + (x * 1.0)

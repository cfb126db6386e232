/* The co-simulation step of the FMU: implicit midpoint or Gonzalez's discrete gradient,
 * the equations of porthamiltonian's own steps (simulate/ode/midpoint.py,
 * simulate/ode/discrete_gradient.py, simulate/kernels/steps.py), so both give the same
 * trajectories to round-off.  A step of size h from x solves for the increment d
 *
 *     F(d) = d - h [(J - R)(xm) z + (G - P)(xm) u] = 0,   xm = x + d/2,
 *
 * with the effort z = gradH(xm) (midpoint) or the discrete gradient
 * z = gradH(xm) + e/(d^T d) d,  e = int_0^1 (gradH(x + s d) - gradH(xm))^T d ds
 * (Gonzalez 1996; H(x + d) - H(x) = z^T d for any H).  Then
 *
 *     H(x + d) - H(x) = h (u^T y - dbar),   y = (G+P)^T(xm) z + (M+S)(xm) u,
 *
 * holds exactly (to round-off) for quadratic H with the midpoint rule and for any H with
 * the discrete gradient: the energy balance of the model survives the discretization.
 * Newton's method with the exact Jacobian and a dense LU with partial pivoting.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "phx.h"

#define N PHX_N
#define M PHX_M

static double max_abs(const double *v, int k) {
    double m = 0.0;
    for (int i = 0; i < k; ++i) {
        double a = fabs(v[i]);
        if (!(a <= m)) m = a;  /* NaN propagates */
    }
    return m;
}

/* PA = LU in place; 0 when a pivot is zero or not finite */
static int lu_factor(double *a, int *piv, int n) {
    for (int k = 0; k < n; ++k) {
        int imax = k;
        double best = fabs(a[k * n + k]);
        for (int i = k + 1; i < n; ++i) {
            double v = fabs(a[i * n + k]);
            if (v > best) { best = v; imax = i; }
        }
        piv[k] = imax;
        if (!(best > 0.0) || !isfinite(best)) return 0;
        if (imax != k) {
            for (int j = 0; j < n; ++j) {
                double t = a[k * n + j]; a[k * n + j] = a[imax * n + j]; a[imax * n + j] = t;
            }
        }
        for (int i = k + 1; i < n; ++i) {
            double f = a[i * n + k] / a[k * n + k];
            a[i * n + k] = f;
            if (f != 0.0)
                for (int j = k + 1; j < n; ++j) a[i * n + j] -= f * a[k * n + j];
        }
    }
    return 1;
}

static void lu_solve(const double *a, const int *piv, double *b, int n) {
    for (int k = 0; k < n; ++k) {
        int j = piv[k];
        if (j != k) { double t = b[k]; b[k] = b[j]; b[j] = t; }
    }
    for (int i = 0; i < n; ++i) {
        double s = b[i];
        for (int j = 0; j < i; ++j) s -= a[i * n + j] * b[j];
        b[i] = s;
    }
    for (int i = n - 1; i >= 0; --i) {
        double s = b[i];
        for (int j = i + 1; j < n; ++j) s -= a[i * n + j] * b[j];
        b[i] = s / a[i * n + i];
    }
}

/* out = (J - R)(x) z + (G - P)(x) u */
static void field(phx_state *s, const double *x, const double *z, double *out) {
    phx_jr(x, s->p, s->jr);
    for (int i = 0; i < N; ++i) {
        double acc = 0.0;
        for (int j = 0; j < N; ++j) acc += s->jr[i * N + j] * z[j];
        out[i] = acc;
    }
    if (M > 0) {
        phx_gmp(x, s->p, s->gmp);
        for (int i = 0; i < N; ++i) {
            double acc = 0.0;
            for (int k = 0; k < M; ++k) acc += s->gmp[i * M + k] * s->u[k];
            out[i] += acc;
        }
    }
}

void phx_reset(phx_state *s) {
    s->t = 0.0;
    for (int i = 0; i < PHX_NN; ++i) s->x[i] = phx_start_x[i];
    for (int j = 0; j < PHX_NPP; ++j) s->p[j] = phx_start_p[j];
    for (int k = 0; k < PHX_MM; ++k) s->u[k] = phx_start_u[k];
    s->dt = PHX_DT;
    s->method = PHX_METHOD;
    s->residual = 0.0;
    s->message[0] = '\0';
}

void phx_derivatives(phx_state *s, double *dx) {
    phx_grad(s->x, s->p, s->z);
    field(s, s->x, s->z, dx);
}

void phx_outputs(phx_state *s, double *y, double *H, double *supplied, double *dissipated) {
    double pw[2];
    phx_grad(s->x, s->p, s->z);
    phx_power(s->x, s->z, s->u, s->p, y, pw);
    *H = phx_ham(s->x, s->p);
    *supplied = pw[0];
    *dissipated = pw[1];
}

int phx_get(phx_state *s, unsigned vr, double *value) {
    double y[PHX_MM], H, supplied, dissipated;
    if (vr == PHX_VR_TIME) { *value = s->t; return 1; }
    if (vr >= PHX_VR_X && vr < PHX_VR_X + PHX_N) { *value = s->x[vr - PHX_VR_X]; return 1; }
    if (vr >= PHX_VR_DX && vr < PHX_VR_DX + PHX_N) {
        double dx[PHX_NN];
        phx_derivatives(s, dx);
        *value = dx[vr - PHX_VR_DX];
        return 1;
    }
    if (vr >= PHX_VR_P && vr < PHX_VR_P + PHX_NP) { *value = s->p[vr - PHX_VR_P]; return 1; }
    if (vr >= PHX_VR_U && vr < PHX_VR_U + PHX_M) { *value = s->u[vr - PHX_VR_U]; return 1; }
    if (vr == PHX_VR_RESIDUAL) { *value = s->residual; return 1; }
    if ((vr >= PHX_VR_Y && vr < PHX_VR_Y + PHX_M) || vr == PHX_VR_H || vr == PHX_VR_SUPPLIED
        || vr == PHX_VR_DISSIPATED) {
        phx_outputs(s, y, &H, &supplied, &dissipated);
        *value = vr == PHX_VR_H ? H : vr == PHX_VR_SUPPLIED ? supplied
               : vr == PHX_VR_DISSIPATED ? dissipated : y[vr - PHX_VR_Y];
        return 1;
    }
    return 0;
}

int phx_set(phx_state *s, unsigned vr, double value, int states_settable) {
    if (vr >= PHX_VR_P && vr < PHX_VR_P + PHX_NP) { s->p[vr - PHX_VR_P] = value; return 1; }
    if (vr >= PHX_VR_U && vr < PHX_VR_U + PHX_M) { s->u[vr - PHX_VR_U] = value; return 1; }
    if (vr >= PHX_VR_X && vr < PHX_VR_X + PHX_N && states_settable) {
        s->x[vr - PHX_VR_X] = value;
        return 1;
    }
    return 0;
}

/* the effort z of the step from x with increment d (xm = x + d/2 already in s->xm);
 * with jac, also dz = dz/dd in s->dz (discrete gradient) */
static void effort(phx_state *s, const double *x, const double *d, int jac) {
    phx_grad(s->xm, s->p, s->z);
    if (s->method == PHX_MIDPOINT) return;
    double nn = 0.0, e = 0.0;
    for (int i = 0; i < N; ++i) nn += d[i] * d[i];
    if (jac) phx_hess(s->xm, s->p, s->hm);
    if (nn == 0.0) {
        if (jac) for (int k = 0; k < N * N; ++k) s->dz[k] = 0.5 * s->hm[k];
        return;
    }
    for (int i = 0; i < N; ++i) s->g[i] = s->z[i];
    /* e = H(x + d) - H(x) - gradH(xm)^T d as a quadrature of gradient differences: no
     * cancellation of two nearly equal energies */
    for (int q = 0; q < PHX_NQ; ++q) {
        for (int i = 0; i < N; ++i) s->f[i] = x[i] + phx_qs[q] * d[i];
        phx_grad(s->f, s->p, s->gq);
        double acc = 0.0;
        for (int i = 0; i < N; ++i) acc += (s->gq[i] - s->g[i]) * d[i];
        e += phx_qw[q] * acc;
    }
    for (int i = 0; i < N; ++i) s->z[i] = s->g[i] + (e / nn) * d[i];
    if (!jac) return;
    /* dz/dd = hm/2 + (d de^T + e I - 2 e d d^T / nn) / nn, de = gradH(x+d) - g - hm d/2 */
    for (int i = 0; i < N; ++i) s->f[i] = x[i] + d[i];
    phx_grad(s->f, s->p, s->gq);
    for (int i = 0; i < N; ++i) {
        double acc = 0.0;
        for (int j = 0; j < N; ++j) acc += s->hm[i * N + j] * d[j];
        s->de[i] = s->gq[i] - (s->g[i] + 0.5 * acc);
    }
    for (int i = 0; i < N; ++i)
        for (int j = 0; j < N; ++j) {
            double v = 0.5 * s->hm[i * N + j]
                       + (d[i] * s->de[j] - 2.0 * e * d[i] * d[j] / nn) / nn;
            if (i == j) v += e / nn;
            s->dz[i * N + j] = v;
        }
}

/* r = F(d) */
static void residual(phx_state *s, const double *x, const double *d, double h) {
    for (int i = 0; i < N; ++i) s->xm[i] = x[i] + 0.5 * d[i];
    effort(s, x, d, 0);
    field(s, s->xm, s->z, s->f);
    for (int i = 0; i < N; ++i) s->r[i] = d[i] - h * s->f[i];
}

/* a = F'(d): I - h/2 df/dx(xm) (midpoint);
 * I - h [ (df/dx - (J-R) hess H)/2 + (J-R) dz/dd ] at xm (discrete gradient) */
static void step_matrix(phx_state *s, const double *x, const double *d, double h) {
    for (int i = 0; i < N; ++i) s->xm[i] = x[i] + 0.5 * d[i];
    phx_jacf(s->xm, s->u, s->p, s->jf);
    if (s->method == PHX_MIDPOINT) {
        for (int k = 0; k < N * N; ++k) s->a[k] = -0.5 * h * s->jf[k];
    } else {
        phx_jr(s->xm, s->p, s->jr);
        effort(s, x, d, 1);  /* hess H in s->hm, dz/dd in s->dz */
        for (int i = 0; i < N; ++i)
            for (int j = 0; j < N; ++j) {
                double s1 = 0.0, s2 = 0.0;
                for (int k = 0; k < N; ++k) {
                    s1 += s->jr[i * N + k] * s->hm[k * N + j];
                    s2 += s->jr[i * N + k] * s->dz[k * N + j];
                }
                s->a[i * N + j] = -h * (0.5 * (s->jf[i * N + j] - s1) + s2);
            }
    }
    for (int i = 0; i < N; ++i) s->a[i * N + i] += 1.0;
}

/* one step of size h from s->x; the energy residual of the step is added to
 * s->residual.  0 on success. */
static int step(phx_state *s, double h) {
    double *x = s->x, *d = s->d;
    /* first guess: h f at x (midpoint) or at the explicit midpoint (discrete gradient) */
    phx_grad(x, s->p, s->z);
    field(s, x, s->z, s->f);
    if (s->method != PHX_MIDPOINT) {
        for (int i = 0; i < N; ++i) s->xm[i] = x[i] + 0.5 * h * s->f[i];
        phx_grad(s->xm, s->p, s->z);
        field(s, s->xm, s->z, s->f);
    }
    for (int i = 0; i < N; ++i) d[i] = h * s->f[i];
    double prev = INFINITY, scale = max_abs(x, N);
    int ok = 0;
    for (int it = 0; it < 50 && !ok; ++it) {
        residual(s, x, d, h);
        step_matrix(s, x, d, h);
        if (!lu_factor(s->a, s->piv, N)) {
            snprintf(s->message, sizeof s->message,
                     "the step matrix is singular at t = %.17g s (step %g s)", s->t, h);
            return 1;
        }
        lu_solve(s->a, s->piv, s->r, N);
        for (int i = 0; i < N; ++i) d[i] -= s->r[i];
        double size = max_abs(s->r, N), bound = scale + max_abs(d, N) + 1e-300;
        if (!isfinite(size)) break;
        /* converged: the correction is at round-off, or stopped shrinking below 1e-10 */
        if (size <= 4.0 * 2.220446049250313e-16 * bound
            || (size <= 1e-10 * bound && size >= 0.5 * prev))
            ok = 1;
        prev = size;
    }
    if (!ok) {
        snprintf(s->message, sizeof s->message,
                 "Newton's method did not converge at t = %.17g s (step %g s); give a "
                 "smaller internal step dt", s->t, h);
        return 1;
    }
    /* the energy balance of the step: efforts and powers at xm with the step's z */
    double pw[2], H0 = phx_ham(x, s->p);
    for (int i = 0; i < N; ++i) s->xm[i] = x[i] + 0.5 * d[i];
    effort(s, x, d, 0);
    phx_power(s->xm, s->z, s->u, s->p, s->y, pw);
    for (int i = 0; i < N; ++i) x[i] += d[i];
    s->residual += phx_ham(x, s->p) - H0 - (h * pw[0] - h * pw[1]);
    return 0;
}

int phx_advance(phx_state *s, double h) {
    s->residual = 0.0;
    if (!(h >= 0.0)) {
        snprintf(s->message, sizeof s->message, "negative communication step %g s", h);
        return 1;
    }
    if (h == 0.0) return 0;
    /* internal steps of at most dt that divide the communication step evenly */
    double k = ceil(h / s->dt - 1e-9);
    int steps = k < 1.0 ? 1 : (int)k;
    double hs = h / steps, t0 = s->t;
    for (int i = 0; i < steps; ++i) {
        if (step(s, hs)) return 1;
        s->t = t0 + (i + 1) * hs;
    }
    s->t = t0 + h;
    return 0;
}

/* The port-Hamiltonian model and its steps, as the FMI functions (fmi3.c, fmi2.c) use
 * them.  Part of the FMUs porthamiltonian writes (docs/export.md); a template of the
 * package, written for it.
 *
 * Model:  dx/dt = (J - R)(x) gradH(x) + (G - P)(x) u,
 *         y     = (G + P)(x)^T gradH(x) + (M + S)(x) u,
 * stored energy H (J), supplied power u^T y and dissipated power
 * d = [gradH; u]^T [[R, P], [P^T, S]] [gradH; u] >= 0 (W), so dH/dt = u^T y - d.
 *
 * phx_config.h (generated) gives the sizes PHX_N (states), PHX_M (ports), PHX_NP
 * (parameters), PHX_NQ (quadrature nodes), the value references PHX_VR_* and the
 * defaults of the co-simulation step.  Matrices are row-major arrays of doubles.
 */
#ifndef PHX_H
#define PHX_H

#include <stddef.h>
#include "phx_config.h"

/* C arrays may not have length 0: a model without ports or parameters still has one */
#define PHX_NN (PHX_N > 0 ? PHX_N : 1)
#define PHX_MM (PHX_M > 0 ? PHX_M : 1)
#define PHX_NPP (PHX_NP > 0 ? PHX_NP : 1)

/* the C99 printer of SymPy writes these constants; strict C99 <math.h> lacks them */
#ifndef M_E
#define M_E 2.718281828459045235360287
#endif
#ifndef M_LOG2E
#define M_LOG2E 1.442695040888963407359925
#endif
#ifndef M_LOG10E
#define M_LOG10E 0.434294481903251827651129
#endif
#ifndef M_LN2
#define M_LN2 0.693147180559945309417232
#endif
#ifndef M_LN10
#define M_LN10 2.302585092994045684017991
#endif
#ifndef M_PI
#define M_PI 3.141592653589793238462643
#endif
#ifndef M_PI_2
#define M_PI_2 1.570796326794896619231322
#endif
#ifndef M_PI_4
#define M_PI_4 0.785398163397448309615661
#endif
#ifndef M_1_PI
#define M_1_PI 0.318309886183790671537768
#endif
#ifndef M_2_PI
#define M_2_PI 0.636619772367581343075535
#endif
#ifndef M_2_SQRTPI
#define M_2_SQRTPI 1.128379167095512573896159
#endif
#ifndef M_SQRT2
#define M_SQRT2 1.414213562373095048801689
#endif
#ifndef M_SQRT1_2
#define M_SQRT1_2 0.707106781186547524400844
#endif

/* -- the model (model.c, generated from the symbolic model) ------------------------- */
double phx_ham(const double *x, const double *p);
void phx_grad(const double *x, const double *p, double *out);
void phx_hess(const double *x, const double *p, double *out);
void phx_jr(const double *x, const double *p, double *out);
void phx_gmp(const double *x, const double *p, double *out);
void phx_jacf(const double *x, const double *u, const double *p, double *out);
/* y = (G+P)^T z + (M+S) u, pw[0] = u^T y, pw[1] = z^T R z + 2 z^T P u + u^T S u */
void phx_power(const double *x, const double *z, const double *u, const double *p,
               double *y, double *pw);
extern const double phx_start_x[PHX_NN];
extern const double phx_start_p[PHX_NPP];
extern const double phx_start_u[PHX_MM];
extern const double phx_qs[PHX_NQ];
extern const double phx_qw[PHX_NQ];

/* -- the state of one instance and its steps (solver.c) ----------------------------- */
enum { PHX_MIDPOINT = 0, PHX_DISCRETE_GRADIENT = 1 };

typedef struct {
    double t;                 /* time (s) */
    double x[PHX_NN];         /* state */
    double u[PHX_MM];         /* inputs, held over a communication step */
    double p[PHX_NPP];        /* parameters */
    double dt;                /* largest internal step of the co-simulation (s) */
    int method;               /* PHX_MIDPOINT or PHX_DISCRETE_GRADIENT */
    double residual;          /* energy residual of the last communication step (J) */
    /* work arrays of a step */
    double d[PHX_NN], d0[PHX_NN], r[PHX_NN], z[PHX_NN], f[PHX_NN], xm[PHX_NN];
    double g[PHX_NN], gq[PHX_NN], de[PHX_NN], y[PHX_MM];
    double jr[PHX_NN * PHX_NN], jf[PHX_NN * PHX_NN], hm[PHX_NN * PHX_NN];
    double dz[PHX_NN * PHX_NN], a[PHX_NN * PHX_NN], gmp[PHX_NN * PHX_MM];
    int piv[PHX_NN];
    char message[256];        /* why the last step failed */
} phx_state;

/* the start values of the model description */
void phx_reset(phx_state *s);
/* dx/dt at (x, u) */
void phx_derivatives(phx_state *s, double *dx);
/* outputs y at (x, u), H (J), supplied and dissipated power (W) */
void phx_outputs(phx_state *s, double *y, double *H, double *supplied, double *dissipated);
/* steps from s->t to s->t + h with the inputs held; 0 on success, else s->message */
int phx_advance(phx_state *s, double h);
/* the variable with value reference vr (phx_config.h) into *value; 0 when there is none */
int phx_get(phx_state *s, unsigned vr, double *value);
/* sets the parameter, input or (states_settable) state vr; 0 when it cannot be set */
int phx_set(phx_state *s, unsigned vr, double value, int states_settable);

#endif

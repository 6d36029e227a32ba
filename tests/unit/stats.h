/* Shared statistics for the Check suites: Pearson's chi-square of a sample against an exact
 * distribution, the ways the suites group sparse categories, and the upper p = 0.001 critical
 * values they compare against.
 *
 * Header only: every function is static inline, so a suite includes this file and needs no
 * extra source in tests/meson.build. Link with libm (rules_dep already brings it).
 *
 * The suites differ on purpose in how they group sparse categories and in how they treat a
 * degenerate number of degrees of freedom; each behaviour has its own function below, so no
 * suite got stricter or looser by sharing this code. Choose by the contract, not by the name of
 * the suite that used it first:
 *
 *   stats_chi2                 no grouping; caller gives expected counts      (rng, dice)
 *   stats_chi2_merge_adjacent  sparse neighbours merged in index order        (rules_core)
 *   stats_chi2_merge_smallest  smallest expected merged into tail bins        (cot, heimr)
 *   stats_chi2_pool_sparse     every category with expected < 5 in one bin    (grimwire,
 *                                                                               tenacity, fivey)
 *
 *   stats_chi2_p001_table       published table, df 1..30                     (rng, dice)
 *   stats_chi2_p001_wh          Wilson-Hilferty, NaN for df < 1               (rules_core, cot,
 *                                                                               heimr)
 *   stats_chi2_p001_wh_clamped  Wilson-Hilferty, df < 1 taken as 1            (grimwire,
 *                                                                               tenacity, fivey)
 */
#ifndef TB_TESTS_UNIT_STATS_H
#define TB_TESTS_UNIT_STATS_H

#include <check.h>
#include <math.h>
#include <stdlib.h>

/* Minimum expected count of a category (or merged bin) for the chi-square approximation. */
#define STATS_MIN_EXPECTED 5

/* Upper 0.001 quantile of the standard normal, z_0.999, used by Wilson-Hilferty. */
#define STATS_Z_P001 3.090232

/*
 * stats_chi2 - Pearson chi-square of counts[0..k) against expected counts expected[0..k).
 *
 * No grouping and no special cases: sum over i of (counts[i] - expected[i])^2 / expected[i].
 * Every expected[i] must be > 0 (the caller chooses categories that are all possible and large
 * enough). Degrees of freedom are the caller's business (k - 1 for a fully specified
 * distribution).
 */
static inline double stats_chi2(const long *counts, const double *expected, int k)
{
    double chi2 = 0;
    for (int i = 0; i < k; i++) {
        double d = (double)counts[i] - expected[i];
        chi2 += d * d / expected[i];
    }
    return chi2;
}

/*
 * stats_chi2_merge_adjacent - chi-square of obs[0..size) (n observations in all) against the
 * probabilities prob[0..size), for categories that are ordered (e.g. sums of dice).
 *
 * Walks the categories in index order, skipping those with expected count prob[i] * n == 0,
 * and accumulates expected and observed counts until the accumulated expected count reaches
 * STATS_MIN_EXPECTED; then that run is one bin. A run left over at the end (expected > 0 but
 * possibly < STATS_MIN_EXPECTED) is a bin of its own. *df gets bins - 1.
 *
 * An observation in a category with expected count 0 returns INFINITY with *df = 1 (so it is
 * rejected against any critical value).
 */
static inline double stats_chi2_merge_adjacent(const long *obs, const double *prob, int size,
                                               long n, int *df)
{
    double c = 0, te = 0, to = 0;
    int bins = 0;
    *df = 1;
    for (int i = 0; i < size; i++) {
        double e = prob[i] * (double)n;
        if (e == 0) {
            if (obs[i])
                return INFINITY;
            continue;
        }
        te += e;
        to += (double)obs[i];
        if (te >= STATS_MIN_EXPECTED) {
            c += (to - te) * (to - te) / te;
            bins++;
            te = to = 0;
        }
    }
    if (te > 0) {
        c += (to - te) * (to - te) / te;
        bins++;
    }
    *df = bins - 1;
    return c;
}

/*
 * stats_chi2_merge_smallest - chi-square of obs[0..k) (n observations in all) against the
 * probabilities prob[0..k), for categories with no natural order.
 *
 * Categories are visited in ascending order of expected count (stable: ties keep index order);
 * those with expected count 0 are skipped. Sparse categories are merged into a tail bin: a
 * category joins the tail while tail + its expected count < STATS_MIN_EXPECTED, or while a
 * started tail is still below STATS_MIN_EXPECTED; a tail that reaches STATS_MIN_EXPECTED is
 * closed as one bin and a new one may start. Every other category is a bin of its own. A tail
 * still open at the end is a bin of its own. *df gets bins - 1.
 *
 * An observation in a category with expected count 0 returns INFINITY with *df = 1.
 */
static inline double stats_chi2_merge_smallest(const long *obs, const double *prob, int k, long n,
                                               int *df)
{
    int *order = malloc((size_t)(k > 0 ? k : 1) * sizeof *order);
    if (!order)
        abort();
    for (int i = 0; i < k; i++)
        order[i] = i;
    for (int i = 1; i < k; i++) /* ascending expected */
        for (int j = i; j > 0 && prob[order[j]] < prob[order[j - 1]]; j--) {
            int t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
    double chi = 0, tail_e = 0, tail_o = 0;
    int bins = 0;
    *df = 1; /* for an impossible observation */
    for (int x = 0; x < k; x++) {
        int i = order[x];
        double e = prob[i] * (double)n;
        if (e == 0) {
            if (obs[i] > 0) {
                free(order);
                return INFINITY;
            }
            continue;
        }
        if (tail_e + e < STATS_MIN_EXPECTED || (tail_e > 0 && tail_e < STATS_MIN_EXPECTED)) {
            tail_e += e;
            tail_o += (double)obs[i];
            if (tail_e >= STATS_MIN_EXPECTED) {
                chi += (tail_o - tail_e) * (tail_o - tail_e) / tail_e;
                bins++;
                tail_e = tail_o = 0;
            }
            continue;
        }
        chi += ((double)obs[i] - e) * ((double)obs[i] - e) / e;
        bins++;
    }
    free(order);
    if (tail_e > 0) {
        chi += (tail_o - tail_e) * (tail_o - tail_e) / tail_e;
        bins++;
    }
    *df = bins - 1;
    return chi;
}

/*
 * stats_chi2_pool_sparse - chi-square of counts[0..k) (n observations in all) against the
 * probabilities p[0..k).
 *
 * Categories with p[i] <= 0 are skipped. Every category whose expected count p[i] * n is below
 * STATS_MIN_EXPECTED goes into one single pooled bin (however large the pool gets); every other
 * category is a bin of its own. The pool, if it has any expected count, is one bin. *df gets
 * bins - 1 (may be < 1 when there are fewer than 2 bins; see stats_chi2_p001_wh_clamped).
 *
 * An observation in a category with p[i] <= 0 returns INFINITY with *df = 1.
 */
static inline double stats_chi2_pool_sparse(const long *counts, const double *p, int k, long n,
                                            int *df)
{
    double chi2 = 0, pool_e = 0;
    long pool_o = 0;
    int bins = 0;
    *df = 1;
    for (int i = 0; i < k; i++) {
        double e = p[i] * (double)n;
        if (p[i] <= 0) {
            if (counts[i] > 0)
                return INFINITY;
            continue;
        }
        if (e < STATS_MIN_EXPECTED) {
            pool_e += e;
            pool_o += counts[i];
            continue;
        }
        double d = (double)counts[i] - e;
        chi2 += d * d / e;
        bins++;
    }
    if (pool_e > 0) {
        double d = (double)pool_o - pool_e;
        chi2 += d * d / pool_e;
        bins++;
    }
    *df = bins - 1;
    return chi2;
}

/*
 * stats_chi2_p001_table - upper p = 0.001 critical value of chi-square with df degrees of
 * freedom, from the published table (three decimals), for 1 <= df <= 30.
 *
 * Outside that range it returns NAN, so that both `stat < crit` and `stat > crit` are false and
 * a test that uses it fails rather than compares against a made-up value.
 */
static inline double stats_chi2_p001_table(int df)
{
    static const double crit[30] = {
        10.828, 13.816, 16.266, 18.467, 20.515, 22.458, 24.322, 26.124, 27.877, 29.588,
        31.264, 32.909, 34.528, 36.123, 37.697, 39.252, 40.790, 42.312, 43.820, 45.315,
        46.797, 48.268, 49.728, 51.179, 52.620, 54.052, 55.476, 56.892, 58.301, 59.703,
    };
    if (df < 1 || df > 30)
        return NAN;
    return crit[df - 1];
}

/*
 * stats_chi2_p001_wh - upper p = 0.001 critical value of chi-square with df degrees of freedom
 * by the Wilson-Hilferty approximation: df * (1 - h + z * sqrt(h))^3 with h = 2 / (9 df) and
 * z = STATS_Z_P001. Slightly above the table (so slightly more lenient): +3.0% at df = 1,
 * +1.2% at df = 5, +0.3% at df = 19, less beyond. Not interchangeable with
 * stats_chi2_p001_table where a suite's threshold was the table value.
 *
 * df must be >= 1: for df < 1 the result is NaN, so any comparison with it is false and the
 * test fails (a sample that collapsed into a single bin is not a pass).
 */
static inline double stats_chi2_p001_wh(int df)
{
    double h = 2.0 / (9.0 * df);
    double c = 1 - h + STATS_Z_P001 * sqrt(h);
    return df * c * c * c;
}

/*
 * stats_chi2_p001_wh_clamped - stats_chi2_p001_wh with df < 1 taken as df = 1 (10.83), so the
 * result is always a finite number. Used where the caller asserts df >= 1 separately.
 */
static inline double stats_chi2_p001_wh_clamped(int df)
{
    return stats_chi2_p001_wh(df < 1 ? 1 : df);
}

/*
 * stats_assert_fits_only - Check assertions that a sample fits `right` and none of `wrong`.
 *
 * counts[0..k) is the sample (n observations), right[0..k) the exact distribution and
 * wrong[0..nwrong) distributions from wrong readings of the rule (wrong_names for the
 * messages, `what` names the case). Grouping is stats_chi2_pool_sparse. Fails the running test
 * when the sample against `right` has df < 1 or a statistic >= stats_chi2_p001_wh_clamped(df),
 * or when any wrong distribution's statistic is not > stats_chi2_p001_wh_clamped(its df).
 */
static inline void stats_assert_fits_only(const char *what, const long *counts, long n,
                                          const double *right, const double *const *wrong,
                                          const char *const *wrong_names, int nwrong, int k)
{
    int df;
    double c = stats_chi2_pool_sparse(counts, right, k, n, &df);
    ck_assert_msg(df >= 1, "%s: fewer than 2 categories", what);
    ck_assert_msg(c < stats_chi2_p001_wh_clamped(df),
                  "%s: chi2 %.1f >= %.1f (df %d) against the exact rule", what, c,
                  stats_chi2_p001_wh_clamped(df), df);
    for (int w = 0; w < nwrong; w++) {
        int wdf;
        double cw = stats_chi2_pool_sparse(counts, wrong[w], k, n, &wdf);
        ck_assert_msg(cw > stats_chi2_p001_wh_clamped(wdf),
                      "%s: the wrong rule '%s' is not rejected (chi2 %.1f, df %d)", what,
                      wrong_names[w], cw, wdf);
    }
}

#endif

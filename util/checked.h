/* checked.h - arithmetic on sizes, bytes and picoseconds that cannot
 * overflow silently.
 *
 * Every product or sum of counts that comes from input (bytes x hops,
 * ranks x cores, seconds x 1e12) goes through these: they return FALSE
 * instead of wrapping, and the caller turns that into an error naming the
 * input. Saturating forms exist for counters that run through a hot loop:
 * they stick at INT64_MAX, which the loop's owner checks once at the end
 * (a saturated time is an error: CHECKED_PS_LIMIT). Header-only (compiler
 * builtins), no state.
 * Not for: floating-point sums (they saturate to inf by themselves).
 */
#pragma once

#include <glib.h>
#include <math.h>
#include <stdint.h>

G_BEGIN_DECLS

/* *out = a + b; FALSE (and *out unchanged) on overflow. */
static inline gboolean checked_add_i64(int64_t a, int64_t b, int64_t *out)
{
  int64_t r;
  if (__builtin_add_overflow(a, b, &r))
    return FALSE;
  *out = r;
  return TRUE;
}

/* *out = a * b; FALSE (and *out unchanged) on overflow. */
static inline gboolean checked_mul_i64(int64_t a, int64_t b, int64_t *out)
{
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r))
    return FALSE;
  *out = r;
  return TRUE;
}

/* a + b, INT64_MAX / INT64_MIN instead of wrapping. */
static inline int64_t saturating_add_i64(int64_t a, int64_t b)
{
  int64_t r;
  if (__builtin_add_overflow(a, b, &r))
    return b > 0 ? INT64_MAX : INT64_MIN;
  return r;
}

/* a * b, INT64_MAX / INT64_MIN instead of wrapping. */
static inline int64_t saturating_mul_i64(int64_t a, int64_t b)
{
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r))
    return (a < 0) != (b < 0) ? INT64_MIN : INT64_MAX;
  return r;
}

/* INT64_MAX picoseconds are 106.75 days: what time saturates at, and how
 * errors name it ("simulated time exceeds " CHECKED_PS_LIMIT). */
#define CHECKED_PS_LIMIT "106 days at ps resolution"

/* A number of picoseconds given as a double, rounded to nearest; INT64_MAX
 * (INT64_MIN) when it does not fit, INT64_MAX for NaN. */
static inline int64_t saturating_ps(double ps)
{
  if (!(ps < 9.2233720368547748e18))
    return INT64_MAX;
  if (ps <= -9.2233720368547748e18)
    return INT64_MIN;
  return (int64_t)(ps + (ps >= 0 ? 0.5 : -0.5));
}

/* Seconds -> picoseconds, rounded to nearest; FALSE when `seconds` is not
 * finite or the result does not fit int64 (about 106 days). */
static inline gboolean checked_seconds_to_ps(double seconds, int64_t *out)
{
  double ps = seconds * 1e12;
  if (!isfinite(ps) || ps >= 9.2233720368547748e18 || ps <= -9.2233720368547748e18)
    return FALSE;
  *out = (int64_t)(ps + (ps >= 0 ? 0.5 : -0.5));
  return TRUE;
}

G_END_DECLS

/* test_units.c - numbers with units (util/units.h) and brace sweeps
 * (util/sweep.h), against values written out by hand: a decimal prefix
 * must give the very double its exponent form gives, bits are eighths of
 * bytes, binary prefixes powers of two. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "util/sweep.h"
#include "util/units.h"

static double parse(const char *text, units_quantity q)
{
  double v = NAN;
  GError *e = NULL;
  cr_assert(units_parse(text, q, &v, &e), "%s: %s", text, e ? e->message : "?");
  return v;
}

Test(units, every_unit_against_its_exponent_form)
{
  static const struct { const char *text; units_quantity q; double want; } cases[] = {
    { "12.5e9", UNITS_BANDWIDTH, 12.5e9 },
    { "100Gbit/s", UNITS_BANDWIDTH, 12.5e9 },
    { "100 Gbit/s", UNITS_BANDWIDTH, 12.5e9 },
    { "100Gb/s", UNITS_BANDWIDTH, 12.5e9 },
    { "100Gbps", UNITS_BANDWIDTH, 12.5e9 },
    { "250Gbit/s", UNITS_BANDWIDTH, 31.25e9 },
    { "12.5GB/s", UNITS_BANDWIDTH, 12.5e9 },
    { "0.1GB/s", UNITS_BANDWIDTH, 1e8 },
    { "1.5MB/s", UNITS_BANDWIDTH, 1.5e6 },
    { "2kB/s", UNITS_BANDWIDTH, 2000 },
    { "8bit/s", UNITS_BANDWIDTH, 1 },
    { "10Mbps", UNITS_BANDWIDTH, 1.25e6 },
    { "1GiB/s", UNITS_BANDWIDTH, 1073741824.0 },
    { "3KiB/s", UNITS_BANDWIDTH, 3072 },
    { "100G", UNITS_BANDWIDTH, 100e9 },
    { "1.5T", UNITS_BANDWIDTH, 1.5e12 },
    { "10ps", UNITS_TIME, 10e-12 },
    { "100ps", UNITS_TIME, 100e-12 },
    { "0.3ns", UNITS_TIME, 0.3e-9 },
    { "1.5us", UNITS_TIME, 1.5e-6 },
    { "1.5µs", UNITS_TIME, 1.5e-6 },
    { "2ms", UNITS_TIME, 2e-3 },
    { "3s", UNITS_TIME, 3 },
    { "1e-11", UNITS_TIME, 1e-11 },
    { "65536", UNITS_SIZE, 65536 },
    { "64KiB", UNITS_SIZE, 65536 },
    { "64Ki", UNITS_SIZE, 65536 },
    { "1.5kB", UNITS_SIZE, 1500 },
    { "2MiB", UNITS_SIZE, 2097152 },
    { "4GB", UNITS_SIZE, 4e9 },
    { "16B", UNITS_SIZE, 16 },
    { "12k", UNITS_NUMBER, 12000 },
    { "-2.5e3", UNITS_NUMBER, -2500 },
    { "  7 ", UNITS_NUMBER, 7 },
    { ".5", UNITS_NUMBER, 0.5 },
  };
  for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
    double v = parse(cases[i].text, cases[i].q);
    cr_assert(v == cases[i].want, "%s: %.17g, expected %.17g", cases[i].text, v, cases[i].want);
  }
}

Test(units, refused_with_what_was_expected)
{
  static const struct { const char *text; units_quantity q; const char *expect; } cases[] = {
    { "", UNITS_BANDWIDTH, "expected a bandwidth in bytes/s" },
    { "fast", UNITS_BANDWIDTH, "'fast', expected a bandwidth in bytes/s such as 12.5e9" },
    { "10ns", UNITS_BANDWIDTH, "'10ns' is a time, expected a bandwidth" },
    { "64KiB", UNITS_TIME, "'64KiB' is a size, expected a time in seconds" },
    { "12.5GB/s", UNITS_SIZE, "is a bandwidth, expected a size" },
    { "100KB/s", UNITS_BANDWIDTH, "a capital K means 1000 to some and 1024 to others" },
    { "4K", UNITS_SIZE, "(k or Ki)" },
    { "3 G B/s", UNITS_BANDWIDTH, "unknown unit" },
    { "10gbit/s", UNITS_BANDWIDTH, "unknown unit" },
    { "inf", UNITS_TIME, "'inf', expected a time" },
    { "nan", UNITS_TIME, "'nan', expected" },
    { "0x10", UNITS_SIZE, "unknown unit" },
    { "1e400", UNITS_NUMBER, "out of range" },
    { "1e-400", UNITS_TIME, "out of range" },
    { "1e308Ti", UNITS_SIZE, "out of range" },
    { "4B", UNITS_NUMBER, "'4B' is a size, expected a number" },
  };
  for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
    double v = 42;
    GError *e = NULL;
    cr_assert_not(units_parse(cases[i].text, cases[i].q, &v, &e), "%s accepted", cases[i].text);
    cr_assert_not_null(strstr(e->message, cases[i].expect), "%s: %s", cases[i].text, e->message);
    cr_assert_eq(v, 42, "%s: the output is left alone", cases[i].text);
    g_error_free(e);
  }
}

/* The texts of one expansion, joined by '|', each combination by '\n'. */
static char *expand(const char *const *texts, int n)
{
  GError *e = NULL;
  GPtrArray *c = sweep_product(texts, n, &e);
  cr_assert_not_null(c, "%s: %s", texts[0], e ? e->message : "?");
  GString *s = g_string_new(NULL);
  for (guint i = 0; i < c->len; i++) {
    const sweep_combo *k = c->pdata[i];
    for (int t = 0; t < n; t++)
      g_string_append_printf(s, "%s%s", t ? "|" : "", k->texts[t] ? k->texts[t] : "(null)");
    for (int j = 0; j < k->nchoices; j++)
      g_string_append_printf(s, " [%s=%s@%d]", k->choices[j].key ? k->choices[j].key : "-",
                             k->choices[j].value, k->choices[j].text);
    g_string_append_c(s, '\n');
  }
  g_ptr_array_unref(c);
  return g_string_free(s, FALSE);
}

static void expect_expansion(const char *text, const char *want)
{
  const char *texts[] = { text };
  g_autofree char *got = expand(texts, 1);
  cr_assert_str_eq(got, want, "%s:\n%s", text, got);
}

Test(sweep, lists_and_ranges)
{
  expect_expansion("torus:4x4x4", "torus:4x4x4\n");
  expect_expansion("torus:4x4x4:bw={12.5e9,25e9,50e9}",
                   "torus:4x4x4:bw=12.5e9 [bw=12.5e9@0]\ntorus:4x4x4:bw=25e9 [bw=25e9@0]\n"
                   "torus:4x4x4:bw=50e9 [bw=50e9@0]\n");
  expect_expansion("linktype.wireless.bandwidth={3.125e9..50e9*2}",
                   "linktype.wireless.bandwidth=3125000000 "
                   "[linktype.wireless.bandwidth=3125000000@0]\n"
                   "linktype.wireless.bandwidth=6250000000 "
                   "[linktype.wireless.bandwidth=6250000000@0]\n"
                   "linktype.wireless.bandwidth=12500000000 "
                   "[linktype.wireless.bandwidth=12500000000@0]\n"
                   "linktype.wireless.bandwidth=25000000000 "
                   "[linktype.wireless.bandwidth=25000000000@0]\n"
                   "linktype.wireless.bandwidth=50000000000 "
                   "[linktype.wireless.bandwidth=50000000000@0]\n");
  /* integers as integers at any size an integer key takes (seeds), other
   * values in the fewest digits, with an exponent beyond 1e6 and 1e15 */
  expect_expansion("{1000000..1000002}", "1000000 [-=1000000@0]\n1000001 [-=1000001@0]\n"
                   "1000002 [-=1000002@0]\n");
  /* the end's tolerance is no step: no value past the largest seed */
  expect_expansion("{4294967294..4294967295}", "4294967294 [-=4294967294@0]\n"
                   "4294967295 [-=4294967295@0]\n");
  expect_expansion("{0.5e6..2.5e6+1e6}", "500000 [-=500000@0]\n1500000 [-=1500000@0]\n"
                   "2500000 [-=2500000@0]\n");
  expect_expansion("{1.5e6..3e6*1.5}", "1500000 [-=1500000@0]\n2250000 [-=2250000@0]\n");
  expect_expansion("{1e20..1e21*10}", "1e20 [-=1e20@0]\n1e21 [-=1e21@0]\n");
  expect_expansion("{1e-8..1e-7*10}", "1e-8 [-=1e-8@0]\n1e-7 [-=1e-7@0]\n");
  expect_expansion("{1.25e6..1.26e6+0.005e6}", "1250000 [-=1250000@0]\n1255000 [-=1255000@0]\n"
                   "1260000 [-=1260000@0]\n");
  expect_expansion("{1000000.5..1000001.5}", "1.0000005e6 [-=1.0000005e6@0]\n"
                   "1.0000015e6 [-=1.0000015e6@0]\n");
  /* arithmetic steps without accumulated rounding: 0.1 + 2 * 0.1 is 0.3 */
  expect_expansion("x={0.1..0.5+0.1}", "x=0.1 [x=0.1@0]\nx=0.2 [x=0.2@0]\nx=0.3 [x=0.3@0]\n"
                   "x=0.4 [x=0.4@0]\nx=0.5 [x=0.5@0]\n");
  expect_expansion("seed {1..3}", "seed 1 [-=1@0]\nseed 2 [-=2@0]\nseed 3 [-=3@0]\n");
  expect_expansion("wbw={100Gbit/s..400Gbit/s*2}",
                   "wbw=100Gbit/s [wbw=100Gbit/s@0]\nwbw=200Gbit/s [wbw=200Gbit/s@0]\n"
                   "wbw=400Gbit/s [wbw=400Gbit/s@0]\n");
  expect_expansion("lat={10ps..30ps+10ps}",
                   "lat=10ps [lat=10ps@0]\nlat=20ps [lat=20ps@0]\nlat=30ps [lat=30ps@0]\n");
  /* several braces: the first slowest; a strategy's parameter */
  expect_expansion("{a,b}:{1,2}", "a:1 [-=a@0] [-=1@0]\na:2 [-=a@0] [-=2@0]\n"
                   "b:1 [-=b@0] [-=1@0]\nb:2 [-=b@0] [-=2@0]\n");
  expect_expansion("greedy+wh:delta={4,8}",
                   "greedy+wh:delta=4 [delta=4@0]\ngreedy+wh:delta=8 [delta=8@0]\n");
}

Test(sweep, several_texts_together)
{
  const char *texts[] = { "torus:4x4:bw={1e9,2e9}", NULL, "model.envelope={0,16}" };
  g_autofree char *got = expand(texts, 3);
  cr_assert_str_eq(got,
                   "torus:4x4:bw=1e9|(null)|model.envelope=0 [bw=1e9@0] [model.envelope=0@2]\n"
                   "torus:4x4:bw=1e9|(null)|model.envelope=16 [bw=1e9@0] [model.envelope=16@2]\n"
                   "torus:4x4:bw=2e9|(null)|model.envelope=0 [bw=2e9@0] [model.envelope=0@2]\n"
                   "torus:4x4:bw=2e9|(null)|model.envelope=16 [bw=2e9@0] [model.envelope=16@2]\n");
}

Test(sweep, malformed_braces_named)
{
  static const struct { const char *text; const char *expect; } cases[] = {
    { "bw={1,2", "a '{' without its '}'" },
    { "bw=1,2}", "a '}' without its '{'" },
    { "bw={1,{2,3}}", "a brace inside a brace" },
    { "bw={1,,2}", "an empty value" },
    { "bw={}", "a brace without values" },
    { "bw={5..1}", "expected {A..B*F}" },
    { "bw={1..5*1}", "(F > 1)" },
    { "bw={1..5+0}", "S > 0" },
    { "bw={0..5*2}", "A > 0 for *F" },
    { "bw={1GB/s..5Gbit/s}", "different units" },
    { "bw={x..y}", "expected {A..B*F}" },
    { "n={1..5000}", "more than 4096 values" },
    { "{1..100}{1..100}", "more than 4096 combinations" },
  };
  for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
    const char *texts[] = { cases[i].text };
    GError *e = NULL;
    GPtrArray *c = sweep_product(texts, 1, &e);
    cr_assert_null(c, "%s accepted", cases[i].text);
    cr_assert_not_null(strstr(e->message, cases[i].expect), "%s: %s", cases[i].text, e->message);
    g_error_free(e);
  }
}

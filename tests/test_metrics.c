#include <criterion/criterion.h>
Test(placeholder_metrics, builds) { cr_assert_eq(1 + 1, 2); }

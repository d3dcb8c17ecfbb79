#include <criterion/criterion.h>
Test(placeholder_route, builds) { cr_assert_eq(1 + 1, 2); }

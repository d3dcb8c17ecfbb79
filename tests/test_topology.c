#include <criterion/criterion.h>
Test(placeholder_topology, builds) { cr_assert_eq(1 + 1, 2); }

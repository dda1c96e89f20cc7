/* One Check runner for every suite: the Makefile collects each
** `Suite *make_<area>_suite(void)` from tests/test_<area>.c into suites.inc. */
#include <check.h>
#include <stdlib.h>

#define SUITE(name) Suite *make_##name##_suite(void);
#include "suites.inc"
#undef SUITE

int main(void)
{
    /* Timeouts catch hangs, not slow machines: on a loaded machine (a CI
    ** runner, parallel builds) a test that needs 0.4 s of CPU can take 4 s
    ** of wall time.  CK_TIMEOUT_MULTIPLIER set by the caller wins. */
    static char multiplier[] = "CK_TIMEOUT_MULTIPLIER=8"; /* putenv keeps it: setenv is not on Windows */
    if (!getenv("CK_TIMEOUT_MULTIPLIER")) putenv(multiplier);
    SRunner *sr = srunner_create(NULL);
#define SUITE(name) srunner_add_suite(sr, make_##name##_suite());
#include "suites.inc"
#undef SUITE
    /* CK_ENV: CK_VERBOSITY picks the detail; fork mode stays on (CK_FORK=no under gdb). */
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

/* Unit tests that only a POSIX system can run are registered with
** tcase_add_posix_test(tc, test, reason); on Windows they are left out and
** the reason is printed ("skipped on Windows: test: reason").  A body that
** does not even compile there (fopencookie) sits inside `#if !OS_WINDOWS`. */
#ifndef POSIX_ONLY_H
#define POSIX_ONLY_H
#include "os/os.h"

#include <stdio.h>

#if OS_WINDOWS
#define tcase_add_posix_test(tc, test, reason) \
    ((void)(tc), (void)(test), fprintf(stderr, "skipped on Windows: %s: %s\n", #test, reason))
#define tcase_add_posix_test_raise_signal(tc, test, sig, reason) tcase_add_posix_test(tc, test, reason)
#define tcase_add_posix_exit_test(tc, test, code, reason) tcase_add_posix_test(tc, test, reason)
#else
#define tcase_add_posix_test(tc, test, reason) tcase_add_test(tc, test)
#define tcase_add_posix_test_raise_signal(tc, test, sig, reason) tcase_add_test_raise_signal(tc, test, sig)
#define tcase_add_posix_exit_test(tc, test, code, reason) tcase_add_exit_test(tc, test, code)
#endif
#endif

/* Minimal test framework: TEST(name) registers a test; CHECK records a
 * failure and continues; the runner prints "N passed, N failed". */
#ifndef ICN_TEST_H
#define ICN_TEST_H
#include <stdio.h>
#include <math.h>

typedef void (*test_fn)(void);
void test_register(const char *name, test_fn fn);
extern int test_failures;   /* failures in the current test */

#define TEST(name)                                                              \
    static void name(void);                                                     \
    __attribute__((constructor)) static void reg_##name(void) { test_register(#name, name); } \
    static void name(void)

#define CHECK(cond, ...) do {                                                   \
        if (!(cond)) {                                                          \
            test_failures++;                                                    \
            fprintf(stderr, "  FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);   \
            fprintf(stderr, __VA_ARGS__);                                       \
            fputc('\n', stderr);                                                \
        }                                                                       \
    } while (0)

#define CHECK_NEAR(x, want, tol, what) \
    CHECK(fabs((double)(x) - (double)(want)) <= (tol), "%s = %.6f, want %.6f +- %.4f", what, (double)(x), (double)(want), (double)(tol))

#endif

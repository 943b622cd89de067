#include "test.h"
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_TESTS 1024
static struct { const char *name; test_fn fn; } tests[MAX_TESTS];
static int ntests;
int test_failures;

void test_register(const char *name, test_fn fn)
{
    if (ntests == MAX_TESTS) { fprintf(stderr, "too many tests\n"); exit(1); }
    tests[ntests].name = name;
    tests[ntests++].fn = fn;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int main(int argc, char **argv)
{
    int passed = 0, failed = 0;
    qsort(tests, (size_t)ntests, sizeof tests[0], by_name);
    for (int i = 0; i < ntests; i++) {
        if (argc > 1) {   /* run only tests whose name contains an argument */
            int want = 0;
            for (int a = 1; a < argc; a++) if (strstr(tests[i].name, argv[a])) want = 1;
            if (!want) continue;
        }
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        test_failures = 0;
        tests[i].fn();
        clock_gettime(CLOCK_MONOTONIC, &t1);
        double dt = (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9;
        printf("%-4s %-44s %6.2f s\n", test_failures ? "FAIL" : "ok", tests[i].name, dt);
        fflush(stdout);
        if (test_failures) failed++;
        else passed++;
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}

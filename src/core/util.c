#include "util.h"
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef __linux__
#include <sys/mman.h>
#endif

/* The large arrays (packets, ports, VC queues, credits) are read at random,
 * a few bytes per 4 KB page: with 4 KB pages nearly every access of a large
 * network misses the TLB. Transparent huge pages cut those misses; most
 * kernels grant them only to regions that ask (THP mode "madvise"). Only
 * page mapping changes, never contents, so results are unaffected. */
enum { HUGE_PAGE = 2u << 20, HUGE_MIN = 4u << 20 };

static void advise_huge(void *p, size_t n)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    uintptr_t a = ((uintptr_t)p + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1);
    uintptr_t b = ((uintptr_t)p + n) & ~(uintptr_t)(HUGE_PAGE - 1);
    if (b > a) (void)madvise((void *)a, b - a, MADV_HUGEPAGE);   /* advice only: failure is harmless */
#else
    (void)p; (void)n;
#endif
}

static void mem_hugepages(void *p, size_t n)
{
    if (n >= HUGE_MIN) advise_huge(p, n);
}

void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) die("out of memory (%zu bytes)", n);
    mem_hugepages(p, n);
    return p;
}

void *xcalloc(size_t n, size_t sz)
{
    void *p = calloc(n ? n : 1, sz ? sz : 1);
    if (!p) die("out of memory (%zu x %zu bytes)", n, sz);
    mem_hugepages(p, n * sz);   /* calloc succeeded, so n * sz did not overflow */
    return p;
}

void *xaligned_alloc(size_t align, size_t n)
{
    void *p = aligned_alloc(align, n);
    if (!p) die("out of memory (%zu bytes aligned to %zu)", n, align);
    mem_hugepages(p, n);
    return p;
}

void *xhuge_alloc(size_t n)
{
    size_t b = n ? (n + HUGE_PAGE - 1) & ~(size_t)(HUGE_PAGE - 1) : HUGE_PAGE;
    void *p = aligned_alloc(HUGE_PAGE, b);
    if (!p) die("out of memory (%zu bytes in huge pages)", b);
    advise_huge(p, b);
    return p;
}

void *xaligned_calloc(size_t align, size_t n, size_t sz)
{
    if (sz && n > (SIZE_MAX - (align - 1)) / sz) die("out of memory (%zu x %zu bytes)", n, sz);
    size_t b = n && sz ? (n * sz + align - 1) / align * align : align;   /* aligned_alloc wants a multiple of align */
    void *p = xaligned_alloc(align, b);
    memset(p, 0, b);
    return p;
}

void *xrealloc(void *p, size_t n)
{
    p = realloc(p, n ? n : 1);
    if (!p) die("out of memory (%zu bytes)", n);
    mem_hugepages(p, n);
    return p;
}

long text_line(char **line, size_t *cap, FILE *f)
{
    ssize_t n = getline(line, cap, f);
    if (n <= 0) return ferror(f) ? TEXT_LINE_ERR : -1;
    return memchr(*line, 0, (size_t)n) ? TEXT_LINE_NUL : (long)n;
}

const char *text_line_why(long len)
{
    return len == TEXT_LINE_NUL ? "a NUL byte in the line (not a text file?)"
                                : "the file cannot be read on (a directory, or an I/O error)";
}

void *ring_grow(void *buf, uint32_t *head, uint32_t *cap, size_t elem)
{
    uint32_t n = *cap, nc = n ? 2 * n : 4;
    if (n > UINT32_MAX / 2) die("a queue of %u entries is full", n);
    char *b = xmalloc((size_t)nc * elem);
    if (n) {   /* the entries from head to the end, then those before it */
        memcpy(b, (char *)buf + (size_t)*head * elem, (size_t)(n - *head) * elem);
        memcpy(b + (size_t)(n - *head) * elem, buf, (size_t)*head * elem);
    }
    free(buf);
    *head = 0;
    *cap = nc;
    return b;
}

char *xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    return memcpy(xmalloc(n), s, n);
}

void die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("icnsim: internal error: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(EXIT_INTERNAL);
}

void fail_io(const char *path, int err)
{
    fprintf(stderr, "icnsim: %s: %s\n", path, strerror(err ? err : EIO));
    exit(EXIT_INTERNAL);
}

uint64_t hash_bytes(const void *p, size_t n, uint64_t h)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}

double wall_clock(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

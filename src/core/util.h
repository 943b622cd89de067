/* Small helpers shared by every module: checked allocation and fatal errors. */
#ifndef ICN_UTIL_H
#define ICN_UTIL_H
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

#define ICN_NIL 0xffffffffu
#define ICN_ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t sz);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
/* n must be a multiple of align (C11 aligned_alloc). Like the others, a large
 * block asks for transparent huge pages (a hint that never changes results). */
void *xaligned_alloc(size_t align, size_t n);
/* n zeroed elements of sz bytes at an align-aligned address (align a power
 * of two): arrays of records sized to fractions of a cache line. */
void *xaligned_calloc(size_t align, size_t n, size_t sz);
/* At least n bytes, in whole huge pages at a huge-page boundary, with
 * transparent huge pages asked for whatever the size: a pool whose records
 * are taken in order is then faulted in 2 MB at a time. */
void *xhuge_alloc(size_t n);

/* A full ring buffer of `elem`-byte entries (cap of them, the first at
 * *head) doubled (4 if empty), unrolled so the first entry is at 0. */
void *ring_grow(void *buf, uint32_t *head, uint32_t *cap, size_t elem);
/* The next whole line of a text file into *line (getline's buffer): its
 * length, -1 at the end, TEXT_LINE_NUL when it holds a NUL byte (the
 * readers of users' files refuse those: the rest of the line would be lost),
 * or TEXT_LINE_ERR when the file cannot be read on (a directory, an I/O
 * error: not an end, or a cut file would read as a shorter one). */
#define TEXT_LINE_NUL (-2)
#define TEXT_LINE_ERR (-3)
long text_line(char **line, size_t *cap, FILE *f);
/* Why text_line refused a line (len < -1). */
const char *text_line_why(long len);

/* Internal error (a bug or resource exhaustion): message and exit status 1. */
_Noreturn void die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A file could not be read or written: "icnsim: PATH: reason", exit status 1. */
_Noreturn void fail_io(const char *path, int err);

/* FNV-1a, 64 bits: digests of small files (not cryptographic). */
#define ICN_HASH_INIT 0xcbf29ce484222325ull
uint64_t hash_bytes(const void *p, size_t n, uint64_t h);
/* Monotonic wall time in seconds (for timing runs, never for results). */
double wall_clock(void);

/* Exit codes promised to users. */
enum { EXIT_OK = 0, EXIT_INTERNAL = 1, EXIT_CONFIG = 2, EXIT_DEADLOCK = 3 };

/* Make sure free list `freel` of pool arr (cap records of type T, chained
 * through .next) is not empty: double the pool if it is. */
#define POOL_RESERVE(arr, cap, freel, T)                                                   \
    do {                                                                                  \
        if (freel == ICN_NIL) {                                                           \
            uint32_t old_ = cap, nc_ = old_ ? 2 * old_ : 256;                             \
            if (old_ > UINT32_MAX / 2) die("a pool of %u records is full", old_);         \
            arr = xrealloc(arr, (size_t)nc_ * sizeof(T));                                 \
            for (uint32_t k_ = old_; k_ < nc_; k_++) arr[k_].next = k_ + 1 < nc_ ? k_ + 1 : ICN_NIL; \
            freel = old_;                                                                 \
            cap = nc_;                                                                    \
        }                                                                                 \
    } while (0)

#endif

#include "barrier.h"
#include <sched.h>
#include <unistd.h>

enum { BARRIER_SPINS = 1u << 16 };

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

void barrier_init(barrier_t *b, uint32_t n)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    atomic_init(&b->left, n);
    atomic_init(&b->round, 0);
    b->n = n;
    b->spins = cores > 0 && (long)n <= cores ? BARRIER_SPINS : 0;
}

void barrier_wait(barrier_t *b)
{
    uint32_t r = atomic_load_explicit(&b->round, memory_order_acquire);
    /* acq_rel: the arrivals form one release sequence, so the last one sees every thread's writes */
    if (atomic_fetch_sub_explicit(&b->left, 1, memory_order_acq_rel) == 1) {
        atomic_store_explicit(&b->left, b->n, memory_order_relaxed);   /* before the round opens: nobody arrives earlier */
        atomic_store_explicit(&b->round, r + 1, memory_order_release);
        return;
    }
    for (uint32_t i = 0; atomic_load_explicit(&b->round, memory_order_acquire) == r; i++) {
        if (i < b->spins) cpu_relax();
        else sched_yield();
    }
}

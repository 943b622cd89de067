/* A barrier for the threads of one run that spins before it yields.
 *
 * A threaded run (time.threads) meets at a barrier twice per window, and a
 * window is a link delay of simulated time: hundreds of thousands of
 * meetings a run, each a few microseconds apart. A blocking barrier
 * (pthread_barrier_t) puts a waiting thread to sleep and wakes it through
 * the kernel, which on a virtual machine can cost more than the window's
 * work. Here a thread that arrives early spins on the round number, and only
 * after `spins` checks yields its core on every further check, so a run
 * with more threads than cores still lets the others on.
 *
 * The last thread to arrive starts the next round; every write a thread
 * made before it arrived is visible to every thread after it leaves. */
#ifndef ICN_BARRIER_H
#define ICN_BARRIER_H
#include <stdatomic.h>
#include <stdint.h>

typedef struct barrier {
    _Atomic uint32_t left;    /* threads yet to arrive this round */
    _Atomic uint32_t round;
    uint32_t n;               /* threads that meet */
    uint32_t spins;           /* checks before yielding: 0 when threads outnumber the cores */
} barrier_t;

void barrier_init(barrier_t *b, uint32_t n);
void barrier_wait(barrier_t *b);

#endif

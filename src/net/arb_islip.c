/* iSLIP (McKeown 1999): request, grant, accept, repeated for a configurable
 * number of iterations. Grant and accept pointers are round-robin and advance
 * only for matches made in the first iteration, which is what makes iSLIP
 * desynchronize its outputs and reach full throughput under uniform load. */
#include "link.h"
#include "policy.h"

static void match_islip(sim_t *s, uint32_t w, uint64_t in, const uint64_t *req, uint8_t *match)
{
    const sw_t *sw = &s->sw[w];
    unsigned n = sw->nports;
    port_t *pt = &s->port[sw->port0];
    uint64_t free_in = in, free_out = ~0ull, multi = 0;
    uint64_t reqout[MAX_RADIX], grants[MAX_RADIX];
    for (uint64_t m = in; m; m &= m - 1) {
        unsigned i = (unsigned)__builtin_ctzll(m);
        match[i] = 0xff;
        multi |= req[i] & (req[i] - 1);
    }
    if (!multi) {
        /* One output per input (a deterministic routing on one VC, or every
         * input asking for the same output): each grant is the only one its
         * input gets, so the first iteration accepts them all, moving both
         * pointers, and every request left is for a matched output. */
        uint64_t outs = 0;
        for (uint64_t m = in; m; m &= m - 1) {
            unsigned i = (unsigned)__builtin_ctzll(m), o = (unsigned)__builtin_ctzll(req[i]);
            if (!(outs >> o & 1)) { outs |= 1ull << o; reqout[o] = 0; }
            reqout[o] |= 1ull << i;
        }
        for (; outs; outs &= outs - 1) {
            unsigned o = (unsigned)__builtin_ctzll(outs), i = rr_pick(reqout[o], pt[o].grant_ptr, n);
            match[i] = (uint8_t)o;
            pt[o].grant_ptr = rr_next(i, n);
            pt[i].accept_ptr = rr_next(o, n);
        }
        return;
    }
    for (int it = 0; it < s->islip_iters && free_in; it++) {
        uint64_t outs = 0;
        /* requests, seen from the outputs */
        for (uint64_t m = free_in; m; m &= m - 1) {
            unsigned i = (unsigned)__builtin_ctzll(m);
            grants[i] = 0;
            for (uint64_t r = req[i] & free_out; r; r &= r - 1) {
                unsigned o = (unsigned)__builtin_ctzll(r);
                if (!(outs >> o & 1)) { outs |= 1ull << o; reqout[o] = 0; }
                reqout[o] |= 1ull << i;
            }
        }
        if (!outs) break;
        /* grant: each output picks the requesting input at or after its pointer */
        for (uint64_t m = outs; m; m &= m - 1) {
            unsigned o = (unsigned)__builtin_ctzll(m);
            grants[rr_pick(reqout[o], pt[o].grant_ptr, n)] |= 1ull << o;
        }
        /* accept: each input picks the granting output at or after its pointer */
        for (uint64_t m = free_in; m; m &= m - 1) {
            unsigned i = (unsigned)__builtin_ctzll(m);
            if (!grants[i]) continue;
            unsigned o = rr_pick(grants[i], pt[i].accept_ptr, n);
            match[i] = (uint8_t)o;
            free_in &= ~(1ull << i);
            free_out &= ~(1ull << o);
            if (it == 0) {
                pt[o].grant_ptr = rr_next(i, n);
                pt[i].accept_ptr = rr_next(o, n);
            }
        }
    }
}

/* Plain round-robin: outputs in turn each take the next requesting input
 * after their pointer that is still free; pointers always advance past the
 * winner. One pass, no accept phase. */
static void match_rr(sim_t *s, uint32_t w, uint64_t in, const uint64_t *req, uint8_t *match)
{
    const sw_t *sw = &s->sw[w];
    unsigned n = sw->nports;
    port_t *pt = &s->port[sw->port0];
    uint64_t free_in = in, reqout[MAX_RADIX] = { 0 };
    for (uint64_t m = in; m; m &= m - 1) {
        unsigned i = (unsigned)__builtin_ctzll(m);
        match[i] = 0xff;
        for (uint64_t r = req[i]; r; r &= r - 1) reqout[__builtin_ctzll(r)] |= 1ull << i;
    }
    for (unsigned o = 0; o < n && free_in; o++) {
        uint64_t cand = reqout[o] & free_in;
        if (!cand) continue;
        unsigned i = rr_pick(cand, pt[o].grant_ptr, n);
        match[i] = (uint8_t)o;
        free_in &= ~(1ull << i);
        pt[o].grant_ptr = rr_next(i, n);
    }
}

const arbiter_ops arbiter_islip = { "islip", "iSLIP separable allocator, switch.islip_iterations iterations", match_islip };
const arbiter_ops arbiter_rr = { "rr", "plain round-robin per output, one pass", match_rr };

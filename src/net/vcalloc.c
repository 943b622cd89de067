/* Separable VC allocators of the flit model (router.vc_allocator): one round
 * each, among the headers still unmatched and the output VCs still free;
 * src/net/flit.c runs the rounds. Both keep a pointer per output VC (the
 * header first in line after its last grantee, so a header waits for at most
 * one grant of every other input VC of the router) and one per header (the
 * VC of a class it tries first, spreading heads over a class's VCs). */
#include "policy.h"

/* First candidate of header li offering a VC in `avail`, or -1. */
static int first_cand(const vca_t *a, uint32_t li, uint64_t avail)
{
    for (uint32_t j = a->k0[li]; j < a->nc[li]; j++)
        if (a->cm[li][j] & avail) return (int)j;
    return -1;
}

/* Of the output VCs m (all on one port), the first from VC `from` on. */
static uint32_t pick_vc(uint32_t nvc, uint64_t m, uint8_t from)
{
    uint32_t base = (uint32_t)__builtin_ctzll(m) / nvc * nvc;
    for (uint32_t k = 0; k < nvc; k++) {
        uint32_t v = from + k < nvc ? from + k : from + k - nvc;
        if (m >> (base + v) & 1) return base + v;
    }
    return (uint32_t)__builtin_ctzll(m);
}

/* The header of `set` (those asking for output VC o) first after o's pointer. */
static uint32_t first_in_line(const vca_t *a, uint64_t set, uint32_t o)
{
    uint32_t best = (uint32_t)__builtin_ctzll(set), rank = a->nq;
    for (uint64_t b = set; b; b &= b - 1) {
        uint32_t li = (uint32_t)__builtin_ctzll(b), r = (li + a->nq - a->vpri[o]) % a->nq;
        if (r < rank) { best = li; rank = r; }
    }
    return best;
}

/* Input-first: each header asks for one output VC, of its first candidate
 * with a free one; each output VC asked for grants the first in line. A
 * header with no free candidate now will not get one this cycle. */
static uint64_t input_first(vca_t *a)
{
    uint32_t req[64];
    uint8_t pick[64];
    uint64_t asking = 0, granted = 0;
    for (uint64_t b = a->todo; b; b &= b - 1) {
        uint32_t li = (uint32_t)__builtin_ctzll(b);
        int j = first_cand(a, li, a->avail);
        if (j < 0) continue;
        req[li] = pick_vc(a->nvc, a->cm[li][j] & a->avail, a->ipri[li]);
        pick[li] = (uint8_t)j;
        asking |= 1ull << li;
    }
    a->todo = asking;
    for (uint64_t b = asking; b; b &= b - 1) {
        uint32_t li = (uint32_t)__builtin_ctzll(b), o = req[li];
        if (granted >> o & 1) continue;   /* granted this round to an earlier requester */
        uint64_t set = 0;
        for (uint64_t r = b; r; r &= r - 1) {
            uint32_t lj = (uint32_t)__builtin_ctzll(r);
            if (req[lj] == o) set |= 1ull << lj;
        }
        uint32_t best = first_in_line(a, set, o);
        a->grant(a, best, pick[best], o);
        granted |= 1ull << o;
        a->todo &= ~(1ull << best);
    }
    return granted;
}

/* Output-first: each free output VC some header asks for offers itself to
 * the first in line; each header accepts the offer of its first candidate
 * (round-robin arbiters' pointers pass every offer, iSLIP's only accepted
 * ones, which grant() moves). */
static uint64_t output_first(vca_t *a)
{
    uint64_t want[64], offers[64] = { 0 }, outs = 0, granted = 0;
    for (uint64_t b = a->todo; b; b &= b - 1) {
        uint32_t li = (uint32_t)__builtin_ctzll(b);
        want[li] = 0;
        for (uint32_t j = a->k0[li]; j < a->nc[li]; j++) want[li] |= a->cm[li][j] & a->avail;
        outs |= want[li];
        if (!want[li]) a->todo &= ~(1ull << li);
    }
    for (uint64_t o = outs; o; o &= o - 1) {
        uint32_t lo = (uint32_t)__builtin_ctzll(o);
        uint64_t set = 0;
        for (uint64_t b = a->todo; b; b &= b - 1) {
            uint32_t li = (uint32_t)__builtin_ctzll(b);
            if (want[li] >> lo & 1) set |= 1ull << li;
        }
        uint32_t best = first_in_line(a, set, lo);
        offers[best] |= 1ull << lo;
        if (!a->islip) a->vpri[lo] = (uint8_t)(best + 1 == a->nq ? 0 : best + 1);
    }
    for (uint64_t b = a->todo; b; b &= b - 1) {
        uint32_t li = (uint32_t)__builtin_ctzll(b);
        if (!offers[li]) continue;
        int j = first_cand(a, li, offers[li]);
        uint32_t lo = pick_vc(a->nvc, a->cm[li][j] & offers[li], a->ipri[li]);
        a->grant(a, li, (uint32_t)j, lo);
        a->todo &= ~(1ull << li);
        granted |= 1ull << lo;
    }
    return granted;
}

const vc_allocator_ops vc_alloc_input_first = { "input-first",
                                                "each waiting head asks for one output VC, each output VC grants one head", input_first };
const vc_allocator_ops vc_alloc_output_first = { "output-first",
                                                 "each free output VC offers itself to one head, each head accepts one offer", output_first };

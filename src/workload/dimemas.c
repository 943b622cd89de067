/* Dimemas trace replay (workload.source = dimemas, workload.trace = FILE).
 *
 * The .dim text format (BSC's Dimemas; prv2dim writes it), one record per
 * line, fields separated by ':':
 *   #DIMEMAS...                              header (the task count is read from its "N(" group if any)
 *   d:1:comm:n:t1:t2:...:tn                  communicator `comm` of n tasks, in rank order (any n:
 *                                            prv2dim lists every task in MPI_COMM_WORLD's)
 *   0:task:thread                            no operation
 *   1:task:thread:seconds                    CPU burst                      -> OP_COMPUTE
 *   2:task:thread:dst:dthr:bytes:tag:comm:mode   send (mode 0 standard, 1 blocking: OP_SEND;
 *                                                     2 immediate, 3 immediate ready: OP_ISEND)
 *   3:task:thread:src:sthr:bytes:tag:comm:mode   receive (mode 0: OP_RECV, 1 immediate: OP_IRECV,
 *                                                     2 wait for the immediate one: OP_WAIT)
 *   10:task:thread:op:comm:root:rthr:sendbytes:recvbytes[:sync]  collective (below); sync 2:
 *                                            the wait of an immediate one (no operation: it ran at its start)
 *   20:task:thread:type:value[:...]          event (ignored)
 *   s:...                                    offset table (ignored)
 * Tasks are numbered from 0; one thread per task (0 or 1, the same in all of
 * its records: a task with records of both is refused). The peer's
 * and root's threads and a point-to-point communicator are not used: any
 * integer is read there (prv2dim writes -1 in waits).
 *
 * Collectives, by Dimemas' global-operation ids, become the point-to-point
 * steps of wl_collective among the communicator's tasks (comm 0 or an
 * undefined comm 1 = every task), with tags from 1 << 30 on so they never
 * match the application's, naming the communicator and the collective's
 * number on it so that collectives of different communicators never match
 * each other's messages: 0 barrier; 1 bcast; 2, 3 gather(v) and 10
 * reduce -> binomial reduce to the root; 4, 5 scatter(v) -> binomial bcast
 * from the root; 6, 7 allgather(v) -> ring allgather; 8, 9 alltoall(v) ->
 * pairwise exchange; 11 allreduce, 12 reduce_scatter, 13 scan -> ring
 * allreduce. Sizes: the larger of the send and receive sizes, as the
 * collective's total. Other ids are an error naming the line.
 *
 * The root field is read as the Dimemas simulator reads it (bsc-performance-
 * tools/dimemas, Simulator/model/communic.c, GLOBAL_operation): for reduce
 * (10) it is the root's task id, the same on every task's record (the
 * simulator compares it with its own task's; prv2dim writes it so since
 * 2022); for bcast, gather(v) and scatter(v) (1-5) it is a flag, 1 on the
 * root's own record and 0 on the others' (prv2dim writes it so; the
 * simulator makes the task whose record holds 1 the root); the other ids
 * have no root and the field is not read. The records of one collective
 * are its communicator's k-th with a root on each task (counted in the
 * task's order); its root is the task whose record names or flags itself.
 * If none does, the communicator's first task is the root (Dimemas takes the
 * last to arrive); two are an error naming the line, and so is a flag other
 * than 0 or 1. Extrae's mpi2dim writes the root's rank in the communicator
 * there instead, on every record: Dimemas reads its files by the rule above,
 * and so does this reader (a reduce's rank is taken for a task id, the same
 * on a communicator of every task in order; for ids 1-5, rank 0 is no flag,
 * the first task, as meant; rank 1 on every record, two roots; above 1, not
 * a flag).
 *
 * Streaming: a first pass records, for every task, the byte ranges of the
 * file that hold its records (one range per run of consecutive lines of that
 * task, so one per task when the trace is grouped by task), reads the
 * communicators and the roots of their collectives (a range of collectives
 * per change of root). Then each rank reads its next record on demand from
 * its own position: memory follows tasks, runs and roots, not the trace
 * length. */
#include "workload.h"
#include "../core/util.h"
#include <errno.h>
#include <math.h>
#include <sys/stat.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

typedef struct run { off_t start, end; } run_t;

typedef struct dtask {
    run_t *run;
    uint32_t nrun, cap, cur;   /* runs, and the one being read */
    off_t pos;                 /* next byte to read in run cur */
    wl_fifo_t q;               /* expanded collective steps still to give */
    uint32_t *irq, irq_head, nirq, irq_cap;   /* first pass: the (source, tag) pairs of its immediate receives not
                                                 yet waited for, in irq[irq_head, nirq) */
    struct cinst { uint64_t comm, k, n; } *ci;   /* per communicator it used: its collectives with a root, and all, so far */
    uint32_t nci;
    uint8_t thread;            /* first pass: 1 + the thread its records name (0: none yet) */
} dtask_t;

/* A communicator: its tasks in rank order, and (task << 32 | rank) sorted,
 * to find a task's rank. */
typedef struct comm { uint32_t id, n, *t; uint64_t *idx, line; } comm_t;

/* The roots of a communicator's collectives with a root (numbered per task
 * from 0 in its order): runs of them with the same root task. */
typedef struct rootrun { uint64_t k0, k1, line; uint32_t task; } rootrun_t;
typedef struct rootlog { uint64_t comm; rootrun_t *r; uint32_t n, cap; } rootlog_t;

typedef struct dim {
    FILE *f;
    char *path;
    uint32_t ntasks;
    uint32_t most;             /* tasks the run can place (0: any number): more are refused as read */
    uint32_t over;             /* refused for that: the tasks read so far (the header's, or a task id + 1) */
    dtask_t *task;
    uint32_t ntask_alloc;      /* records in task (ntasks once the trace is read) */
    comm_t *comm;
    uint32_t ncomm;
    rootlog_t *rl;             /* per communicator id that has collectives with a root */
    uint32_t nrl;
    uint32_t *all;             /* 0 .. ntasks - 1 */
    char err[512];
} dim_t;

#define MAXF 64

/* Cut the line's end, "\n" or "\r\n"; 0 if a carriage return remains
 * inside it (a file of CR-only line ends would otherwise read as one line). */
static int strip_eol(char *line)
{
    size_t n = strlen(line);
    if (n && line[n - 1] == '\n') line[--n] = 0;
    if (n && line[n - 1] == '\r') line[--n] = 0;
    return !strchr(line, '\r');
}

#define CR_INSIDE "a carriage return inside the line (line ends are \\n or \\r\\n)"

/* Split line into ':'-separated fields (in place); returns their number,
 * -1 if a carriage return is inside it. */
static int fields(char *line, char **f)
{
    int n = 0;
    if (!strip_eol(line)) return -1;
    for (char *p = line; n < MAXF;) {
        f[n++] = p;
        p = strchr(p, ':');
        if (!p) break;
        *p++ = 0;
    }
    return n;
}

static int num(const char *s, uint64_t *v)
{
    char *end;
    errno = 0;
    unsigned long long x = strtoull(s, &end, 10);
    if (end == s || *end || errno || *s == '-') return 0;
    *v = x;
    return 1;
}

/* A record's numbers: type, task, thread, then the type's fields. */
typedef struct rec { uint64_t type, task, thr, v[6]; double sec; int gwait; } rec_t;

/* Any integer: the fields the replay ignores (a peer's or root's thread,
 * which prv2dim writes as -1 in waits, and a point-to-point communicator). */
static int any_int(const char *s)
{
    char *end;
    errno = 0;
    (void)strtoll(s, &end, 10);
    return end != s && !*end && !errno;
}

/* How a global operation's root field is read, as the Dimemas simulator
 * reads it (see the header): reduce (10) names the root task; bcast,
 * gather(v) and scatter(v) (1-5) flag the root's own record with 1; the
 * others have no root. */
enum { ROOT_NONE, ROOT_TASK, ROOT_FLAG };
static int root_kind(uint64_t op) { return op == 10 ? ROOT_TASK : op >= 1 && op <= 5 ? ROOT_FLAG : ROOT_NONE; }

/* Whether a collective record's task is its root. */
static int self_root(const rec_t *x)
{
    int k = root_kind(x->v[0]);
    return k == ROOT_TASK ? x->v[2] == x->task : k == ROOT_FLAG && x->v[2] == 1;
}

/* Parse and check the fields of a task record; NULL if valid, else why not. */
static const char *parse(char **f, int n, uint32_t ntasks, rec_t *x)
{
    if (n < 0) return CR_INSIDE;
    if (n < 3 || !num(f[0], &x->type) || !num(f[1], &x->task) || !num(f[2], &x->thr))
        return "want a record type, a task and a thread (type:task:thread:...)";
    uint64_t t = x->type;
    if (t != 0 && t != 1 && t != 2 && t != 3 && t != 10 && t != 20)
        return "unknown record type (0, 1, 2, 3, 10, 20, d, s or # expected)";
    if (x->thr > 1) return "a thread other than 0 or 1: one thread per task is replayed";
    if (x->task > 4000000 || (ntasks && x->task >= ntasks)) return "task id out of range";
    int want = t == 1 ? 4 : t == 2 || t == 3 || t == 10 ? 9 : 3;
    if (n < want) return "too few fields for its type";
    /* more would shift what is read (a size read as a tag); a global
     * operation may have a tenth, 0-2 (2: the wait of an immediate one) */
    if ((t == 1 || t == 2 || t == 3) && n > want) return "too many fields for its type";
    if (t == 10 && (n > 10 || (n == 10 && strcmp(f[9], "0") && strcmp(f[9], "1") && strcmp(f[9], "2"))))
        return "a global operation has 9 fields, or a tenth of 0, 1 or 2";
    if (t == 1) {
        char *end;
        x->sec = strtod(f[3], &end);
        if (end == f[3] || *end || !(x->sec >= 0) || x->sec > 1e6) return "a CPU burst must be 0 to 1e6 seconds";
        return NULL;
    }
    if (t == 0 || t == 20) return NULL;
    for (int i = 3; i < want; i++) {
        /* a root's thread, a peer's thread, a point-to-point communicator, and
         * the root field of a global operation that has no root */
        int ignored = t == 10 ? i == 6 || (i == 5 && root_kind(x->v[0]) == ROOT_NONE) : i == 4 || i == 7;
        if (ignored ? !any_int(f[i]) : !num(f[i], &x->v[i - 3])) return "a field is not a non-negative integer";
        if (ignored) x->v[i - 3] = 0;
    }
    /* a global operation's tenth field, 2: the wait of an immediate (non-blocking) one */
    x->gwait = t == 10 && n > 9 && !strcmp(f[9], "2");
    if (t == 10) {
        if (x->v[0] >= 14) return "an unsupported collective (global operation ids 0-13 are replayed)";
        if (root_kind(x->v[0]) == ROOT_TASK && x->v[2] > 4000000) return "the root task id is out of range";
        if (root_kind(x->v[0]) == ROOT_FLAG && x->v[2] > 1)
            return "a bcast's, gather's or scatter's root field is not 0 or 1 (it flags the root's own record, as Dimemas reads it)";
        return x->v[4] > UINT32_MAX || x->v[5] > UINT32_MAX ? "a collective of more than 4 GB (2^32 - 1 bytes)" : NULL;
    }
    if (x->v[0] > 4000000) return "the peer task id is out of range";
    if (ntasks && x->v[0] >= ntasks) return "the peer task is beyond the trace's tasks";
    if (x->v[2] > UINT32_MAX) return "a message of more than 4 GB (2^32 - 1 bytes)";
    if (x->v[3] >= 1u << 30) return "a tag of 2^30 or more (kept for collectives)";
    if (x->v[5] > (t == 2 ? 3u : 2u)) return "unknown mode";
    return NULL;
}

static int fail(dim_t *d, uint64_t line, const char *what)
{
    snprintf(d->err, sizeof d->err, "%s:%llu: %s", d->path, (unsigned long long)line, what);
    return 0;
}

/* The trace has more tasks than the run can place (at least `over`): fail
 * at line `line`, and keep the count for the caller's message. */
static __attribute__((format(printf, 4, 5))) void too_many(dim_t *d, uint64_t line, uint64_t over, const char *fmt, ...)
{
    char what[96];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    d->over = (uint32_t)over;
    fail(d, line, what);
}

static void run_add(dtask_t *t, off_t a, off_t b)
{
    if (t->nrun && t->run[t->nrun - 1].end == a) { t->run[t->nrun - 1].end = b; return; }
    if (t->nrun == t->cap) {
        t->cap = t->cap ? 2 * t->cap : 4;
        t->run = xrealloc(t->run, t->cap * sizeof *t->run);
    }
    t->run[t->nrun++] = (run_t){ a, b };
}

/* A line the replay skips: blank (LF or CRLF), header, comment, offsets. */
static int skipped(const char *line)
{
    return line[0] == '#' || line[0] == '\n' || (line[0] == '\r' && line[1] == '\n') || line[0] == 's' || line[0] == '"';
}

static const comm_t *comm_find(const dim_t *d, uint64_t id)
{
    for (uint32_t i = 0; i < d->ncomm; i++)
        if (d->comm[i].id == id) return &d->comm[i];
    return NULL;
}

/* Task's rank in c, c->n if it is not a member. */
static uint32_t comm_rank(const comm_t *c, uint64_t task)
{
    uint32_t lo = 0, hi = c->n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (c->idx[mid] >> 32 < task) lo = mid + 1; else hi = mid;
    }
    return lo < c->n && c->idx[lo] >> 32 == task ? (uint32_t)c->idx[lo] : c->n;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* A communicator record, d:1:comm:n:t1:...:tn, into c (c->t and c->idx
 * allocated, to be freed even on an error); NULL if valid, else why not.
 * The line is walked, not split into an array: any n. The first member
 * that is not a task id or repeats an earlier one is the error, as when
 * each was checked against those before it; a sort finds the repeats. */
static const char *comm_read(char *line, comm_t *c)
{
    *c = (comm_t){ 0 };
    if (!strip_eol(line)) return CR_INSIDE;
    uint64_t n = 1, id, cnt, x;
    for (const char *p = line; (p = strchr(p, ':')); p++) n++;
    char *f[4], *p = line;
    for (int i = 0; i < 4 && p; i++) {
        f[i] = p;
        if ((p = strchr(p, ':'))) *p++ = 0;
    }
    if (n < 4 || !num(f[2], &id) || !num(f[3], &cnt) || n != 4 + cnt || !cnt || id > UINT32_MAX)
        return "want d:1:comm:n followed by n task ids";
    c->id = (uint32_t)id;
    c->t = xmalloc(cnt * sizeof *c->t);
    c->idx = xmalloc(cnt * sizeof *c->idx);
    uint64_t good = 0;   /* the members before the first that is not a task id */
    for (; good < cnt; good++) {
        char *q = strchr(p, ':');
        if (q) *q = 0;
        if (!num(p, &x) || x > 4000000) break;
        c->t[good] = (uint32_t)x;
        c->idx[good] = x << 32 | good;
        p = q ? q + 1 : p;
    }
    qsort(c->idx, good, sizeof *c->idx, cmp_u64);
    for (uint64_t i = 1; i < good; i++)
        if (c->idx[i] >> 32 == c->idx[i - 1] >> 32) return "a task listed twice in the communicator";
    if (good < cnt) return "a communicator member is not a task id";
    c->n = (uint32_t)cnt;
    return NULL;
}

/* What a collective record's task, communicator and root break against a
 * defined communicator; NULL if nothing. (An undefined one is every task
 * for ids 0 and 1, an error for others: settled once the trace is read.) */
static const char *coll_check(const comm_t *c, const rec_t *x)
{
    if (comm_rank(c, x->task) == c->n) return "the task is not in the collective's communicator";
    /* an immediate one's wait (sync 2) holds a 0/1 flag there, even for a reduce, as prv2dim writes it */
    if (root_kind(x->v[0]) == ROOT_TASK && !x->gwait && comm_rank(c, x->v[2]) == c->n) return "the root is not in the communicator";
    return NULL;
}

/* The number of task t's earlier collectives with a root on communicator
 * comm (counted up by one). */
static struct cinst *comm_count(dtask_t *t, uint64_t comm)
{
    uint32_t i = 0;
    while (i < t->nci && t->ci[i].comm != comm) i++;
    if (i == t->nci) {
        t->ci = xrealloc(t->ci, (t->nci + 1) * sizeof *t->ci);
        t->ci[t->nci++] = (struct cinst){ comm, 0, 0 };
    }
    return &t->ci[i];
}

/* The task's collectives with a root on comm so far (the k-th: k). */
static uint64_t comm_instance(dtask_t *t, uint64_t comm) { return comm_count(t, comm)->k++; }

/* The first pass's immediate receives of a task not yet waited for, in
 * posting order. Waits usually take the oldest, so a removal shifts the
 * shorter side of the list: in-order waits cost nothing however many
 * receives are posted. */
static void irq_add(dtask_t *t, uint32_t src, uint32_t tag)
{
    if (t->nirq + 2 > t->irq_cap) {
        if (t->irq_head) {   /* room freed at the front: close it up first */
            memmove(t->irq, t->irq + t->irq_head, (t->nirq - t->irq_head) * sizeof *t->irq);
            t->nirq -= t->irq_head;
            t->irq_head = 0;
        }
        if (t->nirq + 2 > t->irq_cap) t->irq = xrealloc(t->irq, (t->irq_cap = t->irq_cap ? 2 * t->irq_cap : 8) * sizeof *t->irq);
    }
    t->irq[t->nirq++] = src;
    t->irq[t->nirq++] = tag;
}

/* The oldest immediate receive from src with tag leaves the list: 0 if none. */
static int irq_take(dtask_t *t, uint32_t src, uint32_t tag)
{
    uint32_t k = t->irq_head;
    while (k < t->nirq && !(t->irq[k] == src && t->irq[k + 1] == tag)) k += 2;
    if (k == t->nirq) return 0;
    if (k - t->irq_head < t->nirq - k - 2) {
        memmove(t->irq + t->irq_head + 2, t->irq + t->irq_head, (k - t->irq_head) * sizeof *t->irq);
        t->irq_head += 2;
    } else {
        memmove(t->irq + k, t->irq + k + 2, (t->nirq - k - 2) * sizeof *t->irq);
        t->nirq -= 2;
    }
    if (t->irq_head == t->nirq) t->irq_head = t->nirq = 0;
    return 1;
}

static rootlog_t *rootlog(const dim_t *d, uint64_t comm)
{
    for (uint32_t i = 0; i < d->nrl; i++)
        if (d->rl[i].comm == comm) return &d->rl[i];
    return NULL;
}

/* Task is the root of comm's collective k (read at line). */
static void root_add(dim_t *d, uint64_t comm, uint64_t k, uint32_t task, uint64_t line)
{
    rootlog_t *l = rootlog(d, comm);
    if (!l) {
        d->rl = xrealloc(d->rl, (d->nrl + 1) * sizeof *d->rl);
        l = &d->rl[d->nrl++];
        *l = (rootlog_t){ comm, NULL, 0, 0 };
    }
    if (l->n && l->r[l->n - 1].task == task && l->r[l->n - 1].k1 == k) { l->r[l->n - 1].k1 = k + 1; return; }
    if (l->n == l->cap) l->r = xrealloc(l->r, (l->cap = l->cap ? 2 * l->cap : 4) * sizeof *l->r);
    l->r[l->n++] = (rootrun_t){ k, k + 1, line, task };
}

static int by_k0(const void *a, const void *b)
{
    const rootrun_t *x = a, *y = b;
    return (x->k0 > y->k0) - (x->k0 < y->k0);
}

/* The root task of comm's collective k; UINT32_MAX if no record is its root. */
static uint32_t root_of(const dim_t *d, uint64_t comm, uint64_t k)
{
    const rootlog_t *l = rootlog(d, comm);
    uint32_t lo = 0, hi = l ? l->n : 0;
    while (lo < hi) {   /* the first run that ends after k */
        uint32_t mid = lo + (hi - lo) / 2;
        if (l->r[mid].k1 <= k) lo = mid + 1; else hi = mid;
    }
    return l && lo < l->n && l->r[lo].k0 <= k ? l->r[lo].task : UINT32_MAX;
}

/* A communicator id used by collectives while undefined: its first use, and
 * its largest root with that root's line. */
typedef struct early { uint64_t id, line, root, root_line; } early_t;

/* The collectives, read again once every communicator is known (only when
 * one was defined after its first use: prv2dim writes them first). */
static int recheck_collectives(dim_t *d, char **line, size_t *lcap)
{
    char *f[MAXF];
    uint64_t ln = 0;
    if (fseeko(d->f, 0, SEEK_SET)) return fail(d, 0, strerror(errno));
    while (getline(line, lcap, d->f) > 0) {
        ln++;
        if (strncmp(*line, "10:", 3)) continue;
        rec_t x;
        const char *why = parse(f, fields(*line, f), d->ntasks, &x);
        const comm_t *c = why ? NULL : comm_find(d, x.v[1]);
        if (!why && c) why = coll_check(c, &x);
        if (why) return fail(d, ln, why);
    }
    return 1;
}

/* First pass: header, communicators, every task's runs of records, and the
 * checks that need the whole trace (peers, communicators, waits), so that a
 * bad trace is refused with its line before the run. */
static int scan(dim_t *d)
{
    char *line = NULL, *f[MAXF];
    size_t lcap = 0;
    long len;
    uint64_t ln = 0, peer_ln = 0, maxpeer = 0;
    off_t at = 0;
    uint32_t maxtask = 0, cap = 0;
    int seen = 0, ok = 0, again = 0;
    early_t *early = NULL;   /* communicator ids used before their definition (or never defined) */
    uint32_t nearly = 0;
    while ((len = text_line(&line, &lcap, d->f)) != -1) {
        ln++;
        off_t next = ftello(d->f);
        if (len < 0) { fail(d, ln, text_line_why(len)); goto out; }
        if (skipped(line)) {
            const char *q = strrchr(line, '"');   /* after the quoted name, which may hold a '(' */
            const char *g = line[0] == '#' ? strchr(q ? q : line, '(') : NULL;
            if (g && !d->ntasks) {   /* "...:N(...)": N tasks */
                const char *p = g;
                while (p > line && p[-1] >= '0' && p[-1] <= '9') p--;
                errno = 0;
                unsigned long nt = strtoul(p, NULL, 10);
                if (errno || nt > 4000000) { fail(d, ln, "the header's task count is above 4000000"); goto out; }
                if (d->most && nt > d->most) { too_many(d, ln, nt, "the header declares %lu tasks", nt); goto out; }
                d->ntasks = (uint32_t)nt;
            }
            at = next;
            continue;
        }
        if (line[0] == 'd' && (line[1] == ':' || line[1] == '\r' || line[1] == '\n' || !line[1])) {   /* d:1:comm:n:list */
            comm_t c;
            const char *why = comm_read(line, &c);
            const comm_t *old = why ? NULL : comm_find(d, c.id);   /* the first of that id: a repeat must be the same */
            if (!why && old && (old->n != c.n || memcmp(old->t, c.t, c.n * sizeof *c.t)))
                why = "a second, different definition of the communicator";
            if (why || old) {
                free(c.t);
                free(c.idx);
                if (why) { fail(d, ln, why); goto out; }
            } else {
                c.line = ln;
                d->comm = xrealloc(d->comm, (d->ncomm + 1) * sizeof *d->comm);
                d->comm[d->ncomm++] = c;
            }
            for (uint32_t i = 0; i < nearly; i++)
                if (early[i].id == c.id) again = 1;   /* used before: its collectives are read again at the end */
            at = next;
            continue;
        }
        if (len > 4095) { fail(d, ln, "a record longer than 4094 characters and its newline"); goto out; }   /* the replay's buffer */
        rec_t x;
        const char *why = parse(f, fields(line, f), d->ntasks, &x);
        if (why) { fail(d, ln, why); goto out; }
        uint64_t task = x.task;
        if (d->most && task >= d->most) {   /* (with a header, parse refused it: it holds at most `most`) */
            too_many(d, ln, task + 1, "task %llu is one of at least %llu tasks", (unsigned long long)task, (unsigned long long)task + 1);
            goto out;
        }
        if (task >= cap) {
            uint32_t nc = (uint32_t)task + 1 > 2 * cap ? (uint32_t)task + 1 : 2 * cap;
            d->task = xrealloc(d->task, nc * sizeof *d->task);
            memset(d->task + cap, 0, (nc - cap) * sizeof *d->task);
            cap = d->ntask_alloc = nc;
        }
        if (task + 1 > maxtask) maxtask = (uint32_t)task + 1;
        dtask_t *dt = &d->task[task];
        if (dt->thread && dt->thread != x.thr + 1) {   /* prv2dim numbers threads from 0; both would merge into one stream */
            fail(d, ln, "a second thread of the task (one thread per task is replayed)");
            goto out;
        }
        dt->thread = (uint8_t)(x.thr + 1);
        if ((x.type == 2 || x.type == 3) && (!peer_ln || x.v[0] > maxpeer)) { maxpeer = x.v[0]; peer_ln = ln; }
        if (x.type == 3 && x.v[5] == 1) {   /* an immediate receive: its wait must find it */
            irq_add(dt, (uint32_t)x.v[0], (uint32_t)x.v[3]);
        } else if (x.type == 3 && x.v[5] == 2) {
            if (!irq_take(dt, (uint32_t)x.v[0], (uint32_t)x.v[3])) {
                fail(d, ln, "a wait (mode 2) for a receive the task never posted (an immediate receive, mode 1, from that task with that tag)");
                goto out;
            }
        } else if (x.type == 10) {
            const comm_t *c = comm_find(d, x.v[1]);
            if (c && (why = coll_check(c, &x))) { fail(d, ln, why); goto out; }
            uint64_t root = root_kind(x.v[0]) == ROOT_TASK && !x.gwait ? x.v[2] : 0;
            if (!c) {
                uint32_t i = 0;
                while (i < nearly && early[i].id != x.v[1]) i++;
                if (i == nearly) {
                    early = xrealloc(early, (nearly + 1) * sizeof *early);
                    early[nearly++] = (early_t){ x.v[1], ln, root, ln };
                } else if (root > early[i].root) early[i].root = root, early[i].root_line = ln;
            }
            if (root_kind(x.v[0]) != ROOT_NONE && !x.gwait) {   /* the k-th with a root on its communicator */
                uint64_t k = comm_instance(dt, x.v[1]);
                if (self_root(&x)) root_add(d, x.v[1], k, (uint32_t)task, ln);
            }
        }
        run_add(dt, at, next);
        seen = 1;
        at = next;
    }
    if (ferror(d->f)) { fail(d, ln, strerror(errno)); goto out; }
    if (!seen) { fail(d, ln, "no records"); goto out; }
    if (d->ntasks && maxtask > d->ntasks) { fail(d, ln, "a task id beyond the header's task count"); goto out; }
    if (!d->ntasks) d->ntasks = maxtask;
    if (peer_ln && maxpeer >= d->ntasks) { fail(d, peer_ln, "the peer task is beyond the trace's tasks"); goto out; }
    for (uint32_t i = 0; i < d->ncomm; i++)   /* idx is sorted: its last is the largest task */
        if (d->comm[i].idx[d->comm[i].n - 1] >> 32 >= d->ntasks) { fail(d, d->comm[i].line, "a communicator names a task beyond the trace's"); goto out; }
    for (uint32_t i = 0; i < nearly; i++) {   /* ids never defined: 0 and 1 are every task */
        if (comm_find(d, early[i].id)) continue;
        if (early[i].id > 1) { fail(d, early[i].line, "an undefined communicator (d:1:comm:... defines one; 0 and 1 are every task)"); goto out; }
        if (early[i].root >= d->ntasks) { fail(d, early[i].root_line, "the root is beyond the trace's tasks"); goto out; }
    }
    if (again && !recheck_collectives(d, &line, &lcap)) goto out;
    for (uint32_t i = 0; i < d->nrl; i++) {   /* one root a collective */
        rootlog_t *l = &d->rl[i];
        qsort(l->r, l->n, sizeof *l->r, by_k0);
        for (uint32_t k = 1; k < l->n; k++)   /* runs overlap where the later-starting one starts: name its line */
            if (l->r[k].k0 < l->r[k - 1].k1) {
                char why[160];
                snprintf(why, sizeof why, "a second root for the same collective (number %llu, from 0, of those with a root on its communicator)",
                         (unsigned long long)l->r[k].k0);
                fail(d, l->r[k].line, why);
                goto out;
            }
    }
    for (uint32_t t = 0; t < cap; t++)   /* the replay counts them again */
        for (uint32_t i = 0; i < d->task[t].nci; i++) d->task[t].ci[i].k = 0;
    if (cap < d->ntasks) {
        d->task = xrealloc(d->task, d->ntasks * sizeof *d->task);
        memset(d->task + cap, 0, (d->ntasks - cap) * sizeof *d->task);
        d->ntask_alloc = d->ntasks;
    }
    for (uint32_t t = 0; t < d->ntasks; t++) d->task[t].pos = d->task[t].nrun ? d->task[t].run[0].start : 0;
    ok = 1;
out:
    for (uint32_t t = 0; t < cap; t++) { free(d->task[t].irq); d->task[t].irq = NULL; }
    free(early);
    free(line);
    return ok;
}

static void dim_free(dim_t *d)
{
    if (d->f) fclose(d->f);
    for (uint32_t t = 0; t < d->ntask_alloc; t++) { free(d->task[t].run); wl_fifo_free(&d->task[t].q); }
    for (uint32_t t = 0; t < d->ntask_alloc; t++) free(d->task[t].ci);
    for (uint32_t i = 0; i < d->ncomm; i++) { free(d->comm[i].t); free(d->comm[i].idx); }
    for (uint32_t i = 0; i < d->nrl; i++) free(d->rl[i].r);
    free(d->rl); free(d->task); free(d->comm); free(d->all); free(d->path); free(d);
}

void *dimemas_open_file(const char *path, uint32_t *nranks, char *err, size_t errlen)
{
    dim_t *d = xcalloc(1, sizeof *d);
    d->path = xstrdup(path);
    d->most = *nranks;
    *nranks = 0;
    struct stat st;
    if (!stat(path, &st) && !S_ISREG(st.st_mode)) {   /* before opening: a pipe would block the open */
        snprintf(err, errlen, "'%s' is not a regular file (the trace is read by offsets: not a pipe or a device)", path);
        dim_free(d);
        return NULL;
    }
    d->f = fopen(path, "r");
    if (!d->f) {
        snprintf(err, errlen, "cannot read '%s': %s", path, strerror(errno));
        dim_free(d);
        return NULL;
    }
    if (fstat(fileno(d->f), &st) || !S_ISREG(st.st_mode)) {   /* ranks read their records back by offset */
        snprintf(err, errlen, "'%s' is not a regular file (the trace is read by offsets: not a pipe or a device)", path);
        dim_free(d);
        return NULL;
    }
    if (!scan(d)) {
        snprintf(err, errlen, "%s", d->err);
        *nranks = d->over;
        dim_free(d);
        return NULL;
    }
    d->all = xmalloc(d->ntasks * sizeof *d->all);
    for (uint32_t t = 0; t < d->ntasks; t++) d->all[t] = t;
    *nranks = d->ntasks;
    return d;
}

static _Noreturn void bad(dim_t *d, const char *line, const char *what)
{
    die("%s: %s in record '%s'", d->path, what, line);
}

static const int coll_of[14] = { COLL_BARRIER, COLL_BCAST, COLL_REDUCE, COLL_REDUCE, COLL_BCAST, COLL_BCAST,
                                 COLL_ALLGATHER, COLL_ALLGATHER, COLL_ALLTOALL, COLL_ALLTOALL, COLL_REDUCE,
                                 COLL_ALLREDUCE, COLL_ALLREDUCE, COLL_ALLREDUCE };

/* One record of task r into op; 0 if it gives no operation (noop, event).
 * The first pass checked its syntax; what depends on communicators is
 * checked here. */
static int record(dim_t *d, uint32_t r, char *line, wop_t *op)
{
    char copy[256], *f[MAXF];
    snprintf(copy, sizeof copy, "%s", line);
    copy[strcspn(copy, "\r\n")] = 0;
    rec_t x;
    const char *why = parse(f, fields(line, f), d->ntasks, &x);
    if (why) bad(d, copy, why);   /* only what the first pass could not know: a peer beyond a header-less trace */
    const uint64_t *v = x.v;
    switch (x.type) {
    case 1: *op = (wop_t){ OP_COMPUTE, 0, 0, (uint64_t)llround(x.sec * 1e12) }; return 1;
    case 2: *op = (wop_t){ (uint8_t)(v[5] <= 1 ? OP_SEND : OP_ISEND), (uint32_t)v[0], (uint32_t)v[3], v[2] }; return 1;
    case 3: *op = (wop_t){ (uint8_t)(v[5] == 0 ? OP_RECV : v[5] == 1 ? OP_IRECV : OP_WAIT), (uint32_t)v[0], (uint32_t)v[3], v[2] }; return 1;
    case 10: if (x.gwait) return 0;   /* the collective ran when it started: its wait is no operation */
        break;
    default: return 0;   /* noop, event */
    }
    /* 10: op, comm, root, rthr, sendsize, recvsize */
    const comm_t *c = comm_find(d, v[1]);
    const uint32_t *m = c ? c->t : d->all;
    uint32_t P = c ? c->n : d->ntasks, me = c ? comm_rank(c, r) : r, root = 0;
    if (me == P) bad(d, copy, "the task is not in the collective's communicator");
    if (!c && v[1] > 1) bad(d, copy, "an undefined communicator");
    if (root_kind(v[0]) != ROOT_NONE) {   /* the task whose record is the root's; none: the first member */
        uint32_t rt = root_of(d, v[1], comm_instance(&d->task[r], v[1]));
        root = rt == UINT32_MAX ? 0 : c ? comm_rank(c, rt) : rt;
    }
    if (root >= P) bad(d, copy, "the root is not in the communicator");
    /* The tag names the communicator and the collective's number on it, as
     * MPI matches a collective's messages within its communicator: members
     * of a communicator who also meet in another never take each other's. */
    uint32_t slot = c ? (uint32_t)(c - d->comm) + 1 : 0, bits = 0;
    while (bits < 30 && (d->ncomm + 1) >> bits) bits++;
    uint64_t nth = comm_count(&d->task[r], c ? v[1] : UINT64_MAX)->n++;   /* comm 0 and an undefined 1: one world */
    uint32_t tag = (1u << 30) | slot << (30 - bits) | (uint32_t)(nth & ((1ull << (30 - bits)) - 1));
    dtask_t *t = &d->task[r];
    wl_collective(&t->q, coll_of[v[0]], m, P, me, root, v[4] > v[5] ? v[4] : v[5], tag);
    if (!wl_fifo_pop(&t->q, op)) return 0;   /* a collective of one task */
    return 1;
}

void dimemas_next(void *st, uint32_t r, wop_t *op)
{
    dim_t *d = st;
    dtask_t *t = &d->task[r];
    char line[4096];
    if (wl_fifo_pop(&t->q, op)) return;
    for (;;) {
        while (t->cur < t->nrun && t->pos >= t->run[t->cur].end)
            if (++t->cur < t->nrun) t->pos = t->run[t->cur].start;
        if (t->cur >= t->nrun) { *op = (wop_t){ OP_END, 0, 0, 0 }; return; }
        if (fseeko(d->f, t->pos, SEEK_SET) || !fgets(line, sizeof line, d->f)) die("%s: cannot read back the trace", d->path);
        t->pos = ftello(d->f);
        if (skipped(line) || line[0] == 'd') continue;
        if (record(d, r, line, op)) return;
    }
}

void dimemas_close(void *st) { dim_free(st); }

uint64_t dimemas_runs(const void *st)
{
    const dim_t *d = st;
    uint64_t n = 0;
    for (uint32_t t = 0; t < d->ntasks; t++) n += d->task[t].nrun;
    return n;
}

static void *open_dimemas(sim_t *s, cfg_t *c, uint32_t *nranks)
{
    char err[600];
    const char *path = cfg_str(c, K_WL_TRACE);
    if (!*path) cfg_fail(c, K_WL_TRACE, "workload.source = dimemas needs the trace file");
    uint32_t n = *nranks;   /* the reader stops at the first task beyond them, before it takes memory for them */
    void *d = dimemas_open_file(path, &n, err, sizeof err);
    if (!d && n > *nranks) {
        if (!cfg_int(c, K_WL_RANKS)) cfg_fail(c, K_WL_RANKS, "%s, more than the network's %u nodes (0: one rank per node)", err, *nranks);
        cfg_fail(c, K_WL_RANKS, "%s; workload.ranks is %u", err, *nranks);
    }
    if (!d) cfg_fail(c, K_WL_TRACE, "%s", err);
    *nranks = n;
    (void)s;
    return d;
}

const wl_source_t wl_source_dimemas = { "dimemas", "replay a Dimemas .dim trace (workload.trace): bursts, point-to-point, collectives",
                                        open_dimemas, dimemas_next, dimemas_close };

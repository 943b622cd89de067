#include "outfile.h"
#include "../core/util.h"
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void list_path(char *buf, size_t n, const char *dir, const char *name)
{
    int k = snprintf(buf, n, "%s/%s", dir, name);
    if (k < 0 || (size_t)k >= n) fail_io(dir, ENAMETOOLONG);
}

void out_list_add(const char *dir, const char *name)
{
    char lp[4096];
    list_path(lp, sizeof lp, dir, OUT_LIST);
    int fd = open(lp, O_WRONLY | O_APPEND | O_CLOEXEC);
    if (fd < 0) {
        if (errno == ENOENT) return;   /* not a run directory (a sweep's, a file named by a key) */
        fail_io(lp, errno);
    }
    size_t len = strlen(name);
    char line[4096];
    if (len + 1 >= sizeof line) { close(fd); fail_io(name, ENAMETOOLONG); }
    memcpy(line, name, len);
    line[len] = '\n';
    ssize_t w = write(fd, line, len + 1);
    int err = w < 0 ? errno : (size_t)w != len + 1 ? EIO : 0;
    if (close(fd) && !err) err = errno;
    if (err) fail_io(lp, err);
}

void out_list_begin(const char *dir)
{
    char lp[4096], fp[8192];
    list_path(lp, sizeof lp, dir, OUT_LIST);
    FILE *f = fopen(lp, "r");
    if (f) {
        char *line = NULL;
        size_t cap = 0;
        ssize_t n;
        while ((n = getline(&line, &cap, f)) > 0) {
            if (line[n - 1] == '\n') line[--n] = 0;
            /* only plain names of this directory: never a path elsewhere */
            if (!n || strchr(line, '/') || !strcmp(line, ".") || !strcmp(line, "..") || !strcmp(line, OUT_LIST)) continue;
            snprintf(fp, sizeof fp, "%s/%s", dir, line);
            if (unlink(fp) && errno != ENOENT) { int e = errno; free(line); fclose(f); fail_io(fp, e); }
        }
        int err = ferror(f) ? (errno ? errno : EIO) : 0;
        free(line);
        fclose(f);
        if (err) fail_io(lp, err);
    } else if (errno != ENOENT) fail_io(lp, errno);
    int fd = open(lp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) fail_io(lp, errno);
    if (close(fd)) fail_io(lp, errno);
}

FILE *out_open(outfile_t *o, const char *dir, const char *name)
{
    int n = name ? snprintf(o->path, sizeof o->path, "%s/%s", dir, name)
                 : snprintf(o->path, sizeof o->path, "%s", dir);
    if (n < 0 || (size_t)n >= sizeof o->path) fail_io(name ? name : dir, ENAMETOOLONG);
    struct stat st;
    if (!lstat(o->path, &st) && S_ISLNK(st.st_mode)) {   /* replace the file the link names, not the link */
        char *real = realpath(o->path, NULL);
        if (real && strlen(real) < sizeof o->path) snprintf(o->path, sizeof o->path, "%s", real);
        free(real);   /* (a dangling link is replaced by the file) */
    }
    if (!stat(o->path, &st) && !S_ISREG(st.st_mode)) {   /* a device or a pipe: in place */
        o->tmp[0] = 0;
        o->f = fopen(o->path, "w");
        if (!o->f) fail_io(o->path, errno);
        return o->f;
    }
    if (name) out_list_add(dir, name);
    else {   /* a whole path: its directory's list, if it keeps one */
        char d[4096];
        snprintf(d, sizeof d, "%s", o->path);
        char *slash = strrchr(d, '/');
        if (slash && slash[1]) {
            *slash = 0;
            out_list_add(slash == d ? "/" : d, slash + 1);
        } else if (!slash) out_list_add(".", d);
    }
    snprintf(o->tmp, sizeof o->tmp, "%s.tmp%ld", o->path, (long)getpid());
    o->f = fopen(o->tmp, "w");
    if (!o->f) fail_io(o->tmp, errno);
    return o->f;
}

void out_close(outfile_t *o)
{
    int err = 0;
    errno = 0;
    if (fflush(o->f) || ferror(o->f)) err = errno ? errno : EIO;
    if (!err && o->tmp[0] && fsync(fileno(o->f)) && errno != EINVAL) err = errno;   /* EINVAL: a file system without sync */
    errno = 0;
    if (fclose(o->f) && !err) err = errno ? errno : EIO;
    o->f = NULL;
    if (!err && o->tmp[0] && rename(o->tmp, o->path)) err = errno;
    if (err) {
        if (o->tmp[0]) unlink(o->tmp);
        fail_io(o->path, err);
    }
}

void out_discard(outfile_t *o)
{
    if (o->f) fclose(o->f);
    o->f = NULL;
    if (o->tmp[0]) unlink(o->tmp);
}

void out_sync_dir(const char *dir)
{
    int fd = open(dir, O_RDONLY | O_DIRECTORY);
    if (fd < 0) fail_io(dir, errno);
    if (fsync(fd) && errno != EINVAL) { int e = errno; close(fd); fail_io(dir, e); }
    close(fd);
}

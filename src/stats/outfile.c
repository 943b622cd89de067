#include "outfile.h"
#include "../core/util.h"
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

FILE *out_open(outfile_t *o, const char *dir, const char *name)
{
    int n = name ? snprintf(o->path, sizeof o->path, "%s/%s", dir, name)
                 : snprintf(o->path, sizeof o->path, "%s", dir);
    if (n < 0 || (size_t)n >= sizeof o->path) fail_io(name ? name : dir, ENAMETOOLONG);
    snprintf(o->tmp, sizeof o->tmp, "%s.tmp%ld", o->path, (long)getpid());
    o->f = fopen(o->tmp, "w");
    if (!o->f) fail_io(o->tmp, errno);
    return o->f;
}

void out_close(outfile_t *o)
{
    int err = 0;
    if (fflush(o->f) || ferror(o->f)) err = errno ? errno : EIO;
    if (!err && fsync(fileno(o->f)) && errno != EINVAL) err = errno;   /* EINVAL: a file system without sync */
    if (fclose(o->f) && !err) err = errno ? errno : EIO;
    o->f = NULL;
    if (!err && rename(o->tmp, o->path)) err = errno;
    if (err) {
        unlink(o->tmp);
        fail_io(o->path, err);
    }
}

void out_discard(outfile_t *o)
{
    if (o->f) fclose(o->f);
    o->f = NULL;
    unlink(o->tmp);
}

void out_sync_dir(const char *dir)
{
    int fd = open(dir, O_RDONLY | O_DIRECTORY);
    if (fd < 0) fail_io(dir, errno);
    if (fsync(fd) && errno != EINVAL) { int e = errno; close(fd); fail_io(dir, e); }
    close(fd);
}

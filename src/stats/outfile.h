/* Result files written atomically: the data goes to a temporary file beside
 * the target, which is checked, synced and renamed over it only when every
 * write succeeded. A reader therefore sees the old file or the whole new one,
 * never a cut one, and a full disk or a size limit fails the run with the
 * path and the reason instead of leaving a short file behind. A target that
 * is a symbolic link is resolved (the file it names is replaced, the link
 * stays); one that exists and is not a regular file (/dev/stdout, a pipe)
 * is written in place, as nothing can be renamed over it.
 *
 * The files of a run directory: out_list_begin() starts a list of them,
 * DIR/.outputs, and from then on every file out_open() creates in DIR is
 * added to it before it is created. The next run in that directory first
 * removes every file listed, whatever ended the run that listed them, so a
 * directory never mixes the files of two runs (a view turned off, a run cut
 * short). */
#ifndef ICN_OUTFILE_H
#define ICN_OUTFILE_H
#include <stdio.h>

typedef struct outfile {
    FILE *f;
    char path[4096];         /* the target */
    char tmp[4128];          /* where the data goes until out_close ("": written in place) */
} outfile_t;

/* Open dir/name (name may be NULL: dir is then the whole path). Exits with
 * status 1 naming the path if the file cannot be created. */
FILE *out_open(outfile_t *o, const char *dir, const char *name);
/* Check every write, sync, and rename into place; exits with status 1
 * naming the path on any failure (the temporary file is removed). */
void out_close(outfile_t *o);
/* Give the file up: the temporary file goes, the target stays as it was
 * (before an exit on an error found while writing). */
void out_discard(outfile_t *o);
/* Remove the files the list of dir names (a run there before), and start
 * an empty list. Exits with status 1 naming the path on an I/O error. */
void out_list_begin(const char *dir);
/* Add name to dir's list, if dir keeps one (plot_render: the image gnuplot
 * writes). */
void out_list_add(const char *dir, const char *name);
#define OUT_LIST ".outputs"

/* Sync a directory, so that renames into it are durable before a later
 * file (a completion marker) is written. */
void out_sync_dir(const char *dir);

#endif

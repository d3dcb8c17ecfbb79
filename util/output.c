/* output.c - atomic outputs through temporaries (see output.h). */
#include "util/output.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

G_DEFINE_QUARK(output-error-quark, output_error)

typedef enum { OUT_DIRECT, OUT_FILE, OUT_DIR } out_kind;

struct output {
  out_kind kind;
  char *path;    /* as given */
  char *target;  /* symbolic links resolved */
  char *tmp;     /* temporary file or directory, NULL when direct */
  FILE *f;       /* file outputs */
  int slot;      /* in live_files, or -1 */
  mode_t mode;   /* permissions to publish with */
  const progress *prog;
};

/* Live temporaries: every one in `live` (for output_abort_all), files also
 * in a fixed table a signal handler may read without locks. */
#define SIGNAL_SLOTS 64
static char *volatile live_files[SIGNAL_SLOTS];
static GMutex live_lock;
static GPtrArray *live;

static void live_add(output *o)
{
  g_mutex_lock(&live_lock);
  if (!live)
    live = g_ptr_array_new();
  g_ptr_array_add(live, o);
  o->slot = -1;
  for (int i = 0; o->kind == OUT_FILE && i < SIGNAL_SLOTS; i++)
    if (!live_files[i]) {
      live_files[i] = o->tmp;
      o->slot = i;
      break;
    }
  g_mutex_unlock(&live_lock);
}

static void live_remove(output *o)
{
  g_mutex_lock(&live_lock);
  if (live)
    g_ptr_array_remove(live, o);
  if (o->slot >= 0)
    live_files[o->slot] = NULL;
  o->slot = -1;
  g_mutex_unlock(&live_lock);
}

static gboolean set_errno_error(GError **error, int code, const char *path, int err,
                                const char *expected)
{
  g_set_error(error, OUTPUT_ERROR, code, "%s: %s, expected %s", path, g_strerror(err), expected);
  return FALSE;
}

/* Follows symbolic links (at most 40, like the kernel) to the path that is
 * really written; the last one may not exist yet. */
static char *resolve_target(const char *path, GError **error)
{
  char *cur = g_strdup(path);
  for (int depth = 0;; depth++) {
    struct stat st;
    if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode))
      return cur;
    if (depth == 40) {
      set_errno_error(error, OUTPUT_ERROR_PATH, path, ELOOP, "a writable path");
      g_free(cur);
      return NULL;
    }
    GError *e = NULL;
    char *link = g_file_read_link(cur, &e);
    if (!link) {
      g_set_error(error, OUTPUT_ERROR, OUTPUT_ERROR_PATH, "%s: %s, expected a writable path",
                  path, e->message);
      g_error_free(e);
      g_free(cur);
      return NULL;
    }
    char *next;
    if (g_path_is_absolute(link)) {
      next = link;
    } else {
      char *dir = g_path_get_dirname(cur);
      next = g_build_filename(dir, link, NULL);
      g_free(dir);
      g_free(link);
    }
    g_free(cur);
    cur = next;
  }
}

static mode_t default_mode(mode_t bits)
{
  mode_t mask = umask(0);
  umask(mask);
  return bits & ~mask;
}

/* "DIR/.NAME.tmp-XXXXXX" beside `target`. */
static char *temp_template(const char *target)
{
  char *dir = g_path_get_dirname(target);
  char *base = g_path_get_basename(target);
  char *tmp = g_strdup_printf("%s/.%s.tmp-XXXXXX", dir, base);
  g_free(dir);
  g_free(base);
  return tmp;
}

static void output_free(output *o)
{
  g_free(o->path);
  g_free(o->target);
  g_free(o->tmp);
  g_free(o);
}

output *output_open(const char *path, const progress *prog, GError **error)
{
  char *target = resolve_target(path, error);
  if (!target)
    return NULL;
  output *o = g_new0(output, 1);
  o->path = g_strdup(path);
  o->target = target;
  o->prog = prog;
  o->slot = -1;
  struct stat st;
  gboolean exists = stat(target, &st) == 0;
  if (exists && S_ISDIR(st.st_mode)) {
    g_set_error(error, OUTPUT_ERROR, OUTPUT_ERROR_PATH,
                "%s: is a directory, expected a file path", path);
    goto fail;
  }
  if (exists && !S_ISREG(st.st_mode)) {
    /* a device or a FIFO: nothing to replace, write it directly */
    int fd = g_open(target, O_WRONLY | O_CLOEXEC | O_NOCTTY, 0);
    if (fd < 0 || !(o->f = fdopen(fd, "w"))) {
      int err = errno;
      if (fd >= 0)
        close(fd);
      set_errno_error(error, OUTPUT_ERROR_PATH, path, err, "a writable file, device or FIFO");
      goto fail;
    }
    o->kind = OUT_DIRECT;
    return o;
  }
  o->kind = OUT_FILE;
  o->mode = exists ? (st.st_mode & 07777) : default_mode(0666);
  o->tmp = temp_template(target);
  int fd = g_mkstemp_full(o->tmp, O_WRONLY | O_CLOEXEC, 0600);
  if (fd < 0) {
    set_errno_error(error, OUTPUT_ERROR_PATH, path, errno, "a path in a writable folder");
    goto fail;
  }
  live_add(o);
  if (!(o->f = fdopen(fd, "w"))) {
    close(fd);
    set_errno_error(error, OUTPUT_ERROR_WRITE, path, errno, "a writable path");
    output_abort(o);
    return NULL;
  }
  return o;
fail:
  output_free(o);
  return NULL;
}

output *output_open_dir(const char *path, const progress *prog, GError **error)
{
  char *target = resolve_target(path, error);
  if (!target)
    return NULL;
  output *o = g_new0(output, 1);
  o->kind = OUT_DIR;
  o->path = g_strdup(path);
  o->target = target;
  o->prog = prog;
  o->slot = -1;
  struct stat st;
  if (stat(target, &st) == 0) {
    GDir *d = S_ISDIR(st.st_mode) ? g_dir_open(target, 0, NULL) : NULL;
    gboolean empty = d && g_dir_read_name(d) == NULL;
    if (d)
      g_dir_close(d);
    if (!empty) {
      g_set_error(error, OUTPUT_ERROR, OUTPUT_ERROR_PATH,
                  "%s: exists and is not an empty directory, expected a new output directory",
                  path);
      output_free(o);
      return NULL;
    }
    o->mode = st.st_mode & 07777;
  } else {
    o->mode = default_mode(0777);
  }
  char *parent = g_path_get_dirname(target);
  int made = g_mkdir_with_parents(parent, 0777);
  int err = errno;
  g_free(parent);
  o->tmp = temp_template(target);
  if (made != 0 || !g_mkdtemp_full(o->tmp, 0700)) {
    set_errno_error(error, OUTPUT_ERROR_PATH, path, made != 0 ? err : errno,
                    "a path in a writable folder");
    output_free(o);
    return NULL;
  }
  live_add(o);
  return o;
}

FILE *output_stream(const output *o)
{
  return o->f;
}

const char *output_dir(const output *o)
{
  return o->tmp;
}

const char *output_path(const output *o)
{
  return o->path;
}

gboolean output_stopped(const output *o)
{
  return progress_stopped(o->prog);
}

void output_remove_tree(const char *path)
{
  if (g_file_test(path, G_FILE_TEST_IS_DIR) && !g_file_test(path, G_FILE_TEST_IS_SYMLINK)) {
    GDir *d = g_dir_open(path, 0, NULL);
    const char *name;
    while (d && (name = g_dir_read_name(d))) {
      char *child = g_build_filename(path, name, NULL);
      output_remove_tree(child);
      g_free(child);
    }
    if (d)
      g_dir_close(d);
  }
  g_remove(path);
}

void output_abort(output *o)
{
  if (!o)
    return;
  if (o->f)
    fclose(o->f);
  o->f = NULL;
  if (o->tmp) {
    if (o->kind == OUT_DIR)
      output_remove_tree(o->tmp);
    else
      g_unlink(o->tmp);
    live_remove(o);
  }
  output_free(o);
}

gboolean output_commit(output *o, GError **error)
{
  if (!progress_check(o->prog, error)) {
    output_abort(o);
    return FALSE;
  }
  int err = 0;
  if (o->f) {
    if (fflush(o->f) != 0 || ferror(o->f))
      err = errno ? errno : EIO;
    else if (o->kind == OUT_FILE && (fchmod(fileno(o->f), o->mode) != 0 || fsync(fileno(o->f)) != 0))
      err = errno;
    if (fclose(o->f) != 0 && !err)
      err = errno;
    o->f = NULL;
  } else if (o->kind == OUT_DIR && g_chmod(o->tmp, (int)o->mode) != 0) {
    err = errno;
  }
  if (!err && o->tmp && g_rename(o->tmp, o->target) != 0)
    err = errno;
  if (err) {
    set_errno_error(error, OUTPUT_ERROR_WRITE, o->path, err, "a writable path with free space");
    output_abort(o);
    return FALSE;
  }
  if (o->tmp) {
    live_remove(o);
    /* the rename itself reaches the disk with the folder */
    char *dir = g_path_get_dirname(o->target);
    int dfd = g_open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
    if (dfd >= 0) {
      fsync(dfd);
      close(dfd);
    }
    g_free(dir);
  }
  output_free(o);
  return TRUE;
}

gboolean output_write_all(const char *path, const char *data, gsize len, const progress *prog,
                          GError **error)
{
  output *o = output_open(path, prog, error);
  if (!o)
    return FALSE;
  if (len && fwrite(data, 1, len, o->f) != len) {
    set_errno_error(error, OUTPUT_ERROR_WRITE, path, errno, "a writable path with free space");
    output_abort(o);
    return FALSE;
  }
  return output_commit(o, error);
}

void output_abort_all(void)
{
  for (;;) {
    g_mutex_lock(&live_lock);
    output *o = live && live->len ? g_ptr_array_index(live, live->len - 1) : NULL;
    g_mutex_unlock(&live_lock);
    if (!o)
      return;
    output_abort(o);
  }
}

void output_unlink_all_from_signal(void)
{
  for (int i = 0; i < SIGNAL_SLOTS; i++) {
    char *p = live_files[i];
    if (p)
      unlink(p);
  }
}

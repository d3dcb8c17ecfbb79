/* output.c - atomic outputs through temporaries (see output.h). */
#define _GNU_SOURCE /* fopencookie, sync_file_range */
#include "util/output.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "util/status.h"

G_DEFINE_QUARK(output-error-quark, output_error)

typedef enum { OUT_DIRECT, OUT_FILE, OUT_DIR } out_kind;

struct output {
  out_kind kind;
  char *path;    /* as given */
  char *target;  /* symbolic links resolved */
  char *tmp;     /* temporary file or directory, NULL when direct */
  output_fd w;   /* file outputs: the descriptor under f */
  FILE *f;       /* file outputs */
  int slot;      /* in slots[], or -1 */
  mode_t mode;   /* permissions to publish with */
  const progress *prog;
};

/* ---- the registry of live temporaries ----
 * Every temporary is in `live` (for output_abort_all) and in a fixed table
 * of path copies that output_remove_all_now() reads without locks: a slot's
 * state is 0 (free) or a generation number times 4 plus its kind, set
 * after the path is written, so a reader that sees the same state before
 * and after copying the path has a whole path. */
enum { SLOT_FILE = 1, SLOT_DIR = 2 };
#define SLOTS 128
#define GONE_SUFFIX ".gone"
static struct {
  unsigned state;
  char path[PATH_MAX];
} slots[SLOTS];
static unsigned slot_generation;
static GMutex live_lock;
static GPtrArray *live;

/* Temporaries are named and registered before they are created: between
 * the two, `creating` counts the threads at work, and once `closing` is set
 * (the process ends) no thread starts another. */
static int creating, closing;

/* The group commit (output_group_begin): `held` are the outputs written,
 * flushed and closed whose rename waits for output_group_commit();
 * `publishing` is set while it renames them, and output_remove_all_now()
 * waits for it, so that a stop sees all of them renamed or none. */
static gboolean holding;
static GPtrArray *held;
static int publishing;

static void (*broken_pipe_hook)(void);

/* output_set_publish_hook's */
static void (*publish_hook)(const char *path, void *user);
static void *publish_user;

void output_set_broken_pipe_hook(void (*hook)(void))
{
  broken_pipe_hook = hook;
}

static int slot_add(const char *path, int kind)
{
  if (strlen(path) + sizeof GONE_SUFFIX > PATH_MAX)
    return -1;
  g_mutex_lock(&live_lock);
  int slot = -1;
  for (int i = 0; i < SLOTS && slot < 0; i++)
    if (__atomic_load_n(&slots[i].state, __ATOMIC_SEQ_CST) == 0)
      slot = i;
  if (slot >= 0) {
    strcpy(slots[slot].path, path);
    slot_generation = (slot_generation + 1) & (UINT_MAX >> 2);
    __atomic_store_n(&slots[slot].state, (MAX(slot_generation, 1) << 2) | (unsigned)kind,
                     __ATOMIC_SEQ_CST);
  }
  g_mutex_unlock(&live_lock);
  return slot;
}

static void slot_remove(int slot)
{
  if (slot >= 0)
    __atomic_store_n(&slots[slot].state, 0, __ATOMIC_SEQ_CST);
}

static void live_add(output *o)
{
  g_mutex_lock(&live_lock);
  if (!live)
    live = g_ptr_array_new();
  g_ptr_array_add(live, o);
  g_mutex_unlock(&live_lock);
}

static void live_remove(output *o)
{
  g_mutex_lock(&live_lock);
  if (live)
    g_ptr_array_remove(live, o);
  g_mutex_unlock(&live_lock);
  slot_remove(o->slot);
  o->slot = -1;
}

static void creation_begin(void)
{
  __atomic_add_fetch(&creating, 1, __ATOMIC_SEQ_CST);
  if (__atomic_load_n(&closing, __ATOMIC_SEQ_CST)) {
    __atomic_sub_fetch(&creating, 1, __ATOMIC_SEQ_CST);
    for (;;)
      pause(); /* the process is ending: nothing more is created */
  }
}

static void creation_end(void)
{
  __atomic_sub_fetch(&creating, 1, __ATOMIC_SEQ_CST);
}

/* ---- removing trees with async-signal-safe calls only ---- */

struct linux_dirent64 {
  unsigned long long d_ino;
  long long d_off;
  unsigned short d_reclen;
  unsigned char d_type;
  char d_name[];
};

/* Removes `name` (relative to dirfd) and everything below it, at most
 * `depth` levels deep (2 KiB of stack each); links are removed, never
 * followed. An entry is read, removed, and the directory read again until
 * it is empty, so that entries created meanwhile go too. */
static void remove_at(int dirfd, const char *name, int depth)
{
  if (unlinkat(dirfd, name, 0) == 0 || (errno != EISDIR && errno != EPERM) || depth <= 0)
    return;
  int fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0)
    return;
  for (int pass = 0; pass < 64; pass++) {
    char buf[2048] __attribute__((aligned(8)));
    gboolean any = FALSE;
    lseek(fd, 0, SEEK_SET);
    long n;
    while ((n = syscall(SYS_getdents64, fd, buf, sizeof buf)) > 0)
      for (long at = 0; at < n;) {
        struct linux_dirent64 *d = (struct linux_dirent64 *)(void *)(buf + at);
        at += d->d_reclen;
        if (strcmp(d->d_name, ".") == 0 || strcmp(d->d_name, "..") == 0)
          continue;
        any = TRUE;
        remove_at(fd, d->d_name, depth - 1);
      }
    if (!any)
      break;
  }
  close(fd);
  unlinkat(dirfd, name, AT_REMOVEDIR);
}

void output_remove_tree(const char *path)
{
  remove_at(AT_FDCWD, path, 256);
}

void output_remove_all_now(void)
{
  __atomic_store_n(&closing, 1, __ATOMIC_SEQ_CST);
  /* let outputs being created get registered (a bounded wait: the thread
   * creating one may be the one that called us) */
  for (int i = 0; i < 200 && __atomic_load_n(&creating, __ATOMIC_SEQ_CST) > 0; i++) {
    struct timespec ms = { 0, 1000000 };
    nanosleep(&ms, NULL);
  }
  /* a group being renamed into place is let finish: a few renames */
  for (int i = 0; i < 2000 && __atomic_load_n(&publishing, __ATOMIC_SEQ_CST) > 0; i++) {
    struct timespec us = { 0, 100000 };
    nanosleep(&us, NULL);
  }
  for (int i = 0; i < SLOTS; i++) {
    unsigned state = __atomic_load_n(&slots[i].state, __ATOMIC_SEQ_CST);
    if (!state)
      continue;
    char path[PATH_MAX + sizeof GONE_SUFFIX];
    memcpy(path, slots[i].path, PATH_MAX);
    path[PATH_MAX - 1] = '\0';
    if (__atomic_load_n(&slots[i].state, __ATOMIC_SEQ_CST) != state)
      continue;
    if ((state & 3) == SLOT_FILE) {
      unlink(path);
      continue;
    }
    /* renamed first: a writer still filling the directory by its path
     * creates nothing in it any more */
    size_t len = strlen(path);
    char gone[sizeof path];
    memcpy(gone, path, len);
    memcpy(gone + len, GONE_SUFFIX, sizeof GONE_SUFFIX);
    remove_at(AT_FDCWD, rename(path, gone) == 0 ? gone : path, 8); /* archives: 2 */
  }
}

/* ---- streams that remember their first error ---- */

static ssize_t fd_write(void *cookie, const char *buf, size_t n)
{
  output_fd *w = cookie;
  size_t done = 0;
  while (done < n) {
    ssize_t k = write(w->fd, buf + done, n - done);
    if (k < 0 && errno == EINTR)
      continue;
    if (k <= 0) {
      int err = k < 0 ? errno : EIO;
      if (!w->error)
        w->error = err;
      if (err == EPIPE && broken_pipe_hook)
        broken_pipe_hook();
      errno = err;
      return -1;
    }
    done += (size_t)k;
  }
  return (ssize_t)n;
}

static int fd_close(void *cookie)
{
  output_fd *w = cookie;
  if (w->keep_fd || w->fd < 0)
    return 0;
  int fd = w->fd;
  w->fd = -1;
  if (close(fd) != 0 && errno != EINTR) { /* after EINTR Linux has closed it */
    if (!w->error)
      w->error = errno;
    return -1;
  }
  return 0;
}

FILE *output_fd_stream(output_fd *w)
{
  FILE *f = fopencookie(w, "w", (cookie_io_functions_t){ .write = fd_write, .close = fd_close });
  if (f)
    setvbuf(f, NULL, _IOFBF, 1 << 16);
  return f;
}

/* ---- paths ---- */

static gboolean set_errno_error(GError **error, int code, const char *path, int err,
                                const char *expected)
{
  g_set_error(error, OUTPUT_ERROR, code, "%s: %s, expected %s", path, g_strerror(err), expected);
  return FALSE;
}

/* The descriptor `path` names when it is one this process holds: `-`
 * (standard output), /dev/stdout, /dev/fd/N, /proc/self/fd/N; else -1. */
static int descriptor_of(const char *path)
{
  if (strcmp(path, "-") == 0)
    return 1;
  char *base = g_path_get_basename(path);
  guint64 n = 0;
  gboolean number = g_ascii_string_to_unsigned(base, 10, 0, INT_MAX, &n, NULL);
  g_free(base);
  if (!number)
    return -1;
  char *dir = g_path_get_dirname(path);
  char *real = realpath(dir, NULL);
  char *own = g_strdup_printf("/proc/%d/fd", (int)getpid());
  gboolean ours = real && strcmp(real, own) == 0;
  free(real);
  g_free(own);
  g_free(dir);
  return ours ? (int)n : -1;
}

/* Follows symbolic links (at most 40, like the kernel) to the path that is
 * really written; the last one may not exist yet. A descriptor on the way
 * (/dev/stdout is a link to /proc/self/fd/1) ends the walk: *fd is set. */
static char *resolve_target(const char *path, int *fd, GError **error)
{
  char *cur = g_strdup(path);
  for (int depth = 0;; depth++) {
    struct stat st;
    if ((*fd = descriptor_of(cur)) >= 0 || lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode))
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

/* ---- who made a temporary ---- */

/* 12 hex digits of a digest of the host name, the boot and the PID
 * namespace: two processes with the same tag see the same PIDs. "x" when
 * one of them is unknown (then no temporary is provably stale). */
static const char *machine_tag(void)
{
  static char *tag;
  if (g_once_init_enter(&tag)) {
    char *boot = NULL, *ns = g_file_read_link("/proc/self/ns/pid", NULL);
    char host[256] = "";
    char *made = g_strdup("x");
    if (gethostname(host, sizeof host - 1) == 0 && ns &&
        g_file_get_contents("/proc/sys/kernel/random/boot_id", &boot, NULL, NULL)) {
      char *id = g_strjoin("\n", host, g_strstrip(boot), ns, NULL);
      char *sum = g_compute_checksum_for_string(G_CHECKSUM_SHA256, id, -1);
      g_free(made);
      made = g_strndup(sum, 12);
      g_free(sum);
      g_free(id);
    }
    g_free(boot);
    g_free(ns);
    g_once_init_leave(&tag, made);
  }
  return tag;
}

/* The temporaries of `target` start with ".NAME.tmp-" (NAME cut so that
 * the whole name stays below the 255 bytes a file name may have). */
static char *temp_prefix(const char *target)
{
  char *base = g_path_get_basename(target);
  char *prefix = g_strdup_printf(".%.200s.tmp-", base);
  g_free(base);
  return prefix;
}

/* TRUE when temporary `name` (after its prefix: "TAG-PID-...") was made on
 * this machine by a process that no longer exists. */
static gboolean creator_gone(const char *rest)
{
  const char *tag = machine_tag();
  size_t n = strlen(tag);
  if (strcmp(tag, "x") == 0 || strncmp(rest, tag, n) != 0 || rest[n] != '-')
    return FALSE;
  char *end = NULL;
  errno = 0;
  unsigned long long pid = strtoull(rest + n + 1, &end, 10);
  if (errno || end == rest + n + 1 || *end != '-' || pid == 0 || pid > INT_MAX ||
      (pid_t)pid == getpid())
    return FALSE;
  return kill((pid_t)pid, 0) != 0 && errno == ESRCH;
}

/* Removes the temporaries of `target` whose creators are gone (a run
 * killed by SIGKILL or a crash of the machine's power left them). */
static void remove_stale(const char *target)
{
  char *dir = g_path_get_dirname(target), *prefix = temp_prefix(target);
  GDir *d = g_dir_open(dir, 0, NULL);
  const char *name;
  size_t n = strlen(prefix);
  while (d && (name = g_dir_read_name(d)))
    if (strncmp(name, prefix, n) == 0 && creator_gone(name + n)) {
      char *stale = g_build_filename(dir, name, NULL);
      output_remove_tree(stale);
      g_free(stale);
    }
  if (d)
    g_dir_close(d);
  g_free(prefix);
  g_free(dir);
}

void output_remove_stale_in(const char *dir)
{
  GDir *d = g_dir_open(dir, 0, NULL);
  const char *name;
  while (d && (name = g_dir_read_name(d))) {
    const char *rest = g_strrstr(name, ".tmp-");
    if (name[0] == '.' && rest && rest > name && creator_gone(rest + strlen(".tmp-"))) {
      char *stale = g_build_filename(dir, name, NULL);
      output_remove_tree(stale);
      g_free(stale);
    }
  }
  if (d)
    g_dir_close(d);
}

/* Creates the temporary file (or directory) of o beside its target,
 * registered before it exists so that output_remove_all_now() finds it;
 * the descriptor of a file, 0 for a directory, -1 with errno. */
static int create_temp(output *o, gboolean dir)
{
  static const char chars[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  char *folder = g_path_get_dirname(o->target), *prefix = temp_prefix(o->target);
  int fd = -1, err = EEXIST;
  for (int attempt = 0; attempt < 100 && fd < 0 && err == EEXIST; attempt++) {
    char rnd[7];
    for (int i = 0; i < 6; i++)
      rnd[i] = chars[g_random_int_range(0, (gint32)sizeof chars - 1)];
    rnd[6] = '\0';
    g_free(o->tmp);
    o->tmp = g_strdup_printf("%s/%s%s-%d-%s", folder, prefix, machine_tag(), (int)getpid(), rnd);
    creation_begin();
    o->slot = slot_add(o->tmp, dir ? SLOT_DIR : SLOT_FILE);
    if (o->slot < 0)
      err = strlen(o->tmp) >= PATH_MAX ? ENAMETOOLONG : EMFILE;
    else if (dir)
      fd = g_mkdir(o->tmp, 0700) == 0 ? 0 : -1;
    else
      fd = g_open(o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (o->slot >= 0 && fd < 0) {
      err = errno;
      slot_remove(o->slot);
      o->slot = -1;
    }
    creation_end();
  }
  g_free(folder);
  g_free(prefix);
  if (fd < 0) {
    g_clear_pointer(&o->tmp, g_free);
    errno = err;
  }
  return fd;
}

/* ---- opening ---- */

static void output_free(output *o)
{
  g_free(o->path);
  g_free(o->target);
  g_free(o->tmp);
  g_free(o);
}

/* An output at `path`, its symbolic links resolved (*fd: the descriptor
 * it names, or -1). */
static output *output_new(const char *path, const progress *prog, int *fd, GError **error)
{
  char *target = resolve_target(path, fd, error);
  if (!target)
    return NULL;
  output *o = g_new0(output, 1);
  o->path = g_strdup(path);
  o->target = target;
  o->prog = prog;
  o->slot = -1;
  o->w.fd = -1;
  return o;
}

/* A direct output over descriptor fd (owned from here on). */
static output *open_stream(output *o, int fd, GError **error)
{
  o->kind = OUT_DIRECT;
  o->w.fd = fd;
  if (!(o->f = output_fd_stream(&o->w))) {
    set_errno_error(error, OUTPUT_ERROR_PATH, o->path, errno, "a writable output");
    close(fd);
    output_free(o);
    return NULL;
  }
  return o;
}

/* Descriptor n of this process (standard output for `-`), written in place:
 * its offset and append mode are the shell's. */
static output *open_descriptor(output *o, int n, GError **error)
{
  int flags = fcntl(n, F_GETFL);
  if (flags < 0 || (flags & O_ACCMODE) == O_RDONLY) {
    g_set_error(error, OUTPUT_ERROR, OUTPUT_ERROR_PATH, "%s: %s, expected descriptor %d open "
                "for writing", o->path, flags < 0 ? g_strerror(errno) : "open for reading only",
                n);
    output_free(o);
    return NULL;
  }
  fflush(n == 1 ? stdout : n == 2 ? stderr : NULL); /* what was printed comes first */
  int fd = fcntl(n, F_DUPFD_CLOEXEC, 3);
  if (fd < 0) {
    set_errno_error(error, OUTPUT_ERROR_PATH, o->path, errno, "a writable output");
    output_free(o);
    return NULL;
  }
  return open_stream(o, fd, error);
}

output *output_open(const char *path, const progress *prog, GError **error)
{
  int n;
  output *o = output_new(path, prog, &n, error);
  if (!o)
    return NULL;
  if (n >= 0)
    return open_descriptor(o, n, error);
  struct stat st;
  gboolean exists = stat(o->target, &st) == 0;
  if (exists && S_ISDIR(st.st_mode)) {
    g_set_error(error, OUTPUT_ERROR, OUTPUT_ERROR_PATH,
                "%s: is a directory, expected a file path", path);
    goto fail;
  }
  if (exists && !S_ISREG(st.st_mode)) {
    /* a device or a FIFO: nothing to replace, write it directly */
    int fd = g_open(o->target, O_WRONLY | O_CLOEXEC | O_NOCTTY, 0);
    if (fd < 0) {
      set_errno_error(error, OUTPUT_ERROR_PATH, path, errno, "a writable file, device or FIFO");
      goto fail;
    }
    return open_stream(o, fd, error);
  }
  if (exists && (!(st.st_mode & 0222) || access(o->target, W_OK) != 0)) {
    /* what cp or a shell's > refuse; root may write anyway, but a file
     * nobody may write was made read-only on purpose */
    g_set_error(error, OUTPUT_ERROR, OUTPUT_ERROR_PATH, "%s: read-only (mode %04o), expected a "
                "writable file (make it writable or remove it to replace it)", path,
                (unsigned)(st.st_mode & 07777));
    goto fail;
  }
  o->kind = OUT_FILE;
  o->mode = exists ? (st.st_mode & 07777) : default_mode(0666);
  remove_stale(o->target);
  int fd = create_temp(o, FALSE);
  if (fd < 0) {
    set_errno_error(error, OUTPUT_ERROR_PATH, path, errno, "a path in a writable folder");
    goto fail;
  }
  live_add(o);
  o->w.fd = fd;
  if (!(o->f = output_fd_stream(&o->w))) {
    set_errno_error(error, OUTPUT_ERROR_WRITE, path, errno, "a writable path");
    close(fd);
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
  int n;
  output *o = output_new(path, prog, &n, error);
  if (!o)
    return NULL;
  o->kind = OUT_DIR;
  struct stat st;
  if (n >= 0) {
    g_set_error(error, OUTPUT_ERROR, OUTPUT_ERROR_PATH,
                "%s: a file descriptor, expected a path for a new output directory", path);
    output_free(o);
    return NULL;
  }
  if (stat(o->target, &st) == 0) {
    GDir *d = S_ISDIR(st.st_mode) ? g_dir_open(o->target, 0, NULL) : NULL;
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
  char *parent = g_path_get_dirname(o->target);
  int made = g_mkdir_with_parents(parent, 0777);
  int err = errno;
  g_free(parent);
  if (made == 0)
    remove_stale(o->target);
  if (made != 0 || create_temp(o, TRUE) < 0) {
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

gboolean output_stopped(const output *o)
{
  return progress_stopped(o->prog);
}

/* ---- ending ---- */

void output_abort(output *o)
{
  if (!o)
    return;
  g_mutex_lock(&live_lock);
  if (held)
    g_ptr_array_remove(held, o);
  g_mutex_unlock(&live_lock);
  if (o->f)
    fclose(o->f);
  o->f = NULL;
  if (o->tmp) {
    output_remove_tree(o->tmp);
    live_remove(o);
  }
  output_free(o);
}

void output_start_writeback(output *o)
{
  if (o->kind == OUT_FILE && o->f && fflush(o->f) == 0)
    sync_file_range(o->w.fd, 0, 0, SYNC_FILE_RANGE_WRITE);
}

/* Flushes, syncs and closes the stream of o: 0 or the errno of the first
 * failure. A direct output is synced only when it is a regular file (a
 * shell's > or >> through /dev/stdout). */
static int finish_stream(output *o)
{
  int err = 0;
  struct stat st;
  if (fflush(o->f) != 0 || ferror(o->f))
    err = o->w.error ? o->w.error : EIO;
  else if (o->kind == OUT_FILE && (fchmod(o->w.fd, o->mode) != 0 || fsync(o->w.fd) != 0))
    err = errno;
  else if (o->kind == OUT_DIRECT && fstat(o->w.fd, &st) == 0 && S_ISREG(st.st_mode) &&
           fsync(o->w.fd) != 0 && errno != EINVAL)
    err = errno;
  if (fclose(o->f) != 0 && !err)
    err = o->w.error ? o->w.error : EIO;
  o->f = NULL;
  return err;
}

/* A directory output gets its permissions. Its files are not forced to
 * disk: an fsync() per file is a disk flush per file (3,002 for an OTF2
 * archive of 3,000 ranks, longer than writing it), a syncfs() flushes
 * everything else on the file system too; their writers (libotf2,
 * output_write_all) reported every failed write or close already. */
static int finish_dir(output *o)
{
  return g_chmod(o->tmp, (int)o->mode) != 0 ? errno : 0;
}

/* After the rename: o is no temporary any more, the rename itself
 * reaches the disk with the folder; frees o. */
static void published(output *o)
{
  if (publish_hook && o->kind != OUT_DIRECT)
    publish_hook(o->path, publish_user);
  if (o->tmp) {
    live_remove(o);
    char *dir = g_path_get_dirname(o->target);
    int dfd = g_open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
    if (dfd >= 0) {
      fsync(dfd);
      close(dfd);
    }
    g_free(dir);
  }
  output_free(o);
}

gboolean output_commit(output *o, GError **error)
{
  if (!progress_check(o->prog, error)) {
    output_abort(o);
    return FALSE;
  }
  int err = o->f ? finish_stream(o) : o->kind == OUT_DIR ? finish_dir(o) : 0;
  if (!err && o->tmp && holding) { /* renamed by output_group_commit() */
    g_mutex_lock(&live_lock);
    if (!held)
      held = g_ptr_array_new();
    g_ptr_array_add(held, o);
    g_mutex_unlock(&live_lock);
    return TRUE;
  }
  if (!err && o->tmp && g_rename(o->tmp, o->target) != 0)
    err = errno;
  if (err) {
    set_errno_error(error, OUTPUT_ERROR_WRITE, o->path, err, "a writable path with free space");
    output_abort(o);
    return FALSE;
  }
  published(o);
  return TRUE;
}

void output_set_publish_hook(void (*hook)(const char *path, void *user), void *user)
{
  publish_hook = hook;
  publish_user = user;
}

void output_group_begin(void)
{
  holding = TRUE;
}

/* The outputs held, taken out of `held` (the caller owns the array). */
static GPtrArray *take_held(void)
{
  g_mutex_lock(&live_lock);
  GPtrArray *a = held ? held : g_ptr_array_new();
  held = NULL;
  holding = FALSE;
  g_mutex_unlock(&live_lock);
  return a;
}

void output_group_abort(void)
{
  GPtrArray *a = take_held();
  for (guint i = 0; i < a->len; i++)
    output_abort(g_ptr_array_index(a, i));
  g_ptr_array_free(a, TRUE);
}

gboolean output_group_commit(GError **error)
{
  GPtrArray *a = take_held();
  gboolean ok = TRUE;
  for (guint i = 0; i < a->len && ok; i++)
    ok = progress_check(((output *)g_ptr_array_index(a, i))->prog, error);
  /* publishing is set before closing is read, and output_remove_all_now()
   * sets closing before it reads publishing: one of the two sees the other */
  __atomic_store_n(&publishing, 1, __ATOMIC_SEQ_CST);
  if (ok && __atomic_load_n(&closing, __ATOMIC_SEQ_CST)) {
    g_set_error(error, STATUS_ERROR, STATUS_ERROR_INTERRUPTED, "interrupted");
    ok = FALSE;
  }
  guint renamed = 0;
  for (; ok && renamed < a->len; renamed++) {
    output *o = g_ptr_array_index(a, renamed);
    if (g_rename(o->tmp, o->target) != 0) {
      set_errno_error(error, OUTPUT_ERROR_WRITE, o->path, errno,
                      "a writable path with free space");
      ok = FALSE;
      break;
    }
    slot_remove(o->slot);
    o->slot = -1;
  }
  __atomic_store_n(&publishing, 0, __ATOMIC_SEQ_CST);
  for (guint i = 0; i < a->len; i++) {
    output *o = g_ptr_array_index(a, i);
    if (i < renamed)
      published(o);
    else
      output_abort(o);
  }
  g_ptr_array_free(a, TRUE);
  return ok;
}

gboolean output_write_all(const char *path, const char *data, gsize len, const progress *prog,
                          GError **error)
{
  output *o = output_open(path, prog, error);
  if (!o)
    return FALSE;
  if (len && fwrite(data, 1, len, o->f) != len) {
    set_errno_error(error, OUTPUT_ERROR_WRITE, path, o->w.error ? o->w.error : EIO,
                    "a writable path with free space");
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

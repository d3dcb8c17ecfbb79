/* store.c - the cell store of a study's output folder: the logs of
 * finished cells (one per process, append-only, every record with its
 * checksum), reading them back (the newest intact record of a key wins,
 * checked against the cell it is for by the table that builds rows,
 * study/cell-row.h, and relabelled), the folder's lock and the temporaries a
 * killed run left there. The format is in study/study.h. */
#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "study/study-private.h"
#include "study/cell-row.h"
#include "util/budget.h"
#include "util/output.h"

#define SUM_HEAD ",\"sum\":\""
#define SUM_LEN 64
/* ,"sum":"<64 hex>"} */
#define SUM_TAIL_LEN (sizeof SUM_HEAD - 1 + SUM_LEN + 2)
#define KEY_HEAD "{\"key\":\""
#define LOCK_NAME "study.lock"

/* The mode of new files: 0666 without the process's umask. */
static mode_t study_file_mode(void)
{
  static gsize once;
  static mode_t mode;
  if (g_once_init_enter(&once)) {
    mode_t m = umask(022); /* umask() can only be read by setting it */
    umask(m);
    mode = 0666 & ~m;
    g_once_init_leave(&once, 1);
  }
  return mode;
}

/* SHA-256 of `len` bytes of `body` and of the closing brace, in hex. */
static void record_sum(const char *body, gsize len, char out[65])
{
  GChecksum *sum = g_checksum_new(G_CHECKSUM_SHA256);
  g_checksum_update(sum, (const guchar *)body, (gssize)len);
  g_checksum_update(sum, (const guchar *)"}", 1);
  study_digest(sum, out);
  g_checksum_free(sum);
}

char *study_record(const study_cell *c)
{
  JsonObject *o = json_object_new();
  json_object_set_string_member(o, "key", c->key);
  json_object_set_member(o, "row", row_to_record(c->row));
  JsonNode *root = json_node_init_object(json_node_alloc(), o);
  json_object_unref(o);
  g_autofree char *body = json_text(root, FALSE);
  json_node_unref(root);
  gsize open = strlen(body) - 1; /* without the closing brace */
  char sum[65];
  record_sum(body, open, sum);
  return g_strdup_printf("%.*s" SUM_HEAD "%s\"}\n", (int)open, body, sum);
}

/* ---- reading ---- */

/* What reading the logs collects: the cells wanted (key -> first cell of
 * that key) and the rows found (key -> row, newest intact record). */
typedef struct store_reader {
  study *s;
  GHashTable *want;
  GHashTable *rows;
  JsonParser *jp;
} store_reader;

/* The key a line names, when it starts as a record does ({"key":"<64
 * hex>"), into key[65]; it is not trusted before the checksum is. */
static gboolean line_key(const char *line, gsize len, char key[65])
{
  gsize head = sizeof KEY_HEAD - 1;
  if (len < head + 65 || memcmp(line, KEY_HEAD, head) != 0 || line[head + 64] != '"')
    return FALSE;
  for (int i = 0; i < 64; i++)
    if (!g_ascii_isxdigit(line[head + i]))
      return FALSE;
  memcpy(key, line + head, 64);
  key[64] = '\0';
  return TRUE;
}

/* Does the line end in its own checksum? */
static const char *check_sum(const char *line, gsize len)
{
  if (len < SUM_TAIL_LEN + 2 || memcmp(line + len - 2, "\"}", 2) != 0 ||
      memcmp(line + len - SUM_TAIL_LEN, SUM_HEAD, sizeof SUM_HEAD - 1) != 0)
    return "no checksum at its end";
  char sum[65];
  record_sum(line, len - SUM_TAIL_LEN, sum);
  if (memcmp(sum, line + len - SUM_LEN - 2, SUM_LEN) != 0)
    return "its checksum does not match its content";
  return NULL;
}

/* One line of a log (without its newline): its row goes to r->rows when
 * it is an intact record of a wanted cell. Returns why it is damaged, or
 * NULL (also for records of other cells: another version of the study). */
static const char *read_record(store_reader *r, const char *line, gsize len)
{
  char key[65];
  gboolean keyed = line_key(line, len, key);
  const study_cell *c = keyed ? g_hash_table_lookup(r->want, key) : NULL;
  gboolean signed_ = len >= SUM_TAIL_LEN &&
                     memcmp(line + len - SUM_TAIL_LEN, SUM_HEAD, sizeof SUM_HEAD - 1) == 0;
  if (keyed && !c && !signed_)
    return NULL; /* an unknown key of an older format: nothing of this study */
  const char *why = memchr(line, '\0', len) ? "a NUL byte in it" : check_sum(line, len);
  if (!why && !c)
    return NULL;
  if (!why) {
    g_autofree char *body = g_strndup(line, len - SUM_TAIL_LEN + 1);
    body[len - SUM_TAIL_LEN] = '}';
    /* a record nests 3 deep; json-glib recurses once per level */
    JsonNode *root = budget_check_nesting("", body, 8, "", NULL) &&
                     json_parser_load_from_data(r->jp, body, -1, NULL)
                         ? json_parser_get_root(r->jp) : NULL;
    JsonObject *o = root && JSON_NODE_HOLDS_OBJECT(root) ? json_node_get_object(root) : NULL;
    result_row *row =
        o && json_object_get_size(o) == 2 && json_object_has_member(o, "row") &&
        json_object_has_member(o, "key") &&
        json_node_get_value_type(json_object_get_member(o, "key")) == G_TYPE_STRING &&
        strcmp(json_object_get_string_member(o, "key"), key) == 0
            ? row_from_record(json_object_get_member(o, "row"), NULL) : NULL;
    why = !row ? "not a cell record" : study_row_check(study_cols, study_ncols, r->s, c, row);
    if (!why) {
      g_hash_table_replace(r->rows, g_strdup(key), row);
      return NULL;
    }
    row_free(row);
  }
  if (c) /* an older record of its key is no better: the cell runs again */
    g_hash_table_remove(r->rows, key);
  return why;
}

static const char *file_kind(mode_t m)
{
  return S_ISDIR(m) ? "a folder" : S_ISFIFO(m) ? "a FIFO" : S_ISCHR(m) ? "a character device"
         : S_ISBLK(m) ? "a block device" : S_ISSOCK(m) ? "a socket" : "not a regular file";
}

/* The bytes of a log: a regular file (a FIFO or a device is refused
 * before it is read) of at most a quarter of the memory budget. */
static char *read_log_text(const char *path, gsize *len, GError **error)
{
  int fd = g_open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0);
  struct stat st;
  if (fd < 0 || fstat(fd, &st) != 0) {
    g_set_error(error, STUDY_ERROR, STUDY_ERROR_STORE, "%s: cannot read: %s", path,
                g_strerror(errno));
    if (fd >= 0)
      close(fd);
    return NULL;
  }
  uint64_t max = budget_memory() / 4;
  const char *bad = !S_ISREG(st.st_mode) ? file_kind(st.st_mode) : NULL;
  GString *text = NULL;
  if (!bad && (uint64_t)st.st_size <= max) {
    text = g_string_sized_new((gsize)st.st_size + 1);
    char buf[65536];
    for (ssize_t n = 1; n != 0 && text->len <= max;) { /* a writer may make it grow */
      n = read(fd, buf, sizeof buf);
      if (n < 0 && errno != EINTR) {
        g_set_error(error, STUDY_ERROR, STUDY_ERROR_STORE, "%s: cannot read: %s", path,
                    g_strerror(errno));
        g_string_free(text, TRUE);
        close(fd);
        return NULL;
      }
      if (n > 0)
        g_string_append_len(text, buf, n);
    }
  }
  close(fd);
  if (bad)
    g_set_error(error, STUDY_ERROR, STUDY_ERROR_STORE,
                "%s: %s, expected a cells log (a regular file written by mapsim study); "
                "remove it", path, bad);
  else if (!text || text->len > max)
    g_set_error(error, STUDY_ERROR, STUDY_ERROR_STORE,
                "%s: more than %" G_GUINT64_FORMAT " MiB, expected a cells log of at most a "
                "quarter of the memory budget (--max-memory)", path, max >> 20);
  if (bad || !text || text->len > max) {
    if (text)
      g_string_free(text, TRUE);
    return NULL;
  }
  *len = text->len;
  return g_string_free(text, FALSE);
}

/* Every line of a log; one note for its damaged records. A last line
 * without its newline is a record cut short while it was being written
 * (a crash, or a writer still at work): it is ignored without a note. */
static gboolean read_log(store_reader *r, const char *path, GError **error)
{
  gsize len;
  g_autofree char *text = read_log_text(path, &len, error);
  if (!text)
    return FALSE;
  int damaged = 0, first_line = 0, no = 0;
  const char *first_why = NULL;
  for (const char *line = text, *nl; (nl = memchr(line, '\n', len - (gsize)(line - text)));
       line = nl + 1) {
    no++;
    const char *why = read_record(r, line, (gsize)(nl - line));
    if (why && damaged++ == 0) {
      first_line = no;
      first_why = why;
    }
  }
  if (damaged == 1)
    g_ptr_array_add(r->s->notes, g_strdup_printf("%s:%d: a damaged cell record (%s), ignored: "
                                                 "its cell runs again", path, first_line,
                                                 first_why));
  else if (damaged)
    g_ptr_array_add(r->s->notes, g_strdup_printf("%s:%d: %d damaged cell records, the first "
                                                 "one: %s; ignored: their cells run again",
                                                 path, first_line, damaged, first_why));
  return TRUE;
}

/* The generation of a log name, cells-G<generation>-HOST-PID.jsonl; 0 for
 * other names. */
static guint64 log_generation(const char *name)
{
  if (!g_str_has_prefix(name, "cells-G"))
    return 0;
  char *end;
  guint64 g = g_ascii_strtoull(name + 7, &end, 10);
  return *end == '-' ? g : 0;
}

static gint by_generation(gconstpointer a, gconstpointer b)
{
  const char *x = *(char *const *)a, *y = *(char *const *)b;
  guint64 gx = log_generation(x), gy = log_generation(y);
  return gx != gy ? (gx < gy ? -1 : 1) : strcmp(x, y);
}

/* The logs of STORE/cells, oldest generation first; NULL + error when the
 * folder exists but cannot be read. */
static GPtrArray *list_logs(const char *dir, GError **error)
{
  GPtrArray *logs = g_ptr_array_new_with_free_func(g_free);
  GError *e = NULL;
  GDir *d = g_dir_open(dir, 0, &e);
  if (!d) {
    if (g_error_matches(e, G_FILE_ERROR, G_FILE_ERROR_NOENT)) {
      g_error_free(e);
      return logs;
    }
    g_set_error(error, STUDY_ERROR, STUDY_ERROR_STORE, "%s: cannot read: %s", dir, e->message);
    g_error_free(e);
    g_ptr_array_free(logs, TRUE);
    return NULL;
  }
  const char *name;
  while ((name = g_dir_read_name(d)))
    if (g_str_has_suffix(name, ".jsonl") && name[0] != '.')
      g_ptr_array_add(logs, g_strdup(name));
  g_dir_close(d);
  g_ptr_array_sort(logs, by_generation);
  return logs;
}

GHashTable *study_store_read(study *s, const char *store, GError **error)
{
  g_autofree char *dir = g_build_filename(store, "cells", NULL);
  GPtrArray *logs = list_logs(dir, error);
  if (!logs)
    return NULL;
  if (!s->notes)
    s->notes = g_ptr_array_new_with_free_func(g_free);
  store_reader r = { .s = s, .jp = json_parser_new(),
                     .want = g_hash_table_new(g_str_hash, g_str_equal),
                     .rows = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
                                                   (GDestroyNotify)row_free) };
  for (int i = s->ncells - 1; i >= 0; i--)
    g_hash_table_insert(r.want, s->cells[i].key, &s->cells[i]);
  gboolean ok = TRUE;
  for (guint i = 0; ok && i < logs->len; i++) {
    g_autofree char *path = g_build_filename(dir, g_ptr_array_index(logs, i), NULL);
    ok = read_log(&r, path, error);
  }
  g_object_unref(r.jp);
  g_hash_table_destroy(r.want);
  g_ptr_array_free(logs, TRUE);
  if (!ok)
    g_clear_pointer(&r.rows, g_hash_table_destroy);
  return r.rows;
}

/* ---- writing ---- */

gboolean study_store_make(const char *store, GError **error)
{
  g_autofree char *cells = g_build_filename(store, "cells", NULL);
  if (g_mkdir_with_parents(cells, 0755) != 0) {
    g_set_error(error, STUDY_ERROR, STUDY_ERROR_STORE, "%s: cannot create: %s", cells,
                g_strerror(errno));
    return FALSE;
  }
  return TRUE;
}

int study_store_open_log(const char *store, char **path, GError **error)
{
  g_autofree char *dir = g_build_filename(store, "cells", NULL);
  GPtrArray *logs = list_logs(dir, error);
  if (!logs)
    return -1;
  guint64 gen = logs->len ? log_generation(g_ptr_array_index(logs, logs->len - 1)) : 0;
  g_ptr_array_free(logs, TRUE);
  int fd = -1;
  /* a process of another host (a slice) may take the same generation:
   * the host and pid keep the names apart */
  for (int tries = 0; fd < 0 && tries < 100; tries++) {
    g_free(*path);
    g_autofree char *name = g_strdup_printf("cells-G%08" G_GUINT64_FORMAT "-%s-%d.jsonl",
                                            gen + 1 + (guint64)tries, g_get_host_name(),
                                            (int)getpid());
    *path = g_build_filename(dir, name, NULL);
    fd = open(*path, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, study_file_mode());
    if (fd < 0 && errno != EEXIST)
      break;
  }
  if (fd < 0) {
    g_set_error(error, STUDY_ERROR, STUDY_ERROR_STORE, "%s: cannot create: %s", *path,
                g_strerror(errno));
    return -1;
  }
  int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0) { /* the log's name is on disk before its records */
    fsync(dfd);
    close(dfd);
  }
  return fd;
}

/* ---- the folder's lock ---- */

struct study_lock {
  int fd;
};

/* The byte of the lock file a slice K/N holds alone (byte 0 is the
 * folder's, every run holds it: shared by slices, alone otherwise). */
static off_t slice_byte(const study_slice *sl)
{
  return 1 + (off_t)sl->n * (sl->n - 1) / 2 + (sl->k - 1);
}

/* Takes the locks without waiting: 1; 0 when another process holds one
 * (the pid of a holder into *holder, 0 when unknown); -1 with errno when
 * the file system cannot lock. */
static int try_lock(int fd, const study_slice *slice, pid_t *holder)
{
  struct flock want[2] = {
    { .l_type = slice ? F_RDLCK : F_WRLCK, .l_whence = SEEK_SET, .l_start = 0,
      .l_len = slice ? 1 : 0 },
    { .l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = slice ? slice_byte(slice) : 0,
      .l_len = 1 },
  };
  for (int i = 0; i < (slice ? 2 : 1); i++) {
    struct flock l = want[i];
    if (fcntl(fd, F_SETLK, &l) == 0)
      continue;
    int err = errno;
    l = want[i];
    *holder = fcntl(fd, F_GETLK, &l) == 0 && l.l_type != F_UNLCK ? l.l_pid : 0;
    struct flock none = { .l_type = F_UNLCK, .l_whence = SEEK_SET };
    fcntl(fd, F_SETLK, &none);
    errno = err;
    return err == EACCES || err == EAGAIN ? 0 : -1;
  }
  return 1;
}

/* What a killed run left in the folder: the temporaries of its outputs
 * and figures whose process is gone (util/output.h); those of a live
 * process (a slice beside this one) stay. */
static void remove_stale(const char *dir)
{
  g_autofree char *figures = g_build_filename(dir, "figures", NULL);
  output_remove_stale_in(dir);
  output_remove_stale_in(figures);
}

/* The holder of the lock, as the lock file names it: "PID HOST". */
static char *holder_text(int fd, pid_t pid)
{
  char buf[256] = "";
  ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
  buf[MAX(n, 0)] = '\0';
  char host[200];
  int written_pid;
  if (sscanf(buf, "%d %199s", &written_pid, host) == 2 && (pid <= 0 || written_pid == pid) &&
      strcmp(host, g_get_host_name()) != 0)
    return g_strdup_printf("pid %d on %s", written_pid, host);
  if (pid <= 0 && sscanf(buf, "%d", &written_pid) == 1)
    pid = written_pid;
  return pid > 0 ? g_strdup_printf("pid %d", (int)pid) : g_strdup("pid unknown");
}

study_lock *study_lock_dir(const char *dir, const study_slice *slice, gboolean wait,
                           const progress *prog, GError **error)
{
  g_autofree char *path = g_build_filename(dir, LOCK_NAME, NULL);
  if (g_mkdir_with_parents(dir, 0755) != 0) {
    g_set_error(error, STUDY_ERROR, STUDY_ERROR_STORE, "%s: cannot create: %s", dir,
                g_strerror(errno));
    return NULL;
  }
  int fd = g_open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, study_file_mode());
  if (fd < 0) {
    g_set_error(error, STUDY_ERROR, STUDY_ERROR_STORE, "%s: cannot open: %s", path,
                g_strerror(errno));
    return NULL;
  }
  pid_t holder = 0;
  int got;
  while ((got = try_lock(fd, slice, &holder)) != 1) {
    if (got < 0) {
      g_set_error(error, STUDY_ERROR, STUDY_ERROR_STORE, "%s: cannot lock: %s, expected a "
                  "folder on a file system with fcntl locks", path, g_strerror(errno));
      close(fd);
      return NULL;
    }
    if (!wait) {
      g_autofree char *who = holder_text(fd, holder);
      g_set_error(error, STUDY_ERROR, STUDY_ERROR_BUSY,
                  "%s: in use by another mapsim study (%s, %s)", dir, who, path);
      close(fd);
      return NULL;
    }
    if (!progress_check(prog, error)) {
      close(fd);
      return NULL;
    }
    g_usleep(50000);
  }
  if (!slice) { /* for the message of the next one (slices share the lock) */
    g_autofree char *me = g_strdup_printf("%d %s\n", (int)getpid(), g_get_host_name());
    if (ftruncate(fd, 0) != 0 || pwrite(fd, me, strlen(me), 0) < 0)
      errno = 0; /* only a message depends on it */
  }
  remove_stale(dir);
  study_lock *l = g_new(study_lock, 1);
  l->fd = fd;
  return l;
}

void study_unlock(study_lock *l)
{
  if (!l)
    return;
  close(l->fd); /* releases every lock of this process on the file */
  g_free(l);
}

/* proctest.h - `mapsim` as a real process whose surroundings the test
 * chooses: its standard output a file opened for appending, a pipe, a
 * closed descriptor or /dev/full; real signals sent to it and the time it
 * takes to end; a full file system (a small tmpfs mounted in a private
 * mount namespace of the test's own process, which needs root).
 * Test files define _GNU_SOURCE (unshare) before any include. */
#pragma once

#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testutil.h"

#define EXITED_WITH(st, n) (WIFEXITED(st) && WEXITSTATUS(st) == (n))

/* "exit N" or "signal N" of a wait status, for messages. */
G_GNUC_UNUSED static const char *how(int st)
{
  static char text[32];
  g_snprintf(text, sizeof text, WIFEXITED(st) ? "exit %d" : "signal %d",
             WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
  return text;
}

#define PT_CLOSED (-1) /* standard output closed */
#define PT_PIPE (-2)   /* standard output a pipe the test reads */

typedef struct pt_proc {
  pid_t pid;
  int out_fd; /* read end of the stdout pipe, or -1 */
  int err_fd; /* read end of the stderr pipe */
} pt_proc;

/* Starts `mapsim ARGS...` with standard output on `out` (a descriptor,
 * PT_CLOSED or PT_PIPE) and standard error into a pipe. */
static inline pt_proc pt_start(const char *const *args, int out)
{
  const char *exe = g_getenv("MAPSIM");
  cr_assert_not_null(exe, "MAPSIM not set (run through meson test)");
  int n = 0;
  while (args[n])
    n++;
  char **argv = g_new0(char *, n + 2);
  argv[0] = (char *)exe;
  for (int i = 0; i < n; i++)
    argv[i + 1] = (char *)args[i];
  int outp[2] = { -1, -1 }, errp[2];
  cr_assert_eq(pipe(errp), 0);
  if (out == PT_PIPE)
    cr_assert_eq(pipe(outp), 0);
  pt_proc p = { fork(), outp[0], errp[0] };
  cr_assert_geq(p.pid, 0);
  if (p.pid == 0) {
    dup2(errp[1], 2);
    if (out == PT_PIPE)
      dup2(outp[1], 1);
    else if (out >= 0)
      dup2(out, 1);
    else
      close(1);
    for (int fd = 3; fd < 256; fd++)
      close(fd);
    execv(exe, argv);
    _exit(127);
  }
  g_free(argv);
  close(errp[1]);
  if (out == PT_PIPE)
    close(outp[1]);
  return p;
}

/* Reads what is left on the pipes of p (into *out and *err when given,
 * caller frees) and waits for its end; the raw wait status. */
static inline int pt_wait(pt_proc *p, char **out, char **err)
{
  GString *o = g_string_new(NULL), *e = g_string_new(NULL);
  struct pollfd fds[2] = { { p->out_fd, POLLIN, 0 }, { p->err_fd, POLLIN, 0 } };
  while (fds[0].fd >= 0 || fds[1].fd >= 0) {
    if (poll(fds, 2, -1) < 0 && errno != EINTR)
      break;
    for (int i = 0; i < 2; i++) {
      if (fds[i].fd < 0 || !fds[i].revents)
        continue;
      char buf[65536];
      ssize_t n = read(fds[i].fd, buf, sizeof buf);
      if (n > 0) {
        g_string_append_len(i ? e : o, buf, n);
      } else if (n == 0 || errno != EINTR) {
        close(fds[i].fd);
        fds[i].fd = -1;
      }
    }
  }
  p->out_fd = p->err_fd = -1;
  int status = 0;
  cr_assert_eq(waitpid(p->pid, &status, 0), p->pid);
  if (out)
    *out = g_string_free(o, FALSE);
  else
    g_string_free(o, TRUE);
  if (err)
    *err = g_string_free(e, FALSE);
  else
    g_string_free(e, TRUE);
  return status;
}

/* Runs `mapsim ARGS...` with standard output on `out`; the raw wait
 * status, its standard output (PT_PIPE) and error. */
static inline int pt_run(const char *const *args, int out, char **text, char **err)
{
  pt_proc p = pt_start(args, out);
  return pt_wait(&p, text, err);
}

#define PT_ARGS(...) ((const char *const[]){ __VA_ARGS__, NULL })

/* Sends `sig` to p (a second time after `again_ms` >= 0) and waits for its
 * end, at most `limit_ms`, then kills it; the milliseconds from the signal
 * to the end (limit_ms when it had to be killed), its wait status in
 * *status. Standard error must be read later (pt_wait's pipes stay open). */
static inline int pt_signal_and_time(pt_proc *p, int sig, int again_ms, int limit_ms,
                                     int *status)
{
  gint64 start = g_get_monotonic_time();
  kill(p->pid, sig);
  gboolean again = again_ms >= 0;
  for (;;) {
    int ms = (int)((g_get_monotonic_time() - start) / 1000);
    if (waitpid(p->pid, status, WNOHANG) == p->pid)
      return ms;
    if (again && ms >= again_ms) {
      kill(p->pid, sig);
      again = FALSE;
    }
    if (ms >= limit_ms) {
      kill(p->pid, SIGKILL);
      waitpid(p->pid, status, 0);
      return limit_ms;
    }
    g_usleep(1000);
  }
}

/* Closes the pipes of a process that pt_signal_and_time ended, keeping
 * its standard error in *err (caller frees). */
static inline void pt_collect(pt_proc *p, char **err)
{
  GString *e = g_string_new(NULL);
  char buf[4096];
  ssize_t n;
  while ((n = read(p->err_fd, buf, sizeof buf)) > 0)
    g_string_append_len(e, buf, n);
  close(p->err_fd);
  if (p->out_fd >= 0)
    close(p->out_fd);
  p->out_fd = p->err_fd = -1;
  *err = g_string_free(e, FALSE);
}

/* TRUE once an entry of `dir` starts with `prefix`. */
static inline gboolean pt_has_entry(const char *dir, const char *prefix)
{
  GDir *d = g_dir_open(dir, 0, NULL);
  const char *n;
  gboolean seen = FALSE;
  while (d && !seen && (n = g_dir_read_name(d)))
    seen = g_str_has_prefix(n, prefix);
  if (d)
    g_dir_close(d);
  return seen;
}

/* Waits (at most 60 s) until an entry of `dir` starts with `prefix` or p
 * ended (then FALSE, its wait status in *status). */
static inline gboolean pt_wait_for_entry(pt_proc *p, const char *dir, const char *prefix,
                                         int *status)
{
  for (int i = 0; i < 60000; i++) {
    if (pt_has_entry(dir, prefix))
      return TRUE;
    if (waitpid(p->pid, status, WNOHANG) == p->pid)
      return FALSE;
    g_usleep(1000);
  }
  cr_assert_fail("%s: no %s* appeared in 60 s", dir, prefix);
  return FALSE;
}

/* Asserts that nothing below `dir` is a temporary of util/output.h
 * (".NAME.tmp-..."). */
static inline void pt_assert_no_temporaries(const char *dir)
{
  GDir *d = g_dir_open(dir, 0, NULL);
  const char *n;
  while (d && (n = g_dir_read_name(d))) {
    cr_assert(!strstr(n, ".tmp-"), "%s: temporary %s left behind", dir, n);
    g_autofree char *child = g_build_filename(dir, n, NULL);
    if (g_file_test(child, G_FILE_TEST_IS_DIR) && !g_file_test(child, G_FILE_TEST_IS_SYMLINK))
      pt_assert_no_temporaries(child);
  }
  if (d)
    g_dir_close(d);
}

/* Number of entries of `dir` (0 when it does not exist). */
static inline int pt_entries(const char *dir)
{
  GDir *d = g_dir_open(dir, 0, NULL);
  int n = 0;
  while (d && g_dir_read_name(d))
    n++;
  if (d)
    g_dir_close(d);
  return n;
}

/* Moves this test's process into a mount namespace of its own (mounts
 * made here are seen by it and its children only) or skips the test with
 * one line: a full file system needs root. */
static inline void pt_private_mounts(void)
{
  if (geteuid() != 0)
    cr_skip_test("full file system: needs root for a private mount namespace (unshare -m)");
  if (unshare(CLONE_NEWNS) != 0 || mount("none", "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0)
    cr_skip_test("full file system: no private mount namespace (unshare -m): %s",
                 g_strerror(errno));
}

/* Mounts a tmpfs of `bytes` (rounded up to pages) on directory `dir`. */
static inline void pt_mount_tmpfs(const char *dir, size_t bytes)
{
  g_autofree char *opts = g_strdup_printf("size=%zu,mode=0777", bytes);
  cr_assert_eq(mount("tmpfs", dir, "tmpfs", 0, opts), 0, "mount tmpfs %s on %s: %s", opts, dir,
               g_strerror(errno));
}

static inline void pt_umount(const char *dir)
{
  cr_assert_eq(umount(dir), 0, "umount %s: %s", dir, g_strerror(errno));
}

/* process.c - the process around a subcommand: its standard streams, its
 * signals, the thread it runs on, the progress line and the messages that
 * end it.
 *
 * A subcommand runs on a thread of its own; the main thread waits for it
 * or for a stop. SIGINT, SIGTERM and SIGHUP set the stop flag that long
 * work polls (util/progress.h), and the subcommand removes its temporaries
 * and returns 130. If it has not returned STOP_GRACE_US later - it is
 * inside a library call nothing can stop, Scotch's mapping, libotf2, cairo
 * - the main thread removes every temporary file and folder itself
 * (output_remove_all_now) and exits 130 without waiting for it; a second
 * signal does that at once. A reader that closed its pipe (`mapsim
 * strategies | head -1`) ends the process there, quietly, with 141 = 128 +
 * SIGPIPE: the status a shell shows for `seq`, `cat` or `yes` in the same
 * place, so `set -o pipefail` scripts treat mapsim like them; temporaries
 * are removed first, which SIGPIPE's default action would not do.
 *
 * Standard output is a stream that remembers why a write failed: a full
 * disk, /dev/full or a closed descriptor end in exit status 2 with
 * "mapsim: standard output: REASON" (descriptors 0-2 that were closed at
 * start are held open on /dev/null for reading, so that no file opened
 * later takes their place and every write to them fails).
 */
#define _GNU_SOURCE /* assigning stdout */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "cli/cli.h"
#include "util/output.h"
#include "util/status.h"

#define STOP_GRACE_US 400000 /* an orderly stop may take this long */
#define POLL_US 20000        /* how often the main thread looks at the stop flag */

static volatile sig_atomic_t stop_requested;

/* Ends the process from any thread or signal handler: temporaries removed,
 * the message said, nothing else run. Other threads go on until _exit():
 * what they would still say (a write into a temporary that just went) is
 * sent to /dev/null. */
static void end_now(int status, const char *message)
{
  int err = dup(STDERR_FILENO), null = open("/dev/null", O_WRONLY);
  if (null >= 0)
    dup2(null, STDERR_FILENO);
  output_remove_all_now();
  if (message && err >= 0) {
    ssize_t ignored = write(err, message, strlen(message));
    (void)ignored;
  }
  _exit(status);
}

/* ---- messages ---- */

char *cli_visible(const char *text)
{
  GString *s = g_string_sized_new(strlen(text));
  for (const char *p = text; *p;) {
    gunichar c = g_utf8_get_char_validated(p, -1);
    if (c == (gunichar)-1 || c == (gunichar)-2) {
      g_string_append_printf(s, "\\x%02X", (unsigned)(guchar)*p++);
      continue;
    }
    GUnicodeType type = g_unichar_type(c);
    gboolean invisible = c != '\n' && c != '\t' &&
                         (type == G_UNICODE_CONTROL || type == G_UNICODE_FORMAT ||
                          type == G_UNICODE_UNASSIGNED || type == G_UNICODE_PRIVATE_USE ||
                          type == G_UNICODE_LINE_SEPARATOR ||
                          type == G_UNICODE_PARAGRAPH_SEPARATOR ||
                          (type == G_UNICODE_SPACE_SEPARATOR && c != ' '));
    const char *next = g_utf8_next_char(p);
    if (invisible)
      g_string_append_printf(s, "\\u{%04X}", (unsigned)c);
    else
      g_string_append_len(s, p, next - p);
    p = next;
  }
  return g_string_free(s, FALSE);
}

int cli_fail(GError *error)
{
  int status = status_of_error(error);
  char *message = cli_visible(error ? error->message : "failed");
  fprintf(stderr, "mapsim: %s%s\n", status == STATUS_INTERNAL ? "internal error: " : "", message);
  g_free(message);
  if (error)
    g_error_free(error);
  return status;
}

/* ---- standard streams ---- */

static output_fd stdout_writer = { .fd = STDOUT_FILENO };
static FILE *stdout_of_libc;    /* the stream stdout was before ours */
static gboolean stdout_checked;

static void hold_standard_descriptors(void)
{
  for (int fd = 0; fd <= 2; fd++)
    if (fcntl(fd, F_GETFD) < 0 && errno == EBADF) {
      int null = open("/dev/null", O_RDONLY);
      if (null >= 0 && null != fd) {
        dup2(null, fd);
        close(null);
      }
    }
}

int cli_process_end(int status)
{
  if (stdout_checked || !stdout_of_libc)
    return status;
  stdout_checked = TRUE;
  int err = 0;
  if (fflush(stdout) != 0 || ferror(stdout))
    err = stdout_writer.error ? stdout_writer.error : EIO;
  if (fclose(stdout) != 0 && !err)
    err = stdout_writer.error ? stdout_writer.error : EIO;
  stdout = stdout_of_libc;
  /* a subcommand that failed already said why (perhaps this) */
  if (err && (status == STATUS_OK || status == STATUS_CHECK_FAILED)) {
    fprintf(stderr, "mapsim: standard output: %s, expected a writable output\n",
            g_strerror(err));
    status = STATUS_BAD_INPUT;
  }
  return status;
}

/* exit() from elsewhere (GOption's --help) checks standard output too. */
static void end_at_exit(void)
{
  if (!stdout_checked && cli_process_end(STATUS_OK) != STATUS_OK)
    _exit(STATUS_BAD_INPUT);
}

static void on_broken_pipe(void)
{
  end_now(STATUS_BROKEN_PIPE, NULL);
}

/* ---- signals ---- */

static const int stop_signals[] = { SIGINT, SIGTERM, SIGHUP };

/* errno is kept: the handler may interrupt a thread between a failed call
 * and its reading of errno. */
static void on_stop_signal(int sig)
{
  int saved = errno;
  if (stop_requested)
    end_now(STATUS_INTERRUPTED, "mapsim: interrupted\n");
  stop_requested = sig;
  errno = saved;
}

#ifndef __SANITIZE_ADDRESS__ /* the sanitizers report crashes themselves */
static void say(const char *text)
{
  ssize_t ignored = write(STDERR_FILENO, text, strlen(text));
  (void)ignored;
}

/* A crash is a bug whatever the input: say so and exit 3 instead of dying
 * by a signal (after GLib's own message for a failed assertion or
 * allocation). */
static void on_crash_signal(int sig)
{
  output_remove_all_now();
  say("mapsim: internal error: ");
  say(sig == SIGSEGV ? "segmentation fault" : sig == SIGBUS ? "bus error"
      : sig == SIGFPE ? "arithmetic exception" : sig == SIGILL ? "illegal instruction"
      : "aborted (assertion or failed allocation)");
  say(", a bug in mapsim: please report the command line\n");
  _exit(STATUS_INTERNAL);
}
#endif

/* A stack overflow still reaches the crash handler: each thread that runs
 * a subcommand gets a stack of its own for signals. */
static void add_signal_stack(void)
{
#ifndef __SANITIZE_ADDRESS__
  static char stacks[2][65536];
  static int used;
  if (used == (int)G_N_ELEMENTS(stacks))
    return;
  stack_t ss = { .ss_sp = stacks[used++], .ss_size = sizeof stacks[0] };
  sigaltstack(&ss, NULL);
#endif
}

void cli_process_start(void)
{
  hold_standard_descriptors();
  FILE *out = output_fd_stream(&stdout_writer);
  if (out) {
    if (isatty(STDOUT_FILENO))
      setvbuf(out, NULL, _IOLBF, BUFSIZ);
    stdout_of_libc = stdout;
    stdout = out;
    atexit(end_at_exit);
  }
  output_set_broken_pipe_hook(on_broken_pipe);
  struct sigaction ignore = { .sa_handler = SIG_IGN };
  sigemptyset(&ignore.sa_mask);
  sigaction(SIGPIPE, &ignore, NULL); /* writes fail with EPIPE instead */
  struct sigaction sa = { .sa_handler = on_stop_signal };
  sigemptyset(&sa.sa_mask);
  for (size_t i = 0; i < G_N_ELEMENTS(stop_signals); i++)
    sigaction(stop_signals[i], &sa, NULL);
#ifndef __SANITIZE_ADDRESS__
  add_signal_stack();
  struct sigaction crash = { .sa_handler = on_crash_signal, .sa_flags = SA_ONSTACK | SA_RESETHAND };
  sigemptyset(&crash.sa_mask);
  const int sigs[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP };
  for (size_t i = 0; i < G_N_ELEMENTS(sigs); i++)
    sigaction(sigs[i], &crash, NULL);
#endif
}

/* ---- the thread a subcommand runs on ---- */

typedef struct job {
  const cli_command *cmd;
  int argc;
  char **argv;
  int status;
  gboolean done;
  GMutex lock;
  GCond cond;
} job;

static void *run_job(void *data)
{
  job *j = data;
  add_signal_stack();
  int status = j->cmd->run(j->argc, j->argv);
  g_mutex_lock(&j->lock);
  j->status = status;
  j->done = TRUE;
  g_cond_signal(&j->cond);
  g_mutex_unlock(&j->lock);
  return NULL;
}

/* The stack the main thread would have (the soft RLIMIT_STACK; 64 MiB
 * when unlimited). */
static size_t job_stack_size(void)
{
  struct rlimit rl;
  size_t size = (size_t)64 << 20;
  if (getrlimit(RLIMIT_STACK, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
    size = MAX((size_t)rl.rlim_cur, (size_t)1 << 20);
  return size;
}

/* Starts the subcommand on its own thread, with the stop signals blocked
 * there (and in every thread it starts): they reach the main thread. */
static gboolean start_job(job *j, pthread_t *thread)
{
  sigset_t stops, old;
  sigemptyset(&stops);
  for (size_t i = 0; i < G_N_ELEMENTS(stop_signals); i++)
    sigaddset(&stops, stop_signals[i]);
  pthread_sigmask(SIG_BLOCK, &stops, &old);
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, job_stack_size());
  gboolean started = pthread_create(thread, &attr, run_job, j) == 0;
  pthread_attr_destroy(&attr);
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  return started;
}

int cli_run(const cli_command *cmd, int argc, char **argv)
{
  job j = { .cmd = cmd, .argc = argc, .argv = argv };
  g_mutex_init(&j.lock);
  g_cond_init(&j.cond);
  pthread_t thread;
  if (!start_job(&j, &thread)) {
    run_job(&j); /* no thread to be had: stops take the orderly way only */
  } else {
    gint64 deadline = 0;
    g_mutex_lock(&j.lock);
    while (!j.done) {
      gint64 now = g_get_monotonic_time();
      if (stop_requested && !deadline)
        deadline = now + STOP_GRACE_US;
      if (deadline && now >= deadline)
        end_now(STATUS_INTERRUPTED, "mapsim: interrupted\n");
      g_cond_wait_until(&j.cond, &j.lock, now + POLL_US);
    }
    g_mutex_unlock(&j.lock);
    pthread_join(thread, NULL);
  }
  g_mutex_clear(&j.lock);
  g_cond_clear(&j.cond);
  int status = j.status;
  if (stop_requested && status != STATUS_INTERRUPTED) {
    output_abort_all();
    fprintf(stderr, "mapsim: interrupted\n");
    status = STATUS_INTERRUPTED;
  }
  return cli_process_end(status);
}

/* ---- the progress line ---- */

static struct {
  GMutex lock;
  gboolean on, tty, drawn;
  gint64 start, last;   /* monotonic us */
} bar;

static void format_duration(char *buf, size_t n, double s)
{
  if (!(s < 1e7))
    g_snprintf(buf, n, "?");
  else if (s >= 3600)
    g_snprintf(buf, n, "%dh%02dm", (int)(s / 3600), (int)(s / 60) % 60);
  else
    g_snprintf(buf, n, "%dm%02ds", (int)(s / 60), (int)s % 60);
}

static void draw(void *user, const char *what, uint64_t done, uint64_t total)
{
  gint64 now = g_get_monotonic_time();
  g_mutex_lock(&bar.lock);
  if (now - bar.last < (bar.tty ? 200000 : 2000000) && done != total) {
    g_mutex_unlock(&bar.lock);
    return;
  }
  bar.last = now;
  double el = (double)(now - bar.start) * 1e-6, rate = el > 0 ? (double)done / el : 0;
  char elapsed[32], eta[32] = "?";
  format_duration(elapsed, sizeof elapsed, el);
  if (total && rate > 0)
    format_duration(eta, sizeof eta, (double)(total - MIN(done, total)) / rate);
  /* on a terminal one line redrawn in place, else one line per report */
  const char *head = bar.tty ? "\r" : "", *tail = bar.tty ? "\033[K" : "\n";
  if (total)
    fprintf(stderr, "%s%s: %" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT " (%.0f%%), %.3g/s, "
            "elapsed %s, ETA %s%s", head, what, done, total,
            100.0 * (double)done / (double)total, rate, elapsed, eta, tail);
  else
    fprintf(stderr, "%s%s: %" G_GUINT64_FORMAT ", %.3g/s, elapsed %s%s", head, what, done, rate,
            elapsed, tail);
  bar.drawn = bar.tty;
  g_mutex_unlock(&bar.lock);
}

const progress *cli_progress(const cli_common *c)
{
  static progress hook;
  bar.tty = isatty(STDERR_FILENO);
  bar.start = bar.last = g_get_monotonic_time();
  bar.on = !c->quiet && (c->progress || bar.tty);
  hook = (progress){ .report = bar.on ? draw : NULL, .stop = &stop_requested };
  return &hook;
}

void cli_progress_end(void)
{
  g_mutex_lock(&bar.lock);
  if (bar.drawn)
    fputc('\n', stderr);
  bar.drawn = FALSE;
  g_mutex_unlock(&bar.lock);
}

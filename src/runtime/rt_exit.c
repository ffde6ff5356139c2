/* The ways out of a process that skip atexit: _exit/_Exit and a signal whose
 * default action kills. Each still gets gsan's last words (the device
 * records in the ring, the repeat counts: rt_life_last_words) before it goes.
 * The words are said by the monitor thread, not here: a signal can land
 * while its thread holds gsan's lock, and a handler may not take locks
 * anyway. Here the thread leaving asks (sem_post is async-signal-safe), waits
 * a bounded time, then leaves as it would have without gsan: a monitor that
 * cannot answer (its lock held by the thread that is leaving) costs
 * RT_EXIT_WAIT_MS, never a hang. Lock rule: none taken here; the state
 * below is written by rt_exit_start before the handlers exist. */
#include "rt_exit.h"

#include "rt_gsan.h"

#include <errno.h>
#include <execinfo.h>
#include <semaphore.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define RT_EXIT_WAIT_MS 5000

/* the signals whose default action ends the process and that a program may
 * well get: handled only where the program left them at their default */
static const int fatal[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL};
#define NFATAL (int)(sizeof fatal / sizeof fatal[0])

static sem_t wake;      /* the monitor's sleep; posted to wake it early */
static int started;     /* rt_exit_start ran: wake is there */
static volatile sig_atomic_t asked, said;
static void (*last_words)(void); /* rt_life_last_words */

void rt_exit_die(void) {
  /* not fflush(NULL): it would wait for every stream's lock, stdin's too,
   * which a thread blocked in a read holds */
  fflush(stdout);
  fflush(rt_gsan.log.out);
  rt_exit_now(rt_gsan.flags.exitcode);
}

void rt_exit_now(int status) {
  syscall(SYS_exit_group, status);
  for (;;) pause(); /* not reached */
}

/* from any thread, in a handler too: the monitor says the last words */
static void ask_and_wait(void) {
  if (!started || rt_gsan.forked) return;
  asked = 1;
  sem_post(&wake);
  struct timespec ms = {0, 1000000};
  for (int i = 0; i < RT_EXIT_WAIT_MS && !said; i++) nanosleep(&ms, NULL);
}

static void on_fatal(int sig) {
  int saved = errno;
  /* a fault: where, every frame (gsan's own too), for whoever debugs it */
  if (rt_gsan.flags.verbosity && (sig == SIGSEGV || sig == SIGBUS || sig == SIGFPE || sig == SIGILL)) {
    static const char head[] = "==gsan: a fatal signal in the program or in gsan; the thread's stack:\n";
    void *pc[64];
    if (write(2, head, sizeof head - 1) > 0) backtrace_symbols_fd(pc, backtrace(pc, 64), 2);
  }
  ask_and_wait();
  /* leave the way the signal would have: default action, raised again
   * (pending until this handler returns: a signal is blocked in its own) */
  struct sigaction dfl;
  memset(&dfl, 0, sizeof dfl);
  dfl.sa_handler = SIG_DFL;
  sigaction(sig, &dfl, NULL);
  raise(sig);
  errno = saved;
}

void rt_exit_start(void (*say_last_words)(void)) {
  last_words = say_last_words;
  if (sem_init(&wake, 0, 0) != 0) return;
  started = 1;
  if (!rt_gsan.flags.handle_signals) return;
  for (int i = 0; i < NFATAL; i++) {
    struct sigaction old, sa;
    if (sigaction(fatal[i], NULL, &old) != 0 || (old.sa_flags & SA_SIGINFO) || old.sa_handler != SIG_DFL) continue;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_fatal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    sigaction(fatal[i], &sa, NULL);
  }
}

void rt_exit_monitor_signals(void) {
  /* a signal meant for the program goes to one of its own threads: the
   * monitor waits for nobody */
  sigset_t set;
  sigemptyset(&set);
  for (int i = 0; i < NFATAL; i++)
    if (fatal[i] != SIGSEGV && fatal[i] != SIGBUS && fatal[i] != SIGFPE && fatal[i] != SIGILL) sigaddset(&set, fatal[i]);
  pthread_sigmask(SIG_BLOCK, &set, NULL);
}

int rt_exit_wait(unsigned ms) {
  if (!started) {
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
    return 0;
  }
  struct timespec until;
  clock_gettime(CLOCK_REALTIME, &until);
  until.tv_sec += ms / 1000;
  until.tv_nsec += (long)(ms % 1000) * 1000000L;
  if (until.tv_nsec >= 1000000000L) until.tv_sec++, until.tv_nsec -= 1000000000L;
  while (sem_timedwait(&wake, &until) != 0 && errno == EINTR) {
  }
  if (!asked) return 0;
  last_words();
  said = 1;
  return 1;
}

void rt_exit_wake(void) {
  if (started) sem_post(&wake);
}

/* _exit and _Exit skip atexit: the last words first, then the status the
 * run would have ended with at exit (exitcode once something was reported) */
static void leave(int status) {
  if (rt_gsan_is_ready() && !rt_gsan.forked) {
    ask_and_wait();
    if (rt_gsan.log.reports) status = rt_gsan.flags.exitcode;
  }
  rt_exit_now(status);
}

__attribute__((visibility("default"), noreturn)) void _exit(int status) {
  leave(status);
  __builtin_unreachable();
}

__attribute__((visibility("default"), noreturn)) void _Exit(int status) {
  leave(status);
  __builtin_unreachable();
}

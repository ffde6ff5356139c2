/* rt_exit.c: the exits that skip atexit (_exit, _Exit, a fatal signal),
 * each given gsan's last words before it goes. */
#ifndef GSAN_RT_EXIT_H
#define GSAN_RT_EXIT_H

/* Start: after the monitor thread exists; last_words is what the monitor
 * says for a thread that is leaving (rt_life_last_words). Installs handlers
 * on the fatal signals left at their default. */
void rt_exit_start(void (*last_words)(void));
/* The monitor's sleep of ms; says the last words when a thread that is
 * leaving asked for them (returns 1 then). */
int rt_exit_wait(unsigned ms);
void rt_exit_wake(void);
/* blocks, in the monitor thread, the signals meant for the program */
void rt_exit_monitor_signals(void);
/* ends the process now, with status: no atexit, no last words */
__attribute__((noreturn)) void rt_exit_now(int status);
/* The end of a run that reported (the report scope's halt, and exit after
 * reports): the program's own output and the log flushed, then exitcode. */
__attribute__((noreturn)) void rt_exit_die(void);

#endif

/* Lightweight coroutines for the native process engine: one small stack
 * per simulated process, switched by a few lines of assembly (x86-64 SysV:
 * the callee-saved registers and the stack pointer, as SimGrid's raw
 * contexts do; no system call per switch, unlike glibc's swapcontext).
 *
 * One scheduler (the thread that calls cs_coro_resume) and any number of
 * coroutines: a coroutine runs from cs_coro_resume until it calls
 * cs_coro_yield or its function returns, then the scheduler goes on.
 * Coroutines never switch to each other directly.
 *
 * Stacks come from one anonymous mapping per cs_coro_stacks (untouched
 * pages cost no memory), with a guard page below each stack when there are
 * few enough of them (each guard splits the mapping, and the kernel's
 * vm.max_map_count allows about 65,530 pieces).  AddressSanitizer is told
 * of every switch (__sanitizer_start/finish_switch_fiber) and valgrind of
 * every stack (VALGRIND_STACK_REGISTER), when present. */
#ifndef COLLSIM_NATIVE_CORO_H
#define COLLSIM_NATIVE_CORO_H

#include <stdbool.h>
#include <stddef.h>

/* At most this many stacks get a guard page each. */
#define CS_CORO_MAX_GUARDED 16384

typedef void (*cs_coro_fn)(void *arg);

typedef struct cs_coro {
  void *sp;            /* saved stack pointer while suspended */
  char *stack_lo;      /* lowest usable byte of its stack */
  size_t stack_size;   /* usable bytes */
  cs_coro_fn fn;
  void *arg;
  bool started, done;
  void *asan_fake;     /* AddressSanitizer's fake stack while suspended */
  unsigned vg_id;      /* valgrind's id of its stack (0: not registered) */
} cs_coro;

/* Stacks for `count` coroutines of `stack_bytes` usable bytes each
 * (rounded up to whole pages). */
typedef struct cs_coro_stacks {
  char *base;
  size_t mapped, stride, usable, count;
  bool guarded;
} cs_coro_stacks;

/* False (errno set) if the mapping fails. */
bool cs_coro_stacks_init(cs_coro_stacks *s, size_t count, size_t stack_bytes);
/* Releases the mapping: every coroutine on it must be finished or abandoned
 * (a suspended coroutine is simply never resumed again). */
void cs_coro_stacks_free(cs_coro_stacks *s);

/* A coroutine on stack i of s that will run fn(arg) when first resumed. */
void cs_coro_init(cs_coro *co, cs_coro_stacks *s, size_t i, cs_coro_fn fn, void *arg);
/* Called by valgrind builds when the coroutine will never run again. */
void cs_coro_forget(cs_coro *co);

/* Scheduler: run co until it yields or finishes (co->done). */
void cs_coro_resume(cs_coro *co);
/* Inside co: back to the scheduler; returns when co is resumed. */
void cs_coro_yield(cs_coro *co);

#endif

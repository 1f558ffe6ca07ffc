/* Coroutines with small stacks and a context switch of our own (see
 * coro.h).  On x86-64 the switch saves the six callee-saved registers of
 * the System V ABI on the current stack, stores the stack pointer, loads
 * the other one and pops them back: no signal mask, no system call.
 * Elsewhere it falls back to ucontext (slower: a system call per switch). */
#include "sim/engine/native/coro.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#define CORO_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CORO_ASAN 1
#endif
#endif

#ifdef CORO_ASAN
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif

#if defined(__has_include)
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#define CORO_VALGRIND 1
#endif
#endif

/* The scheduler's side of every switch. */
static struct {
  void *sp;
  void *asan_fake;
  const void *stack_lo; /* its stack, as AddressSanitizer reports it */
  size_t stack_size;
} sched;

#if defined(__x86_64__) && !defined(CORO_FORCE_UCONTEXT) /* the fallback can be tried on x86-64 */

/* cs_coro_switch_asm(save, to): push rbp rbx r12-r15, *save = rsp, rsp =
 * to, pop them, ret.  cs_coro_boot: the first return of a new coroutine
 * lands here, with its argument in r12 and its entry function in r13. */
__asm__(".text\n"
        ".globl cs_coro_switch_asm\n"
        ".hidden cs_coro_switch_asm\n"
        ".type cs_coro_switch_asm,@function\n"
        "cs_coro_switch_asm:\n"
        "  pushq %rbp\n"
        "  pushq %rbx\n"
        "  pushq %r12\n"
        "  pushq %r13\n"
        "  pushq %r14\n"
        "  pushq %r15\n"
        "  movq %rsp, (%rdi)\n"
        "  movq %rsi, %rsp\n"
        "  popq %r15\n"
        "  popq %r14\n"
        "  popq %r13\n"
        "  popq %r12\n"
        "  popq %rbx\n"
        "  popq %rbp\n"
        "  ret\n"
        ".size cs_coro_switch_asm, .-cs_coro_switch_asm\n"
        ".globl cs_coro_boot\n"
        ".hidden cs_coro_boot\n"
        ".type cs_coro_boot,@function\n"
        "cs_coro_boot:\n"
        "  movq %r12, %rdi\n"
        "  callq *%r13\n"
        "  ud2\n"
        ".size cs_coro_boot, .-cs_coro_boot\n");

void cs_coro_switch_asm(void **save, void *to);
extern char cs_coro_boot[];

static void coro_entry(cs_coro *co);

/* The first frame of a coroutine: what cs_coro_switch_asm pops (r15, r14,
 * r13 = entry, r12 = co, rbx, rbp) and cs_coro_boot as return address,
 * placed so that the stack is 16-byte aligned at the call of the entry. */
static void *first_frame(cs_coro *co)
{
  uintptr_t top = ((uintptr_t)co->stack_lo + co->stack_size) & ~(uintptr_t)15;
  uint64_t *sp = (uint64_t *)(top - 72);
  sp[0] = sp[1] = 0;
  sp[2] = (uint64_t)(uintptr_t)coro_entry;
  sp[3] = (uint64_t)(uintptr_t)co;
  sp[4] = sp[5] = 0;
  sp[6] = (uint64_t)(uintptr_t)cs_coro_boot;
  sp[7] = sp[8] = 0;
  return sp;
}

static void raw_switch(void **save, void *to) { cs_coro_switch_asm(save, to); }

#else /* portable fallback */
#include <ucontext.h>

typedef struct fallback_ctx {
  ucontext_t uc;
} fallback_ctx;

static void coro_entry(cs_coro *co);

static void fallback_entry(unsigned hi, unsigned lo)
{
  coro_entry((cs_coro *)(((uintptr_t)hi << 32) | (uintptr_t)lo));
}

/* The context lives at the bottom of the coroutine's stack. */
static void *first_frame(cs_coro *co)
{
  fallback_ctx *f = (fallback_ctx *)co->stack_lo;
  getcontext(&f->uc);
  f->uc.uc_stack.ss_sp = co->stack_lo + sizeof *f;
  f->uc.uc_stack.ss_size = co->stack_size - sizeof *f;
  f->uc.uc_link = NULL;
  uintptr_t p = (uintptr_t)co;
  makecontext(&f->uc, (void (*)(void))fallback_entry, 2, (unsigned)(p >> 32), (unsigned)p);
  return f;
}

static fallback_ctx sched_ctx;

static void raw_switch(void **save, void *to)
{
  fallback_ctx *self = *save ? *save : &sched_ctx;
  *save = self;
  swapcontext(&self->uc, &((fallback_ctx *)to)->uc);
}
#endif

/* ---- switches, with AddressSanitizer's annotations ---- */

static void to_coroutine(cs_coro *co)
{
#ifdef CORO_ASAN
  __sanitizer_start_switch_fiber(&sched.asan_fake, co->stack_lo, co->stack_size);
#endif
  raw_switch(&sched.sp, co->sp);
#ifdef CORO_ASAN
  __sanitizer_finish_switch_fiber(sched.asan_fake, NULL, NULL);
#endif
}

static void to_scheduler(cs_coro *co)
{
#ifdef CORO_ASAN
  __sanitizer_start_switch_fiber(co->done ? NULL : &co->asan_fake, sched.stack_lo, sched.stack_size);
#endif
  raw_switch(&co->sp, sched.sp);
#ifdef CORO_ASAN
  __sanitizer_finish_switch_fiber(co->asan_fake, &sched.stack_lo, &sched.stack_size);
#endif
}

static void coro_entry(cs_coro *co)
{
#ifdef CORO_ASAN
  __sanitizer_finish_switch_fiber(NULL, &sched.stack_lo, &sched.stack_size);
#endif
  co->fn(co->arg);
  co->done = true;
  to_scheduler(co);
  abort(); /* a finished coroutine is never resumed */
}

void cs_coro_resume(cs_coro *co)
{
  if (!co->started) {
    co->started = true;
    co->sp = first_frame(co);
  }
  to_coroutine(co);
}

void cs_coro_yield(cs_coro *co) { to_scheduler(co); }

/* ---- stacks ---- */

bool cs_coro_stacks_init(cs_coro_stacks *s, size_t count, size_t stack_bytes)
{
  size_t page = (size_t)sysconf(_SC_PAGESIZE);
  s->usable = (stack_bytes + page - 1) / page * page;
  s->guarded = count <= CS_CORO_MAX_GUARDED;
  s->stride = s->usable + (s->guarded ? page : 0);
  s->count = count;
  s->mapped = s->stride * (count ? count : 1);
  void *base = mmap(NULL, s->mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (base == MAP_FAILED) {
    s->base = NULL;
    return false;
  }
  s->base = base;
  for (size_t i = 0; s->guarded && i < count; i++)
    if (mprotect(s->base + i * s->stride, page, PROT_NONE) != 0) {
      int e = errno;
      munmap(s->base, s->mapped);
      s->base = NULL;
      errno = e;
      return false;
    }
  return true;
}

void cs_coro_stacks_free(cs_coro_stacks *s)
{
  if (!s->base)
    return;
#ifdef CORO_ASAN
  /* frames left on abandoned stacks keep their shadow poisoned */
  for (size_t i = 0; i < s->count; i++)
    __asan_unpoison_memory_region(s->base + i * s->stride + (s->stride - s->usable), s->usable);
#endif
  munmap(s->base, s->mapped);
  s->base = NULL;
}

void cs_coro_init(cs_coro *co, cs_coro_stacks *s, size_t i, cs_coro_fn fn, void *arg)
{
  *co = (cs_coro){0};
  co->stack_lo = s->base + i * s->stride + (s->stride - s->usable);
  co->stack_size = s->usable;
  co->fn = fn;
  co->arg = arg;
#ifdef CORO_VALGRIND
  co->vg_id = VALGRIND_STACK_REGISTER(co->stack_lo, co->stack_lo + co->stack_size);
#endif
}

void cs_coro_forget(cs_coro *co)
{
#ifdef CORO_VALGRIND
  if (co->vg_id)
    VALGRIND_STACK_DEREGISTER(co->vg_id);
#endif
  co->vg_id = 0;
}

/* The shared library of stack_capture.c: depth frames of one function (none
 * of them a tail call), then the capture, as a library between a program and
 * gsan (cudart, PyTorch) puts its frames on the stack of every allocation. */
typedef int (*capture_fn)(void **pc, int max);

__attribute__((noinline)) int lib_down(int depth, capture_fn fn, void **pc, int max) {
  int n = depth > 0 ? lib_down(depth - 1, fn, pc, max) : fn(pc, max);
  __asm__ volatile("" ::: "memory"); /* work after the call: it stays a call */
  return n;
}

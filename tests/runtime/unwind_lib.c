/* Frames in a shared library for test_unwind.c: depth calls of one function
 * (none of them a tail call), then the callback. Built twice with frames of
 * different sizes (FRAME_BYTES) and otherwise the same code, so that the
 * test can load one where the other's code was: the same return addresses,
 * other frame layouts. */
typedef int (*frames_fn)(void **pc, int max);

__attribute__((noinline)) int frames_down(int depth, frames_fn fn, void **pc, int max) {
  volatile char pad[FRAME_BYTES];
  pad[0] = 1;
  int n = depth > 0 ? frames_down(depth - 1, fn, pc, max) : fn(pc, max);
  return n + pad[0] - 1;
}

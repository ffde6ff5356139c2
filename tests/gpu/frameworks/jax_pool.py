# A correct JAX program under gsan run: gsan run sets
# XLA_PYTHON_CLIENT_ALLOCATOR=platform (a value already set is kept), so XLA
# allocates each buffer on demand instead of preallocating one pool, and the
# buffers XLA still holds at exit are not called leaks (a built-in rule names
# XLA's libraries). XLA's kernels are machine code gsan did not compile: they
# get canaries and guard gaps, not per-access checks. Exits 77 with
# "SKIP: ..." without JAX or without a GPU for it. run.sh runs it as
#   gsan run -- python3 jax_pool.py
# expects exit status 0 and this output, with no report:
# CHECK: allocator: platform
# CHECK: sum: 999000.0
# CHECK-NOT: GPUSanitizer
import os
import sys

try:
    import jax
    import jax.numpy as jnp
except ImportError as e:
    print('SKIP: JAX is not installed (%s)' % e, flush=True)
    sys.exit(77)
if not any(d.platform == 'gpu' for d in jax.devices()):
    print('SKIP: JAX sees no GPU', flush=True)
    sys.exit(77)

print('allocator: %s' % os.environ.get('XLA_PYTHON_CLIENT_ALLOCATOR'), flush=True)
x = jnp.arange(1000, dtype=jnp.float32)
y = jax.jit(lambda v: (v * 2.0).sum())(x)
print('sum: %s' % float(y), flush=True)

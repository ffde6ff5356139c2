# Two processes on one GPU, each under its own gsan (as torchrun or mpirun
# start one per rank: the environment gsan run sets is inherited), each
# writing its own log (GSAN_OPTIONS log_path=DIR/gsan.%p.log). Rank 1 copies
# a tensor with a masked Triton kernel (correct); rank 0 waits until rank 1
# has exited (torchrun stops every rank once one fails), then runs the same
# kernel with its store unmasked: the last program writes 240 floats past a
# 10000-float tensor. Expected (run.sh checks it): rank 0's log holds a
# global-buffer-overflow in copy at two_procs.py:29, rank 1's log holds no
# report, rank 1 says "clean copy: ok". Started as
#   gsan run --opt log_path=DIR/gsan.%p.log -- torchrun --standalone --nproc_per_node=2 two_procs.py DIR
# or, without torchrun, as
#   gsan run --opt log_path=DIR/gsan.%p.log -- python3 two_procs.py --spawn DIR
import os
import sys
import time

import triton
import triton.language as tl


@triton.jit
def copy(x, out, n, BLOCK: tl.constexpr, MASKED: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = i < n
    v = tl.load(x + i, mask=m)
    if MASKED:
        tl.store(out + i, v, mask=m)
    else:
        tl.store(out + i, v)  # BUG (rank 0): no mask


def gone(pid):
    """the process has exited (a zombie counts: it has finished)"""
    try:
        with open('/proc/%d/stat' % pid) as f:
            return f.read().rsplit(')', 1)[1].split()[0] == 'Z'
    except (OSError, IndexError):
        return True


def worker(rank, d):
    import torch
    pid = os.getpid()
    print('rank %d pid %d' % (rank, pid), flush=True)
    x = torch.randn(10000, device='cuda')
    o = torch.empty_like(x)
    done = os.path.join(d, 'rank1-done')
    if rank == 1:
        copy[(10,)](x, o, 10000, BLOCK=1024, MASKED=True)
        torch.cuda.synchronize()
        print('rank 1 pid %d: clean copy: %s' % (pid, 'ok' if torch.equal(o, x) else 'WRONG'), flush=True)
        with open(done + '.tmp', 'w') as f:
            f.write(str(pid))
        os.rename(done + '.tmp', done)
        return
    for _ in range(600):
        if os.path.exists(done) and gone(int(open(done).read())):
            break
        time.sleep(0.5)
    else:
        print('rank 0 pid %d: rank 1 did not exit in 300 s' % pid, flush=True)
    print('rank 0 pid %d: launching the unmasked store' % pid, flush=True)
    copy[(10,)](x, o, 10000, BLOCK=1024, MASKED=False)
    torch.cuda.synchronize()
    print('rank 0 pid %d: not reached: the write past the tensor went unreported' % pid, flush=True)


def main():
    args = [a for a in sys.argv[1:] if a != '--spawn']
    d = args[0] if args else '.'
    if 'RANK' in os.environ:  # started by torchrun, one process per rank
        worker(int(os.environ['RANK']), d)
        return
    if '--spawn' not in sys.argv:
        sys.exit('usage: torchrun --nproc_per_node=2 two_procs.py DIR, or python3 two_procs.py --spawn DIR')
    # the parent stays off the GPU: each child is a fresh interpreter, under
    # its own gsan
    import multiprocessing as mp
    ctx = mp.get_context('spawn')
    procs = [ctx.Process(target=worker, args=(r, d)) for r in (0, 1)]
    for p in procs:
        p.start()
    for p in procs:
        p.join()
    print('exit status: rank 0 %s, rank 1 %s' % (procs[0].exitcode, procs[1].exitcode), flush=True)


if __name__ == '__main__':
    main()

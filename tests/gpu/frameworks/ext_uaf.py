# Use after free through a stale tensor data pointer: Python keeps
# t.data_ptr() of a tensor, deletes the tensor (gsan run turns PyTorch's
# caching allocator off, so the memory goes back to gsan, which marks it
# freed), and the extension's copy_from kernel reads through the stale
# address passed as an int (ext/oob_ext.cu:20). run.sh runs it as
#   gsan run -- python3 ext_uaf.py
# expects exit status 1 and this output:
# CHECK: extension built by: {{.*}}/gsan-nvcc
# CHECK: freed the tensor at [[P:0x[0-9a-f]+]]
# CHECK: ERROR: GPUSanitizer: use-after-free on address
# CHECK-NEXT: READ of size 4 at {{0x[0-9a-f]+}} by thread
# CHECK-NEXT: #0 copy_from(float const*, float*, int) at {{.*}}oob_ext.cu:20
# CHECK-NEXT: is located {{[0-9]+}} bytes inside 4000-byte region [[[P]],
# CHECK-NEXT: freed by host thread T0 here:
# CHECK: previously allocated by host thread T0 here:
# CHECK: SUMMARY: GPUSanitizer: use-after-free {{.*}}oob_ext.cu:20 in copy_from(float const*, float*, int)
# CHECK-NOT: not reached
import torch

import ext_common

ext = ext_common.load()
t = torch.full((1000,), 3.0, device='cuda')
ptr = t.data_ptr()
del t  # the last reference: the tensor's memory is freed
torch.cuda.synchronize()
print('freed the tensor at 0x%x' % ptr, flush=True)
out = ext.copy_from(ptr, 1000)  # BUG: reads the freed tensor
torch.cuda.synchronize()
print('not reached: read %f through a freed tensor unreported' % out[0].item(), flush=True)

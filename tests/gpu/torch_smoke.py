import torch, triton, triton.language as tl
@triton.jit
def add(x, y, out, n, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = i < n
    tl.store(out + i, tl.load(x + i, mask=m) + tl.load(y + i, mask=m), mask=m)
x = torch.randn(10000, device='cuda'); y = torch.randn(10000, device='cuda'); o = torch.empty_like(x)
add[(10,)](x, y, o, 10000, BLOCK=1024)
torch.cuda.synchronize()
print("torch+triton:", torch.allclose(o, x + y), (x @ x.new_ones(10000)).item() != 0)

"""Inputs and expected outputs of scripts/gpu_mma_check.sh: writes OUT_DIR/in (inputs) and
OUT_DIR/expect (the PTX ISA layouts computed here for the kernels of
crates/ptx/tests/all/lower_mma.rs; `warpsafe run` of the PTX road on mma_gemm_nvrtc.ptx and its bug
twin; the exact product). Usage: python3 scripts/gpu_mma_prepare.py WARPSAFE_BINARY OUT_DIR"""
import struct, random, os, subprocess, sys, tempfile
WARPSAFE, D = sys.argv[1], sys.argv[2]
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
for sub in ("in", "expect"):
    os.makedirs(os.path.join(D, sub), exist_ok=True)
rnd = random.Random(20261126)
def h(x): return struct.unpack('<H', struct.pack('<e', x))[0]
def wr(name, fmt, vals, sub="in"):
    open(f"{D}/{sub}/{name}", "wb").write(struct.pack('<%d%s' % (len(vals), fmt), *vals))
# ldmatrix
ldm_in = [0x3c00 + k for k in range(256)]
wr("ldm_in.bin", "H", ldm_in)
for name, count, trans in [("ldm_x4",4,False),("ldm_x4_trans",4,True),("ldm_x2",2,False),("ldm_x1_trans",1,True)]:
    out = []
    for l in range(32):
        for j in range(4):
            if j >= count: out.append(0); continue
            m = lambda r, c: ldm_in[64*j + 8*r + c]
            lo, hi = (m(2*(l%4), l//4), m(2*(l%4)+1, l//4)) if trans else (m(l//4, 2*(l%4)), m(l//4, 2*(l%4)+1))
            out.append(lo | hi << 16)
    wr(name + ".bin", "I", out, "expect")
ints = lambda n: [float(rnd.randint(-3, 3)) for _ in range(n)]
a, bt, c = ints(256), ints(128), ints(128)
wr("m16_a.bin", "H", [h(x) for x in a]); wr("m16_bt.bin", "H", [h(x) for x in bt]); wr("m16_c.bin", "f", c)
d = [c[r*8+n] + sum(a[r*16+k]*bt[n*16+k] for k in range(16)) for r in range(16) for n in range(8)]
wr("mma_m16n8k16.bin", "f", d, "expect")
a, b, c = ints(128), ints(64), ints(128)
wr("m8_a.bin", "H", [h(x) for x in a]); wr("m8_b.bin", "H", [h(x) for x in b])
pairs = lambda v: [h(v[2*i]) | h(v[2*i+1]) << 16 for i in range(len(v)//2)]
wr("m8_c.bin", "I", pairs(c))
d = [c[r*8+n] + sum(a[r*8+k]*b[k*8+n] for k in range(8)) for r in range(16) for n in range(8)]
wr("mma_m16n8k8_f16.bin", "I", pairs(d), "expect")
# GEMM: multiples of 1/8 in [-1, 1], column-major.
e8 = lambda n: [rnd.randint(-8, 8) / 8 for _ in range(n)]
A, B, C = e8(4096), e8(4096), e8(4096)
wr("gemm_a.bin", "H", [h(x) for x in A]); wr("gemm_b.bin", "H", [h(x) for x in B]); wr("gemm_c.bin", "f", C)
ref = [0.0]*4096
for col in range(64):
    for row in range(64):
        acc = sum(A[row + k*64] * B[k + col*64] for k in range(64))
        ref[row + col*64] = 1.5*acc + -0.5*C[row + col*64]
wr("gemm_reference.bin", "f", ref, "expect")
for stem in ["mma_gemm", "mma_gemm_bug_btrans"]:
    out = tempfile.mkdtemp()
    subprocess.run([WARPSAFE, "run", f"{ROOT}/examples/equiv/wmma/{stem}_nvrtc.ptx",
        "--buf", f"a={D}/in/gemm_a.bin", "--buf", f"b={D}/in/gemm_b.bin", "--buf", f"c={D}/in/gemm_c.bin",
        "--arg", "alpha=1.5", "--arg", "beta=-0.5", "--out", out], check=True)
    os.replace(f"{out}/c.bin", f"{D}/expect/{stem}.bin")
got = struct.unpack('<4096f', open(f"{D}/expect/mma_gemm.bin","rb").read())
print("interpreter == exact reference:", list(got) == [struct.unpack('<f', struct.pack('<f', x))[0] for x in ref])
bug = struct.unpack('<4096f', open(f"{D}/expect/mma_gemm_bug_btrans.bin","rb").read())
print("bug twin differs from reference at", sum(1 for x, y in zip(bug, ref) if x != y), "elements")

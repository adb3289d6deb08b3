// AES-style round over a byte-addressed staging block: each thread loads one 32-bit column of
// the state into a `__shared__` union of a word and its bytes, and after a barrier gathers the
// four bytes of its output column from the columns ShiftRows names (row r from column
// col + r of its 16-byte block) into a local union, looks each byte up in a T-box held in
// `__constant__` memory and XORs in the round key. Idiom: `union Word { uint w; uchar b[4]; }`
// as a `__shared__` array written as words and read as bytes (the gpgpu-sim AES kernels), a
// local union assembled byte by byte, a 2-D `__constant__` table indexed by a byte.
// Twin: no barrier between staging the words and gathering the bytes; thread 0 reads byte 1
// of the word thread 1 is still writing (a race between the word and byte members).
// verify: race=violated exit=1
//--blockDim=256 --gridDim=16
//@ len(in) = 4096
//@ len(out) = 4096
//@ len(round_key) = 4
#include <cuda_runtime.h>

typedef unsigned int uint;
typedef unsigned char uchar;

union Word {
    uint w;
    uchar b[4];
};

__constant__ uint tbox[4][256];

__global__ void aes_round(const uint* __restrict__ in, uint* __restrict__ out,
                          const uint* __restrict__ round_key)
{
    __shared__ Word state[256];
    const uint tx = threadIdx.x;
    const uint col = tx % 4;
    const uint block = tx - col;
    state[tx].w = in[blockIdx.x * 256 + tx];

    Word gathered;
#pragma unroll
    for (int r = 0; r < 4; r++)
        gathered.b[r] = state[block + (col + r) % 4].b[r];

    uint acc = round_key[col];
#pragma unroll
    for (int r = 0; r < 4; r++)
        acc ^= tbox[r][gathered.b[r]];
    out[blockIdx.x * 256 + tx] = acc;
}

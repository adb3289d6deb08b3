// C = A * B, one thread per element.
//--blockDim=[8,8] --gridDim=[2,2]
//@ len(A) = 256
//@ len(B) = 256
//@ len(C) = 256
//@ init(C) = 0
__global__ void mm(const float* A, const float* B, float* C)
{
    int r = blockIdx.y * 8 + threadIdx.y, c = blockIdx.x * 8 + threadIdx.x;
    float s = 0.0f;
    for (int k = 0; k < 16; ++k) s += A[r * 16 + k] * B[k * 16 + c];
    C[r * 16 + c] = s;
}

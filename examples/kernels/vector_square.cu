// Squares a vector in place, one thread per element: x[i] = x[i] * x[i].
//--blockDim=256 --gridDim=16
//@ arg n = 4000
//@ len(x) = n
//@ requires n <= blockDim.x * gridDim.x

__global__ void vector_square(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = x[i];
        x[i] = v * v;
    }
}

// The calibration kernels of ../shared/calibration/kernels.cu, byte for byte in their bodies: the
// kernel library (traces/kernels) reproduces their sm_90 SASS instruction by instruction, so
// their counters on any GPU are comparable with the simulator's exactly. Do not edit a body:
// change the copy in kernels.cu's history first, then the library, then this file.
#pragma once
#include <cuda_runtime.h>

// ---- seed kernels (readSegment / writeSegment / unroll) ----
__global__ void readOffset(const float* A, const float* B, float* C, int n, int offset) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned k = i + offset;
  if (k < (unsigned)n) C[i] = A[k] + B[k];
}
__global__ void readOffsetNC(const float* __restrict__ A, const float* __restrict__ B, float* C, int n, int offset) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned k = i + offset;
  if (k < (unsigned)n) C[i] = __ldcg(&A[k]) + __ldcg(&B[k]);   // cache-global: bypass L1
}
__global__ void writeOffset(const float* A, const float* B, float* C, int n, int offset) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned k = i + offset;
  if (k < (unsigned)n) C[k] = A[i] + B[i];
}
template <int U>
__global__ void readOffsetUnroll(const float* A, const float* B, float* C, int n, int offset) {
  unsigned i = blockIdx.x * blockDim.x * U + threadIdx.x;
  unsigned k = i + offset;
  if (k + (U - 1) * blockDim.x < (unsigned)n) {
#pragma unroll
    for (int u = 0; u < U; ++u) C[i + u * blockDim.x] = A[k + u * blockDim.x] + B[k + u * blockDim.x];
  }
}
// strided copy: thread i reads in[i*stride]
__global__ void stridedRead(const float* in, float* out, int n, int stride) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long k = (unsigned long long)i * stride;
  if (k < (unsigned long long)n) out[i] = in[k];
}
// ---- AoS vs SoA ----
struct innerStruct { float x, y; };
__global__ void testInnerStruct(const innerStruct* data, innerStruct* result, int n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < (unsigned)n) { innerStruct t = data[i]; t.x += 10.f; t.y += 20.f; result[i] = t; }
}
__global__ void testInnerArray(const float* dx, const float* dy, float* rx, float* ry, int n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < (unsigned)n) { rx[i] = dx[i] + 10.f; ry[i] = dy[i] + 20.f; }
}
// ---- transpose (32x32 tile, block 32x8, each thread 4 rows) ----
constexpr int TILE = 32, ROWS = 8;
__global__ void transposeNaive(float* out, const float* in, int w) {
  int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS) out[x * w + (y + j)] = in[(y + j) * w + x];
}
template <int PAD>
__global__ void transposeShared(float* out, const float* in, int w) {
  __shared__ float tile[TILE][TILE + PAD];
  int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * w + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x; y = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS) out[(y + j) * w + x] = tile[threadIdx.x][threadIdx.y + j];
}
// ---- latency-hiding: dependent FMA chains, ILP independent chains per thread ----
template <int ILP>
__global__ void fmaChain(float* out, int iters) {
  float a[ILP];
#pragma unroll
  for (int j = 0; j < ILP; ++j) a[j] = threadIdx.x * 0.001f + j;
  for (int it = 0; it < iters; ++it) {
#pragma unroll
    for (int j = 0; j < ILP; ++j) a[j] = fmaf(a[j], 0.9999f, 0.0001f);
  }
  float s = 0; for (int j = 0; j < ILP; ++j) s += a[j];
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}
// ---- pointer chase for latency (one thread) ----
__global__ void chase(const unsigned* next, unsigned start, int steps, unsigned* sink, long long* cycles) {
  unsigned p = start;
  long long t0 = clock64();
  for (int s = 0; s < steps; ++s) p = next[p];
  long long t1 = clock64();
  *sink = p; *cycles = t1 - t0;
}
// ---- L2 persistence (CUDA Best Practices Guide style) ----
__global__ void persistKernel(int* persistent, int* streaming, int dataSize, int freqSize) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  persistent[tid % freqSize] = 2 * persistent[tid % freqSize];
  streaming[tid % dataSize] = 2 * streaming[tid % dataSize];
}

__global__ void emptyKernel(int* sink) { if (threadIdx.x == 1023) *sink = 1; }
__global__ void persistLoop(int* persistent, int freqSize, int iters, int* out) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x, acc = 0;
  for (int it = 0; it < iters; ++it) acc += persistent[(tid + it * 7919) % freqSize];
  if (acc == 0x7fffffff) *out = acc;
}


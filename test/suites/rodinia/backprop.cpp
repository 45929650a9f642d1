// Rodinia backprop (one training pass of a 3-layer perceptron), OpenCL
// version, written anew in Ferry's dialect. Original:
// github.com/yuhc/gpu-rodinia, opencl/backprop/backprop_ocl.cpp
// (bpnn_train_kernel), backprop_kernel.cl, backprop.c (the host layers),
// facetrain.c and imagenet.c (load: random inputs).
//
// bpnn_layerforward_ocl, in the original, loads a 16 x 16 tile of
// weight * input into local memory, reduces each column with a
// barrier-separated tree (whose first step, i = 1, doubles every value),
// writes the tile's partially-reduced values back into input_hidden and
// the column sums into hidden_partial_sum. Local memory and barriers are
// not implemented in Ferry yet, so the nearest race-free version splits it
// in two kernels: bpnn_layerforward_ocl computes, per work-item (tx, ty) of
// block `by`, the value the tree leaves at (ty, tx) (twice the sum of the
// products of rows ty .. ty + span - 1, span the largest power of two <= 16
// dividing ty, 16 for ty == 0) into a scratch buffer with input_hidden's
// layout, and the column sum (the value at (0, ty)) into
// hidden_partial_sum; bpnn_store_tile_ocl copies the scratch back into
// input_hidden at the same index. (The original's reads of other rows
// would race with those rows' stores in one kernel.) bpnn_adjust_weights_ocl
// needs no local memory; its barrier separates stores to different
// elements, so it is dropped. The host is the original's: weights
// flattened into malloc'd arrays, uploads, the partial-sum read back and
// the host layers, the second upload of input_hidden, the final read backs
// of input_ocl and input_hidden.
//
//   backprop [LAYER_SIZE]   (a multiple of 16)
//
// Bytes the ORIGINAL host code moves at in = 1024, hid = 16 (floats;
// weights 1025 x 17 = 17425 floats = 69700 B; 64 blocks):
//   clEnqueueWriteBuffer input_ocl 1025*4 = 4100, input_hidden_ocl 69700
//   clEnqueueReadBuffer  hidden_partial_sum 64*16*4 = 4096
//   clEnqueueWriteBuffer hidden_delta_ocl 17*4 = 68, input_prev_weights_ocl
//   69700, input_hidden_ocl 69700
//   clEnqueueReadBuffer  input_ocl 4100, input_hidden_ocl 69700
//   in 5 (213268 B), out 3 (77896 B).
// Whole-buffer optimum for this port: input_ocl and input_hidden in for
// kernel 1 (2). The scratch is read only where kernel 1 wrote it, and
// hidden_partial_sum is written at every element: no copies. The host
// reads hidden_partial_sum: out 1 (4096). The host writes hidden_delta,
// input_prev_weights and all of input_hidden, which kernel 3 reads: in 3.
// input_ocl is unchanged on the device, so reading it needs no copy; the
// host reads input_hidden after kernel 3: out 1 (69700). The buffers are
// local to the launch function.
//   in 5 (213268 B), out 2 (73796 B), 3 dispatches.
// optimum: to_device 5 to_device_bytes 213268 from_device 2 from_device_bytes 73796
// suite-original: to_device 5 to_device_bytes 213268 from_device 3 from_device_bytes 77896
// ferry-test: args 1024
// Ferry: two of the buffers the kernels write in part hold what they were
// made with (zero) when first needed: fills 2, no bytes on the bus.
// (to_device counts the fills with the copies.)
// ferry-test: to_device 7 to_device_bytes 287064 from_device 2 from_device_bytes 73796
// ferry-test: fills 2 fill_bytes 73796
// ferry-test: dispatches 3
#include "Print.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <vector>

#define THREADS 256
#define WIDTH 16
#define HEIGHT 16
#define ETA 0.3f
#define MOMENTUM 0.3f
#define BLOCK_SIZE 16
#define ABS(x) (((x) > 0.0) ? (x) : (-(x)))

typedef struct {
  int input_n;
  int hidden_n;
  int output_n;
  float *input_units;
  float *hidden_units;
  float *output_units;
  float *hidden_delta;
  float *output_delta;
  float *target;
  float **input_weights;
  float **hidden_weights;
  float **input_prev_weights;
  float **hidden_prev_weights;
} BPNN;

// ---- kernels ---------------------------------------------------------------

FERRY_KERNEL void bpnn_layerforward_ocl(ferry::KernelContext kc, float *input_cuda,
                                        float *output_hidden_cuda, float *input_hidden_cuda,
                                        float *hidden_partial_sum, float *weight_scratch, int in,
                                        int hid) {
  (void)output_hidden_cuda;
  (void)in;
  int by = kc.y / BLOCK_SIZE;
  int tx = kc.x % BLOCK_SIZE;
  int ty = kc.y % BLOCK_SIZE;

  int index = (hid + 1) * HEIGHT * by + (hid + 1) * ty + tx + 1 + (hid + 1);

  // The tree leaves 2 * (rows ty .. ty + span - 1) at (ty, tx).
  int span = HEIGHT;
  for (int i = 2; i <= HEIGHT; i = i * 2)
    if (ty % i != 0) {
      span = i / 2;
      break;
    }
  if (ty == 0)
    span = HEIGHT;
  float value = 0.0f;
  for (int r = ty; r < ty + span; r++) {
    int index_r = (hid + 1) * HEIGHT * by + (hid + 1) * r + tx + 1 + (hid + 1);
    int index_in_r = HEIGHT * by + r + 1;
    value += 2.0f * (input_hidden_cuda[index_r] * input_cuda[index_in_r]);
  }
  weight_scratch[index] = value;

  // weight_matrix[tx * WIDTH + ty] with tx == 0: the sum of column ty.
  if (tx == 0) {
    float column = 0.0f;
    for (int r = 0; r < HEIGHT; r++) {
      int index_r = (hid + 1) * HEIGHT * by + (hid + 1) * r + ty + 1 + (hid + 1);
      int index_in_r = HEIGHT * by + r + 1;
      column += 2.0f * (input_hidden_cuda[index_r] * input_cuda[index_in_r]);
    }
    hidden_partial_sum[by * hid + ty] = column;
  }
}

FERRY_KERNEL void bpnn_store_tile_ocl(ferry::KernelContext kc, float *input_hidden_cuda,
                                      float *weight_scratch, int hid) {
  int by = kc.y / BLOCK_SIZE;
  int tx = kc.x % BLOCK_SIZE;
  int ty = kc.y % BLOCK_SIZE;
  int index = (hid + 1) * HEIGHT * by + (hid + 1) * ty + tx + 1 + (hid + 1);
  input_hidden_cuda[index] = weight_scratch[index];
}

FERRY_KERNEL void bpnn_adjust_weights_ocl(ferry::KernelContext kc, float *delta, int hid,
                                          float *ly, int in, float *w, float *oldw) {
  (void)in;
  int by = kc.y / BLOCK_SIZE;
  int tx = kc.x % BLOCK_SIZE;
  int ty = kc.y % BLOCK_SIZE;

  int index = (hid + 1) * HEIGHT * by + (hid + 1) * ty + tx + 1 + (hid + 1);
  int index_y = HEIGHT * by + ty + 1;
  int index_x = tx + 1;

  w[index] += ((ETA * delta[index_x] * ly[index_y]) + (MOMENTUM * oldw[index]));
  oldw[index] = ((ETA * delta[index_x] * ly[index_y]) + (MOMENTUM * oldw[index]));

  if (ty == 0 && by == 0) {
    w[index_x] += ((ETA * delta[index_x]) + (MOMENTUM * oldw[index_x]));
    oldw[index_x] = ((ETA * delta[index_x]) + (MOMENTUM * oldw[index_x]));
  }
}

// ---- host layers (backprop.c) ------------------------------------------------

static float *alloc_1d_dbl(int n) { return (float *)std::calloc(n, sizeof(float)); }

static float **alloc_2d_dbl(int m, int n) {
  float **p = (float **)std::malloc(m * sizeof(float *));
  for (int i = 0; i < m; i++)
    p[i] = alloc_1d_dbl(n);
  return p;
}

static unsigned lcg_state = 7;
static float drnd() {
  lcg_state = lcg_state * 1103515245u + 12345u;
  return static_cast<float>((lcg_state >> 16) % 1000) / 1000.0f;
}

float squash(float x) { return (1.0 / (1.0 + std::exp(-x))); }

BPNN *bpnn_create(int n_in, int n_hidden, int n_out) {
  BPNN *newnet = (BPNN *)std::malloc(sizeof(BPNN));
  newnet->input_n = n_in;
  newnet->hidden_n = n_hidden;
  newnet->output_n = n_out;
  newnet->input_units = alloc_1d_dbl(n_in + 1);
  newnet->hidden_units = alloc_1d_dbl(n_hidden + 1);
  newnet->output_units = alloc_1d_dbl(n_out + 1);
  newnet->hidden_delta = alloc_1d_dbl(n_hidden + 1);
  newnet->output_delta = alloc_1d_dbl(n_out + 1);
  newnet->target = alloc_1d_dbl(n_out + 1);
  newnet->input_weights = alloc_2d_dbl(n_in + 1, n_hidden + 1);
  newnet->hidden_weights = alloc_2d_dbl(n_hidden + 1, n_out + 1);
  newnet->input_prev_weights = alloc_2d_dbl(n_in + 1, n_hidden + 1);
  newnet->hidden_prev_weights = alloc_2d_dbl(n_hidden + 1, n_out + 1);
  for (int i = 0; i <= n_in; i++)
    for (int j = 0; j <= n_hidden; j++)
      newnet->input_weights[i][j] = drnd() - 0.5f;
  for (int i = 0; i <= n_hidden; i++)
    for (int j = 0; j <= n_out; j++)
      newnet->hidden_weights[i][j] = drnd() - 0.5f;
  for (int i = 1; i <= n_out; i++)
    newnet->target[i] = drnd();
  return newnet;
}

void bpnn_layerforward(float *l1, float *l2, float **conn, int n1, int n2) {
  float sum;
  l1[0] = 1.0;
  for (int j = 1; j <= n2; j++) {
    sum = 0.0;
    for (int k = 0; k <= n1; k++)
      sum += conn[k][j] * l1[k];
    l2[j] = squash(sum);
  }
}

void bpnn_output_error(float *delta, float *target, float *output, int nj, float *err) {
  float o, t, errsum = 0.0;
  for (int j = 1; j <= nj; j++) {
    o = output[j];
    t = target[j];
    delta[j] = o * (1.0 - o) * (t - o);
    errsum += ABS(delta[j]);
  }
  *err = errsum;
}

void bpnn_hidden_error(float *delta_h, int nh, float *delta_o, int no, float **who,
                       float *hidden, float *err) {
  float h, sum, errsum = 0.0;
  for (int j = 1; j <= nh; j++) {
    h = hidden[j];
    sum = 0.0;
    for (int k = 1; k <= no; k++)
      sum += delta_o[k] * who[j][k];
    delta_h[j] = h * (1.0 - h) * sum;
    errsum += ABS(delta_h[j]);
  }
  *err = errsum;
}

void bpnn_adjust_weights(float *delta, int ndelta, float *ly, int nly, float **w, float **oldw) {
  float new_dw;
  ly[0] = 1.0;
  for (int j = 1; j <= ndelta; j++) {
    for (int k = 0; k <= nly; k++) {
      new_dw = ((ETA * delta[j] * ly[k]) + (MOMENTUM * oldw[k][j]));
      w[k][j] += new_dw;
      oldw[k][j] = new_dw;
    }
  }
}

// ---- the launch function (backprop_ocl.cpp) --------------------------------

FERRY_COMPUTE int bpnn_train_kernel(ferry::ComputeContext &cc, BPNN *net, float *eo, float *eh) {
  int in, hid, out;
  float out_err, hid_err;
  in = net->input_n;
  hid = net->hidden_n;
  out = net->output_n;

  float *input_weights_one_dim;
  float *input_weights_prev_one_dim;
  float *partial_sum;
  float sum;
  int num_blocks = in / BLOCK_SIZE;

  input_weights_one_dim = (float *)std::malloc((in + 1) * (hid + 1) * sizeof(float));
  input_weights_prev_one_dim = (float *)std::malloc((in + 1) * (hid + 1) * sizeof(float));
  partial_sum = (float *)std::malloc(num_blocks * WIDTH * sizeof(float));

  int m = 0;
  for (int k = 0; k <= in; k++) {
    for (int j = 0; j <= hid; j++) {
      input_weights_one_dim[m] = net->input_weights[k][j];
      input_weights_prev_one_dim[m] = net->input_prev_weights[k][j];
      m++;
    }
  }

  ferry::Buffer<float> input_ocl(in + 1);
  ferry::Buffer<float> input_hidden_ocl((in + 1) * (hid + 1));
  ferry::Buffer<float> output_hidden_ocl(hid + 1);
  ferry::Buffer<float> hidden_partial_sum(num_blocks * WIDTH);
  ferry::Buffer<float> hidden_delta_ocl(hid + 1);
  ferry::Buffer<float> input_prev_weights_ocl((in + 1) * (hid + 1));
  ferry::Buffer<float> weight_scratch((in + 1) * (hid + 1));

  std::copy(net->input_units, net->input_units + (in + 1), input_ocl.begin());
  std::copy(input_weights_one_dim, input_weights_one_dim + (in + 1) * (hid + 1),
            input_hidden_ocl.begin());

  cc.dispatch(bpnn_layerforward_ocl, ferry::Range(BLOCK_SIZE, BLOCK_SIZE * num_blocks),
              input_ocl, output_hidden_ocl, input_hidden_ocl, hidden_partial_sum,
              weight_scratch, in, hid);
  cc.dispatch(bpnn_store_tile_ocl, ferry::Range(BLOCK_SIZE, BLOCK_SIZE * num_blocks),
              input_hidden_ocl, weight_scratch, hid);

  std::copy(hidden_partial_sum.begin(), hidden_partial_sum.end(), partial_sum);

  for (int j = 1; j <= hid; j++) {
    sum = 0.0;
    for (int k = 0; k < num_blocks; k++) {
      sum += partial_sum[k * hid + j - 1];
    }
    sum += net->input_weights[0][j];
    net->hidden_units[j] = float(1.0 / (1.0 + std::exp(-sum)));
  }

  bpnn_layerforward(net->hidden_units, net->output_units, net->hidden_weights, hid, out);
  bpnn_output_error(net->output_delta, net->target, net->output_units, out, &out_err);
  bpnn_hidden_error(net->hidden_delta, hid, net->output_delta, out, net->hidden_weights,
                    net->hidden_units, &hid_err);
  bpnn_adjust_weights(net->output_delta, out, net->hidden_units, hid, net->hidden_weights,
                      net->hidden_prev_weights);
  *eo = out_err;
  *eh = hid_err;

  std::copy(net->hidden_delta, net->hidden_delta + (hid + 1), hidden_delta_ocl.begin());
  std::copy(input_weights_prev_one_dim, input_weights_prev_one_dim + (in + 1) * (hid + 1),
            input_prev_weights_ocl.begin());
  std::copy(input_weights_one_dim, input_weights_one_dim + (in + 1) * (hid + 1),
            input_hidden_ocl.begin());

  cc.dispatch(bpnn_adjust_weights_ocl, ferry::Range(BLOCK_SIZE, BLOCK_SIZE * num_blocks),
              hidden_delta_ocl, hid, input_ocl, in, input_hidden_ocl, input_prev_weights_ocl);

  std::copy(input_ocl.begin(), input_ocl.end(), net->input_units);
  std::copy(input_hidden_ocl.begin(), input_hidden_ocl.end(), input_weights_one_dim);

  std::printf("out_err, hid_err:");
  printRounded(out_err);
  printRounded(hid_err);
  std::printf("\n");
  printApprox("hidden_units", net->hidden_units, hid + 1);
  printApprox("input_units", net->input_units, in + 1);
  printApprox("input_weights", input_weights_one_dim, (in + 1) * (hid + 1));

  std::free(input_weights_prev_one_dim);
  std::free(partial_sum);
  std::free(input_weights_one_dim);
  return 0;
}

int main(int argc, char **argv) {
  int layer_size = argc > 1 ? std::atoi(argv[1]) : 1024;
  if (layer_size % 16 != 0) {
    std::printf("The number of input points must be divided by 16\n");
    return 0;
  }
  BPNN *net = bpnn_create(layer_size, 16, 1);
  std::printf("Input layer size : %d\n", layer_size);
  for (int k = 1; k <= layer_size; k++) // load(): random inputs
    net->input_units[k] = drnd();
  float out_err, hid_err;
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { bpnn_train_kernel(cc, net, &out_err, &hid_err); });
  std::printf("Finish the training for one iteration\n");
}

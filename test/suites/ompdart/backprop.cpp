// OMPDart evaluation benchmark "backprop" (Rodinia backprop, OpenMP
// offload), written anew in Ferry's dialect. Original:
// github.com/lmarzen/ompdart, evaluation/src/backprop-omp/main.cpp
// (bpnn_train_kernel, the authors' hand-mapped version; main_stripped.cpp is
// the unannotated input) with the host code of backprop.cpp, facetrain.cpp
// and imagenet.cpp, here in one file.
//
// The BPNN struct keeps its host arrays; input_units and hidden_delta, which
// the original maps, are ferry::Buffer pointers in it. bpnn_train_kernel is
// the compute function, called by backprop_face as in the original.
// Kernel 1 (layerforward) uses team-shared arrays and barriers, which Ferry
// does not have yet: the nearest race-free version runs one work-item per
// team `by`, doing the 16 x 16 block in private arrays in the original's
// order (the tree reduction step by step, each step over ty in order; no
// element read in a step is written in it), storing input_weights[index]
// and partial_sum[by * hid + ty] as the original does. Kernel 2 (adjust
// weights) needs no barrier once its row-0 update (only by == 0, ty == 0,
// on elements no other work-item touches) is in the same work-item: a 3-D
// range (tx, ty, by). The original's `target update to(input_weights)`,
// which restores the device copy from the untouched host copy, becomes the
// original's own one-dim copy loop run again on the host (Ferry has no
// "push the host copy again"). rand() is replaced by formulas. At the end
// the host prints input_weights (the original's OUTPUT block) and the
// hidden units.
//
//   backprop LAYER_SIZE    (a multiple of 16)
//
// Bytes the ORIGINAL host code moves at 1024 inputs, 16 hidden units
// (in + 1 = 1025, hid + 1 = 17, num_blocks = 64, floats):
//   target data map(to: input)                  1025*4 =  4100
//               map(to: hidden_delta)             17*4 =    68
//               map(to: input_prev_weights)  1025*17*4 = 69700
//               map(tofrom: input_weights)             69700 in, 69700 out
//   target update from(partial_sum)            64*16*4 =  4096
//   target update to(input_weights)                      69700
//   in 5 (213268 B), out 2 (73796 B).
// Whole-buffer optimum of this port: kernel 1 reads input and
// input_weights (host-written): in 2 (73800 B); it writes every element of
// partial_sum (64 x 16), which the host reads: out 1 (4096 B). The host
// then rewrites every element of input_weights (the restore loop), so the
// device's values need not come back first; kernel 2 reads it again
// (69700 B), hidden_delta (written by bpnn_hidden_error on the host: 68 B)
// and input_prev_weights (host-zeroed: 69700 B): in 3. The host prints
// input_weights: out 1 (69700 B). 2 dispatches.
//   in 5 (213268 B), out 2 (73796 B): equal to the original.
// suite-original: to_device 5 to_device_bytes 213268 from_device 2 from_device_bytes 73796
// ferry-test: args 1024
// ferry-test: to_device 5 to_device_bytes 213268 from_device 2 from_device_bytes 73796
// ferry-test: dispatches 2
#include "Print.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

#define BIGRND 0x7fffffff
#define WIDTH 16  // shared memory width
#define HEIGHT 16 // shared memory height
#define BLOCK_SIZE 16
#define ETA 0.3f      // eta value
#define MOMENTUM 0.3f // momentum value

#define ABS(x) (((x) > 0.0) ? (x) : (-(x)))

typedef struct {
  int input_n;                        /* number of input units */
  int hidden_n;                       /* number of hidden units */
  int output_n;                       /* number of output units */
  ferry::Buffer<float> *input_units;  /* the input units */
  float *hidden_units;                /* the hidden units */
  float *output_units;                /* the output units */
  ferry::Buffer<float> *hidden_delta; /* storage for hidden unit error */
  float *output_delta;                /* storage for output unit error */
  float *target;                      /* storage for target vector */
  float **input_weights;              /* weights from input to hidden layer */
  float **hidden_weights;             /* weights from hidden to output layer */
  float **input_prev_weights;         /* previous change on input to hidden wgt */
  float **hidden_prev_weights;        /* previous change on hidden to output wgt */
} BPNN;

int layer_size = 0;
static unsigned next_rand = 7;

// Stands in for rand() / RAND_MAX: a small deterministic sequence.
float frand() {
  next_rand = (next_rand * 1103u + 12345u) % 1000u;
  return next_rand / 1000.0f;
}

float squash(float x) { return (1.0 / (1.0 + exp(-x))); }

float *alloc_1d_dbl(int n) { return (float *)malloc((unsigned)(n * sizeof(float))); }

float **alloc_2d_dbl(int m, int n) {
  float **new_t = (float **)malloc((unsigned)(m * sizeof(float *)));
  for (int i = 0; i < m; i++)
    new_t[i] = alloc_1d_dbl(n);
  return (new_t);
}

void bpnn_randomize_weights(float **w, int m, int n) {
  for (int i = 0; i <= m; i++)
    for (int j = 0; j <= n; j++)
      w[i][j] = frand();
}

void bpnn_randomize_row(float *w, int m) {
  for (int i = 0; i <= m; i++)
    w[i] = 0.1;
}

void bpnn_zero_weights(float **w, int m, int n) {
  for (int i = 0; i <= m; i++)
    for (int j = 0; j <= n; j++)
      w[i][j] = 0.0;
}

BPNN *bpnn_internal_create(int n_in, int n_hidden, int n_out) {
  BPNN *newnet = (BPNN *)malloc(sizeof(BPNN));
  newnet->input_n = n_in;
  newnet->hidden_n = n_hidden;
  newnet->output_n = n_out;
  newnet->input_units = new ferry::Buffer<float>(n_in + 1);
  newnet->hidden_units = alloc_1d_dbl(n_hidden + 1);
  newnet->output_units = alloc_1d_dbl(n_out + 1);
  newnet->hidden_delta = new ferry::Buffer<float>(n_hidden + 1);
  newnet->output_delta = alloc_1d_dbl(n_out + 1);
  newnet->target = alloc_1d_dbl(n_out + 1);
  newnet->input_weights = alloc_2d_dbl(n_in + 1, n_hidden + 1);
  newnet->hidden_weights = alloc_2d_dbl(n_hidden + 1, n_out + 1);
  newnet->input_prev_weights = alloc_2d_dbl(n_in + 1, n_hidden + 1);
  newnet->hidden_prev_weights = alloc_2d_dbl(n_hidden + 1, n_out + 1);
  return (newnet);
}

void bpnn_free(BPNN *net) {
  int n1 = net->input_n, n2 = net->hidden_n;
  delete net->input_units;
  free(net->hidden_units);
  free(net->output_units);
  delete net->hidden_delta;
  free(net->output_delta);
  free(net->target);
  for (int i = 0; i <= n1; i++) {
    free(net->input_weights[i]);
    free(net->input_prev_weights[i]);
  }
  free(net->input_weights);
  free(net->input_prev_weights);
  for (int i = 0; i <= n2; i++) {
    free(net->hidden_weights[i]);
    free(net->hidden_prev_weights[i]);
  }
  free(net->hidden_weights);
  free(net->hidden_prev_weights);
  free(net);
}

BPNN *bpnn_create(int n_in, int n_hidden, int n_out) {
  BPNN *newnet = bpnn_internal_create(n_in, n_hidden, n_out);
  bpnn_randomize_weights(newnet->input_weights, n_in, n_hidden);
  bpnn_randomize_weights(newnet->hidden_weights, n_hidden, n_out);
  bpnn_zero_weights(newnet->input_prev_weights, n_in, n_hidden);
  bpnn_zero_weights(newnet->hidden_prev_weights, n_hidden, n_out);
  bpnn_randomize_row(newnet->target, n_out);
  return (newnet);
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

// Kernel 1, one work-item per team `by` (see the opening comment).
FERRY_KERNEL void layerforward(ferry::KernelContext kc, const float *input, float *input_weights,
                               float *partial_sum, int hid) {
  float input_node[HEIGHT];
  float weight_matrix[HEIGHT * WIDTH];
  const int by = kc.x;
  for (int ty = 0; ty < HEIGHT; ty++) {
    int index_in = HEIGHT * by + ty + 1;
    input_node[ty] = input[index_in];
  }
  for (int ty = 0; ty < HEIGHT; ty++)
    for (int tx = 0; tx < WIDTH; tx++) {
      int index = (hid + 1) * HEIGHT * by + (hid + 1) * ty + tx + 1 + (hid + 1);
      weight_matrix[ty * WIDTH + tx] = input_weights[index];
    }
  for (int ty = 0; ty < HEIGHT; ty++)
    for (int tx = 0; tx < WIDTH; tx++)
      weight_matrix[ty * WIDTH + tx] = weight_matrix[ty * WIDTH + tx] * input_node[ty];
  for (int i = 1; i <= HEIGHT; i = i * 2) {
    int power_two = i;
    for (int ty = 0; ty < HEIGHT; ty++)
      for (int tx = 0; tx < WIDTH; tx++)
        if (ty % power_two == 0)
          weight_matrix[ty * WIDTH + tx] =
              weight_matrix[ty * WIDTH + tx] + weight_matrix[(ty + power_two / 2) * WIDTH + tx];
  }
  for (int ty = 0; ty < HEIGHT; ty++)
    for (int tx = 0; tx < WIDTH; tx++) {
      int index = (hid + 1) * HEIGHT * by + (hid + 1) * ty + tx + 1 + (hid + 1);
      input_weights[index] = weight_matrix[ty * WIDTH + tx];
    }
  for (int ty = 0; ty < HEIGHT; ty++) {
    const int tx = 0;
    partial_sum[by * hid + ty] = weight_matrix[tx * WIDTH + ty];
  }
}

// Kernel 2: (tx, ty, by) = (kc.x, kc.y, kc.z).
FERRY_KERNEL void adjust_weights(ferry::KernelContext kc, float *input_weights,
                                 float *input_prev_weights, const float *hidden_delta,
                                 const float *input, int hid) {
  int by = kc.z;
  int tx = kc.x;
  int ty = kc.y;
  int index = (hid + 1) * HEIGHT * by + (hid + 1) * ty + tx + 1 + (hid + 1);
  int index_y = HEIGHT * by + ty + 1;
  int index_x = tx + 1;
  input_weights[index] += ((ETA * hidden_delta[index_x] * input[index_y]) +
                           (MOMENTUM * input_prev_weights[index]));
  input_prev_weights[index] = ((ETA * hidden_delta[index_x] * input[index_y]) +
                               (MOMENTUM * input_prev_weights[index]));
  if (ty == 0 && by == 0) {
    input_weights[index_x] +=
        ((ETA * hidden_delta[index_x]) + (MOMENTUM * input_prev_weights[index_x]));
    input_prev_weights[index_x] =
        ((ETA * hidden_delta[index_x]) + (MOMENTUM * input_prev_weights[index_x]));
  }
}

FERRY_COMPUTE void bpnn_train_kernel(ferry::ComputeContext &cc, BPNN *net, float *eo, float *eh) {
  int in, hid, out;
  float out_err, hid_err;

  in = net->input_n;
  hid = net->hidden_n;
  out = net->output_n;

  float sum;
  unsigned int num_blocks = in / BLOCK_SIZE;

  ferry::Buffer<float> input_weights_one_dim((in + 1) * (hid + 1));
  ferry::Buffer<float> input_weights_prev_one_dim((in + 1) * (hid + 1));
  ferry::Buffer<float> partial_sum(num_blocks * WIDTH);

  // this preprocessing stage is temporarily added to correct the bug of wrong
  // memcopy using two-dimensional net->inputweights
  int m = 0;
  for (int k = 0; k <= in; k++) {
    for (int j = 0; j <= hid; j++) {
      input_weights_one_dim[m] = net->input_weights[k][j];
      input_weights_prev_one_dim[m] = net->input_prev_weights[k][j];
      m++;
    }
  }

  printf("Performing GPU computation\n");

  ferry::Buffer<float> &input = *net->input_units;
  ferry::Buffer<float> &input_weights = input_weights_one_dim;
  ferry::Buffer<float> &input_prev_weights = input_weights_prev_one_dim;
  ferry::Buffer<float> &hidden_delta = *net->hidden_delta;

  cc.dispatch(layerforward, ferry::Range(num_blocks), input, input_weights, partial_sum, hid);

  for (int j = 1; j <= hid; j++) {
    sum = 0.0;
    for (unsigned int k = 0; k < num_blocks; k++) {
      sum += partial_sum[k * hid + j - 1];
    }
    sum += net->input_weights[0][j];
    net->hidden_units[j] = float(1.0 / (1.0 + exp(-sum)));
  }

  bpnn_layerforward(net->hidden_units, net->output_units, net->hidden_weights, hid, out);
  bpnn_output_error(net->output_delta, net->target, net->output_units, out, &out_err);
  bpnn_hidden_error(net->hidden_delta->data(), hid, net->output_delta, out, net->hidden_weights,
                    net->hidden_units, &hid_err);
  bpnn_adjust_weights(net->output_delta, out, net->hidden_units, hid, net->hidden_weights,
                      net->hidden_prev_weights);

  // input_weights has been written in the first kernel, so it needs to be
  // restored (the original's `target update to` from the host copy).
  m = 0;
  for (int k = 0; k <= in; k++) {
    for (int j = 0; j <= hid; j++) {
      input_weights_one_dim[m] = net->input_weights[k][j];
      m++;
    }
  }

  cc.dispatch(adjust_weights, ferry::Range(BLOCK_SIZE, BLOCK_SIZE, num_blocks), input_weights,
              input_prev_weights, hidden_delta, input, hid);

  *eo = out_err;
  *eh = hid_err;
  // the original's OUTPUT block
  printApprox("input_weights", input_weights_one_dim);
  printApprox("hidden_units", net->hidden_units, hid + 1);
}

void load(BPNN *net) {
  int nr = layer_size;
  ferry::Buffer<float> &units = *net->input_units;
  int k = 1;
  for (int i = 0; i < nr; i++) {
    units[k] = frand();
    k++;
  }
}

void backprop_face() {
  BPNN *net;
  float out_err, hid_err;
  net = bpnn_create(layer_size, 16, 1); // (16, 1 can not be changed)
  printf("Input layer size : %d\n", layer_size);
  load(net);
  // entering the training kernel, only one iteration
  printf("Starting training kernel\n");
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { bpnn_train_kernel(cc, net, &out_err, &hid_err); });
  printf("errors:");
  printRounded(out_err);
  printRounded(hid_err);
  printf("\n");
  bpnn_free(net);
  printf("\nFinish the training for one iteration\n");
}

void setup(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: backprop <num of input elements>\n");
    exit(-1);
  }
  layer_size = atoi(argv[1]);
  if (layer_size % 16 != 0) {
    fprintf(stderr, "The number of input points must be divided by 16\n");
    exit(-1);
  }
  backprop_face();
}

int main(int argc, char **argv) {
  setup(argc, argv);
  return 0;
}

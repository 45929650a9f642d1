// Parboil sad (sum of absolute differences for H.264 motion estimation),
// OpenCL base version, written anew in Ferry's dialect. Original:
// github.com/abduld/Parboil, benchmarks/sad/src/opencl_base/main.cpp (host),
// kernel.cl (mb_sad_calc, larger_sad_calc_8, larger_sad_calc_16), sad.h.
//
// For every 16x16 macroblock of the current frame and each of the 33 x 33
// search positions around it, the first kernel computes the SADs of the 16
// 4x4 sub-blocks against the reference frame; the second combines them into
// 8x4, 4x8 and 8x8 SADs, the third into 16x8, 8x16 and 16x16. All 41 SAD
// arrays of all macroblocks live in one buffer of unsigned shorts, laid out
// by block type as in sad.h, and each kernel writes its own parts of it. The
// original's work-groups (61 x 1, 32 x 4 and 32 x 1 items) are the same
// arithmetic on the global ids. The combining kernels handle two search
// positions per item; the original adds them packed in one uint (its
// UINT_CUDA_V path), here as two unsigned shorts (its SCALAR path), the
// same sums since no SAD of 8-bit pixels overflows 16 bits. The frames are
// generated: 8-bit pixels, the current frame the reference moved by (3, -2)
// with a little noise.
//
//   sad [MB_WIDTH MB_HEIGHT]
//
// Bytes the ORIGINAL host code moves at 2 x 2 macroblocks (32 x 32 pixels,
// unsigned short each; 41 * 1096 * 4 SADs of 2 B = 359488 B):
//   clEnqueueWriteBuffer imgRef                       32*32*2 =   2048
//   clCreateBuffer(CL_MEM_COPY_HOST_PTR) d_sads (zeros)          359488
//   clCreateBuffer(CL_MEM_COPY_HOST_PTR) d_cur_image  32*32*2 =   2048
//   clEnqueueReadBuffer d_sads                                   359488
//   in 3 (363584 B), out 1 (359488 B).
// Whole-buffer optimum: both frames are host-written and read by the first
// kernel: in (2). The SAD buffer is only partly written (padding between
// the 1089 positions and the 1096 of a padded array), and the combining
// kernels read position 1089, which no kernel writes, so its zeros must be
// on the device: in (1). The host reads the SADs: out (1).
//   in 3 (363584 B), out 1 (359488 B), 3 dispatches: equal to the original.
// suite-original: to_device 3 to_device_bytes 363584 from_device 1 from_device_bytes 359488
// ferry-test: args 2 2
// Fills: 1 of the copies in above (359488 B) is of a buffer still
// holding what it was made with (`Buffer<T> b(n)` or `b(n, v)`, not handed
// out since): the device fills it, so no byte crosses the bus; to_device
// counts it like any copy in, and fills again.
// ferry-test: to_device 3 to_device_bytes 363584 from_device 1 from_device_bytes 359488
// ferry-test: fills 1 fill_bytes 359488
// ferry-test: dispatches 3
#include "Print.h"

#include <cstdlib>

constexpr int SEARCH_RANGE = 16;
constexpr int SEARCH_DIMENSION = 2 * SEARCH_RANGE + 1;
constexpr int MAX_POS = 1089;        // SEARCH_DIMENSION^2
constexpr int MAX_POS_PADDED = 1096; // rounded up to a multiple of 8
constexpr int CEIL_POS = 61;         // items per 4x4 block in mb_sad_calc
constexpr int POS_PER_THREAD = 18;   // search positions per item

using ushort = unsigned short;

// One item: POS_PER_THREAD search positions of one 4x4 block.
FERRY_KERNEL void mb_sad_calc(ferry::KernelContext kc, ushort *blk_sad, const ushort *frame,
                              int mb_width, int mb_height, const ushort *img_ref) {
  const int bx = kc.x / CEIL_POS; // the original's group ids (THREADS_W = THREADS_H = 1)
  const int by = kc.y;
  const int lidx = kc.x % CEIL_POS;
  const int img_width = mb_width * 16;
  // Macroblock and sub-block coordinates
  const int mb_x = bx >> 2;
  const int mb_y = by >> 2;
  const int block_x = bx & 0x03;
  const int block_y = by & 0x03;
  if (mb_x < mb_width && mb_y < mb_height) {
    // Pixel offset of the origin of the current 4x4 block
    const int frame_x = ((mb_x << 2) + block_x) << 2;
    const int frame_y = ((mb_y << 2) + block_y) << 2;
    // Origin of the search area for this 4x4 block
    const int ref_x = frame_x - SEARCH_RANGE;
    const int ref_y = frame_y - SEARCH_RANGE;
    const int cur_o = frame_y * img_width + frame_x;
    const int search_pos_base = lidx * POS_PER_THREAD;
    int search_pos_end = search_pos_base + POS_PER_THREAD;
    if (search_pos_end > MAX_POS)
      search_pos_end = MAX_POS;
    for (int search_pos = search_pos_base; search_pos < search_pos_end; search_pos++) {
      ushort sad4x4 = 0;
      const int search_off_x = ref_x + (search_pos % SEARCH_DIMENSION);
      const int search_off_y = ref_y + (search_pos / SEARCH_DIMENSION);
      for (int y = 0; y < 4; y++) {
        for (int x = 0; x < 4; x++) {
          int sx = search_off_x + x;
          sx = (sx < 0) ? 0 : sx;
          sx = (sx >= img_width) ? img_width - 1 : sx;
          int sy = search_off_y + y;
          sy = (sy < 0) ? 0 : sy;
          sy = (sy >= mb_height * 16) ? mb_height * 16 - 1 : sy;
          sad4x4 = static_cast<ushort>(
              sad4x4 + std::abs(static_cast<int>(img_ref[sx + sy * img_width]) -
                                static_cast<int>(frame[cur_o + y * img_width + x])));
        }
      }
      blk_sad[mb_width * mb_height * MAX_POS_PADDED * (9 + 16) +
              (mb_y * mb_width + mb_x) * MAX_POS_PADDED * 16 +
              (4 * block_y + block_x) * MAX_POS_PADDED + search_pos] = sad4x4;
    }
  }
}

// 4x4 SADs -> 4x8 (type 6), 8x4 (type 5) and 8x8 (type 4). Item: 2 search
// positions of one quarter (tx, ty) of one macroblock.
FERRY_KERNEL void larger_sad_calc_8(ferry::KernelContext kc, ushort *blk_sad, int mb_width,
                                    int mb_height) {
  const int tx = (kc.y % 4) & 1; // local id (1) of a 32 x 4 group
  const int ty = (kc.y % 4) >> 1;
  const int mb_x = kc.x / 32;
  const int mb_y = kc.y / 4;
  const int lidx = kc.x % 32;
  const int macroblocks = mb_width * mb_height;
  const int macroblock_index = (mb_y * mb_width + mb_x) * MAX_POS_PADDED;
  const int bi = (macroblocks * 25 + (ty * 8 + tx * 2)) * MAX_POS_PADDED + macroblock_index * 16;
  const int bo_6 = (macroblocks * 17 + (ty * 4 + tx * 2)) * MAX_POS_PADDED + macroblock_index * 8;
  const int bo_5 = (macroblocks * 9 + (ty * 4 + tx)) * MAX_POS_PADDED + macroblock_index * 8;
  const int bo_4 = (macroblocks * 5 + (ty * 2 + tx)) * MAX_POS_PADDED + macroblock_index * 4;
  for (int search_pos = lidx; search_pos < (MAX_POS + 1) / 2; search_pos += 32) {
    for (int half = 0; half < 2; half++) {
      const int p = search_pos * 2 + half;
      const ushort s00 = blk_sad[bi + p];
      const ushort s01 = blk_sad[bi + p + MAX_POS_PADDED];
      const ushort s10 = blk_sad[bi + p + 4 * MAX_POS_PADDED];
      const ushort s11 = blk_sad[bi + p + 5 * MAX_POS_PADDED];
      blk_sad[bo_6 + p] = static_cast<ushort>(s00 + s10);
      blk_sad[bo_6 + p + MAX_POS_PADDED] = static_cast<ushort>(s01 + s11);
      blk_sad[bo_5 + p] = static_cast<ushort>(s00 + s01);
      blk_sad[bo_5 + p + 2 * MAX_POS_PADDED] = static_cast<ushort>(s10 + s11);
      blk_sad[bo_4 + p] = static_cast<ushort>((s00 + s01) + (s10 + s11));
    }
  }
}

// 8x8 SADs -> 8x16 (type 3), 16x8 (type 2) and 16x16 (type 1). Item: 2
// search positions of one macroblock.
FERRY_KERNEL void larger_sad_calc_16(ferry::KernelContext kc, ushort *blk_sad, int mb_width,
                                     int mb_height) {
  const int mb_x = kc.x / 32;
  const int mb_y = kc.y;
  const int macroblocks = mb_width * mb_height * MAX_POS_PADDED;
  const int macroblock_index = (mb_y * mb_width + mb_x) * MAX_POS_PADDED;
  const int bi = ((macroblocks + macroblock_index) << 2) + macroblocks;
  const int bo_3 = ((macroblocks + macroblock_index) << 1) + macroblocks;
  const int bo_2 = macroblocks + macroblock_index * 2;
  const int bo_1 = macroblock_index;
  for (int search_pos = kc.x % 32; search_pos < (MAX_POS + 1) / 2; search_pos += 32) {
    for (int half = 0; half < 2; half++) {
      const int p = search_pos * 2 + half;
      const ushort s00 = blk_sad[bi + p];
      const ushort s01 = blk_sad[bi + p + MAX_POS_PADDED];
      const ushort s10 = blk_sad[bi + p + 2 * MAX_POS_PADDED];
      const ushort s11 = blk_sad[bi + p + 3 * MAX_POS_PADDED];
      blk_sad[bo_3 + p] = static_cast<ushort>(s00 + s10);
      blk_sad[bo_3 + p + MAX_POS_PADDED] = static_cast<ushort>(s01 + s11);
      blk_sad[bo_2 + p] = static_cast<ushort>(s00 + s01);
      blk_sad[bo_2 + p + MAX_POS_PADDED] = static_cast<ushort>(s10 + s11);
      blk_sad[bo_1 + p] = static_cast<ushort>((s00 + s01) + (s10 + s11));
    }
  }
}

FERRY_COMPUTE void sad(ferry::ComputeContext &cc, ferry::Buffer<ushort> &d_sads,
                       ferry::Buffer<ushort> &d_cur_image, ferry::Buffer<ushort> &imgRef,
                       int mb_width, int mb_height) {
  // Run the 4x4 kernel: 61 items per 4x4 block.
  cc.dispatch(mb_sad_calc, ferry::Range(CEIL_POS * mb_width * 4, mb_height * 4), d_sads,
              d_cur_image, mb_width, mb_height, imgRef);
  // Run the larger-blocks kernels.
  cc.dispatch(larger_sad_calc_8, ferry::Range(mb_width * 32, mb_height * 4), d_sads, mb_width,
              mb_height);
  cc.dispatch(larger_sad_calc_16, ferry::Range(mb_width * 32, mb_height), d_sads, mb_width,
              mb_height);
}

int main(int argc, char **argv) {
  const int mbw = argc > 1 ? std::atoi(argv[1]) : 2;
  const int mbh = argc > 2 ? std::atoi(argv[2]) : 2;
  const int w = mbw * 16, h = mbh * 16;
  ferry::Buffer<ushort> ref(w * h), cur(w * h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      ref[y * w + x] = static_cast<ushort>((x * x * 3 + y * 7 + x * y) % 256);
      const int sx = (x + 3) % w, sy = (y + h - 2) % h;
      cur[y * w + x] = static_cast<ushort>(
          ((sx * sx * 3 + sy * 7 + sx * sy) % 256 + (x * 5 + y * 3) % 3) % 256);
    }
  ferry::Buffer<ushort> sads(41 * MAX_POS_PADDED * mbw * mbh);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { sad(cc, sads, cur, ref, mbw, mbh); });
  // Per macroblock, the best 16x16 (type 1) search position.
  for (int mb = 0; mb < mbw * mbh; ++mb) {
    int best = 0;
    for (int p = 1; p < MAX_POS; ++p)
      if (sads[mb * MAX_POS_PADDED + p] < sads[mb * MAX_POS_PADDED + best])
        best = p;
    std::printf("macroblock %d: best offset (%d, %d) sad %d\n", mb,
                best % SEARCH_DIMENSION - SEARCH_RANGE, best / SEARCH_DIMENSION - SEARCH_RANGE,
                sads[mb * MAX_POS_PADDED + best]);
  }
  printExact("sads", sads);
}

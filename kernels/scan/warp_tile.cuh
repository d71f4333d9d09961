// A tile in which each warp owns a run of 32 x kItems consecutive elements.
// The warp reads its run with coalesced warp-striped loads, 16 bytes per
// lane when the run is whole and aligned, and transposes it through its own
// slice of shared memory so that each lane holds kItems consecutive
// elements; stores go back the same way. Only __syncwarp orders the slice:
// no warp waits for the rest of the block to load or store (StagedTile
// has two block-wide barriers on the load and one on the store).
#pragma once

#include <cstring>

#include "kernels/scan/scan_common.cuh"

namespace gpubench::scan {

template <class T, class Op, int kItems>
struct WarpTile {
  static constexpr int kWarpElements = 32 * kItems;
  static constexpr int kSharedElements = padded(kWarpElements);  // per warp
  static constexpr int kVec = 16 / sizeof(T);                     // elements per 16-byte load
  static_assert(kItems % kVec == 0, "a lane's items must be whole 16-byte pieces");

  // run[0..count) into registers, the identity past count (count may be <= 0
  // for a warp past the end). slice: this warp's kSharedElements.
  __device__ static void load(const T* run, int count, T* slice, T (&v)[kItems]) {
    const int lane = threadIdx.x % 32;
    if (whole(run, count)) {
      const uint4* src = reinterpret_cast<const uint4*>(run);
      uint4 piece[kItems / kVec];
#pragma unroll
      for (int j = 0; j < kItems / kVec; ++j) piece[j] = src[j * 32 + lane];  // all in flight at once
#pragma unroll
      for (int j = 0; j < kItems / kVec; ++j) {
        T e[kVec];
        memcpy(e, &piece[j], sizeof e);
#pragma unroll
        for (int i = 0; i < kVec; ++i) slice[padded((j * 32 + lane) * kVec + i)] = e[i];
      }
    } else {
#pragma unroll
      for (int j = 0; j < kItems; ++j) {
        const int e = j * 32 + lane;
        slice[padded(e)] = e < count ? run[e] : Op::template identity<T>();
      }
    }
    __syncwarp();
#pragma unroll
    for (int j = 0; j < kItems; ++j) v[j] = slice[padded(lane * kItems + j)];
    __syncwarp();
  }

  // Registers to run[0..count).
  __device__ static void store(T* run, int count, T* slice, const T (&v)[kItems]) {
    const int lane = threadIdx.x % 32;
#pragma unroll
    for (int j = 0; j < kItems; ++j) slice[padded(lane * kItems + j)] = v[j];
    __syncwarp();
    if (whole(run, count)) {
      uint4* dst = reinterpret_cast<uint4*>(run);
#pragma unroll
      for (int j = 0; j < kItems / kVec; ++j) {
        T e[kVec];
#pragma unroll
        for (int i = 0; i < kVec; ++i) e[i] = slice[padded((j * 32 + lane) * kVec + i)];
        uint4 piece;
        memcpy(&piece, e, sizeof piece);
        dst[j * 32 + lane] = piece;
      }
    } else {
#pragma unroll
      for (int j = 0; j < kItems; ++j) {
        const int e = j * 32 + lane;
        if (e < count) run[e] = slice[padded(e)];
      }
    }
  }

 private:
  __device__ static bool whole(const void* run, int count) {
    return count >= kWarpElements && reinterpret_cast<std::uintptr_t>(run) % 16 == 0;
  }
};

}  // namespace gpubench::scan

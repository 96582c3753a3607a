// The x86-64-v3 (AVX2, FMA) build of every kernel. On x86-64 Linux the build uses the assembly
// generated from this file, x86_64/KernelsV3.S; the C compiles only with OC_PORTABLE_KERNELS.
#include "Dispatch.h"

#if OC_KERNEL_LEVELS && !OC_GENERATED_KERNELS
#define OC_SUFFIX _v3
#pragma clang attribute push(__attribute__((target(OC_TARGET_V3))), apply_to = function)
#include "Kernels/All.h"
#pragma clang attribute pop
#endif

// The x86-64-v4 (AVX-512) build of every kernel. On x86-64 Linux the build uses the assembly
// generated from this file, x86_64/KernelsV4.S; the C compiles only with OC_PORTABLE_KERNELS.
#include "Dispatch.h"

#if OC_KERNEL_LEVELS && !OC_GENERATED_KERNELS
#define OC_SUFFIX _v4
#pragma clang attribute push(__attribute__((target(OC_TARGET_V4))), apply_to = function)
#include "Kernels/All.h"
#pragma clang attribute pop
#endif

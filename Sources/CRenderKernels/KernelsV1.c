// The baseline build of every kernel: x86-64 (SSE2) next to the v3 and v4 builds, or the
// only build, for the compiler's target, on other architectures and with OC_NO_CLONES. On
// x86-64 and aarch64 Linux the build uses the assembly generated from this file,
// x86_64/KernelsV1.S and aarch64/KernelsV1.S; the C compiles only elsewhere or with
// OC_PORTABLE_KERNELS or OC_NO_CLONES.
#include "Dispatch.h"

#if !OC_GENERATED_KERNELS
#define OC_SUFFIX _v1
#include "Kernels/All.h"
#endif

#include "CRenderKernels.h"
#include "Dispatch.h"

const char *oc_render_kernel_level(void) {
#if OC_KERNEL_LEVELS
    // The build every dispatcher picks (Dispatch.c).
    switch (oc_kernel_cpu_level()) {
    case 4: return "x86-64-v4";
    case 3: return "x86-64-v3";
    default: return "x86-64";
    }
#elif defined(__aarch64__)
    return "arm64";
#else
    return "baseline";
#endif
}

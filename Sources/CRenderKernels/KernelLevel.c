#include "CRenderKernels.h"
#include "Dispatch.h"

const char *oc_render_kernel_level(void) {
#if defined(__x86_64__) && defined(__linux__) && !defined(OC_NO_CLONES)
    // The same rule the loader applies to the target_clones versions: the best one the CPU runs.
    __builtin_cpu_init();
    if (__builtin_cpu_supports("x86-64-v4")) return "x86-64-v4";
    if (__builtin_cpu_supports("x86-64-v3")) return "x86-64-v3";
    return "x86-64";
#elif defined(__aarch64__)
    return "arm64";
#else
    return "baseline";
#endif
}

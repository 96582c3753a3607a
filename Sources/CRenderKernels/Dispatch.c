// One dispatcher per kernel: the public name calls the build chosen on its first call (see
// Dispatch.h). A function pointer chosen by `__builtin_cpu_supports`, not an ifunc: glibc
// runs ifunc resolvers while relocating, before ThreadSanitizer's runtime is up, and TSan
// builds crashed there. Relaxed atomics suffice: two threads racing to choose compute the
// same answer, and the pointer is all that is shared.
#include "CRenderKernels.h"
#include "Dispatch.h"

#include <stdatomic.h>

#if OC_KERNEL_LEVELS
#define OC_KERNEL(name, parameters, arguments)                                                            \
    OC_HIDDEN void name##_v4 parameters;                                                                  \
    OC_HIDDEN void name##_v3 parameters;                                                                  \
    OC_HIDDEN void name##_v1 parameters;
#else
#define OC_KERNEL(name, parameters, arguments) OC_HIDDEN void name##_v1 parameters;
#endif
#include "Kernels/List.h"
#undef OC_KERNEL

int oc_kernel_cpu_level(void) {
#if OC_KERNEL_LEVELS
    static _Atomic int chosen;
    int level = atomic_load_explicit(&chosen, memory_order_relaxed);
    if (level == 0) {
        __builtin_cpu_init();
        level = __builtin_cpu_supports("x86-64-v4") ? 4 : __builtin_cpu_supports("x86-64-v3") ? 3 : 1;
        atomic_store_explicit(&chosen, level, memory_order_relaxed);
    }
    return level;
#else
    return 1;
#endif
}

#if OC_KERNEL_LEVELS
#define OC_KERNEL(name, parameters, arguments)                                                            \
    typedef void name##_build parameters;                                                                 \
    static _Atomic(name##_build *) name##_chosen;                                                         \
    void name parameters {                                                                                \
        name##_build *build = atomic_load_explicit(&name##_chosen, memory_order_relaxed);                 \
        if (!build) {                                                                                     \
            const int level = oc_kernel_cpu_level();                                                      \
            build = level >= 4 ? name##_v4 : level >= 3 ? name##_v3 : name##_v1;                          \
            atomic_store_explicit(&name##_chosen, build, memory_order_relaxed);                           \
        }                                                                                                 \
        build arguments;                                                                                  \
    }
#else
#define OC_KERNEL(name, parameters, arguments)                                                            \
    void name parameters { name##_v1 arguments; }
#endif
#include "Kernels/List.h"
#undef OC_KERNEL

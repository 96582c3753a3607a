// Compiles a kernel for AVX-512 and AVX2 next to the baseline; the best the CPU supports is
// picked once (an ifunc the loader resolves, on glibc). Other architectures get their
// baseline (NEON on arm64).
#ifndef OC_RENDER_DISPATCH_H
#define OC_RENDER_DISPATCH_H

// OC_NO_CLONES builds one version for the compiler's -march (scripts/bench-kernels).
#if defined(__x86_64__) && defined(__linux__) && !defined(OC_NO_CLONES)
#define OC_KERNEL_CLONES __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define OC_KERNEL_CLONES
#endif

#define OC_INLINE static inline __attribute__((always_inline))

#endif

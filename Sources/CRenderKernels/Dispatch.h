// How the kernels are built and chosen (see ARCHITECTURE.md, "Generated kernel assembly").
//
// On x86-64 Linux every kernel has three builds: `_v4` (x86-64-v4: AVX-512), `_v3`
// (x86-64-v3: AVX2, FMA) and `_v1` (baseline x86-64). Its public name is a dispatcher
// (Dispatch.c) that picks the best build this CPU runs on its first call. On aarch64 Linux
// there is one build, `_v1` (ARMv8-A with NEON), called directly. On both the builds come
// from pre-generated assembly, x86_64/Kernels*.S and aarch64/KernelsV1.S
// (scripts/generate-render-kernels compiles KernelsV*.c at -O3), so a debug build, whose C
// is compiled at -O0, still runs optimised loops; OC_PORTABLE_KERNELS compiles them from the
// C instead. OC_NO_CLONES (scripts/bench-kernels) and other architectures build one version,
// `_v1`, from the C for the compiler's own target and call it directly.
#ifndef OC_RENDER_DISPATCH_H
#define OC_RENDER_DISPATCH_H

#if defined(__x86_64__) && defined(__linux__) && !defined(OC_NO_CLONES)
#define OC_KERNEL_LEVELS 1
#else
#define OC_KERNEL_LEVELS 0
#endif

// Keep in step with the guard scripts/generate-render-kernels writes into each .S file.
#if (defined(__x86_64__) || defined(__aarch64__)) && defined(__linux__) && !defined(OC_NO_CLONES) && \
    !defined(OC_PORTABLE_KERNELS)
#define OC_GENERATED_KERNELS 1
#else
#define OC_GENERATED_KERNELS 0
#endif

// The levels as feature lists rather than "arch=x86-64-v4": an arch target would also
// switch the tuning to that CPU model's, which prefers 256-bit vectors on AVX-512.
#define OC_TARGET_V3 "avx,avx2,bmi,bmi2,cx16,crc32,f16c,fma,lzcnt,movbe,popcnt,sahf,sse3,sse4.1,sse4.2,ssse3,xsave"
#define OC_TARGET_V4 OC_TARGET_V3 ",avx512f,avx512bw,avx512cd,avx512dq,avx512vl,evex512"

#define OC_PASTE_(a, b) a##b
#define OC_PASTE(a, b) OC_PASTE_(a, b)
/// The name of this build of kernel `name` (KernelsV*.c define OC_SUFFIX).
#define OC_VARIANT(name) OC_PASTE(name, OC_SUFFIX)

#define OC_INLINE static inline __attribute__((always_inline))
#define OC_HIDDEN __attribute__((visibility("hidden")))
/// At the start of a function body: no fused multiply-adds, so that every build (and the
/// Swift code the kernel replaced) rounds the same way and gives the same bits.
#define OC_EXACT_ARITHMETIC _Pragma("clang fp contract(off)")

/// The instruction-set level the dispatchers chose: 4, 3 or 1 (see `oc_render_kernel_level`).
OC_HIDDEN int oc_kernel_cpu_level(void);

#endif

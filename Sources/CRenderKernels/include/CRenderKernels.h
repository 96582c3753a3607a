// The simulated camera's per-pixel loops: the sensor (relative radiance → ADC codes) and
// the ISP (codes → 8-bit Y'CbCr or BGRA). They are C so that each is compiled for several
// x86-64 levels (baseline, AVX2, AVX-512) and the best one the CPU has is chosen when the
// program loads; Swift compiles a module for one level only. Plain loops, vectorised by
// the compiler. The Swift side (SensorKernel, ISP) documents the models.
#ifndef CRENDERKERNELS_H
#define CRENDERKERNELS_H

#include <stdint.h>
#include <string.h>

/// How one channel's relative radiance becomes codes at one exposure (see SensorKernel).
typedef struct oc_sensor_coefficients {
    /// Mean DN per unit of relative radiance.
    float scale;
    /// Noise variance = variance_scale · radiance + variance_offset (DN²).
    float variance_scale;
    float variance_offset;
    /// black + dark: the code of no light.
    float offset;
    /// Clip bounds of the code: 0, and the full well or the ADC's top, whichever is lower.
    float low;
    float high;
} oc_sensor_coefficients;

/// √x / 0.703952253 for x ≥ 0, from the exponent-halving bit trick with one Newton-like
/// step (Moroz et al. 2018); relative error < 6.6e-4. The noise table carries the factor.
static inline float oc_sensor_root(float x) {
    uint32_t bits;
    memcpy(&bits, &x, sizeof bits);
    bits = 0x5F1FFFF9u - (bits >> 1);
    float y;
    memcpy(&y, &bits, sizeof y);
    float xy = x * y;
    return xy * (2.38924456f - xy * y);
}

/// Converts `count` samples of relative radiance (bfloat16 bits) to codes; sample i takes
/// noise[i], a standard normal sample times 0.703952253.
void oc_sensor_row(
    const uint16_t *radiance, const float *noise, uint16_t *codes, long count, const oc_sensor_coefficients *k);

/// The ISP's per-pixel arithmetic (see ISP).
typedef struct oc_isp_coefficients {
    /// The black level, in codes.
    float black;
    /// Per camera channel: signal (0 ... 1) per code above black, white balance included.
    float gain[3];
    /// Balanced camera RGB → linear output RGB, row-major.
    float matrix[9];
    /// R'G'B' (0 ... 1) → 8-bit code units, per field.
    float luma[3];
    float cb[3];
    float cr[3];
    /// Added before truncation: the field's code offset plus one half.
    float luma_offset;
    float chroma_offset;
} oc_isp_coefficients;

/// The sRGB transfer function (linear 0 ... 1 → non-linear), by polynomials for log₂ and
/// exp₂; within 0.04 of an 8-bit code everywhere.
float oc_srgb_encode(float linear);

/// Two rows of codes (each R, G, B runs of `width`) → 8-bit luma for both rows and 4:2:0
/// chroma (the mean R'G'B' of each 2×2 block): planar at `cb` and `cr` when `chroma_step`
/// is 1, interleaved from `cb` when it is 2 (NV12; `cr` must be `cb` + 1). `prefetch_bytes` bytes at `prefetch` (the next
/// rows' input, or NULL) are fetched into cache along the way.
void oc_isp_row_pair_420(
    const oc_isp_coefficients *isp, const uint16_t *raw_a, const uint16_t *raw_b, long width, uint8_t *luma_a,
    uint8_t *luma_b, uint8_t *cb, uint8_t *cr, long chroma_step, const void *prefetch, long prefetch_bytes);

/// One row of codes → BGRA (alpha 255), fetching `prefetch_bytes` at `prefetch` as above.
void oc_isp_row_bgra(
    const oc_isp_coefficients *isp, const uint16_t *raw, long width, uint8_t *bgra, const void *prefetch,
    long prefetch_bytes);

/// Which build of the kernels this CPU runs: "x86-64-v4" (AVX-512), "x86-64-v3" (AVX2),
/// "x86-64", "arm64" or "baseline".
const char *oc_render_kernel_level(void);

#endif

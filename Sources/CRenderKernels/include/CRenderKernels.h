// The simulated camera's per-pixel loops: the sensor (relative radiance → ADC codes), the
// ISP (codes → 8-bit Y'CbCr or BGRA), the statistics auto exposure, white balance and
// autofocus read, defocus blur and the moving disc. They are C so that each is built for
// several x86-64 levels (baseline, AVX2, AVX-512), the best one the CPU has chosen on
// first use, and so that they run optimised in every build: on x86-64 and aarch64 Linux
// they link pre-generated -O3 assembly (see Dispatch.h). Plain loops, vectorised by the compiler.
// The Swift side (SensorKernel, ISP, Defocus, ...) documents the models.
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
    /// R'G'B' (0 ... 1) → code units of the output (8- or 10-bit), per field.
    float luma[3];
    float cb[3];
    float cr[3];
    /// Added before truncation: the field's code offset plus one half.
    float luma_offset;
    float chroma_offset;
    /// The transfer curve: 0 sRGB, 1 ARIB STD-B67 HLG.
    int32_t curve;
} oc_isp_coefficients;

/// The sRGB transfer function (linear 0 ... 1 → non-linear), by polynomials for log₂ and
/// exp₂; within 0.04 of an 8-bit code everywhere.
float oc_srgb_encode(float linear);

/// The HLG OETF the ISP applies (linear 0 ... 1 → HLG signal), as the kernels compute it.
float oc_hlg_encode(float linear);

/// Two rows of codes (each R, G, B runs of `width`) → 8-bit luma for both rows and 4:2:0
/// chroma (the mean R'G'B' of each 2×2 block): planar at `cb` and `cr` when `chroma_step`
/// is 1, interleaved from `cb` when it is 2 (NV12; `cr` must be `cb` + 1). `prefetch_bytes` bytes at `prefetch` (the next
/// rows' input, or NULL) are fetched into cache along the way.
void oc_isp_row_pair_420(
    const oc_isp_coefficients *isp, const uint16_t *raw_a, const uint16_t *raw_b, long width, uint8_t *luma_a,
    uint8_t *luma_b, uint8_t *cb, uint8_t *cr, long chroma_step, const void *prefetch, long prefetch_bytes);

/// Two rows of codes → 10-bit 4:2:0 Y'CbCr in 'x420'/'xf20' layout: 16-bit luma and
/// interleaved CbCr words, each value << 6. Otherwise as `oc_isp_row_pair_420`, with the
/// coefficients scaled to 10-bit codes.
void oc_isp_row_pair_420_10(
    const oc_isp_coefficients *isp, const uint16_t *raw_a, const uint16_t *raw_b, long width, uint16_t *luma_a,
    uint16_t *luma_b, uint16_t *cbcr, const void *prefetch, long prefetch_bytes);

/// One row of codes → BGRA (alpha 255), fetching `prefetch_bytes` at `prefetch` as above.
void oc_isp_row_bgra(
    const oc_isp_coefficients *isp, const uint16_t *raw, long width, uint8_t *bgra, const void *prefetch,
    long prefetch_bytes);

/// The colour statistics' zones across and down (ZoneStatistics), the words per zone in a
/// worker's buffer (sums of R, G and B codes, unclipped samples, all samples), the sampling
/// step in x and y of every statistic (FrameStatistics), and the weight of a sample in the
/// centre quarter of the frame in the luma histogram.
enum { OC_ZONE_GRID = 16, OC_ZONE_WORDS = 5, OC_STATISTICS_STEP = 4, OC_CENTRE_WEIGHT = 3 };

/// Adds the sampled pixels of row `y` of a `width`×`height` frame (`raw`: R, G, B runs of
/// codes) to a worker's zone buffer; samples with a channel at or above `clip` are counted
/// but not summed.
void oc_zone_accumulate(const uint16_t *raw, long width, long y, long height, uint16_t clip, uint32_t *buffer);

/// Sums `count` worker buffers (which it zeroes) into `zones` (per zone: mean R, G, B of
/// the unclipped samples, minus `black`, over `white`; then their number) and `samples`.
void oc_zone_merge(uint32_t *const *buffers, long count, double black, double white, double *zones, long *samples);

/// Adds row `y`'s sampled luma codes (every 4th from the 3rd) to a 256-bin histogram,
/// centre samples weighted `OC_CENTRE_WEIGHT`.
void oc_luma_histogram(const uint8_t *luma, long width, long y, long height, uint32_t *histogram);

/// As `oc_luma_histogram` for a 10-bit luma row ('x420'/'xf20' words), binned by each
/// value's top 8 bits.
void oc_luma10_histogram(const uint16_t *luma, long width, long y, long height, uint32_t *histogram);

/// The same for a BGRA row, as full-range BT.709 luma.
void oc_bgra_histogram(const uint8_t *bgra, long width, long y, long height, uint32_t *histogram);

/// Autofocus sharpness terms over rows y0 ..< y1 and columns x0 ..< x1 of an 8-bit plane
/// whose samples are `step` bytes apart: result[0] = Σ (central difference in x)² + (in
/// y)², result[1] = Σ samples.
void oc_focus_energy(const uint8_t *base, long stride, long step, long x0, long x1, long y0, long y1, double *result);

/// The zones (`count`, 4 doubles each as `oc_zone_merge` leaves them) that may be grey:
/// at least 4 and `min_share` of their samples unclipped, green at least `dark_level`, no
/// channel ≤ 0. For each, (log R/G, log B/G, unclipped samples) into `chroma` and its mean
/// R, G, B into `signal`; `found` is how many.
void oc_grey_candidates(
    const double *zones, const long *samples, long count, double min_share, double dark_level, double *chroma,
    double *signal, long *found);

/// The index of the `locus` point (pairs of log-chroma) with the least Σ weight ·
/// min(distance², limit) over the `chroma` triples; the first of equals.
void oc_locus_search(const double *chroma, long count, const double *locus, long points, double limit, long *best);

/// Σ signal · weight (result[0 ... 2]) and Σ weight (result[3]) over the zones whose
/// chroma lies within √limit of (cx, cy).
void oc_grey_mean(
    const double *chroma, const double *signal, long count, double cx, double cy, double limit, double *result);

/// What defocus does to one depth plane: box half-width (`taps` whole taps each side and
/// end taps of weight `fraction`; both 0: no blur) and the torch's light multiplier.
typedef struct oc_defocus_plane {
    long taps;
    float fraction;
    float gain;
} oc_defocus_plane;

/// Bytes of scratch one `oc_defocus_band` call needs (one per worker).
static inline long oc_defocus_band_scratch_bytes(long width, long count, long max_taps) {
    const long doubles = count * 3 * width, floats = 8 * (width + 2 * (max_taps + 2));
    const long codes = count * (2 * max_taps + 11) * 3 * width;
    return 8 * doubles + 4 * floats + 2 * codes;
}

/// Rows y0 ..< y1 of the defocused, lit layer (`height` rows of R, G, B runs of `width`
/// bfloat16) from `sharp`: each pixel as its depth plane (`mask`, an index into `planes`)
/// wants it, box-blurred along x, then along y (edges repeated, bfloat16 in between), times
/// the gain. One pass: each worker keeps the rows its vertical window needs, blurred along
/// x, in rings in its scratch (`oc_defocus_band_scratch_bytes`), so the blurred layer never
/// goes through memory.
void oc_defocus_band(
    const uint16_t *sharp, uint16_t *layer, const uint8_t *mask, long width, long height, long y0, long y1,
    const oc_defocus_plane *planes, long count, void *scratch);

/// A moving disc in pixels (see BallPainter.Disc): centre, radius, rim width, colour.
typedef struct oc_disc {
    float x;
    float y;
    float radius;
    float softness;
    float color[3];
} oc_disc;

/// Row `row` of `disc` over the layer row `source` (R, G, B runs of `width`), for the
/// `count` columns from `first`, into `scratch` (R, G, B runs of `count`).
void oc_disc_row(
    const oc_disc *disc, long row, long first, long count, long width, const uint16_t *source, uint16_t *scratch);

/// Interpolates a layer row (R, G, B runs of `width` bfloat16) at fractional columns:
/// out[x] = a + (b − a)·weights[x] with a, b the samples at columns[x] and columns[x] + 1.
void oc_zoom_interpolate(const uint16_t *row, float *out, const int32_t *columns, const float *weights, long width);

/// target[i] = bfloat16(top[i] + (bottom[i] − top[i])·weight) for `count` samples.
void oc_zoom_blend(const float *top, const float *bottom, uint16_t *target, long count, float weight);

/// The default scene for the static layer (see Scene.staticReflectance, StaticLayer.fill):
/// the background's three value-noise octaves, the chart's tables, the colour transform
/// (row-major 3x3) and the lens falloff, at `width` x `height` and `zoom`.
typedef struct oc_chart_scene {
    long chart;  // 0: the background only (the motion scene)
    long width;
    long height;
    double zoom;
    double octave_frequency[3];
    double octave_amplitude[3];
    long octave_stride[3];
    const double *octave_values[3];
    const float *patches;  // ColorChart.reflectance, 24 x RGB
    const float *ramp;  // ChartExtras' 12 grey steps
    const uint8_t *ink;  // ChartExtras' glyphs: 18 cells x 7 rows x 5 columns, 1 = ink
    float color[9];
    double falloff_width;
    double falloff_height;
    double falloff_f2;
    float falloff_strength;
    const double *columns;  // oc_chart_columns' table, 10 doubles a column
} oc_chart_scene;

/// Fills `table` (10 doubles per column of `scene->width`) with what the layer's columns
/// share across rows; `oc_chart_row` reads it through `scene->columns`.
void oc_chart_columns(const oc_chart_scene *scene, double *table);

/// Columns first ..< first + count of static-layer row `y` (R, G, B runs of `scene->width`
/// bfloat16), exactly as StaticLayer.fill computes them.
void oc_chart_row(const oc_chart_scene *scene, long y, long first, long count, uint16_t *row);

/// One chroma row of a 4:2:0 picture into JFIF planes (MediaIO's JPEGYCbCrConverter): for
/// each of `count` blocks, with Cb at cb[x·step] and Cr at cr[x·step], the luma correction
/// and the new Cb and Cr, each an affine map (k: per Cb, per Cr, constant; luma, Cb, Cr) in
/// 16.16 fixed point, wrapping, shifted right by 16 and clamped to 0 ... 255.
void oc_jfif_chroma_row(
    const uint8_t *cb, const uint8_t *cr, long step, long count, const int32_t *k, int32_t *corrections,
    uint8_t *cb_out, uint8_t *cr_out);

/// One luma row: each sample times `scale` plus its block's correction, shifted and clamped;
/// an odd width repeats its last sample into output[width].
void oc_jfif_luma_row(const uint8_t *input, long width, int32_t scale, const int32_t *corrections, uint8_t *output);

/// One row pair of a BGRA picture into 4:2:0 Y'CbCr (ImageOps' BT709Encoder): `k` holds the
/// 16.16 coefficients yR, yG, yB, luma bias, uR, uG, uB, vR, vG, vB, chroma bias (chroma on
/// sums of four pixels). `bottom` is `top` again and `luma_bottom` NULL for an odd last row;
/// an odd last column repeats. Chroma samples are `chroma_step` apart (1 I420, 2 NV12).
void oc_bgra_to_yuv709_row_pair(
    const uint8_t *top, const uint8_t *bottom, long width, const long *k, uint8_t *luma_top, uint8_t *luma_bottom,
    uint8_t *cb, uint8_t *cr, long chroma_step);

/// One row of 8-bit BGRA into other primaries (OpenCapture's GamutLookup): B, G and R to
/// linear light by `to_linear` (256 entries), through the row-major 3x3 `matrix` (R, G, B in
/// and out), clamped to [0, 1], times `steps`, rounded half away from zero, into `to_code`
/// (steps + 1 entries); alpha 255. `source` may be `destination`.
void oc_gamut_row(
    const uint8_t *source, uint8_t *destination, long width, const float *to_linear, const float *matrix,
    const uint8_t *to_code, long steps);

/// Which build of the kernels this CPU runs: "x86-64-v4" (AVX-512), "x86-64-v3" (AVX2),
/// "x86-64", "arm64" or "baseline".
const char *oc_render_kernel_level(void);

#endif

// Every render kernel (Sources/CRenderKernels, the list in Kernels/List.h) run once on the
// same seeded inputs, each kernel's outputs written to <directory>/<kernel>.bin, so that
// builds for different architectures and optimisation levels can be compared bit for bit.
// KernelParityTests builds it for x86-64 and for aarch64 (run under qemu-aarch64-static).
// Usage: kernel-parity DIRECTORY   (prints the kernel build it ran, oc_render_kernel_level)
// Widths are odd and not multiples of the kernels' blocks (128 pixels, 8 lanes), so every
// vector loop's tail runs too.
#include "CRenderKernels.h"

#include <stdio.h>
#include <stdlib.h>

// The inputs are computed on every machine with the same roundings (aarch64 would fuse
// multiply-adds).
#pragma STDC FP_CONTRACT OFF

enum { W = 301, H = 37, TABLE = 4096 };

static const char *directory;
static int failed;

/// Appends `bytes` at `data` to the file of `kernel`.
static void put(const char *kernel, const void *data, size_t bytes) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.bin", directory, kernel);
    FILE *file = fopen(path, "ab");
    if (!file || fwrite(data, 1, bytes, file) != bytes || fclose(file) != 0) {
        fprintf(stderr, "kernel-parity: cannot write %s\n", path);
        failed = 1;
    }
}

static uint64_t state = 0x9E3779B97F4A7C15u;

/// The next 32 random bits (a 64-bit LCG's top half): the same sequence on every machine.
static uint32_t next(void) {
    state = state * 6364136223846793005u + 1442695040888963407u;
    return (uint32_t)(state >> 32);
}

/// A float in [low, high), from 24 random bits (exact on every machine).
static float uniform(float low, float high) { return low + (high - low) * ((float)(next() >> 8) / 16777216.0f); }

static double uniform_double(double low, double high) {
    return low + (high - low) * ((double)(next() >> 5) / 134217728.0);
}

static uint16_t bf16(float value) {
    uint32_t bits;
    memcpy(&bits, &value, sizeof bits);
    return (uint16_t)(bits >> 16);
}

static void *allocate(size_t bytes) {
    void *memory = calloc(1, bytes);
    if (!memory) {
        fprintf(stderr, "kernel-parity: out of memory\n");
        exit(1);
    }
    return memory;
}

/// A layer of `rows` rows of R, G, B runs of W bfloat16 samples from 0 to `top`.
static uint16_t *layer(long rows, float top) {
    uint16_t *samples = allocate(sizeof(uint16_t) * 3 * W * rows);
    for (long i = 0; i < 3 * W * rows; i++) samples[i] = bf16(uniform(0.0f, top));
    return samples;
}

/// Rows of sensor codes: 10-bit, some at the clip level, some below black.
static uint16_t *codes(long rows) {
    uint16_t *samples = allocate(sizeof(uint16_t) * 3 * W * rows);
    for (long i = 0; i < 3 * W * rows; i++) samples[i] = (uint16_t)(next() % 1100);
    return samples;
}

static void sensor(void) {
    uint16_t *radiance = layer(1, 1.5f), *out = allocate(sizeof(uint16_t) * 3 * W);
    float *noise = allocate(sizeof(float) * 3 * W);
    for (long i = 0; i < 3 * W; i++) noise[i] = uniform(-3.0f, 3.0f);
    const oc_sensor_coefficients settings[] = {{700.0f, 0.55f, 3.0f, 65.0f, 0.0f, 1023.0f}, {2400.0f, 2.2f, 9.0f, 64.5f, 0.0f, 1000.0f}};
    for (int s = 0; s < 2; s++) {
        oc_sensor_row(radiance, noise, out, 3 * W, &settings[s]);
        put("oc_sensor_row", out, sizeof(uint16_t) * 3 * W);
    }
    free(radiance), free(noise), free(out);
}

/// The ISP settings: sRGB at 8 bits video range, HLG at 10 bits full range (each curve with
/// both encodings is covered by running each setting through every ISP kernel).
static oc_isp_coefficients isp_settings(int curve, float range) {
    oc_isp_coefficients isp = {
        64.0f, {1.9f / 959, 1.0f / 959, 1.5f / 959}, {1.6f, -0.4f, -0.2f, -0.2f, 1.4f, -0.2f, 0.0f, -0.5f, 1.5f},
        {0.2126f * range, 0.7152f * range, 0.0722f * range}, {-0.1146f * range, -0.3854f * range, 0.5f * range},
        {0.5f * range, -0.4542f * range, -0.0458f * range}, 16.5f, 128.5f, curve};
    return isp;
}

static void isp(void) {
    uint16_t *raw = codes(4);
    const long row = 3 * W;
    uint8_t *luma = allocate(2 * W), *chroma = allocate(2 * (W + 1)), *bgra = allocate(4 * W);
    uint16_t *luma10 = allocate(sizeof(uint16_t) * 2 * W), *cbcr = allocate(sizeof(uint16_t) * (W + 1));
    for (int curve = 0; curve < 2; curve++) {
        const oc_isp_coefficients eight = isp_settings(curve, curve ? 255.0f : 219.0f);
        const oc_isp_coefficients ten = isp_settings(curve, curve ? 1023.0f : 876.0f);
        for (long step = 1; step <= 2; step++) {
            // Planar: Cb and Cr in halves of `chroma`; NV12: interleaved from its start.
            uint8_t *cb = chroma, *cr = step == 1 ? chroma + W + 1 : chroma + 1;
            oc_isp_row_pair_420(&eight, raw, raw + row, W, luma, luma + W, cb, cr, step, raw + 2 * row, 2 * row);
            put("oc_isp_row_pair_420", luma, 2 * W);
            put("oc_isp_row_pair_420", chroma, 2 * (W + 1));
        }
        oc_isp_row_pair_420_10(&ten, raw + 2 * row, raw + 3 * row, W, luma10, luma10 + W, cbcr, NULL, 0);
        put("oc_isp_row_pair_420_10", luma10, sizeof(uint16_t) * 2 * W);
        put("oc_isp_row_pair_420_10", cbcr, sizeof(uint16_t) * (W + 1));
        oc_isp_row_bgra(&eight, raw + row, W, bgra, raw, row);
        put("oc_isp_row_bgra", bgra, 4 * W);
    }
    free(raw), free(luma), free(chroma), free(bgra), free(luma10), free(cbcr);
}

/// The statistics of a frame: zones by two workers (even and odd rows), merged; the
/// histograms; the focus terms. Then the illuminant search on zones of its own.
static void statistics(void) {
    uint16_t *raw = codes(H);
    const long words = OC_ZONE_GRID * OC_ZONE_GRID * OC_ZONE_WORDS, zones = OC_ZONE_GRID * OC_ZONE_GRID;
    uint32_t *buffers[2] = {allocate(sizeof(uint32_t) * words), allocate(sizeof(uint32_t) * words)};
    for (long y = 0; y < H; y++) oc_zone_accumulate(raw + y * 3 * W, W, y, H, 1000, buffers[y & 1]);
    put("oc_zone_accumulate", buffers[0], sizeof(uint32_t) * words);
    put("oc_zone_accumulate", buffers[1], sizeof(uint32_t) * words);
    double *merged = allocate(sizeof(double) * 4 * zones);
    long *samples = allocate(sizeof(long) * zones);
    oc_zone_merge(buffers, 2, 64.0, 959.0, merged, samples);
    put("oc_zone_merge", merged, sizeof(double) * 4 * zones);
    put("oc_zone_merge", samples, sizeof(long) * zones);
    put("oc_zone_merge", buffers[0], sizeof(uint32_t) * words);

    uint8_t *luma = allocate(W * H), *bgra = allocate(4 * W * H);
    uint16_t *luma10 = allocate(sizeof(uint16_t) * W * H);
    for (long i = 0; i < W * H; i++) luma[i] = (uint8_t)next(), luma10[i] = (uint16_t)((next() & 1023) << 6);
    for (long i = 0; i < 4 * W * H; i++) bgra[i] = (uint8_t)next();
    uint32_t histograms[3][256] = {{0}};
    for (long y = 0; y < H; y++) {
        oc_luma_histogram(luma + y * W, W, y, H, histograms[0]);
        oc_luma10_histogram(luma10 + y * W, W, y, H, histograms[1]);
        oc_bgra_histogram(bgra + 4 * y * W, W, y, H, histograms[2]);
    }
    put("oc_luma_histogram", histograms[0], sizeof histograms[0]);
    put("oc_luma10_histogram", histograms[1], sizeof histograms[1]);
    put("oc_bgra_histogram", histograms[2], sizeof histograms[2]);
    // Steps 1 and 4 have loops of their own, 3 takes the general one.
    for (long step = 1; step <= 4; step++) {
        double terms[2];
        oc_focus_energy(bgra + 1, 4 * W, step, 1, 4 * W / step - 1, 1, H - 1, terms);
        put("oc_focus_energy", terms, sizeof terms);
    }

    // Zones as oc_zone_merge leaves them, some of them not grey candidates.
    double *grey = allocate(sizeof(double) * 4 * zones);
    for (long z = 0; z < zones; z++) {
        for (int c = 0; c < 3; c++) grey[4 * z + c] = uniform_double(-0.01, 0.9);
        grey[4 * z + 3] = (double)(next() % 40);
        samples[z] = 20 + (long)(next() % 20);
    }
    double *chroma = allocate(sizeof(double) * 3 * zones), *signal = allocate(sizeof(double) * 3 * zones);
    long found = 0;
    oc_grey_candidates(grey, samples, zones, 0.5, 0.02, chroma, signal, &found);
    put("oc_grey_candidates", &found, sizeof found);
    put("oc_grey_candidates", chroma, sizeof(double) * 3 * found);
    put("oc_grey_candidates", signal, sizeof(double) * 3 * found);
    double locus[2 * 97];
    for (int i = 0; i < 2 * 97; i++) locus[i] = uniform_double(-1.5, 1.5);
    for (int l = 0; l < 3; l++) {
        const double limit = 0.01 + 0.2 * l;
        long best = -1;
        oc_locus_search(chroma, found, locus, 97, limit, &best);
        put("oc_locus_search", &best, sizeof best);
        double mean[4];
        oc_grey_mean(chroma, signal, found, locus[2 * best], locus[2 * best + 1], limit, mean);
        put("oc_grey_mean", mean, sizeof mean);
    }
    free(raw), free(buffers[0]), free(buffers[1]), free(merged), free(samples), free(luma), free(bgra), free(luma10);
    free(grey), free(chroma), free(signal);
}

static void defocus(void) {
    uint16_t *sharp = layer(H, 1.2f), *out = allocate(sizeof(uint16_t) * 3 * W * H);
    uint8_t *mask = allocate(W * H);
    // Plane 0 sharp and lit, 1 a fractional blur, 2 a wide one, 3 only the end taps.
    const oc_defocus_plane planes[] = {{0, 0.0f, 1.25f}, {2, 0.375f, 1.0f}, {9, 0.8125f, 0.5f}, {0, 0.5f, 1.0f}};
    const long count = 4, max_taps = 9;
    for (long i = 0; i < W * H; i++) mask[i] = (uint8_t)(next() % count);
    void *scratch = allocate((size_t)oc_defocus_band_scratch_bytes(W, count, max_taps));
    // Two bands, as two workers split the rows.
    oc_defocus_band(sharp, out, mask, W, H, 0, 15, planes, count, scratch);
    oc_defocus_band(sharp, out, mask, W, H, 15, H, planes, count, scratch);
    put("oc_defocus_band", out, sizeof(uint16_t) * 3 * W * H);
    free(sharp), free(out), free(mask), free(scratch);
}

static void disc_and_zoom(void) {
    uint16_t *source = layer(1, 1.0f), *scratch = allocate(sizeof(uint16_t) * 3 * W);
    const oc_disc disc = {150.3f, 18.7f, 40.25f, 1.5f, {0.9f, 0.3f, 0.1f}};
    for (long row = 0; row < 60; row += 3) {
        oc_disc_row(&disc, row, 100, 120, W, source, scratch);
        put("oc_disc_row", scratch, sizeof(uint16_t) * 3 * 120);
    }
    float *top = allocate(sizeof(float) * 3 * W), *bottom = allocate(sizeof(float) * 3 * W), weights[W];
    int32_t columns[W];
    for (long x = 0; x < W; x++) columns[x] = (int32_t)(next() % (W - 1)), weights[x] = uniform(0.0f, 1.0f);
    oc_zoom_interpolate(source, top, columns, weights, W);
    put("oc_zoom_interpolate", top, sizeof(float) * 3 * W);
    for (long i = 0; i < 3 * W; i++) bottom[i] = uniform(0.0f, 1.2f);
    oc_zoom_blend(top, bottom, scratch, 3 * W, 0.3125f);
    put("oc_zoom_blend", scratch, sizeof(uint16_t) * 3 * W);
    free(source), free(scratch), free(top), free(bottom);
}

static void chart(void) {
    const long strides[3] = {9, 17, 33};
    double *values[3];
    for (int i = 0; i < 3; i++) {
        values[i] = allocate(sizeof(double) * strides[i] * strides[i]);
        for (long k = 0; k < strides[i] * strides[i]; k++) values[i][k] = uniform_double(-1.0, 1.0);
    }
    float patches[72], ramp[12];
    uint8_t ink[18 * 35];
    for (int i = 0; i < 72; i++) patches[i] = uniform(0.02f, 0.95f);
    for (int i = 0; i < 12; i++) ramp[i] = (float)i / 11.0f;
    for (int i = 0; i < 18 * 35; i++) ink[i] = next() & 1;
    const long height = 97;
    double *table = allocate(sizeof(double) * 10 * W);
    uint16_t *row = allocate(sizeof(uint16_t) * 3 * W);
    for (long kind = 0; kind < 2; kind++) {
        oc_chart_scene scene = {
            kind, W, height, kind ? 1.0 : 1.7, {8, 16, 32}, {0.5, 0.3, 0.2}, {strides[0], strides[1], strides[2]},
            {values[0], values[1], values[2]}, patches, ramp, ink,
            {1.2f, -0.1f, -0.1f, -0.05f, 1.1f, -0.05f, 0.0f, -0.2f, 1.2f}, 1.6, 0.9, 2.2, 0.4f, table};
        oc_chart_columns(&scene, table);
        put("oc_chart_columns", table, sizeof(double) * 10 * W);
        for (long y = 0; y < height; y++) {
            memset(row, 0, sizeof(uint16_t) * 3 * W);
            oc_chart_row(&scene, y, 3, W - 5, row);
            put("oc_chart_row", row, sizeof(uint16_t) * 3 * W);
        }
    }
    for (int i = 0; i < 3; i++) free(values[i]);
    free(table), free(row);
}

static void jfif(void) {
    uint8_t cb[2 * W], cr[2 * W], luma[W], cb_out[W], cr_out[W], out[W + 1];
    for (long i = 0; i < 2 * W; i++) cb[i] = (uint8_t)next(), cr[i] = (uint8_t)next();
    for (long i = 0; i < W; i++) luma[i] = (uint8_t)next();
    // Video range to full range (16.16), with a constant that wraps.
    const int32_t k[9] = {-3932, 15008, -1500000, 74711, 0, -1200000, 0, 74711, -1193046};
    int32_t corrections[(W + 1) / 2];
    for (long step = 1; step <= 2; step++) {
        oc_jfif_chroma_row(cb, cr, step, (W + 1) / 2, k, corrections, cb_out, cr_out);
        put("oc_jfif_chroma_row", corrections, sizeof corrections);
        put("oc_jfif_chroma_row", cb_out, (W + 1) / 2);
        put("oc_jfif_chroma_row", cr_out, (W + 1) / 2);
        oc_jfif_luma_row(luma, W, 76309, corrections, out);
        put("oc_jfif_luma_row", out, W + 1);
    }
}

static void yuv709(void) {
    uint8_t top[4 * W], bottom[4 * W], luma_top[W], luma_bottom[W], cb[W], cr[W];
    for (long i = 0; i < 4 * W; i++) top[i] = (uint8_t)next(), bottom[i] = (uint8_t)next();
    // BT.709 video range (BT709Encoder's 16.16 coefficients).
    const long k[11] = {11966, 40254, 4064, 1081344, -6596, -22189, 28785, 28785, -26145, -2640, 33685504};
    for (long step = 1; step <= 2; step++) {
        // An odd width repeats the last column; a last row alone passes itself and no bottom luma.
        const long width = W - step + 1;
        memset(cb, 0, sizeof cb), memset(cr, 0, sizeof cr);
        oc_bgra_to_yuv709_row_pair(top, bottom, width, k, luma_top, luma_bottom, cb, cr, step);
        put("oc_bgra_to_yuv709_row_pair", luma_top, width);
        put("oc_bgra_to_yuv709_row_pair", luma_bottom, width);
        put("oc_bgra_to_yuv709_row_pair", cb, W);
        put("oc_bgra_to_yuv709_row_pair", cr, W);
        oc_bgra_to_yuv709_row_pair(top, top, width, k, luma_top, NULL, cb, cr, step);
        put("oc_bgra_to_yuv709_row_pair", luma_top, width);
        put("oc_bgra_to_yuv709_row_pair", cb, W);
    }
}

static void gamut(void) {
    uint8_t source[4 * W], out[4 * W], to_code[TABLE + 1];
    float to_linear[256];
    for (long i = 0; i < 4 * W; i++) source[i] = (uint8_t)next();
    for (long i = 0; i < 256; i++) to_linear[i] = (float)i / 255.0f * ((float)i / 255.0f);
    for (long i = 0; i <= TABLE; i++) to_code[i] = (uint8_t)next();
    // Rows summing past 1 and below 0, so both clamps run.
    const float matrix[9] = {1.2249f, -0.2247f, 0.0f, -0.0420f, 1.0419f, 0.0f, -0.0197f, -0.0786f, 1.0979f};
    oc_gamut_row(source, out, W, to_linear, matrix, to_code, TABLE);
    put("oc_gamut_row", out, sizeof out);
    oc_gamut_row(source, source, W, to_linear, matrix, to_code, TABLE);
    put("oc_gamut_row", source, sizeof source);
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: kernel-parity DIRECTORY\n");
        return 2;
    }
    directory = argv[1];
    sensor();
    isp();
    statistics();
    defocus();
    disc_and_zoom();
    chart();
    jfif();
    yuv709();
    gamut();
    printf("%s\n", oc_render_kernel_level());
    return failed;
}

// The renderer's C kernels on their own, one thread: a 3840x2160 frame's sensor rows (three
// channels, noise from a 64 Ki-sample table, the next rows' layer prefetched by the ISP)
// and its 4:2:0 encode, as FrameRenderer drives them; then the asset writer's gamut conversion
// of a BGRA frame of the same size. Built once per x86-64 level by
// scripts/bench-kernels; prints the best of five runs of ten frames.
// Usage: kernel-bench [LABEL [WIDTH HEIGHT]]   (another frame size, e.g. 1280 720)
#include "CRenderKernels.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
    const char *level = argc > 1 ? argv[1] : "?";
    const long width = argc > 3 ? atol(argv[2]) : 3840, height = argc > 3 ? atol(argv[3]) : 2160, stride = 3 * width;
    if (width < 2 || height < 2 || width % 2 || height % 2) {
        fprintf(stderr, "kernel-bench: WIDTH and HEIGHT must be even and at least 2\n");
        return 2;
    }
    const long table = 1 << 16;
    uint16_t *layer = malloc(sizeof(uint16_t) * stride * height);
    float *noise = malloc(sizeof(float) * (table + 2 * width));
    uint16_t *raw_a = malloc(sizeof(uint16_t) * stride), *raw_b = malloc(sizeof(uint16_t) * stride);
    uint8_t *luma = malloc(width * height), *chroma = malloc(width * height / 2);
    if (!layer || !noise || !raw_a || !raw_b || !luma || !chroma) return 1;
    // A scene of greys and colours from 0 to 1.2 of white (bfloat16), and noise in ±1.
    for (long i = 0; i < stride * height; i++) {
        float value = (float)(i % 1201) / 1000.0f;
        uint32_t bits;
        memcpy(&bits, &value, sizeof bits);
        layer[i] = (uint16_t)(bits >> 16);
    }
    uint64_t state = 1;
    for (long i = 0; i < table + 2 * width; i++) {
        state = state * 6364136223846793005u + 1442695040888963407u;
        noise[i] = (float)(state >> 40) / (float)(1 << 23) - 1.0f;
    }
    // A 10-bit sensor (black 64) at ISO 100, daylight gains, a typical camera matrix, video range.
    oc_sensor_coefficients sensor = {700.0f, 0.55f, 3.0f, 65.0f, 0.0f, 1023.0f};
    oc_isp_coefficients isp = {
        64.0f, {1.9f / 959, 1.0f / 959, 1.5f / 959}, {1.6f, -0.4f, -0.2f, -0.2f, 1.4f, -0.2f, 0.0f, -0.5f, 1.5f},
        {0.2126f * 219, 0.7152f * 219, 0.0722f * 219}, {-0.1146f * 224, -0.3854f * 224, 0.5f * 224},
        {0.5f * 224, -0.4542f * 224, -0.0458f * 224}, 16.5f, 128.5f};
    double best = 1e9;
    for (int run = 0; run < 5; run++) {
        double start = seconds();
        for (long frame = 0; frame < 10; frame++) {
            for (long y = 0; y < height; y += 2) {
                for (long c = 0; c < 3; c++) {
                    long a = (y * 7919 + c * 31 + frame * 104729) & (table - 1);
                    long b = ((y + 1) * 7919 + c * 31 + frame * 104729) & (table - 1);
                    oc_sensor_row(layer + y * stride + c * width, noise + a, raw_a + c * width, width, &sensor);
                    oc_sensor_row(layer + (y + 1) * stride + c * width, noise + b, raw_b + c * width, width, &sensor);
                }
                const void *next = y + 2 < height ? layer + (y + 2) * stride : NULL;
                uint8_t *cb = chroma + (y / 2) * width;
                oc_isp_row_pair_420(
                    &isp, raw_a, raw_b, width, luma + y * width, luma + (y + 1) * width, cb, cb + 1, 2, next,
                    next ? 2 * stride * (long)sizeof(uint16_t) : 0);
            }
        }
        double perFrame = (seconds() - start) / 10;
        if (perFrame < best) best = perFrame;
    }
    printf("%-10s %ldx%ld sensor + 420v encode: %6.2f ms/frame, %6.1f frames/s on one core\n", level, width, height,
           best * 1e3, 1 / best);

    // The asset writer's gamut conversion (GamutLookup): BGRA from BT.709 primaries to P3 D65,
    // the sRGB curve each way (its tables as GamutLookup makes them), in place.
    uint8_t *bgra = malloc(4 * width * height), to_code[4097];
    float to_linear[256];
    if (!bgra) return 1;
    for (long i = 0; i < 4 * width * height; i++) bgra[i] = (uint8_t)(i * 2654435761u >> 24);
    for (int i = 0; i < 256; i++) {
        const double v = i / 255.0;
        to_linear[i] = (float)(v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4));
    }
    for (int i = 0; i <= 4096; i++) {
        const double l = i / 4096.0, v = l <= 0.0031308 ? 12.92 * l : 1.055 * pow(l, 1 / 2.4) - 0.055;
        to_code[i] = (uint8_t)lround(v * 255);
    }
    const float to_p3[9] = {0.8225f, 0.1774f, 0.0f, 0.0332f, 0.9669f, 0.0f, 0.0171f, 0.0724f, 0.9108f};
    best = 1e9;
    for (int run = 0; run < 5; run++) {
        double start = seconds();
        for (long frame = 0; frame < 10; frame++) {
            for (long y = 0; y < height; y++) {
                uint8_t *row = bgra + 4 * width * y;
                oc_gamut_row(row, row, width, to_linear, to_p3, to_code, 4096);
            }
        }
        double perFrame = (seconds() - start) / 10;
        if (perFrame < best) best = perFrame;
    }
    printf("%-10s %ldx%ld BGRA gamut, BT.709 to P3: %6.2f ms/frame, %6.1f frames/s on one core\n", level, width, height,
           best * 1e3, 1 / best);
    return 0;
}

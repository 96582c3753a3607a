// 8-bit BGRA from one set of primaries to another, one row per call (the asset writer's
// colour matching, OpenCapture's GamutLookup): each channel to linear light by a 256-entry
// table, the 3x3 gamut matrix, clamped to [0, 1] and back to a code value by a table of
// steps + 1 entries; alpha becomes opaque. Swift at -Onone took seconds per 1080p frame.
// The same float arithmetic, in the same order, as the Swift it replaces (contraction off).
// `source` may be `destination` (each pixel is read before it is written).

void OC_VARIANT(oc_gamut_row)(
    const uint8_t *source, uint8_t *destination, long width, const float *restrict to_linear,
    const float *restrict matrix, const uint8_t *restrict to_code, long steps) {
    OC_EXACT_ARITHMETIC
    const float scale = (float)steps;
    for (long x = 0; x < width; x++) {
        const uint8_t *p = source + 4 * x;
        const float b = to_linear[p[0]], g = to_linear[p[1]], r = to_linear[p[2]];
        uint8_t rgb[3];
        for (int i = 0; i < 3; i++) {
            const float value = matrix[3 * i] * r + matrix[3 * i + 1] * g + matrix[3 * i + 2] * b;
            // Rounded half away from zero, as Swift's rounded(): x - n is exact for 0 <= x < 2^23.
            const float x = oc_clamp01(value) * scale;
            const long n = (long)x;
            rgb[i] = to_code[n + (x - (float)n >= 0.5f)];
        }
        uint8_t *q = destination + 4 * x;
        q[0] = rgb[2], q[1] = rgb[1], q[2] = rgb[0], q[3] = 255;
    }
}

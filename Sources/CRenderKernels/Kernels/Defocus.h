// Defocus: separable box blur with fractional end taps, and the torch's gain, on the static
// layer (bfloat16 rows of three channel runs; see Defocus.swift for the model). Each output
// sample is computed in the order the Swift version used, so results are the same bits.

/// Up to this many runs (rows × channels) are blurred side by side: each is a running sum,
/// a chain of dependent adds, and six interleaved chains keep the adder busy.
#define OC_BOX_CHAINS 6

/// Blurs `chains` runs of `width` samples from `source[c]` into `target[c]` along the run,
/// edges repeated; `scratch` holds each run decoded and padded by `taps` + 2 at both ends.
OC_INLINE void oc_box_runs(
    const uint16_t *const source[OC_BOX_CHAINS], uint16_t *const target[OC_BOX_CHAINS], const int chains, long width,
    long n, float f, float *restrict scratch) {
    OC_EXACT_ARITHMETIC
    const long margin = n + 2, padded_width = width + 2 * margin;
    const float scale = 1.0f / ((float)(2 * n + 1) + 2.0f * f);
    const float *p[OC_BOX_CHAINS];
    float sum[OC_BOX_CHAINS];
    for (int c = 0; c < chains; c++) {
        float *padded = scratch + c * padded_width;
        const float first = oc_bf16_decode(source[c][0]), last = oc_bf16_decode(source[c][width - 1]);
        for (long k = 0; k < margin; k++) {
            padded[k] = first;
            padded[margin + width + k] = last;
        }
        for (long x = 0; x < width; x++) padded[margin + x] = oc_bf16_decode(source[c][x]);
        // p[c][x] is the sample at x, −margin ≤ x < width + margin.
        p[c] = padded + margin;
        float s = 0.0f;
        for (long k = -n; k <= n; k++) s += p[c][k];
        sum[c] = s;
    }
    for (long x = 0; x < width; x++) {
        for (int c = 0; c < chains; c++) {
            target[c][x] = oc_bf16_encode((sum[c] + f * (p[c][x - n - 1] + p[c][x + n + 1])) * scale);
            sum[c] += p[c][x + n + 1] - p[c][x - n];
        }
    }
}

void OC_VARIANT(oc_defocus_rows)(
    const uint16_t *restrict sharp, uint16_t *restrict blurred, long width, long rows, long taps, float fraction,
    float *restrict scratch) {
    const long stride = 3 * width;
    long r = 0;
    // Two rows (six runs) at a time, then a last odd row alone.
    for (; r + 1 < rows; r += 2) {
        const uint16_t *const source[OC_BOX_CHAINS] = {
            sharp + r * stride, sharp + r * stride + width, sharp + r * stride + 2 * width,
            sharp + (r + 1) * stride, sharp + (r + 1) * stride + width, sharp + (r + 1) * stride + 2 * width};
        uint16_t *const target[OC_BOX_CHAINS] = {
            blurred + r * stride, blurred + r * stride + width, blurred + r * stride + 2 * width,
            blurred + (r + 1) * stride, blurred + (r + 1) * stride + width, blurred + (r + 1) * stride + 2 * width};
        oc_box_runs(source, target, 6, width, taps, fraction, scratch);
    }
    if (r < rows) {
        const uint16_t *const source[OC_BOX_CHAINS] = {
            sharp + r * stride, sharp + r * stride + width, sharp + r * stride + 2 * width, 0, 0, 0};
        uint16_t *const target[OC_BOX_CHAINS] = {
            blurred + r * stride, blurred + r * stride + width, blurred + r * stride + 2 * width, 0, 0, 0};
        oc_box_runs(source, target, 3, width, taps, fraction, scratch);
    }
}

void OC_VARIANT(oc_defocus_columns)(
    const uint16_t *restrict blurred, uint16_t *restrict layer, const uint8_t *restrict mask, long width, long height,
    long x0, long x1, long y0, long y1, long taps, float fraction, float gain, long plane, float *restrict sum) {
    OC_EXACT_ARITHMETIC
    if (x0 >= x1 || y0 >= y1) return;
    const long n = taps, stride = 3 * width, last_row = height - 1;
    const float f = fraction, scale = gain / ((float)(2 * n + 1) + 2.0f * f);
    const uint8_t index = (uint8_t)plane;
#define OC_ROW(y) (blurred + ((y) < 0 ? 0 : (y) > last_row ? last_row : (y)) * stride)
    for (long c = 0; c < 3; c++) {
        float *restrict s = sum + c * width;
        for (long x = x0; x < x1; x++) s[x] = 0.0f;
        for (long k = -n; k <= n; k++) {
            const uint16_t *restrict source = OC_ROW(y0 + k) + c * width;
            for (long x = x0; x < x1; x++) s[x] += oc_bf16_decode(source[x]);
        }
    }
    for (long y = y0; y < y1; y++) {
        const uint16_t *above = OC_ROW(y - n - 1), *below = OC_ROW(y + n + 1), *leaving = OC_ROW(y - n);
        uint16_t *restrict target = layer + y * stride;
        const uint8_t *restrict depth = mask + y * width;
        for (long c = 0; c < 3; c++) {
            const long o = c * width;
            float *restrict s = sum + o;
            for (long x = x0; x < x1; x++) {
                const float value = (s[x] + f * (oc_bf16_decode(above[o + x]) + oc_bf16_decode(below[o + x]))) * scale;
                // Stored either way (the old value elsewhere), so the loop vectorises; the
                // columns are this caller's alone.
                target[o + x] = depth[x] == index ? oc_bf16_encode(value) : target[o + x];
                s[x] += oc_bf16_decode(below[o + x]) - oc_bf16_decode(leaving[o + x]);
            }
        }
    }
#undef OC_ROW
}

void OC_VARIANT(oc_defocus_copy)(
    const uint16_t *restrict sharp, uint16_t *restrict layer, const uint8_t *restrict mask, long width, long y0, long y1,
    float gain, long plane) {
    OC_EXACT_ARITHMETIC
    const long stride = 3 * width;
    const uint8_t index = (uint8_t)plane;
    for (long y = y0; y < y1; y++) {
        const uint16_t *restrict source = sharp + y * stride;
        uint16_t *restrict target = layer + y * stride;
        const uint8_t *restrict depth = mask + y * width;
        for (long c = 0; c < 3; c++) {
            const long o = c * width;
            if (gain == 1.0f) {
                for (long x = 0; x < width; x++) target[o + x] = depth[x] == index ? source[o + x] : target[o + x];
            } else {
                for (long x = 0; x < width; x++) {
                    const uint16_t lit = oc_bf16_encode(oc_bf16_decode(source[o + x]) * gain);
                    target[o + x] = depth[x] == index ? lit : target[o + x];
                }
            }
        }
    }
}

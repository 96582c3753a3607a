// A zoom ramp's bilinear resampling of the static layer (see ZoomResampler).

void OC_VARIANT(oc_zoom_interpolate)(
    const uint16_t *restrict row, float *restrict out, const int32_t *restrict columns, const float *restrict weights,
    long width) {
    OC_EXACT_ARITHMETIC
    for (long c = 0; c < 3; c++) {
        const uint16_t *restrict source = row + c * width;
        float *restrict target = out + c * width;
        for (long x = 0; x < width; x++) {
            const float a = oc_bf16_decode(source[columns[x]]), b = oc_bf16_decode(source[columns[x] + 1]);
            target[x] = a + (b - a) * weights[x];
        }
    }
}

void OC_VARIANT(oc_zoom_blend)(
    const float *restrict top, const float *restrict bottom, uint16_t *restrict target, long count, float weight) {
    OC_EXACT_ARITHMETIC
    for (long i = 0; i < count; i++) target[i] = oc_bf16_encode(top[i] + (bottom[i] - top[i]) * weight);
}

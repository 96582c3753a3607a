// A photo's 4:2:0 Y'CbCr into JFIF's (BT.601 full range) planes for TurboJPEG (see MediaIO's
// JPEGYCbCrConverter, which computes the 16.16 coefficients): the per-sample loops that Swift
// at -Onone ran for seconds on a 12 MP photo. Wrapping 32-bit arithmetic, as Swift's &* and &+.

OC_INLINE uint8_t oc_jfif_clamp(int32_t value) {
    const int32_t shifted = value >> 16;
    return (uint8_t)(shifted < 0 ? 0 : shifted > 255 ? 255 : shifted);
}

OC_INLINE int32_t oc_jfif_affine(const int32_t *k, int32_t cb, int32_t cr) {
    return (int32_t)((uint32_t)cb * (uint32_t)k[0] + (uint32_t)cr * (uint32_t)k[1] + (uint32_t)k[2]);
}

void OC_VARIANT(oc_jfif_chroma_row)(
    const uint8_t *restrict cb, const uint8_t *restrict cr, long step, long count, const int32_t *restrict k,
    int32_t *restrict corrections, uint8_t *restrict cb_out, uint8_t *restrict cr_out) {
    for (long x = 0; x < count; x++) {
        const int32_t b = cb[x * step], r = cr[x * step];
        corrections[x] = oc_jfif_affine(k, b, r);
        cb_out[x] = oc_jfif_clamp(oc_jfif_affine(k + 3, b, r));
        cr_out[x] = oc_jfif_clamp(oc_jfif_affine(k + 6, b, r));
    }
}

void OC_VARIANT(oc_jfif_luma_row)(
    const uint8_t *restrict input, long width, int32_t scale, const int32_t *restrict corrections,
    uint8_t *restrict output) {
    const long pairs = width / 2;
    for (long pair = 0; pair < pairs; pair++) {
        const uint32_t correction = (uint32_t)corrections[pair];
        output[2 * pair] = oc_jfif_clamp((int32_t)((uint32_t)input[2 * pair] * (uint32_t)scale + correction));
        output[2 * pair + 1] = oc_jfif_clamp((int32_t)((uint32_t)input[2 * pair + 1] * (uint32_t)scale + correction));
    }
    if (width % 2 == 1) {
        const uint8_t last =
            oc_jfif_clamp((int32_t)((uint32_t)input[width - 1] * (uint32_t)scale + (uint32_t)corrections[pairs]));
        output[width - 1] = last;
        output[width] = last;
    }
}

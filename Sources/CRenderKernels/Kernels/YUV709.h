// BGRA into 4:2:0 Y'CbCr with the BT.709 matrix, one row pair per call (ImageOps'
// BT709Encoder computes the 16.16 coefficients and walks the rows): the asset writer
// converts every BGRA frame an app appends, and Swift at -Onone spent more than a frame's
// time on it at 720p30, so the writer was not ready for half the frames (issue 30). The
// same integer arithmetic as the Swift it replaces: chroma from each 2x2 block's sums,
// the last column or row repeated for odd sizes.

OC_INLINE uint8_t oc_yuv709_clamp(long value) {
    return (uint8_t)(value < 0 ? 0 : value > 255 ? 255 : value);
}

OC_INLINE uint8_t oc_yuv709_luma(const long *k, const uint8_t *bgra) {
    return oc_yuv709_clamp((k[0] * bgra[2] + k[1] * bgra[1] + k[2] * bgra[0] + k[3]) >> 16);
}

void OC_VARIANT(oc_bgra_to_yuv709_row_pair)(
    const uint8_t *restrict top, const uint8_t *restrict bottom, long width, const long *restrict k,
    uint8_t *restrict luma_top, uint8_t *restrict luma_bottom, uint8_t *restrict cb, uint8_t *restrict cr,
    long chroma_step) {
    for (long column = 0; column < width; column += 2) {
        const int has_right = column + 1 < width;
        const uint8_t *p0 = top + 4 * column, *p1 = has_right ? p0 + 4 : p0;
        const uint8_t *p2 = bottom + 4 * column, *p3 = has_right ? p2 + 4 : p2;
        luma_top[column] = oc_yuv709_luma(k, p0);
        if (has_right) luma_top[column + 1] = oc_yuv709_luma(k, p1);
        if (luma_bottom) {
            luma_bottom[column] = oc_yuv709_luma(k, p2);
            if (has_right) luma_bottom[column + 1] = oc_yuv709_luma(k, p3);
        }
        const long r = (long)p0[2] + p1[2] + p2[2] + p3[2];
        const long g = (long)p0[1] + p1[1] + p2[1] + p3[1];
        const long b = (long)p0[0] + p1[0] + p2[0] + p3[0];
        const long chroma = (column / 2) * chroma_step;
        cb[chroma] = oc_yuv709_clamp((k[4] * r + k[5] * g + k[6] * b + k[10]) >> 18);
        cr[chroma] = oc_yuv709_clamp((k[7] * r + k[8] * g + k[9] * b + k[10]) >> 18);
    }
}

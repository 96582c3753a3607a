// The ISP: sensor codes → 8-bit Y'CbCr 4:2:0, 10-bit Y'CbCr 4:2:0 ('x420'/'xf20') or BGRA (see ISP).

/// Pixels per block: the block's R'G'B' (two rows) stays in L1 between the passes.
#define OC_BLOCK 128

/// Codes → R'G'B' for `count` pixels: black level, gains, clipping at white (after white
/// balance, so clipped highlights stay white), the colour matrix, clipping, the curve. The
/// curve is a pass of its own: fused with the matrix, it needs more vector registers than
/// AVX2 has.
OC_INLINE void oc_nonlinear_rgb(
    const oc_isp_coefficients *isp, const uint16_t *restrict r, const uint16_t *restrict g, const uint16_t *restrict b,
    long count, float *restrict out_r, float *restrict out_g, float *restrict out_b) {
    const float black = isp->black, gain_r = isp->gain[0], gain_g = isp->gain[1], gain_b = isp->gain[2];
    const float *m = isp->matrix;
    const float m0 = m[0], m1 = m[1], m2 = m[2], m3 = m[3], m4 = m[4], m5 = m[5], m6 = m[6], m7 = m[7], m8 = m[8];
    for (long i = 0; i < count; i++) {
        float lr = oc_clamp01(((float)r[i] - black) * gain_r);
        float lg = oc_clamp01(((float)g[i] - black) * gain_g);
        float lb = oc_clamp01(((float)b[i] - black) * gain_b);
        out_r[i] = oc_clamp01(m0 * lr + m1 * lg + m2 * lb);
        out_g[i] = oc_clamp01(m3 * lr + m4 * lg + m5 * lb);
        out_b[i] = oc_clamp01(m6 * lr + m7 * lg + m8 * lb);
    }
    if (isp->curve == 1) {
        for (long i = 0; i < count; i++) out_r[i] = oc_hlg(out_r[i]);
        for (long i = 0; i < count; i++) out_g[i] = oc_hlg(out_g[i]);
        for (long i = 0; i < count; i++) out_b[i] = oc_hlg(out_b[i]);
        return;
    }
    for (long i = 0; i < count; i++) out_r[i] = oc_srgb(out_r[i]);
    for (long i = 0; i < count; i++) out_g[i] = oc_srgb(out_g[i]);
    for (long i = 0; i < count; i++) out_b[i] = oc_srgb(out_b[i]);
}

/// Fetches block `block`'s share (of `blocks`) of `bytes` bytes at `memory` into cache;
/// spread over the blocks, the fetches overlap the work instead of queueing up.
OC_INLINE void oc_prefetch_share(const void *memory, long bytes, long block, long blocks) {
    if (!memory) return;
    const long share = (bytes / blocks + 64) & ~63L;
    const long end = (block + 1) * share < bytes ? (block + 1) * share : bytes;
    for (long offset = block * share; offset < end; offset += 64) {
        __builtin_prefetch((const char *)memory + offset, 0, 3);
    }
}

void OC_VARIANT(oc_isp_row_pair_420)(
    const oc_isp_coefficients *isp, const uint16_t *raw_a, const uint16_t *raw_b, long width, uint8_t *luma_a,
    uint8_t *luma_b, uint8_t *cb, uint8_t *cr, long chroma_step, const void *prefetch, long prefetch_bytes) {
    float a[3][OC_BLOCK], b[3][OC_BLOCK];
    const float y0 = isp->luma[0], y1 = isp->luma[1], y2 = isp->luma[2], y_offset = isp->luma_offset;
    // Chroma from the sum of four pixels: a quarter of the weights.
    const float cb0 = isp->cb[0] * 0.25f, cb1 = isp->cb[1] * 0.25f, cb2 = isp->cb[2] * 0.25f;
    const float cr0 = isp->cr[0] * 0.25f, cr1 = isp->cr[1] * 0.25f, cr2 = isp->cr[2] * 0.25f;
    const float c_offset = isp->chroma_offset;
    const long blocks = (width + OC_BLOCK - 1) / OC_BLOCK;
    for (long x0 = 0, block = 0; x0 < width; x0 += OC_BLOCK, block++) {
        oc_prefetch_share(prefetch, prefetch_bytes, block, blocks);
        const long n = width - x0 < OC_BLOCK ? width - x0 : OC_BLOCK;
        oc_nonlinear_rgb(isp, raw_a + x0, raw_a + width + x0, raw_a + 2 * width + x0, n, a[0], a[1], a[2]);
        oc_nonlinear_rgb(isp, raw_b + x0, raw_b + width + x0, raw_b + 2 * width + x0, n, b[0], b[1], b[2]);
        // Not restrict: the last row of an odd height writes the same luma through both.
        uint8_t *out_a = luma_a + x0, *out_b = luma_b + x0;
        for (long i = 0; i < n; i++) {
            out_a[i] = oc_code(y0 * a[0][i] + y1 * a[1][i] + y2 * a[2][i] + y_offset);
            out_b[i] = oc_code(y0 * b[0][i] + y1 * b[1][i] + y2 * b[2][i] + y_offset);
        }
        const long pairs = n / 2;
        uint8_t *restrict block_cb = cb + (x0 / 2) * chroma_step, *restrict block_cr = cr + (x0 / 2) * chroma_step;
        // Two copies of one loop, so that each stores with a constant layout the compiler can
        // vectorise: NV12's interleaved CbCr pairs, or two planes.
#define OC_CHROMA_LOOP(store_cb, store_cr)                                                                   \
    for (long c = 0; c < pairs; c++) {                                                                       \
        float r = a[0][2 * c] + a[0][2 * c + 1] + b[0][2 * c] + b[0][2 * c + 1];                             \
        float g = a[1][2 * c] + a[1][2 * c + 1] + b[1][2 * c] + b[1][2 * c + 1];                             \
        float bl = a[2][2 * c] + a[2][2 * c + 1] + b[2][2 * c] + b[2][2 * c + 1];                            \
        store_cb = oc_code(cb0 * r + cb1 * g + cb2 * bl + c_offset);                                         \
        store_cr = oc_code(cr0 * r + cr1 * g + cr2 * bl + c_offset);                                         \
    }
        if (chroma_step == 2) {
            OC_CHROMA_LOOP(block_cb[2 * c], block_cb[2 * c + 1])
        } else {
            OC_CHROMA_LOOP(block_cb[c], block_cr[c])
        }
#undef OC_CHROMA_LOOP
        if (n & 1) {
            // The last column of an odd width: a one-column block counts each pixel twice.
            const long i = n - 1;
            float r = 2 * (a[0][i] + b[0][i]), g = 2 * (a[1][i] + b[1][i]), bl = 2 * (a[2][i] + b[2][i]);
            block_cb[pairs * chroma_step] = oc_code(cb0 * r + cb1 * g + cb2 * bl + c_offset);
            block_cr[pairs * chroma_step] = oc_code(cr0 * r + cr1 * g + cr2 * bl + c_offset);
        }
    }
}

void OC_VARIANT(oc_isp_row_pair_420_10)(
    const oc_isp_coefficients *isp, const uint16_t *raw_a, const uint16_t *raw_b, long width, uint16_t *luma_a,
    uint16_t *luma_b, uint16_t *cbcr, const void *prefetch, long prefetch_bytes) {
    float a[3][OC_BLOCK], b[3][OC_BLOCK];
    const float y0 = isp->luma[0], y1 = isp->luma[1], y2 = isp->luma[2], y_offset = isp->luma_offset;
    const float cb0 = isp->cb[0] * 0.25f, cb1 = isp->cb[1] * 0.25f, cb2 = isp->cb[2] * 0.25f;
    const float cr0 = isp->cr[0] * 0.25f, cr1 = isp->cr[1] * 0.25f, cr2 = isp->cr[2] * 0.25f;
    const float c_offset = isp->chroma_offset;
    const long blocks = (width + OC_BLOCK - 1) / OC_BLOCK;
    for (long x0 = 0, block = 0; x0 < width; x0 += OC_BLOCK, block++) {
        oc_prefetch_share(prefetch, prefetch_bytes, block, blocks);
        const long n = width - x0 < OC_BLOCK ? width - x0 : OC_BLOCK;
        oc_nonlinear_rgb(isp, raw_a + x0, raw_a + width + x0, raw_a + 2 * width + x0, n, a[0], a[1], a[2]);
        oc_nonlinear_rgb(isp, raw_b + x0, raw_b + width + x0, raw_b + 2 * width + x0, n, b[0], b[1], b[2]);
        // Not restrict: the last row of an odd height writes the same luma through both.
        uint16_t *out_a = luma_a + x0, *out_b = luma_b + x0;
        for (long i = 0; i < n; i++) {
            out_a[i] = oc_code10(y0 * a[0][i] + y1 * a[1][i] + y2 * a[2][i] + y_offset);
            out_b[i] = oc_code10(y0 * b[0][i] + y1 * b[1][i] + y2 * b[2][i] + y_offset);
        }
        const long pairs = n / 2;
        uint16_t *restrict block_cbcr = cbcr + x0;
        for (long c = 0; c < pairs; c++) {
            float r = a[0][2 * c] + a[0][2 * c + 1] + b[0][2 * c] + b[0][2 * c + 1];
            float g = a[1][2 * c] + a[1][2 * c + 1] + b[1][2 * c] + b[1][2 * c + 1];
            float bl = a[2][2 * c] + a[2][2 * c + 1] + b[2][2 * c] + b[2][2 * c + 1];
            block_cbcr[2 * c] = oc_code10(cb0 * r + cb1 * g + cb2 * bl + c_offset);
            block_cbcr[2 * c + 1] = oc_code10(cr0 * r + cr1 * g + cr2 * bl + c_offset);
        }
        if (n & 1) {
            // The last column of an odd width: a one-column block counts each pixel twice.
            const long i = n - 1;
            float r = 2 * (a[0][i] + b[0][i]), g = 2 * (a[1][i] + b[1][i]), bl = 2 * (a[2][i] + b[2][i]);
            block_cbcr[2 * pairs] = oc_code10(cb0 * r + cb1 * g + cb2 * bl + c_offset);
            block_cbcr[2 * pairs + 1] = oc_code10(cr0 * r + cr1 * g + cr2 * bl + c_offset);
        }
    }
}

void OC_VARIANT(oc_isp_row_bgra)(
    const oc_isp_coefficients *isp, const uint16_t *raw, long width, uint8_t *bgra, const void *prefetch,
    long prefetch_bytes) {
    float rgb[3][OC_BLOCK];
    const long blocks = (width + OC_BLOCK - 1) / OC_BLOCK;
    for (long x0 = 0, block = 0; x0 < width; x0 += OC_BLOCK, block++) {
        oc_prefetch_share(prefetch, prefetch_bytes, block, blocks);
        const long n = width - x0 < OC_BLOCK ? width - x0 : OC_BLOCK;
        oc_nonlinear_rgb(isp, raw + x0, raw + width + x0, raw + 2 * width + x0, n, rgb[0], rgb[1], rgb[2]);
        uint8_t *restrict out = bgra + 4 * x0;
        for (long i = 0; i < n; i++) {
            out[4 * i] = oc_code(rgb[2][i] * 255.0f + 0.5f);
            out[4 * i + 1] = oc_code(rgb[1][i] * 255.0f + 0.5f);
            out[4 * i + 2] = oc_code(rgb[0][i] * 255.0f + 0.5f);
            out[4 * i + 3] = 255;
        }
    }
}

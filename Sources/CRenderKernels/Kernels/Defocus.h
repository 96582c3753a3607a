// Defocus: separable box blur with fractional end taps, and the torch's gain, on the static
// layer (bfloat16 rows of three channel runs; see Defocus.swift for the model). Each output
// sample is computed in the order the Swift version (a pass along x into a bfloat16 layer,
// then one along y) used, so results are the same bits; DefocusKernelTests compare them.

/// Runs blurred side by side along x: lanes of one vector, the running sums of 8 runs.
#define OC_LANES 8
/// Rows of the horizontal pass made at a time (24 runs: three groups of lanes).
#define OC_BLOCK_ROWS 8
/// Samples of an output run the vertical pass does for every plane before moving on.
#define OC_PIECE 512

/// Rows of each plane's ring of horizontally blurred rows for `max_taps` whole taps: the
/// vertical window (2·taps + 3 rows) and a block made ahead.
OC_INLINE long oc_ring_rows(long max_taps) { return 2 * max_taps + 3 + OC_BLOCK_ROWS; }

// The lane helpers pass 256-bit vectors by value; they are always inlined, so the calling
// convention the baseline build warns about never applies.
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wpsabi"

/// Eight floats, eight lanes' samples at one x (clang's vector extension: plain vector
/// registers on every target, so the lanes cannot fall back to scalar code).
typedef float oc_lanes_f __attribute__((ext_vector_type(OC_LANES)));
typedef uint32_t oc_lanes_u __attribute__((ext_vector_type(OC_LANES)));
typedef uint16_t oc_lanes_h __attribute__((ext_vector_type(OC_LANES)));

/// Transposes the 8×8 matrix whose rows are r[0 ... 7] (any 8-element vector type), in
/// three rounds of pairwise interleaving: 32-bit pairs, 64-bit pairs, halves.
#define OC_TRANSPOSE8(r, type)                                                                          \
    do {                                                                                                \
        type t_[8], u_[8];                                                                              \
        for (int k_ = 0; k_ < 8; k_ += 2) {                                                             \
            t_[k_] = __builtin_shufflevector(r[k_], r[k_ + 1], 0, 8, 1, 9, 4, 12, 5, 13);               \
            t_[k_ + 1] = __builtin_shufflevector(r[k_], r[k_ + 1], 2, 10, 3, 11, 6, 14, 7, 15);         \
        }                                                                                               \
        for (int k_ = 0; k_ < 8; k_ += 4) {                                                             \
            u_[k_] = __builtin_shufflevector(t_[k_], t_[k_ + 2], 0, 1, 8, 9, 4, 5, 12, 13);             \
            u_[k_ + 1] = __builtin_shufflevector(t_[k_], t_[k_ + 2], 2, 3, 10, 11, 6, 7, 14, 15);       \
            u_[k_ + 2] = __builtin_shufflevector(t_[k_ + 1], t_[k_ + 3], 0, 1, 8, 9, 4, 5, 12, 13);     \
            u_[k_ + 3] = __builtin_shufflevector(t_[k_ + 1], t_[k_ + 3], 2, 3, 10, 11, 6, 7, 14, 15);   \
        }                                                                                               \
        for (int k_ = 0; k_ < 4; k_++) {                                                                \
            r[k_] = __builtin_shufflevector(u_[k_], u_[k_ + 4], 0, 1, 2, 3, 8, 9, 10, 11);              \
            r[k_ + 4] = __builtin_shufflevector(u_[k_], u_[k_ + 4], 4, 5, 6, 7, 12, 13, 14, 15);        \
        }                                                                                               \
    } while (0)

OC_INLINE oc_lanes_f oc_load_lanes(const float *p) {
    oc_lanes_f v;
    memcpy(&v, p, sizeof v);
    return v;
}

/// `oc_bf16_decode` lane by lane.
OC_INLINE oc_lanes_f oc_bf16_decode_lanes(oc_lanes_h codes) {
    const oc_lanes_u bits = __builtin_convertvector(codes, oc_lanes_u) << 16;
    oc_lanes_f v;
    memcpy(&v, &bits, sizeof v);
    return v;
}

/// `oc_bf16_encode` lane by lane (v > 0 keeps v, anything else is 0, as for −0 there).
OC_INLINE oc_lanes_h oc_bf16_encode_lanes(oc_lanes_f v) {
    oc_lanes_u bits;
    memcpy(&bits, &v, sizeof bits);
    bits &= (oc_lanes_u)(v > 0.0f);
    bits = (bits + 0x7FFFu + ((bits >> 16) & 1u)) >> 16;
    return __builtin_convertvector(bits, oc_lanes_h);
}

/// Decodes `lanes` runs of `width` samples into `P` lane-interleaved (P[(margin + x)·8 +
/// lane] is run lane's sample at x, −margin ≤ x < width + margin, the ends repeated).
OC_INLINE void oc_interleave(const uint16_t *const source[OC_LANES], long lanes, long width, long margin, float *restrict P) {
    const uint16_t *run[OC_LANES];
    // Missing lanes repeat the first run; their results are not kept.
    for (long l = 0; l < OC_LANES; l++) run[l] = source[l < lanes ? l : 0];
    oc_lanes_f first, last;
    for (long l = 0; l < OC_LANES; l++) {
        first[l] = oc_bf16_decode(run[l][0]);
        last[l] = oc_bf16_decode(run[l][width - 1]);
    }
    for (long k = 0; k < margin; k++) {
        memcpy(P + k * OC_LANES, &first, sizeof first);
        memcpy(P + (margin + width + k) * OC_LANES, &last, sizeof last);
    }
    float *restrict p = P + margin * OC_LANES;
    long x = 0;
    // Eight columns at a time: eight runs' vectors, transposed into eight columns' vectors.
    for (; x + OC_LANES <= width; x += OC_LANES) {
        oc_lanes_f rows[OC_LANES];
        for (long l = 0; l < OC_LANES; l++) {
            oc_lanes_h codes;
            memcpy(&codes, run[l] + x, sizeof codes);
            rows[l] = oc_bf16_decode_lanes(codes);
        }
        OC_TRANSPOSE8(rows, oc_lanes_f);
        for (long j = 0; j < OC_LANES; j++) memcpy(p + (x + j) * OC_LANES, &rows[j], sizeof rows[j]);
    }
    for (; x < width; x++) {
        for (long l = 0; l < OC_LANES; l++) p[x * OC_LANES + l] = oc_bf16_decode(run[l][x]);
    }
}

/// Box-blurs the interleaved runs of `P` (taps `n`, end weight `f`) into `target[lane]`,
/// eight columns at a time transposed back into runs. Each lane adds in the order one run
/// alone would.
OC_INLINE void oc_box_lanes(
    const float *restrict P, long margin, long lanes, long width, long n, float f, uint16_t *const target[OC_LANES]) {
    OC_EXACT_ARITHMETIC
    const float scale = 1.0f / ((float)(2 * n + 1) + 2.0f * f);
    const float *restrict p = P + margin * OC_LANES;
    oc_lanes_f sum = 0.0f;
    for (long k = -n; k <= n; k++) sum += oc_load_lanes(p + k * OC_LANES);
    for (long x0 = 0; x0 < width; x0 += OC_LANES) {
        oc_lanes_h codes[OC_LANES];
        const long count = width - x0 < OC_LANES ? width - x0 : OC_LANES;
        for (long j = 0; j < OC_LANES; j++) {
            // Past the end of a short last block the lanes compute on, unkept.
            const long x = j < count ? x0 + j : x0;
            const oc_lanes_f a = oc_load_lanes(p + (x - n - 1) * OC_LANES), b = oc_load_lanes(p + (x + n + 1) * OC_LANES);
            const oc_lanes_f c = oc_load_lanes(p + (x - n) * OC_LANES);
            codes[j] = oc_bf16_encode_lanes((sum + f * (a + b)) * scale);
            if (j < count) sum += b - c;
        }
        OC_TRANSPOSE8(codes, oc_lanes_h);
        if (count == OC_LANES) {
            for (long l = 0; l < lanes; l++) memcpy(target[l] + x0, &codes[l], sizeof codes[l]);
        } else {
            for (long l = 0; l < lanes; l++) {
                for (long j = 0; j < count; j++) target[l][x0 + j] = codes[l][j];
            }
        }
    }
}

#pragma clang diagnostic pop

/// Scratch layout of one worker for `oc_defocus_band`, in floats then codes.
typedef struct oc_band_scratch {
    float *P;
    double *sums;
    uint16_t *rings;
} oc_band_scratch;

OC_INLINE oc_band_scratch oc_band_layout(void *scratch, long width, long count, long max_taps) {
    oc_band_scratch s;
    s.sums = (double *)scratch;
    s.P = (float *)(s.sums + count * 3 * width);
    s.rings = (uint16_t *)(s.P + OC_LANES * (width + 2 * (max_taps + 2)));
    return s;
}

/// Horizontally blurs layer rows first ..< first + rows (all of them in one go: 3 runs a
/// row, 8 runs a group) for every blurring plane, into slot (row mod ring) of its ring.
OC_INLINE void oc_band_block(
    const uint16_t *restrict sharp, long width, long first, long rows, const oc_defocus_plane *planes, long count,
    long max_taps, long ring, oc_band_scratch s) {
    const long runs = 3 * rows, margin = max_taps + 2, row_codes = 3 * width;
    for (long g = 0; g < runs; g += OC_LANES) {
        const long lanes = runs - g < OC_LANES ? runs - g : OC_LANES;
        const uint16_t *source[OC_LANES];
        for (long l = 0; l < OC_LANES; l++) source[l] = sharp + (3 * first + g + (l < lanes ? l : 0)) * width;
        oc_interleave(source, lanes, width, margin, s.P);
        for (long p = 0; p < count; p++) {
            if (planes[p].taps == 0 && planes[p].fraction == 0.0f) continue;
            uint16_t *target[OC_LANES];
            for (long l = 0; l < OC_LANES; l++) {
                const long run = g + (l < lanes ? l : 0), row = first + run / 3;
                target[l] = s.rings + (p * ring + row % ring) * row_codes + (run % 3) * width;
            }
            oc_box_lanes(s.P, margin, lanes, width, planes[p].taps, planes[p].fraction, target);
        }
    }
}

/// One run of an output row where the depth is plane `index`: the vertical box from the
/// running `sum` and the rows of the plane's ring, times the gain (in `scale`); then the
/// sum moves down a row. The sum is a double, in which every window sum of bfloat16 samples
/// (8 significant bits, at most 1025 of them, none below 2⁻³⁵ of the largest) is exact: so
/// where a worker's band starts does not change a bit, and the result is the float running
/// sum's wherever that was exact, as it is for any window of samples within 2¹⁵ of each
/// other. Its own function so that `restrict` tells the vectoriser the ring, the sums and
/// the layer never overlap; the other pixels keep their value (stored again, so the loop
/// vectorises).
OC_INLINE void oc_vertical_run(
    const uint16_t *restrict above, const uint16_t *restrict below, const uint16_t *restrict leaving,
    double *restrict sum, uint16_t *restrict target, const uint8_t *restrict depth, long width, uint8_t index,
    float f, float scale) {
    OC_EXACT_ARITHMETIC
    // The cost model declines this loop (the byte mask widened to a 16-bit select);
    // vectorised it runs several times as fast.
#pragma clang loop vectorize(enable) interleave(enable)
    for (long x = 0; x < width; x++) {
        const float in = oc_bf16_decode(below[x]);
        const float value = ((float)sum[x] + f * (oc_bf16_decode(above[x]) + in)) * scale;
        target[x] = depth[x] == index ? oc_bf16_encode(value) : target[x];
        sum[x] += (double)in - (double)oc_bf16_decode(leaving[x]);
    }
}

/// One run of an output row where the depth is plane `index`, which is not blurred: the
/// sharp layer times the gain (at gain 1 the codes come back unchanged: a layer's codes are
/// non-negative bfloat16, which encode to themselves).
OC_INLINE void oc_lit_run(
    const uint16_t *restrict source, uint16_t *restrict target, const uint8_t *restrict depth, long width,
    uint8_t index, float gain) {
    OC_EXACT_ARITHMETIC
#pragma clang loop vectorize(enable)
    for (long x = 0; x < width; x++) {
        const uint16_t lit = oc_bf16_encode(oc_bf16_decode(source[x]) * gain);
        target[x] = depth[x] == index ? lit : target[x];
    }
}

void OC_VARIANT(oc_defocus_band)(
    const uint16_t *restrict sharp, uint16_t *restrict layer, const uint8_t *restrict mask, long width, long height,
    long y0, long y1, const oc_defocus_plane *planes, long count, void *scratch) {
    OC_EXACT_ARITHMETIC
    if (y0 >= y1) return;
    long max_taps = 0;
    for (long p = 0; p < count; p++) max_taps = planes[p].taps > max_taps ? planes[p].taps : max_taps;
    const long ring = oc_ring_rows(max_taps), row_codes = 3 * width, last_row = height - 1;
    const oc_band_scratch s = oc_band_layout(scratch, width, count, max_taps);
#define OC_CLAMP(y) ((y) < 0 ? 0 : (y) > last_row ? last_row : (y))
    // Blurred rows exist for lo ..< made; the band needs lo ... hi.
    const long lo = OC_CLAMP(y0 - max_taps - 1), hi = OC_CLAMP(y1 + max_taps);
    long made = lo;
    for (long y = y0; y < y1; y++) {
        const long needed = OC_CLAMP(y + max_taps + 1);
        while (made <= needed) {
            const long rows = hi + 1 - made < OC_BLOCK_ROWS ? hi + 1 - made : OC_BLOCK_ROWS;
            oc_band_block(sharp, width, made, rows, planes, count, max_taps, ring, s);
            made += rows;
        }
        const uint16_t *restrict source = sharp + y * row_codes;
        uint16_t *restrict target = layer + y * row_codes;
        const uint8_t *restrict depth = mask + y * width;
        if (y == y0) {
            for (long p = 0; p < count; p++) {
                const long n = planes[p].taps;
                if (n == 0 && planes[p].fraction == 0.0f) continue;
                const uint16_t *rows = s.rings + p * ring * row_codes;
                double *restrict sum = s.sums + p * row_codes;
                for (long i = 0; i < row_codes; i++) sum[i] = 0.0;
                for (long k = -n; k <= n; k++) {
                    const uint16_t *restrict blurred = rows + (OC_CLAMP(y0 + k) % ring) * row_codes;
                    for (long i = 0; i < row_codes; i++) sum[i] += (double)oc_bf16_decode(blurred[i]);
                }
            }
        }
        // A piece of a run at a time, every plane on it, so its sums and output stay in L1.
        for (long o = 0; o < row_codes; o += width) {
            for (long x0 = 0; x0 < width; x0 += OC_PIECE) {
                const long length = width - x0 < OC_PIECE ? width - x0 : OC_PIECE, i = o + x0;
                for (long p = 0; p < count; p++) {
                    const uint8_t index = (uint8_t)p;
                    const long n = planes[p].taps;
                    const float f = planes[p].fraction, gain = planes[p].gain;
                    if (n == 0 && f == 0.0f) {
                        // No blur: the sharp layer times the gain.
                        oc_lit_run(source + i, target + i, depth + x0, length, index, gain);
                        continue;
                    }
                    const uint16_t *rows = s.rings + p * ring * row_codes;
                    const float scale = gain / ((float)(2 * n + 1) + 2.0f * f);
                    const uint16_t *above = rows + (OC_CLAMP(y - n - 1) % ring) * row_codes;
                    const uint16_t *below = rows + (OC_CLAMP(y + n + 1) % ring) * row_codes;
                    const uint16_t *leaving = rows + (OC_CLAMP(y - n) % ring) * row_codes;
                    oc_vertical_run(
                        above + i, below + i, leaving + i, s.sums + p * row_codes + i, target + i, depth + x0, length,
                        index, f, scale);
                }
            }
        }
    }
#undef OC_CLAMP
}

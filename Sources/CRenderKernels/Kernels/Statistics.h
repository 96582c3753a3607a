// Per-frame statistics: colour zones from the sensor codes (ZoneStatistics), the luma
// histogram of the written frame (FrameStatistics) and the autofocus sharpness
// (FocusMetric). Integer sums, except where the Swift versions added doubles, which are
// added here in the same order.

void OC_VARIANT(oc_zone_accumulate)(
    const uint16_t *restrict raw, long width, long y, long height, uint16_t clip, uint32_t *restrict buffer) {
    const uint16_t *restrict g = raw + width, *restrict b = raw + 2 * width;
    const long grid = OC_ZONE_GRID, step = OC_STATISTICS_STEP;
    const long zone_row = grid * y / height;
    for (long column = 0; column < grid; column++) {
        uint32_t *restrict zone = buffer + (zone_row * grid + column) * OC_ZONE_WORDS;
        const long start = (column * width + grid - 1) / grid, end = ((column + 1) * width + grid - 1) / grid;
        uint32_t sum_r = 0, sum_g = 0, sum_b = 0, kept = 0, all = 0;
        // From the first column at or after `start` with x mod step = step / 2.
        for (long x = start + (step / 2 - start % step + step) % step; x < end; x += step) {
            const uint16_t cr = raw[x], cg = g[x], cb = b[x];
            all += 1;
            if (cr < clip && cg < clip && cb < clip) {
                sum_r += cr;
                sum_g += cg;
                sum_b += cb;
                kept += 1;
            }
        }
        zone[0] += sum_r;
        zone[1] += sum_g;
        zone[2] += sum_b;
        zone[3] += kept;
        zone[4] += all;
    }
}

void OC_VARIANT(oc_zone_merge)(
    uint32_t *const *buffers, long count, double black, double white, double *restrict zones, long *restrict samples) {
    OC_EXACT_ARITHMETIC
    for (long zone = 0; zone < OC_ZONE_GRID * OC_ZONE_GRID; zone++) {
        double r = 0, g = 0, b = 0, kept = 0;
        long all = 0;
        for (long i = 0; i < count; i++) {
            uint32_t *words = buffers[i] + zone * OC_ZONE_WORDS;
            r += (double)words[0];
            g += (double)words[1];
            b += (double)words[2];
            kept += (double)words[3];
            all += (long)words[4];
            for (int w = 0; w < OC_ZONE_WORDS; w++) words[w] = 0;
        }
        double *out = zones + 4 * zone;
        out[0] = kept > 0 ? (r / kept - black) / white : 0;
        out[1] = kept > 0 ? (g / kept - black) / white : 0;
        out[2] = kept > 0 ? (b / kept - black) / white : 0;
        out[3] = kept;
        samples[zone] = all;
    }
}

/// The weight of sample column x: the centre half in x and y counts more.
OC_INLINE uint32_t oc_metering_weight(long x, long width, int centre_row) {
    return centre_row && x >= width / 4 && x < width * 3 / 4 ? OC_CENTRE_WEIGHT : 1;
}

void OC_VARIANT(oc_luma_histogram)(
    const uint8_t *restrict luma, long width, long y, long height, uint32_t *restrict histogram) {
    const int centre_row = y >= height / 4 && y < height * 3 / 4;
    for (long x = OC_STATISTICS_STEP / 2; x < width; x += OC_STATISTICS_STEP) {
        histogram[luma[x]] += oc_metering_weight(x, width, centre_row);
    }
}

void OC_VARIANT(oc_luma10_histogram)(
    const uint16_t *restrict luma, long width, long y, long height, uint32_t *restrict histogram) {
    const int centre_row = y >= height / 4 && y < height * 3 / 4;
    // A word holds value << 6: its top byte is the 10-bit value's top 8 bits.
    for (long x = OC_STATISTICS_STEP / 2; x < width; x += OC_STATISTICS_STEP) {
        histogram[luma[x] >> 8] += oc_metering_weight(x, width, centre_row);
    }
}

void OC_VARIANT(oc_bgra_histogram)(
    const uint8_t *restrict bgra, long width, long y, long height, uint32_t *restrict histogram) {
    const int centre_row = y >= height / 4 && y < height * 3 / 4;
    // BT.709 weights in 16-bit fixed point; they sum to 65 536, so white stays 255.
    const long kr = 13933, kb = 4732, kg = 65536 - kr - kb;
    for (long x = OC_STATISTICS_STEP / 2; x < width; x += OC_STATISTICS_STEP) {
        const uint8_t *p = bgra + 4 * x;
        const long code = (kb * p[0] + kg * p[1] + kr * p[2] + 32768) >> 16;
        histogram[code] += oc_metering_weight(x, width, centre_row);
    }
}

/// Gradient energy and sum of the samples `step` bytes apart in rows y0 ..< y1, columns
/// x0 ..< x1 (a constant `step` after inlining, so the loop vectorises for each).
OC_INLINE void oc_focus_rows(
    const uint8_t *base, long stride, const long step, long x0, long x1, long y0, long y1, double *result) {
    OC_EXACT_ARITHMETIC
    double energy = 0, sum = 0;
    for (long y = y0; y < y1; y++) {
        const uint8_t *row = base + y * stride;
        long row_energy = 0, row_sum = 0;
        for (long x = x0; x < x1; x++) {
            const long dx = (long)row[(x + 1) * step] - (long)row[(x - 1) * step];
            const long dy = (long)row[x * step + stride] - (long)row[x * step - stride];
            row_energy += dx * dx + dy * dy;
            row_sum += row[x * step];
        }
        energy += (double)row_energy;
        sum += (double)row_sum;
    }
    result[0] = energy;
    result[1] = sum;
}

void OC_VARIANT(oc_focus_energy)(
    const uint8_t *base, long stride, long step, long x0, long x1, long y0, long y1, double *result) {
    if (step == 1) {
        oc_focus_rows(base, stride, 1, x0, x1, y0, y1, result);
    } else if (step == 4) {
        oc_focus_rows(base, stride, 4, x0, x1, y0, y1, result);
    } else {
        oc_focus_rows(base, stride, step, x0, x1, y0, y1, result);
    }
}

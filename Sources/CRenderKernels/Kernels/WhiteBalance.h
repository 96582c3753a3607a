// The per-zone loops of the illuminant estimate (see IlluminantEstimator): which zones may
// be grey, the robust search along the camera's locus, and the grey-world mean. Doubles,
// added in the order the Swift version added them, so the estimate is the same.

void OC_VARIANT(oc_grey_candidates)(
    const double *restrict zones, const long *restrict samples, long count, double min_share, double dark_level,
    double *restrict chroma, double *restrict signal, long *restrict found) {
    OC_EXACT_ARITHMETIC
    long kept = 0;
    for (long zone = 0; zone < count; zone++) {
        const double *z = zones + 4 * zone;
        const double r = z[0], g = z[1], b = z[2], weight = z[3];
        if (!(weight >= 4 && weight >= min_share * (double)samples[zone] && g >= dark_level)) continue;
        if (!(r > 0 && g > 0 && b > 0)) continue;
        double *c = chroma + 3 * kept, *s = signal + 3 * kept;
        c[0] = log(r / g);
        c[1] = log(b / g);
        c[2] = weight;
        s[0] = r;
        s[1] = g;
        s[2] = b;
        kept++;
    }
    *found = kept;
}

void OC_VARIANT(oc_locus_search)(
    const double *restrict chroma, long count, const double *restrict locus, long points, double limit,
    long *restrict best) {
    OC_EXACT_ARITHMETIC
    long chosen = 0;
    double best_cost = __builtin_inf();
    for (long point = 0; point < points; point++) {
        const double px = locus[2 * point], py = locus[2 * point + 1];
        double cost = 0;
        for (long zone = 0; zone < count; zone++) {
            const double *c = chroma + 3 * zone;
            const double dx = c[0] - px, dy = c[1] - py;
            const double d2 = dx * dx + dy * dy;
            cost += c[2] * (limit < d2 ? limit : d2);
        }
        if (cost < best_cost) {
            best_cost = cost;
            chosen = point;
        }
    }
    *best = chosen;
}

void OC_VARIANT(oc_grey_mean)(
    const double *restrict chroma, const double *restrict signal, long count, double cx, double cy, double limit,
    double *restrict result) {
    OC_EXACT_ARITHMETIC
    double r = 0, g = 0, b = 0, weight = 0;
    for (long zone = 0; zone < count; zone++) {
        const double *c = chroma + 3 * zone, *s = signal + 3 * zone;
        const double dx = c[0] - cx, dy = c[1] - cy;
        if (!(dx * dx + dy * dy < limit)) continue;
        r += s[0] * c[2];
        g += s[1] * c[2];
        b += s[2] * c[2];
        weight += c[2];
    }
    result[0] = r;
    result[1] = g;
    result[2] = b;
    result[3] = weight;
}

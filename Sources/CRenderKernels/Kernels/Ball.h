// A moving disc drawn over one row of the static layer (see BallPainter).

void OC_VARIANT(oc_disc_row)(
    const oc_disc *disc, long row, long first, long count, long width, const uint16_t *restrict source,
    uint16_t *restrict scratch) {
    OC_EXACT_ARITHMETIC
    const float dy = (float)row + 0.5f - disc->y;
    const float radius = disc->radius, softness = disc->softness;
    for (long i = 0; i < count; i++) {
        const long x = first + i;
        const float dx = (float)x + 0.5f - disc->x;
        const float distance = sqrtf(dx * dx + dy * dy);
        // Pixel coverage: 1 inside, 0 outside, linear across the rim. The comparisons are
        // Swift's min and max, as BallPainter had them.
        const float edge = (radius - distance) / softness + 0.5f;
        const float clamped = 0.0f >= edge ? 0.0f : edge;
        const float coverage = 1.0f < clamped ? 1.0f : clamped;
        // A matte sphere lit from the viewer's side (Scene.ballShading).
        const float rim = distance / radius;
        const float d = 1.0f < rim ? 1.0f : rim;
        const float under = 1.0f - d * d;
        const float cosine = sqrtf(under >= 0.0f ? under : 0.0f);
        const float shade = 0.35f + 0.65f * cosine;
        for (long c = 0; c < 3; c++) {
            const float shaded = disc->color[c] * shade;
            const float old = oc_bf16_decode(source[c * width + x]);
            scratch[c * count + i] = oc_bf16_encode(old + (shaded - old) * coverage);
        }
    }
}

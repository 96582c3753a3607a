// The static layer of the default scene (see StaticLayer.fill and Scene.staticReflectance):
// what Swift at -Onone took seconds a frame's worth of pixels for, with the same arithmetic
// in the same order (no contraction), so every sample is the one the Swift path gives.
// Contraction is off for the whole file, helpers too: a pragma inside a kernel's body does
// not reach the helpers it inlines, which v3, v4 and aarch64 builds would otherwise fuse.
#pragma clang fp contract(off)

// Per column, what depends on x alone (oc_chart_columns fills it once per layer, so the
// rows don't recompute it): the scene x, dx² of the falloff, the tint's red and blue, and
// per octave the lattice column and its smoothstep weight.
enum { OC_CHART_COLUMN = 10 };

void OC_VARIANT(oc_chart_columns)(const oc_chart_scene *s, double *table) {
    OC_EXACT_ARITHMETIC
    for (long x = 0; x < s->width; x++) {
        double *c = table + OC_CHART_COLUMN * x;
        const double sx = 0.5 + (((double)x + 0.5) / (double)s->width - 0.5) / s->zoom;
        const double dx = (sx - 0.5) * s->falloff_width;
        c[0] = sx;
        c[1] = dx * dx;
        c[2] = 1.03 - 0.06 * sx;
        c[3] = 0.96 + 0.08 * sx;
        for (int i = 0; i < 3; i++) {
            const double px = (sx < 0 ? 0 : sx > 1 ? 1 : sx) * s->octave_frequency[i];
            long ix = (long)px;
            if (ix > s->octave_stride[i] - 2) ix = s->octave_stride[i] - 2;
            const double fx = px - (double)ix;
            c[4 + 2 * i] = (double)ix;
            c[5 + 2 * i] = fx * fx * (3 - 2 * fx);
        }
    }
}

// What depends on y alone, per octave: the lattice row and its smoothstep weight.
typedef struct oc_chart_row_terms {
    long iy[3];
    double sy[3];
} oc_chart_row_terms;

OC_INLINE oc_chart_row_terms oc_chart_rows_of(const oc_chart_scene *s, double y) {
    oc_chart_row_terms t;
    for (int i = 0; i < 3; i++) {
        const double py = (y < 0 ? 0 : y > 1 ? 1 : y) * s->octave_frequency[i];
        long iy = (long)py;
        if (iy > s->octave_stride[i] - 2) iy = s->octave_stride[i] - 2;
        const double fy = py - (double)iy;
        t.iy[i] = iy;
        t.sy[i] = fy * fy * (3 - 2 * fy);
    }
    return t;
}

// One octave of the background's value noise (Scene's TextureOctave.value).
OC_INLINE double oc_chart_octave(const oc_chart_scene *s, int i, const double *c, const oc_chart_row_terms *t) {
    const long stride = s->octave_stride[i];
    const double *values = s->octave_values[i];
    const double sx = c[5 + 2 * i], sy = t->sy[i];
    const long base = t->iy[i] * stride + (long)c[4 + 2 * i];
    const double top = values[base] + (values[base + 1] - values[base]) * sx;
    const double bottom = values[base + stride] + (values[base + stride + 1] - values[base + stride]) * sx;
    return s->octave_amplitude[i] * (top + (bottom - top) * sy);
}

// Scene.background: gradient, tint and texture.
OC_INLINE void oc_chart_background(
    const oc_chart_scene *s, const double *c, const oc_chart_row_terms *t, double y, float out[3]) {
    const double base = 0.30 - 0.10 * (y < 0 ? 0 : y > 1 ? 1 : y);
    const double texture =
        0.85 + 0.30 * (oc_chart_octave(s, 0, c, t) + oc_chart_octave(s, 1, c, t) + oc_chart_octave(s, 2, c, t));
    const double scaled = base * texture;
    out[0] = (float)(c[2] * scaled);
    out[1] = (float)(1 * scaled);
    out[2] = (float)(c[3] * scaled);
}

OC_INLINE int oc_chart_inside(double x, double y, double min_x, double max_x, double min_y, double max_y) {
    return x >= min_x && x < max_x && y >= min_y && y < max_y;
}

OC_INLINE void oc_chart_grey(float value, float out[3]) { out[0] = out[1] = out[2] = value; }

// Scene.staticReflectance for `.chart` without pictures: ChartExtras, the markers, ColorChart,
// else the background (only the background for `.motion`).
OC_INLINE void oc_chart_reflectance(
    const oc_chart_scene *s, const double *c, const oc_chart_row_terms *t, double y, float out[3]) {
    const double x = c[0];
    if (!s->chart) { oc_chart_background(s, c, t, y, out); return; }
    if (oc_chart_inside(x, y, 0.26, 0.74, 0.19, 0.27)) {  // ChartExtras.ramp
        long step = (long)((x - 0.26) / (0.74 - 0.26) * 12.0);
        if (step > 11) step = 11;
        { oc_chart_grey(s->ramp[step], out); return; }
    }
    if (oc_chart_inside(x, y, 0.28, 0.72, 0.705, 0.775)) {  // ChartExtras.card
        const double u = (x - 0.28) / (0.72 - 0.28) * (double)(18 * 6);
        const double v = (y - 0.705) / (0.775 - 0.705) * 9 - 1;
        const long cell = (long)u / 6, column = (long)u % 6, row = (long)floor(v);
        if (column >= 5 || row < 0 || row >= 7) { oc_chart_grey(0.85f, out); return; }
        { oc_chart_grey(s->ink[cell * 35 + row * 5 + column] ? 0.03f : 0.85f, out); return; }
    }
    if (oc_chart_inside(x, y, 0.05, 0.15, 0.05, 0.15)) { oc_chart_grey(4.0f, out); return; }  // Scene.whiteMarker
    if (oc_chart_inside(x, y, 0.85, 0.95, 0.05, 0.15)) {  // Scene.redMarker
        out[0] = 0.85f, out[1] = 0.02f, out[2] = 0.02f;
        return;
    }
    if (oc_chart_inside(x, y, 0.26, 0.74, 0.31, 0.69)) {  // ColorChart
        const double u = (x - 0.26) / (0.74 - 0.26) * 6.0, v = (y - 0.31) / (0.69 - 0.31) * 4.0;
        long column = (long)u, row = (long)v;
        if (column > 5) column = 5;
        if (row > 3) row = 3;
        const double fu = u - (double)column, fv = v - (double)row, half = 0.12 / 2;
        if (!(fu > half && fu < 1 - half && fv > half && fv < 1 - half)) { oc_chart_grey(0.025f, out); return; }
        const float *patch = s->patches + 3 * (row * 6 + column);
        out[0] = patch[0], out[1] = patch[1], out[2] = patch[2];
        return;
    }
    oc_chart_background(s, c, t, y, out);
}

void OC_VARIANT(oc_chart_row)(const oc_chart_scene *s, long y, long first, long count, uint16_t *row) {
    OC_EXACT_ARITHMETIC
    const long width = s->width;
    const double sy = 0.5 + (((double)y + 0.5) / (double)s->height - 0.5) / s->zoom;
    const double dy = (sy - 0.5) * s->falloff_height, dy2 = dy * dy, f2 = s->falloff_f2;
    const oc_chart_row_terms terms = oc_chart_rows_of(s, sy);
    const float *m = s->color;
    for (long x = first; x < first + count; x++) {
        const double *c = s->columns + OC_CHART_COLUMN * x;
        float r[3];
        oc_chart_reflectance(s, c, &terms, sy, r);
        // Optics.Falloff.at: the cos⁴ law.
        const double r2 = c[1] + dy2;
        const double cos4 = f2 * f2 / ((f2 + r2) * (f2 + r2));
        const float falloff = 1 - s->falloff_strength * (float)(1 - cos4);
        // ColorTransform.apply: each row's products summed left to right.
        for (int k = 0; k < 3; k++) {
            const float value = (m[3 * k] * r[0] + m[3 * k + 1] * r[1] + m[3 * k + 2] * r[2]) * falloff;
            row[k * width + x] = oc_bf16_encode(value);
        }
    }
}

// The files after this one keep the build's default.
#pragma clang fp contract(on)

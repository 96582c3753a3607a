// Every kernel, once: OC_KERNEL(name, parameters, arguments). The including file defines
// OC_KERNEL (Dispatch.c makes a dispatcher of each, Kernels/All.h declares each build).
// Kernels return nothing, so one dispatcher shape fits all.

OC_KERNEL(oc_sensor_row,
    (const uint16_t *radiance, const float *noise, uint16_t *codes, long count, const oc_sensor_coefficients *k),
    (radiance, noise, codes, count, k))
OC_KERNEL(oc_isp_row_pair_420,
    (const oc_isp_coefficients *isp, const uint16_t *raw_a, const uint16_t *raw_b, long width, uint8_t *luma_a,
        uint8_t *luma_b, uint8_t *cb, uint8_t *cr, long chroma_step, const void *prefetch, long prefetch_bytes),
    (isp, raw_a, raw_b, width, luma_a, luma_b, cb, cr, chroma_step, prefetch, prefetch_bytes))
OC_KERNEL(oc_isp_row_pair_420_10,
    (const oc_isp_coefficients *isp, const uint16_t *raw_a, const uint16_t *raw_b, long width, uint16_t *luma_a,
        uint16_t *luma_b, uint16_t *cbcr, const void *prefetch, long prefetch_bytes),
    (isp, raw_a, raw_b, width, luma_a, luma_b, cbcr, prefetch, prefetch_bytes))
OC_KERNEL(oc_isp_row_bgra,
    (const oc_isp_coefficients *isp, const uint16_t *raw, long width, uint8_t *bgra, const void *prefetch,
        long prefetch_bytes),
    (isp, raw, width, bgra, prefetch, prefetch_bytes))
OC_KERNEL(oc_zone_accumulate,
    (const uint16_t *raw, long width, long y, long height, uint16_t clip, uint32_t *buffer),
    (raw, width, y, height, clip, buffer))
OC_KERNEL(oc_zone_merge,
    (uint32_t *const *buffers, long count, double black, double white, double *zones, long *samples),
    (buffers, count, black, white, zones, samples))
OC_KERNEL(oc_luma_histogram,
    (const uint8_t *luma, long width, long y, long height, uint32_t *histogram), (luma, width, y, height, histogram))
OC_KERNEL(oc_luma10_histogram,
    (const uint16_t *luma, long width, long y, long height, uint32_t *histogram), (luma, width, y, height, histogram))
OC_KERNEL(oc_bgra_histogram,
    (const uint8_t *bgra, long width, long y, long height, uint32_t *histogram), (bgra, width, y, height, histogram))
OC_KERNEL(oc_focus_energy,
    (const uint8_t *base, long stride, long step, long x0, long x1, long y0, long y1, double *result),
    (base, stride, step, x0, x1, y0, y1, result))
OC_KERNEL(oc_grey_candidates,
    (const double *zones, const long *samples, long count, double min_share, double dark_level, double *chroma,
        double *signal, long *found),
    (zones, samples, count, min_share, dark_level, chroma, signal, found))
OC_KERNEL(oc_locus_search,
    (const double *chroma, long count, const double *locus, long points, double limit, long *best),
    (chroma, count, locus, points, limit, best))
OC_KERNEL(oc_grey_mean,
    (const double *chroma, const double *signal, long count, double cx, double cy, double limit, double *result),
    (chroma, signal, count, cx, cy, limit, result))
OC_KERNEL(oc_disc_row,
    (const oc_disc *disc, long row, long first, long count, long width, const uint16_t *source, uint16_t *scratch),
    (disc, row, first, count, width, source, scratch))
OC_KERNEL(oc_zoom_interpolate,
    (const uint16_t *row, float *out, const int32_t *columns, const float *weights, long width),
    (row, out, columns, weights, width))
OC_KERNEL(oc_zoom_blend,
    (const float *top, const float *bottom, uint16_t *target, long count, float weight),
    (top, bottom, target, count, weight))
OC_KERNEL(oc_defocus_band,
    (const uint16_t *sharp, uint16_t *layer, const uint8_t *mask, long width, long height, long y0, long y1,
        const oc_defocus_plane *planes, long count, void *scratch),
    (sharp, layer, mask, width, height, y0, y1, planes, count, scratch))
OC_KERNEL(oc_chart_columns, (const oc_chart_scene *scene, double *table), (scene, table))
OC_KERNEL(oc_chart_row, (const oc_chart_scene *scene, long y, long first, long count, uint16_t *row),
    (scene, y, first, count, row))
OC_KERNEL(oc_jfif_chroma_row,
    (const uint8_t *cb, const uint8_t *cr, long step, long count, const int32_t *k, int32_t *corrections,
        uint8_t *cb_out, uint8_t *cr_out),
    (cb, cr, step, count, k, corrections, cb_out, cr_out))
OC_KERNEL(oc_jfif_luma_row,
    (const uint8_t *input, long width, int32_t scale, const int32_t *corrections, uint8_t *output),
    (input, width, scale, corrections, output))
OC_KERNEL(oc_bgra_to_yuv709_row_pair,
    (const uint8_t *top, const uint8_t *bottom, long width, const long *k, uint8_t *luma_top, uint8_t *luma_bottom,
        uint8_t *cb, uint8_t *cr, long chroma_step),
    (top, bottom, width, k, luma_top, luma_bottom, cb, cr, chroma_step))
OC_KERNEL(oc_gamut_row,
    (const uint8_t *source, uint8_t *destination, long width, const float *to_linear, const float *matrix,
        const uint8_t *to_code, long steps),
    (source, destination, width, to_linear, matrix, to_code, steps))

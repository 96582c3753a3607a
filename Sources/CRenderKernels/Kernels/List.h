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
OC_KERNEL(oc_isp_row_bgra,
    (const oc_isp_coefficients *isp, const uint16_t *raw, long width, uint8_t *bgra, const void *prefetch,
        long prefetch_bytes),
    (isp, raw, width, bgra, prefetch, prefetch_bytes))

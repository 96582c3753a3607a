// The sensor: relative radiance → ADC codes, one channel of one row (see SensorKernel).

void OC_VARIANT(oc_sensor_row)(
    const uint16_t *restrict radiance, const float *restrict noise, uint16_t *restrict codes, long count,
    const oc_sensor_coefficients *k) {
    const float scale = k->scale, variance_scale = k->variance_scale, variance_offset = k->variance_offset;
    const float offset = k->offset, low = k->low, high = k->high;
    // 1.5·2²³: added to a float in [0, 2²²), the low mantissa bits are it rounded to an integer.
    const float rounding = 12582912.0f;
    for (long i = 0; i < count; i++) {
        // A bfloat16 is the top half of a float.
        uint32_t bits = (uint32_t)radiance[i] << 16;
        float sample;
        memcpy(&sample, &bits, sizeof sample);
        float code = sample * scale + offset + oc_sensor_root(sample * variance_scale + variance_offset) * noise[i];
        code = code > low ? code : low;
        code = code < high ? code : high;
        float rounded = code + rounding;
        memcpy(&bits, &rounded, sizeof bits);
        codes[i] = (uint16_t)bits;
    }
}

// Small helpers the kernels inline.
#ifndef OC_KERNELS_COMMON_H
#define OC_KERNELS_COMMON_H

#include "../Dispatch.h"
#include <stdint.h>
#include <string.h>

OC_INLINE float oc_clamp01(float v) {
    v = v > 0.0f ? v : 0.0f;
    return v < 1.0f ? v : 1.0f;
}

OC_INLINE float oc_float(uint32_t bits) {
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

OC_INLINE uint32_t oc_bits(float f) {
    uint32_t bits;
    memcpy(&bits, &f, sizeof bits);
    return bits;
}

/// 1.055·v^(1/2.4) − 0.055 above 0.0031308, 12.92·v below. v^(1/2.4) = 2^z with z =
/// 5/12·log₂ v = 5/12·(exponent − 127) + q(mantissa), q a degree-4 polynomial on [1, 2);
/// z = n + f with n the nearest integer (the 1.5·2²³ rounding trick, which also leaves n
/// in the low bits) and 1.055·2^f, f in [−½, ½], a degree-3 polynomial; n goes into the
/// exponent field. Least-squares Chebyshev fits; 0.04 codes worst case at 8 bits.
OC_INLINE float oc_srgb(float v) {
    const uint32_t bits = oc_bits(v);
    const float m = oc_float((bits & 0x7FFFFFu) | 0x3F800000u);
    const float z = (float)(int32_t)(bits >> 23) * (5.0f / 12.0f)
        + ((-127.0f * (5.0f / 12.0f) - 1.0403193856294446f)
           + m * (1.6784813399512128f + m * (-0.8671019904691385f + m * (0.2620041367494855f + m * -0.03297899351200838f))));
    const float rounded = z + 12582912.0f;
    const float f = z - (rounded - 12582912.0f);
    const float power = 1.0549453969788696f + f * (0.7312492658535878f + f * (0.2556206389245366f + f * 0.058948654223731946f));
    const uint32_t whole = oc_bits(rounded) - 0x4B400000u;
    const float curve = oc_float(oc_bits(power) + (whole << 23)) - 0.055f;
    return v <= 0.0031308f ? v * 12.92f : curve;
}

/// ARIB STD-B67 hybrid log-gamma (BT.2100 HLG) OETF for v in 0 ... 1: √(3v) up to 1/12, then
/// a·ln(12v − b) + c. ln x = ln 2 · (exponent + q(mantissa)), q a degree-5 least-squares
/// Chebyshev fit of log₂ on [1, 2) (3.2e-5 at worst: 0.004 of a 10-bit code). Both halves
/// are computed and one selected, so the loop vectorises; the log's argument is kept
/// positive for the half that is thrown away.
OC_INLINE float oc_hlg(float v) {
    const float a = 0.17883277f, b = 0.28466892f, c = 0.55991073f;
    float x = 12.0f * v - b;
    x = x > 0.5f ? x : 0.5f;
    const uint32_t bits = oc_bits(x);
    const float m = oc_float((bits & 0x7FFFFFu) | 0x3F800000u);
    const float log2x = (float)((int32_t)(bits >> 23) - 127)
        + (-2.7868129538674205f
           + m * (5.046876044975866f
                  + m * (-3.4924942798792724f
                         + m * (1.5939013634991075f + m * (-0.40486717441919184f + m * 0.04342890782214256f)))));
    const float curve = (a * 0.6931471805599453f) * log2x + c;
    const float root = __builtin_elementwise_sqrt(3.0f * v);
    return v <= (1.0f / 12.0f) ? root : curve;
}

/// bfloat16 (the top half of a float) → float.
OC_INLINE float oc_bf16_decode(uint16_t value) { return oc_float((uint32_t)value << 16); }

/// A finite float → bfloat16, negatives as 0, rounded to nearest (ties to even). The
/// comparison is Swift's `max(value, 0)`, which StaticLayer.encode used, so that −0 → +0.
OC_INLINE uint16_t oc_bf16_encode(float value) {
    const uint32_t bits = oc_bits(0.0f >= value ? 0.0f : value);
    return (uint16_t)((bits + 0x7FFFu + ((bits >> 16) & 1u)) >> 16);
}

/// A float in [0, 255] or above → its 8-bit code, truncating.
OC_INLINE uint8_t oc_code(float v) {
    v = v < 255.0f ? v : 255.0f;
    return (uint8_t)(int32_t)v;
}

/// A float in [0, 1023] or above → its 10-bit code in the high bits of a 16-bit word
/// (value << 6, as 'x420' and P010 store it), truncating.
OC_INLINE uint16_t oc_code10(float v) {
    v = v < 1023.0f ? v : 1023.0f;
    return (uint16_t)((int32_t)v << 6);
}

#endif

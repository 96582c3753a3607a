// The ISP's tone curves as functions of their own, for tests and stills (one value per call,
// so it is not one of the per-level kernels).
#include "CRenderKernels.h"
#include "Kernels/Common.h"

float oc_srgb_encode(float linear) { return oc_srgb(oc_clamp01(linear)); }

float oc_hlg_encode(float linear) { return oc_hlg(oc_clamp01(linear)); }

// The ISP's tone curve as a function of its own, for tests and stills (one value per call,
// so it is not one of the per-level kernels).
#include "CRenderKernels.h"
#include "Kernels/Common.h"

float oc_srgb_encode(float linear) { return oc_srgb(oc_clamp01(linear)); }

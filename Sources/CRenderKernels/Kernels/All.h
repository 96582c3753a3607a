// Every kernel's body, for the build KernelsV*.c name with OC_SUFFIX (and a target pragma).
#ifndef OC_SUFFIX
#error "define OC_SUFFIX before including Kernels/All.h"
#endif

#include "CRenderKernels.h"

#include <math.h>
#include "../Dispatch.h"

// Declared first, so each definition is checked against the one list.
#define OC_KERNEL(name, parameters, arguments) OC_HIDDEN void OC_VARIANT(name) parameters;
#include "List.h"
#undef OC_KERNEL

#include "Common.h"
#include "Sensor.h"
#include "ISP.h"
#include "Statistics.h"
#include "WhiteBalance.h"
#include "Defocus.h"
#include "Ball.h"
#include "Zoom.h"
#include "Chart.h"
#include "JFIF.h"
#include "YUV709.h"
#include "Gamut.h"

// ALSA's library API (libasound2-dev): card, control and PCM interfaces.
#ifndef OC_CALSA_SHIM_H
#define OC_CALSA_SHIM_H
#if !defined(__linux__)
#error "CALSA needs Linux's ALSA"
#endif
#include <alsa/asoundlib.h>
#endif

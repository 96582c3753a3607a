// libpipewire 0.3 (Debian 12: 0.3.65), included by the plug-in's C files only.
#include <pipewire/pipewire.h>

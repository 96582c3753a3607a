// libsystemd's D-Bus client (Debian 12: systemd 252), included by the plug-in's Portal.c only.
#include <systemd/sd-bus.h>

// libyuv ships no pkg-config file on Debian 12: the header is <libyuv.h>, the library -lyuv.
#include <libyuv.h>

// What Swift cannot import from the kernel's V4L2 headers: the ioctl request numbers are
// function-like macros, so they are re-exported here as constants, with an ioctl wrapper
// that retries on EINTR and returns -errno (errno is awkward to read from Swift).
#ifndef CV4L2_H
#define CV4L2_H

#include <linux/videodev2.h>
#include <stdint.h>

static const unsigned long OC_VIDIOC_QUERYCAP = VIDIOC_QUERYCAP;
static const unsigned long OC_VIDIOC_ENUM_FMT = VIDIOC_ENUM_FMT;
static const unsigned long OC_VIDIOC_G_FMT = VIDIOC_G_FMT;
static const unsigned long OC_VIDIOC_S_FMT = VIDIOC_S_FMT;
static const unsigned long OC_VIDIOC_REQBUFS = VIDIOC_REQBUFS;
static const unsigned long OC_VIDIOC_QUERYBUF = VIDIOC_QUERYBUF;
static const unsigned long OC_VIDIOC_QBUF = VIDIOC_QBUF;
static const unsigned long OC_VIDIOC_DQBUF = VIDIOC_DQBUF;
static const unsigned long OC_VIDIOC_STREAMON = VIDIOC_STREAMON;
static const unsigned long OC_VIDIOC_STREAMOFF = VIDIOC_STREAMOFF;
static const unsigned long OC_VIDIOC_G_PARM = VIDIOC_G_PARM;
static const unsigned long OC_VIDIOC_S_PARM = VIDIOC_S_PARM;
static const unsigned long OC_VIDIOC_G_EXT_CTRLS = VIDIOC_G_EXT_CTRLS;
static const unsigned long OC_VIDIOC_S_EXT_CTRLS = VIDIOC_S_EXT_CTRLS;
static const unsigned long OC_VIDIOC_QUERYMENU = VIDIOC_QUERYMENU;
static const unsigned long OC_VIDIOC_ENUM_FRAMESIZES = VIDIOC_ENUM_FRAMESIZES;
static const unsigned long OC_VIDIOC_ENUM_FRAMEINTERVALS = VIDIOC_ENUM_FRAMEINTERVALS;
static const unsigned long OC_VIDIOC_QUERY_EXT_CTRL = VIDIOC_QUERY_EXT_CTRL;

/// ioctl(fd, request, arg), retried while interrupted; 0 on success, -errno on failure.
int oc_v4l2_ioctl(int fd, unsigned long request, void *arg);

/// Sets or gets one control through the extended-control ioctls. `set` non-zero writes
/// `*value` (the driver may clamp it; read again to see what it kept); `is64` non-zero for
/// V4L2_CTRL_TYPE_INTEGER64 controls. 0 or -errno.
int oc_v4l2_control(int fd, uint32_t id, int set, int is64, int64_t *value);

#endif

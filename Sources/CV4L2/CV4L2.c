#include "CV4L2.h"

#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>

int oc_v4l2_ioctl(int fd, unsigned long request, void *arg) {
    int result;
    do {
        result = ioctl(fd, request, arg);
    } while (result == -1 && errno == EINTR);
    return result == -1 ? -errno : 0;
}

int oc_v4l2_control(int fd, uint32_t id, int set, int is64, int64_t *value) {
    struct v4l2_ext_control control;
    memset(&control, 0, sizeof control);
    control.id = id;
    if (is64) {
        control.value64 = *value;
    } else {
        control.value = (int32_t)*value;
    }
    struct v4l2_ext_controls controls;
    memset(&controls, 0, sizeof controls);
    controls.which = V4L2_CTRL_WHICH_CUR_VAL;
    controls.count = 1;
    controls.controls = &control;
    int result = oc_v4l2_ioctl(fd, set ? VIDIOC_S_EXT_CTRLS : VIDIOC_G_EXT_CTRLS, &controls);
    if (result == 0) {
        *value = is64 ? control.value64 : control.value;
    }
    return result;
}

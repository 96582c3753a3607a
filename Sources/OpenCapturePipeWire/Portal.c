// The Camera portal (xdg-desktop-portal's org.freedesktop.portal.Camera): how a sandboxed
// app (Flatpak, Snap) reaches PipeWire's cameras. The sandbox does not expose the PipeWire
// socket; the portal asks the user, then hands out a connection restricted to the cameras.
//
// sd-bus (libsystemd) talks to the session bus on the calling thread, with a connection of
// its own that lives for one request: the portal is asked once per connection attempt.
#define _GNU_SOURCE
#include "Private.h"

#include <systemd/sd-bus.h>

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define PORTAL_NAME "org.freedesktop.portal.Desktop"
#define PORTAL_PATH "/org/freedesktop/portal/desktop"
#define CAMERA_INTERFACE "org.freedesktop.portal.Camera"
#define REQUEST_INTERFACE "org.freedesktop.portal.Request"

/// The Request's answer, filled by the Response signal's handler.
struct response {
    int done;
    uint32_t code;
};

static int on_response(sd_bus_message *message, void *data, sd_bus_error *error) {
    (void)error;
    struct response *response = data;
    uint32_t code = 2;
    // The results (a{sv}) carry nothing the Camera portal defines; only the code matters.
    if (sd_bus_message_read(message, "u", &code) < 0) code = 2;
    response->code = code;
    response->done = 1;
    return 0;
}

/// The bus at `address`, or the session bus.
static int open_bus(const char *address, sd_bus **bus) {
    if (address == NULL) return sd_bus_open_user(bus);
    int result = sd_bus_new(bus);
    if (result < 0) return result;
    if ((result = sd_bus_set_address(*bus, address)) < 0 || (result = sd_bus_set_bus_client(*bus, 1)) < 0 ||
        (result = sd_bus_start(*bus)) < 0) {
        *bus = sd_bus_unref(*bus);
    }
    return result;
}

/// The Request object a call with `token` makes: the portal's documented path
/// /org/freedesktop/portal/desktop/request/SENDER/TOKEN, SENDER the caller's unique name
/// without its ':' and with '.' as '_'.
static int request_path(sd_bus *bus, const char *token, char *path, size_t capacity) {
    const char *unique = NULL;
    int result = sd_bus_get_unique_name(bus, &unique);
    if (result < 0) return result;
    char sender[128];
    size_t length = 0;
    for (const char *c = unique[0] == ':' ? unique + 1 : unique; *c != '\0' && length + 1 < sizeof sender; c++) {
        sender[length++] = *c == '.' ? '_' : *c;
    }
    sender[length] = '\0';
    snprintf(path, capacity, PORTAL_PATH "/request/%s/%s", sender, token);
    return 0;
}

/// Subscribes to the Response of the Request at `path`.
static int subscribe(sd_bus *bus, const char *path, struct response *response, sd_bus_slot **slot) {
    return sd_bus_match_signal(bus, slot, NULL, path, REQUEST_INTERFACE, "Response", on_response, response);
}

/// Dispatches the bus until `response` is answered; a negative errno when the bus breaks or
/// `deadline` (CLOCK_MONOTONIC ns) passes.
static int wait_for(sd_bus *bus, struct response *response, int64_t deadline) {
    while (!response->done) {
        int result = sd_bus_process(bus, NULL);
        if (result < 0) return result;
        if (result > 0) continue;
        int64_t left = deadline - ocpw_now();
        if (left <= 0) return -ETIMEDOUT;
        result = sd_bus_wait(bus, (uint64_t)(left / 1000));
        if (result < 0) return result;
    }
    return 0;
}

/// AccessCamera, then its Request's Response code (0 granted, 1 cancelled, 2 other).
static int32_t access_camera(sd_bus *bus, int32_t timeout_ms, char *error, size_t capacity) {
    static int counter;
    char token[64], path[256];
    snprintf(token, sizeof token, "opencapture_%d_%d", (int)getpid(), __atomic_add_fetch(&counter, 1, __ATOMIC_RELAXED));
    struct response response = {0, 2};
    sd_bus_slot *slot = NULL, *other = NULL;
    sd_bus_message *reply = NULL;
    sd_bus_error failure = SD_BUS_ERROR_NULL;
    int32_t outcome = OCPW_PORTAL_FAILED;
    // Subscribed before the call: the portal may answer before its reply reaches us.
    int result = request_path(bus, token, path, sizeof path);
    if (result >= 0) result = subscribe(bus, path, &response, &slot);
    if (result < 0) {
        ocpw_fail(error, capacity, "the Camera portal's request could not be followed (%s)", strerror(-result));
        goto done;
    }
    result = sd_bus_call_method(bus, PORTAL_NAME, PORTAL_PATH, CAMERA_INTERFACE, "AccessCamera", &failure, &reply, "a{sv}", 1,
                                "handle_token", "s", token);
    if (result < 0) {
        ocpw_fail(error, capacity, "the Camera portal refused AccessCamera (%s)", failure.message != NULL ? failure.message : strerror(-result));
        goto done;
    }
    const char *handle = NULL;
    if (sd_bus_message_read(reply, "o", &handle) >= 0 && handle != NULL && strcmp(handle, path) != 0) {
        // A portal older than handle_token (before 0.9) picks its own path.
        subscribe(bus, handle, &response, &other);
    }
    result = wait_for(bus, &response, ocpw_now() + (int64_t)timeout_ms * 1000000);
    if (result < 0) {
        ocpw_fail(error, capacity, "the Camera portal did not answer AccessCamera (%s)", strerror(-result));
        goto done;
    }
    switch (response.code) {
    case 0: outcome = OCPW_PORTAL_GRANTED; break;
    case 1:
        outcome = OCPW_PORTAL_DENIED;
        ocpw_fail(error, capacity, "the Camera portal denied access to the cameras (the user declined)");
        break;
    default: ocpw_fail(error, capacity, "the Camera portal ended the camera request without access (response %u)", response.code); break;
    }
done:
    sd_bus_error_free(&failure);
    sd_bus_message_unref(reply);
    sd_bus_slot_unref(slot);
    sd_bus_slot_unref(other);
    return outcome;
}

/// OpenPipeWireRemote: a new fd of the connection the portal made (the reply owns its own).
static int open_remote(sd_bus *bus, int *fd, char *error, size_t capacity) {
    sd_bus_message *reply = NULL;
    sd_bus_error failure = SD_BUS_ERROR_NULL;
    int result = sd_bus_call_method(bus, PORTAL_NAME, PORTAL_PATH, CAMERA_INTERFACE, "OpenPipeWireRemote", &failure, &reply, "a{sv}", 0);
    int remote = -1;
    if (result >= 0) result = sd_bus_message_read(reply, "h", &remote);
    if (result >= 0) {
        *fd = fcntl(remote, F_DUPFD_CLOEXEC, 3);
        if (*fd < 0) result = -errno;
    }
    if (result < 0) {
        ocpw_fail(error, capacity, "the Camera portal gave no PipeWire connection (%s)",
                  failure.message != NULL ? failure.message : strerror(-result));
    }
    sd_bus_error_free(&failure);
    sd_bus_message_unref(reply);
    return result;
}

int32_t ocpw_portal_open(const char *bus_address, int32_t timeout_ms, int *fd, char *error, size_t error_capacity) {
    *fd = -1;
    sd_bus *bus = NULL;
    int result = open_bus(bus_address, &bus);
    if (result < 0) {
        ocpw_fail(error, error_capacity, "no session bus for the Camera portal (%s)", strerror(-result));
        return OCPW_PORTAL_UNAVAILABLE;
    }
    int32_t outcome;
    int present = 0;
    sd_bus_error failure = SD_BUS_ERROR_NULL;
    result = sd_bus_get_property_trivial(bus, PORTAL_NAME, PORTAL_PATH, CAMERA_INTERFACE, "IsCameraPresent", &failure, 'b', &present);
    if (result < 0) {
        ocpw_fail(error, error_capacity, "no Camera portal on the session bus (%s)", failure.message != NULL ? failure.message : strerror(-result));
        outcome = OCPW_PORTAL_UNAVAILABLE;
    } else if (!present) {
        ocpw_fail(error, error_capacity, "the Camera portal says there is no camera");
        outcome = OCPW_PORTAL_NO_CAMERA;
    } else {
        outcome = access_camera(bus, timeout_ms, error, error_capacity);
        if (outcome == OCPW_PORTAL_GRANTED && open_remote(bus, fd, error, error_capacity) < 0) outcome = OCPW_PORTAL_FAILED;
    }
    sd_bus_error_free(&failure);
    sd_bus_flush_close_unref(bus);
    return outcome;
}

// libmicrohttpd for Swift: the daemon is started through MHD_start_daemon's C varargs,
// which Swift cannot call, so small inline wrappers take fixed arguments instead.
#ifndef OPENCAPTURE_CMICROHTTPD_SHIM_H
#define OPENCAPTURE_CMICROHTTPD_SHIM_H

#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <microhttpd.h>

/// Starts a daemon with one thread per connection (a slow client blocks only its own
/// thread), bound to `address` (IPv4, port 0 picks a free port), at most `connections`
/// connections at once, `memory` bytes per connection for headers and body, and idle
/// connections closed after `timeout` seconds.
static inline struct MHD_Daemon *oc_mhd_start(
    const struct sockaddr_in *address, MHD_AccessHandlerCallback handler, void *context,
    MHD_RequestCompletedCallback completed, unsigned int connections, size_t memory, unsigned int timeout) {
    return MHD_start_daemon(
        MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD, 0, NULL, NULL, handler, context,
        MHD_OPTION_SOCK_ADDR, (const struct sockaddr *)address,
        MHD_OPTION_CONNECTION_LIMIT, connections,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, memory,
        MHD_OPTION_CONNECTION_TIMEOUT, timeout,
        MHD_OPTION_NOTIFY_COMPLETED, completed, context,
        MHD_OPTION_END);
}

/// The port a started daemon listens on (0 if unknown).
static inline uint16_t oc_mhd_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info ? info->port : 0;
}

/// A response whose body the callback produces as the client takes it (size unknown).
static inline struct MHD_Response *oc_mhd_stream_response(
    MHD_ContentReaderCallback reader, void *context, MHD_ContentReaderFreeCallback release) {
    return MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 64 * 1024, reader, context, release);
}

static inline ssize_t oc_mhd_end_of_stream(void) { return MHD_CONTENT_READER_END_OF_STREAM; }
static inline ssize_t oc_mhd_end_with_error(void) { return MHD_CONTENT_READER_END_WITH_ERROR; }

#endif

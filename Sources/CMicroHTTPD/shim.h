// libmicrohttpd for Swift: the daemon is started through MHD_start_daemon's C varargs,
// and connection facts come through MHD_get_connection_info's, which Swift cannot call, so
// small inline wrappers take fixed arguments instead.
#ifndef OPENCAPTURE_CMICROHTTPD_SHIM_H
#define OPENCAPTURE_CMICROHTTPD_SHIM_H

#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <microhttpd.h>

/// MHD_OPTION_URI_LOG_CALLBACK's callback: the request line's URI as received (before any
/// unescaping), once per request; what it returns is the request's context pointer.
typedef void *(*oc_mhd_uri_logger)(void *context, const char *uri, struct MHD_Connection *connection);

/// Starts a daemon with one thread per connection (a slow client blocks only its own
/// thread), bound to `address` (IPv4, port 0 picks a free port), at most `connections`
/// connections at once and `per_address` from one client address (0: no such limit),
/// `memory` bytes per connection for the request head and body, and connections idle for
/// `timeout` seconds closed. `notify` hears each connection start and end, `uri_logger`
/// each request line's raw URI.
static inline struct MHD_Daemon *oc_mhd_start(
    const struct sockaddr_in *address, MHD_AccessHandlerCallback handler, void *context,
    MHD_RequestCompletedCallback completed, MHD_NotifyConnectionCallback notify, oc_mhd_uri_logger uri_logger,
    unsigned int connections, unsigned int per_address, size_t memory, unsigned int timeout) {
    return MHD_start_daemon(
        MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD, 0, NULL, NULL, handler, context,
        MHD_OPTION_SOCK_ADDR, (const struct sockaddr *)address,
        MHD_OPTION_CONNECTION_LIMIT, connections,
        MHD_OPTION_PER_IP_CONNECTION_LIMIT, per_address,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, memory,
        MHD_OPTION_CONNECTION_TIMEOUT, timeout,
        MHD_OPTION_NOTIFY_COMPLETED, completed, context,
        MHD_OPTION_NOTIFY_CONNECTION, notify, context,
        MHD_OPTION_URI_LOG_CALLBACK, uri_logger, context,
        MHD_OPTION_END);
}

/// The port a started daemon listens on (0 if unknown).
static inline uint16_t oc_mhd_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info ? info->port : 0;
}

/// The socket of a connection (-1 if unknown). It stays open until the daemon's
/// MHD_CONNECTION_NOTIFY_CLOSED for the connection has returned.
static inline int oc_mhd_connection_socket(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info ? info->connect_fd : -1;
}

/// The client's address of a connection (NULL if unknown).
static inline const struct sockaddr *oc_mhd_client_address(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    return info ? info->client_addr : NULL;
}

/// A response whose body the callback produces as the client takes it (size unknown).
static inline struct MHD_Response *oc_mhd_stream_response(
    MHD_ContentReaderCallback reader, void *context, MHD_ContentReaderFreeCallback release) {
    return MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 64 * 1024, reader, context, release);
}

static inline ssize_t oc_mhd_end_of_stream(void) { return MHD_CONTENT_READER_END_OF_STREAM; }
static inline ssize_t oc_mhd_end_with_error(void) { return MHD_CONTENT_READER_END_WITH_ERROR; }

#endif

import Foundation

/// Keeps the server answerable while connections that never finish a request hold its
/// slots: a slowloris flood (a byte now and then) or idle sockets. libmicrohttpd's idle
/// timeout starts again with every byte, and its connection limit counts such connections
/// as any other, so on their own they let a flood lock every client out. Here:
/// - a connection must deliver a whole request (head and body) within `requestTimeout` of
///   being accepted, or of its previous response ending (keep-alive), however steadily its
///   bytes trickle; otherwise it is closed;
/// - once more than `roomyLimit` connections are open, each new one closes the connection
///   that has waited longest without delivering a request. A client that sends its request
///   at once (a browser, curl) is therefore served while the flood goes on: on loopback
///   every attacker has the user's address, so only promptness tells them apart.
///
/// A connection is closed with `shutdown(2)` on its socket: its own thread then reads the
/// end and libmicrohttpd closes it as a client's hang-up. Every call is made on
/// libmicrohttpd's threads (connection starts and ends on its listening thread, requests on
/// connection threads) or on the guard's timer queue, under one lock; no user code runs.
final class ConnectionGuard: @unchecked Sendable {
    private struct Entry {
        let socket: Int32
        /// Since when it has been waiting for a whole request (nil: one is being answered).
        var waitingSince: UInt64?
        /// Shut down by the guard, not yet closed by libmicrohttpd.
        var closing = false
    }

    /// Above this many open connections, a new one makes room (a few below the hard limit,
    /// so connections being closed do not make libmicrohttpd refuse newcomers meanwhile).
    let roomyLimit: Int
    /// Nanoseconds a connection has to deliver a whole request.
    let requestTimeout: UInt64
    private let lock = NSLock()
    private var entries: [OpaquePointer: Entry] = [:]
    private var timer: DispatchSourceTimer?
    /// Connections closed for taking too long, and to make room.
    private var timedOut = 0
    private var evicted = 0

    init(connectionLimit: Int, requestTimeout: Double) {
        roomyLimit = max(1, connectionLimit - max(2, connectionLimit / 8))
        // The server validates it; clamped here too, as a conversion must never trap.
        let seconds = requestTimeout.isNaN ? 10 : min(max(requestTimeout, 0.001), 86_400)
        self.requestTimeout = UInt64(seconds * 1e9)
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "OpenCaptureWeb.connections"))
        let interval = min(0.5, seconds / 4)
        timer.schedule(deadline: .now() + interval, repeating: interval)
        timer.setEventHandler { [weak self] in self?.closeLateConnections() }
        timer.activate()
        self.timer = timer
    }

    /// A connection was accepted (libmicrohttpd's listening thread).
    func opened(_ connection: OpaquePointer, socket: Int32) {
        let now = DispatchTime.now().uptimeNanoseconds
        lock.lock()
        defer { lock.unlock() }
        entries[connection] = Entry(socket: socket, waitingSince: now)
        let open = entries.values.count(where: { !$0.closing })
        guard open > roomyLimit else { return }
        // The longest-waiting connection without a request, never the newcomer itself.
        let oldest = entries.filter { $0.key != connection && !$0.value.closing && $0.value.waitingSince != nil }
            .min { $0.value.waitingSince! < $1.value.waitingSince! }
        if let oldest {
            close(oldest.key)
            evicted += 1
        }
    }

    /// A connection's whole request is in; it is being answered.
    func requestArrived(on connection: OpaquePointer) {
        lock.lock()
        entries[connection]?.waitingSince = nil
        lock.unlock()
    }

    /// A connection's response has ended; it may carry another request (keep-alive).
    func requestEnded(on connection: OpaquePointer) {
        let now = DispatchTime.now().uptimeNanoseconds
        lock.lock()
        if entries[connection] != nil, entries[connection]?.waitingSince == nil { entries[connection]?.waitingSince = now }
        lock.unlock()
    }

    /// libmicrohttpd is closing the connection; its socket is still open until this returns,
    /// and the guard never touches it afterwards.
    func closed(_ connection: OpaquePointer) {
        lock.lock()
        entries[connection] = nil
        lock.unlock()
    }

    /// Stops the timer (the daemon is stopping).
    func stop() {
        timer?.cancel()
        timer = nil
    }

    /// (timed out, evicted) so far.
    var closings: (timedOut: Int, evicted: Int) {
        lock.lock()
        defer { lock.unlock() }
        return (timedOut, evicted)
    }

    private func closeLateConnections() {
        let now = DispatchTime.now().uptimeNanoseconds
        lock.lock()
        defer { lock.unlock() }
        for (connection, entry) in entries where !entry.closing {
            // Waited for, not compared with now less the timeout: that wraps while uptime is
            // shorter than the timeout.
            if let since = entry.waitingSince, now > since, now - since > requestTimeout {
                close(connection)
                timedOut += 1
            }
        }
    }

    /// Under `lock`: the entry is there, so libmicrohttpd has not closed its socket yet.
    private func close(_ connection: OpaquePointer) {
        guard let socket = entries[connection]?.socket, socket >= 0 else { return }
        entries[connection]?.closing = true
        _ = shutdown(socket, Int32(SHUT_RDWR))
    }
}

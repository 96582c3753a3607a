import Foundation

/// Waits until a socket of this machine listens on `port` (TCP: LISTEN state; UDP: bound),
/// read from /proc/net, up to `deadline`; whether it came. A test that starts a listening
/// peer (ffprobe or ffmpeg `-listen`) waits for it before sending: a sleep guesses, and a
/// busy machine outlasts the guess.
package func waitForListener(onPort port: UInt16, udp: Bool = false, within deadline: Duration = .seconds(20)) -> Bool {
    waitUntil(within: deadline, checkingEvery: .milliseconds(20)) { isListening(onPort: port, udp: udp) }
}

/// Whether /proc/net/{tcp,tcp6} (or udp, udp6) lists a socket listening on (bound to) `port`.
package func isListening(onPort port: UInt16, udp: Bool = false) -> Bool {
    let hexPort = String(format: "%04X", port)
    let tables = udp ? ["/proc/net/udp", "/proc/net/udp6"] : ["/proc/net/tcp", "/proc/net/tcp6"]
    for table in tables {
        guard let text = try? String(contentsOfFile: table, encoding: .utf8) else { continue }
        // "sl local_address rem_address st ...": local is ADDRESS:PORT in hex; st 0A is LISTEN.
        for line in text.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count > 3, fields[1].hasSuffix(":" + hexPort) else { continue }
            if udp || fields[3] == "0A" { return true }
        }
    }
    return false
}

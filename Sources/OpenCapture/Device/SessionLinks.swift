/// The sessions that have a device as an input and the one streaming from it, all weak
/// (`DeviceCore.sessionLinks`).
struct SessionLinks: Sendable {
    private var using: [WeakSession] = []
    /// The session holding the streaming claim (`claimStreaming(for:)`); a session that went
    /// away releases it with it.
    weak var streaming: AVCaptureSession?

    private struct WeakSession: Sendable {
        weak var session: AVCaptureSession?
    }

    /// The sessions that still exist, in the order they attached.
    var sessions: [AVCaptureSession] { using.compactMap(\.session) }

    mutating func attach(_ session: AVCaptureSession) {
        detach(session)
        using.append(WeakSession(session: session))
    }

    /// Forgets `session` and any session that went away.
    mutating func detach(_ session: AVCaptureSession) {
        using.removeAll { $0.session == nil || $0.session === session }
    }

    /// Takes the streaming claim for `session`; false while another session holds it.
    mutating func claim(for session: AVCaptureSession) -> Bool {
        if let owner = streaming, owner !== session { return false }
        streaming = session
        return true
    }

    mutating func release(by session: AVCaptureSession) {
        if streaming === session { streaming = nil }
    }
}

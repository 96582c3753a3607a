import Foundation

/// The output's frame-rate limit of iOS 4 (deprecated in iOS 5 for the connection's
/// `videoMinFrameDuration`, which it now reads and sets). Set before the output has a
/// video connection, it is applied when the connection is made.
extension AVCaptureVideoDataOutput {
    /// The shortest time between frames (default `.invalid`: unlimited).
    @available(*, deprecated, message: "Use AVCaptureConnection's videoMinFrameDuration property instead.")
    public var minFrameDuration: CMTime {
        get { connection(with: .video)?.minFrameDurationSetting ?? pendingMinFrameDuration.withLock { $0 } }
        set {
            if let connection = connection(with: .video) {
                enforce { try connection.setVideoFrameDuration(newValue, minimum: true) }
            } else {
                pendingMinFrameDuration.withLock { $0 = newValue }
            }
        }
    }

    /// Applies a `minFrameDuration` set before the video connection existed.
    func applyPendingMinFrameDuration(to connection: AVCaptureConnection) {
        let pending = pendingMinFrameDuration.withLock { value in
            defer { value = .invalid }
            return value
        }
        guard pending.isValid, connection.inputPorts.first?.mediaType == .video else { return }
        enforce { try connection.setVideoFrameDuration(pending, minimum: true) }
    }
}

extension AVCaptureConnection {
    /// `videoMinFrameDuration` without the deprecation warning, for the output's deprecated property.
    var minFrameDurationSetting: CMTime { settings.withLock { $0.minFrameDuration } }
}

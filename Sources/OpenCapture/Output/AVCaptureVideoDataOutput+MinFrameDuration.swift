import Foundation

/// The output's frame-rate limit of iOS 4 (deprecated in iOS 5 for the connection's
/// `videoMinFrameDuration`, which it now reads and sets). Set before the output has a
/// video connection, it is applied when the connection is made.
extension AVCaptureVideoDataOutput {
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

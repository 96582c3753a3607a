import Synchronization

/// A device's white-balance mode as last set, and the request that set it. Gains and
/// whether auto white balance is adjusting are the newest frame's.
///
/// Threads: any; the lock is held only to read or write the mode.
final class WhiteBalanceUnit: Sendable {
    private let mode = Mutex(Requested(AVCaptureDevice.WhiteBalanceMode.continuousAutoWhiteBalance))

    /// The mode in force given the newest frame: `.autoWhiteBalance` reads `.locked` once a
    /// frame that carries its request has settled.
    func mode(after frame: FrameMetadata) -> AVCaptureDevice.WhiteBalanceMode {
        let requested = mode.withLock { $0 }
        if requested.value == .autoWhiteBalance, requested.isAcknowledged(by: frame), frame.whiteBalanceState == .locked {
            return .locked
        }
        return requested.value
    }

    /// Records a mode and the request that carries it.
    func record(_ newMode: AVCaptureDevice.WhiteBalanceMode, request: UInt64) {
        mode.withLock { $0 = Requested(newMode, request: request) }
    }
}

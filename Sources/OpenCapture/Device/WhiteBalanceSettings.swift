/// A device's white-balance mode as last set, and the request that set it
/// (`DeviceCore.whiteBalance`). Gains and whether auto white balance is adjusting are the
/// newest frame's.
struct WhiteBalanceSettings: Sendable {
    var mode = Requested(AVCaptureDevice.WhiteBalanceMode.continuousAutoWhiteBalance)

    /// The mode in force given the newest frame: `.autoWhiteBalance` reads `.locked` once a
    /// frame that carries its request has settled.
    func mode(after frame: FrameMetadata) -> AVCaptureDevice.WhiteBalanceMode {
        if mode.value == .autoWhiteBalance, mode.isAcknowledged(by: frame), frame.whiteBalanceState == .locked { return .locked }
        return mode.value
    }
}

extension DeviceUnit<WhiteBalanceSettings> {
    func mode(after frame: FrameMetadata) -> AVCaptureDevice.WhiteBalanceMode { withLock { $0 }.mode(after: frame) }
}

/// A device's torch and flash modes as last set through the API (`torchMode`, the
/// deprecated `flashMode`); `DeviceCore.torchFlash` keeps them under their own lock. What
/// the torch does is the newest frame's (`torchLevel`).
struct TorchFlashSettings: Sendable {
    var torchMode = AVCaptureDevice.TorchMode.off
    var flashMode = AVCaptureDevice.FlashMode.off
}

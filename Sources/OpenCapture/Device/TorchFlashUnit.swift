import Synchronization

/// A device's torch and flash modes as last set through the API (`torchMode`, the
/// deprecated `flashMode`). What the torch does is the newest frame's (`torchLevel`).
///
/// Threads: any; the lock is held only to read or write the modes.
final class TorchFlashUnit: Sendable {
    private struct State {
        var torchMode = AVCaptureDevice.TorchMode.off
        var flashMode = AVCaptureDevice.FlashMode.off
    }

    private let state = Mutex(State())

    var torchMode: AVCaptureDevice.TorchMode {
        get { state.withLock { $0.torchMode } }
        set { state.withLock { $0.torchMode = newValue } }
    }

    var flashMode: AVCaptureDevice.FlashMode {
        get { state.withLock { $0.flashMode } }
        set { state.withLock { $0.flashMode = newValue } }
    }
}

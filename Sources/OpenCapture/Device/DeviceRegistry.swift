import Foundation
import SimulatedCamera
import Synchronization

/// Every device the process knows, one `AVCaptureDevice` per unique ID.
///
/// Simulated cameras come first; real V4L2 cameras join them when that backend lands.
package final class DeviceRegistry: Sendable {
    package static let shared = DeviceRegistry()

    private let devices: Mutex<[AVCaptureDevice]>

    private init() {
        let simulated = SimulatedCameraCatalog.builtInCameras().map { AVCaptureDevice(core: DeviceCore(backend: $0)) }
        devices = Mutex(simulated)
    }

    /// Connected devices, in registry order.
    package var connected: [AVCaptureDevice] {
        devices.withLock { $0 }.filter(\.isConnected)
    }

    /// Replaces a disconnected simulated camera by a new device object with the same
    /// unique ID, as a re-plugged camera appears on iOS.
    package func reconnect(_ old: AVCaptureDevice) -> AVCaptureDevice? {
        guard !old.isConnected, let camera = old.backend as? SimulatedCamera else { return nil }
        let fresh = AVCaptureDevice(core: DeviceCore(backend: SimulatedCamera(model: camera.model)))
        fresh.simulation?.seed = camera.seed
        devices.withLock { all in
            if let index = all.firstIndex(where: { $0.core === old.core }) { all[index] = fresh } else { all.append(fresh) }
        }
        return fresh
    }

    package func device(uniqueID: String) -> AVCaptureDevice? {
        devices.withLock { $0 }.first { $0.uniqueID == uniqueID && $0.isConnected }
    }
}

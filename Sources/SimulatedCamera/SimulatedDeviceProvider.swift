import CaptureCore

/// The simulated devices: the built-in cameras, the virtual devices made of the back ones,
/// then the microphone. They play an iPhone's, so they come first in the registry and
/// `default(for: .video)` is the simulated back camera.
///
/// There is no hot-plug: a simulated camera or microphone is unplugged by its
/// `disconnect()` (the API layer's simulation facade announces it) and a camera is plugged
/// back by `reconnect(_:)`.
package final class SimulatedDeviceProvider: DeviceProvider {
    package init() {}

    package func discover(reporting report: @escaping @Sendable (DeviceChange) -> Void) -> [any CaptureBackend] {
        let cameras: [any CaptureBackend] = SimulatedCameraCatalog.builtInCameras() + SimulatedCameraCatalog.virtualCameras()
        return cameras + [SimulatedMicrophone()]
    }

    /// A new camera with the old one's model and seed (the scene continues as it was).
    package func reconnect(_ backend: any CaptureBackend) -> (any CaptureBackend)? {
        guard let camera = backend as? SimulatedCamera, !camera.isConnected else { return nil }
        let fresh = SimulatedCamera(model: camera.model)
        fresh.seed = camera.seed
        return fresh
    }
}

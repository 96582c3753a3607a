import ALSAAudio
import FileDeck
import LibcameraCamera
import PipeWireCamera
import SimulatedCamera
import V4L2Camera

extension DeviceRegistry {
    /// The backends OpenCapture ships, in registry order: the simulated cameras and
    /// microphone (they play an iPhone's, so `default(for: .video)` is the simulated back
    /// camera), the V4L2 cameras, the libcamera cameras (through its plug-in, when it is
    /// beside the program), the cameras a PipeWire daemon shares (through its plug-in, when a
    /// daemon runs), the ALSA microphones, and the file decks (made on demand).
    /// With the facades in this folder, the only code in OpenCapture that names a backend;
    /// another backend plugs in with `DeviceRegistry.shared.register(_:)`.
    static func builtInProviders() -> [any DeviceProvider] {
        // V4L2 leaves media-controller nodes to libcamera when libcamera lists those cameras.
        [
            SimulatedDeviceProvider(), V4L2DeviceProvider(leavesPipelineNodes: LibcameraDeviceProvider.listsPipelineCameras),
            LibcameraDeviceProvider(), PipeWireDeviceProvider(), ALSADeviceProvider(), FileDeckProvider(),
        ]
    }
}

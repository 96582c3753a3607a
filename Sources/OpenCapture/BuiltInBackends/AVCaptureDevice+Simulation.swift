import Foundation
import SimulatedCamera

extension AVCaptureDevice {
    /// Controls of a simulated camera (Linux addition): how it paces frames and which
    /// seeded scene it films. `nil` for real cameras.
    public var simulation: Simulation? {
        (backend as? SimulatedCamera).map { Simulation(camera: $0, device: self) }
    }

    /// The knobs of a simulated camera. Changes take effect the next time it starts streaming.
    public struct Simulation: Sendable {
        let camera: SimulatedCamera
        let device: AVCaptureDevice

        /// How frames are paced.
        public enum Pacing: String, Sendable, CaseIterable {
            /// One frame per frame duration of wall-clock time, like a real camera.
            case realTime
            /// As fast as the consumers take frames, timestamps still advancing by the frame
            /// duration: for tests and benchmarks.
            case virtual
        }

        /// Hand tremor: about the largest excursion of the view, as a fraction of the frame
        /// width at zoom 1 (0, the default, films from a tripod; 0.01 is a steady hand; at
        /// most 0.05). Seeded by `seed` and deterministic per frame; video stabilization
        /// (`AVCaptureConnection.preferredVideoStabilizationMode`) takes most of it out at
        /// the cost of a crop. Applies from the next frame. Unstabilised, the frame's edge
        /// repeats the scene's border where the tremor looks past it.
        public var cameraShake: Double {
            get { camera.shakeAmplitude }
            nonmutating set { camera.shakeAmplitude = newValue }
        }

        /// Real time by default; `OPENCAPTURE_PACING=virtual` in the environment changes the default.
        public var pacing: Pacing {
            get { camera.pacing == .virtual ? .virtual : .realTime }
            nonmutating set { camera.pacing = newValue == .virtual ? .virtual : .realTime }
        }

        /// Simulates unplugging the camera: a running session gets
        /// `runtimeErrorNotification` with `AVError.deviceWasDisconnected` and stops, the
        /// device's `isConnected` turns false for good, and
        /// `AVCaptureDevice.wasDisconnectedNotification` is posted.
        public func disconnect() {
            guard device.isConnected else { return }
            camera.disconnect()
            DeviceRegistry.announceRemoval([device])
        }

        /// Simulates plugging the camera back in: returns the new device object (same
        /// `uniqueID`, as on iOS) and posts `AVCaptureDevice.wasConnectedNotification`.
        public func reconnect() -> AVCaptureDevice? {
            // The device's own registry, whichever thread or task asks.
            guard let fresh = device.registry.reconnect(device) else { return nil }
            DeviceRegistry.announceArrival([fresh])
            return fresh
        }

        /// Frees what the stopped camera keeps for its next start: the rasterised scene, the
        /// frame pool and the render threads of its last stream (tens of megabytes at 720p,
        /// a few hundred at 4K). A restart at the same size reuses them, so keep them while
        /// you expect one; call this when the memory is needed elsewhere. The next start
        /// makes them again; a running stream keeps its own.
        public func releaseCachedMemory() {
            camera.releaseCachedMemory()
        }

        /// Luminance of the scene's white in cd/m² (default 200, a bright room); applies
        /// from the next frame.
        public var sceneLuminance: Float {
            get { camera.sceneLuminanceScale }
            nonmutating set { camera.sceneLuminanceScale = newValue }
        }

        /// The colour temperature (kelvin) and tint (Adobe DNG scale) of the light on the
        /// scene; applies from the next frame. Default 6500 K, tint 0.
        public var sceneIlluminant: AVCaptureDevice.WhiteBalanceTemperatureAndTintValues {
            get {
                let light = camera.illuminant
                return .init(temperature: Float(light.temperature), tint: Float(light.tint))
            }
            nonmutating set { camera.illuminant = (Double(newValue.temperature), Double(newValue.tint)) }
        }

        /// Changes the scene's light at a given frame of the next or current stream (frame
        /// numbers count from 0 at each start), so a test can script, say, a jump from
        /// daylight to tungsten at frame 30 and get the same frames every run.
        public func scheduleSceneIlluminant(_ illuminant: AVCaptureDevice.WhiteBalanceTemperatureAndTintValues, atFrame frame: Int) {
            camera.scheduleIlluminant(temperature: Double(illuminant.temperature), tint: Double(illuminant.tint), atFrame: Int64(frame))
        }

        /// The scene's seed: the same seed gives the same frames (default 1, or `OPENCAPTURE_SEED`).
        public var seed: UInt64 {
            get { camera.seed }
            nonmutating set { camera.seed = newValue }
        }
    }
}

import Foundation
import SimulatedCamera

extension AVCaptureDevice {
    /// Controls of a simulated camera (Linux addition): how it paces frames and which
    /// seeded scene it films. `nil` for real cameras.
    public var simulation: Simulation? {
        (backend as? SimulatedCamera).map(Simulation.init)
    }

    /// The knobs of a simulated camera. Changes take effect the next time it starts streaming.
    public struct Simulation: Sendable {
        let camera: SimulatedCamera

        /// How frames are paced.
        public enum Pacing: String, Sendable, CaseIterable {
            /// One frame per frame duration of wall-clock time, like a real camera.
            case realTime
            /// As fast as the consumers take frames, timestamps still advancing by the frame
            /// duration: for tests and benchmarks.
            case virtual
        }

        /// Real time by default; `OPENCAPTURE_PACING=virtual` in the environment changes the default.
        public var pacing: Pacing {
            get { camera.pacing == .virtual ? .virtual : .realTime }
            nonmutating set { camera.pacing = newValue == .virtual ? .virtual : .realTime }
        }

        /// The scene's seed: the same seed gives the same frames (default 1, or `OPENCAPTURE_SEED`).
        public var seed: UInt64 {
            get { camera.seed }
            nonmutating set { camera.seed = newValue }
        }
    }
}

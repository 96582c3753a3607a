import Foundation
import SimulatedCamera

extension AVCaptureDevice {
    /// Controls of the simulated microphone (Linux addition): its pacing, seed and what
    /// it hears. `nil` for every other device.
    public var microphoneSimulation: MicrophoneSimulation? {
        (backend as? SimulatedMicrophone).map { MicrophoneSimulation(microphone: $0, device: self) }
    }

    /// The knobs of the simulated microphone. Changes take effect the next time it starts.
    ///
    /// Levels are sound pressure levels at the microphone, in dB SPL; the microphone's
    /// sensitivity (`sensitivity`, −26 dBFS at 94 dB SPL) turns an RMS level of L dB SPL
    /// into L − 120 dBFS (RMS relative to a full-scale amplitude of 1). Times are seconds
    /// since the microphone's first sample.
    public struct MicrophoneSimulation: Sendable {
        let microphone: SimulatedMicrophone
        let device: AVCaptureDevice

        /// dBFS at 94 dB SPL.
        public static let sensitivity = Soundscape.sensitivity

        /// Real time by default; `OPENCAPTURE_PACING=virtual` in the environment changes the default.
        public var pacing: Simulation.Pacing {
            get { microphone.pacing == .virtual ? .virtual : .realTime }
            nonmutating set { microphone.pacing = newValue == .virtual ? .virtual : .realTime }
        }

        /// The seed of the room tone and the claps' noise: the same seed gives the same samples.
        public var seed: UInt64 {
            get { microphone.seed }
            nonmutating set { microphone.seed = newValue }
        }

        /// The RMS level of the room tone (white Gaussian noise), dB SPL; default 35, a quiet room.
        public var roomToneLevel: Double {
            get { microphone.soundscape.roomToneLevel }
            nonmutating set { microphone.soundscape.roomToneLevel = newValue }
        }

        /// Steady sines the microphone hears: frequency in hertz, RMS level in dB SPL.
        public var tones: [(frequency: Double, level: Double)] {
            microphone.soundscape.tones.map { ($0.frequency, $0.level) }
        }

        /// Adds a steady sine of `frequency` hertz at an RMS level of `level` dB SPL.
        public func addTone(frequency: Double, level: Double) {
            microphone.soundscape.tones.append(.init(frequency: frequency, level: level))
        }

        /// Adds a handclap `time` seconds after the first sample: a burst of noise decaying
        /// with a 3 ms time constant for 30 ms, its envelope's peak at the amplitude of a sine
        /// of `level` dB SPL. Put the camera's flash (`SceneTimeline`) at the same time to
        /// measure sync.
        public func addClap(at time: Double, level: Double) {
            microphone.soundscape.claps.append(.init(time: time, level: level))
        }

        /// Removes every tone and clap (the room tone stays).
        public func removeAllSounds() {
            microphone.soundscape.tones.removeAll()
            microphone.soundscape.claps.removeAll()
        }

        /// Simulates unplugging the microphone: a running session gets
        /// `runtimeErrorNotification` with `AVError.deviceWasDisconnected`, `isConnected`
        /// turns false for good, and `AVCaptureDevice.wasDisconnectedNotification` is posted.
        public func disconnect() {
            guard device.isConnected else { return }
            microphone.disconnect()
            DeviceRegistry.announceRemoval([device])
        }
    }
}

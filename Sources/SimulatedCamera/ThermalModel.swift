import Foundation
import Synchronization

/// A first-order thermal model of a simulated camera module, from which its system
/// pressure level is derived.
///
/// The temperature T relaxes toward a steady state set by the heat input:
/// dT/dt = (T∞ − T) / τ, with T∞ = ambient + rise(workload). The rise is proportional to
/// the pixels per second the sensor produces, plus constants for the torch and HDR. With
/// no stream running the heat input is zero and the module cools toward ambient.
///
/// Time is model time: streaming advances it by each frame's duration, idling by elapsed
/// wall-clock time, both multiplied by `timeScale` so tests can fast-forward.
/// Thread safety: all state lives behind a mutex.
package final class ThermalModel: Sendable {
    /// What heats the module while a stream runs.
    package struct Workload: Sendable, Equatable {
        package var pixelsPerSecond: Double
        /// Hooks for features not simulated yet; always false so far.
        package var torch = false
        package var hdr = false

        package init(pixelsPerSecond: Double, torch: Bool = false, hdr: Bool = false) {
            self.pixelsPerSecond = pixelsPerSecond
            self.torch = torch
            self.hdr = hdr
        }
    }

    /// Ambient temperature, °C.
    package static let ambient = 25.0
    /// Time constant, model seconds.
    package static let timeConstant = 300.0
    /// Steady-state rise per gigapixel per second, °C: 4K at 60 fps (0.50 Gpx/s) settles
    /// at 85 °C, past shutdown; 640x480 at 30 fps (9 Mpx/s) at about 26 °C.
    package static let risePerGigapixel = 120.0
    /// Steady-state rise of the torch and of HDR, °C.
    package static let torchRise = 10.0
    package static let hdrRise = 5.0
    /// The temperatures at which fair, serious, critical and shutdown begin, °C.
    package static let thresholds: [Double] = [40, 50, 60, 70]
    /// How far below a level's threshold the module must cool to drop out of it, °C.
    package static let hysteresis = 3.0

    /// A level (0 nominal ... 4 shutdown) and its contributing factors (raw option bits).
    package struct Pressure: Sendable, Equatable {
        package var level: Int
        package var factors: UInt
    }

    /// Factor bits, as `AVCaptureDevice.SystemPressureState.Factors`.
    package static let systemTemperatureFactor: UInt = 1 << 0
    package static let peakPowerFactor: UInt = 1 << 1
    package static let cameraTemperatureFactor: UInt = 1 << 3

    private struct State {
        var temperature = ThermalModel.ambient
        var level = 0
        var timeScale = 1.0
        /// The workload heating the module; nil while idle.
        var workload: Workload?
        /// Host-clock nanoseconds up to which idle cooling has been accounted.
        var idleSince = HostClock.now()
    }

    private let state = Mutex(State())

    package init() {}

    /// Model seconds per real second (default 1); tests raise it to fast-forward.
    package var timeScale: Double {
        get { state.withLock { $0.timeScale } }
        set {
            state.withLock { state in
                Self.settleIdle(&state)  // account past idle time at the old scale
                state.timeScale = max(0, newValue)
            }
        }
    }

    /// The current temperature, °C (idle cooling accounted up to now).
    package var temperature: Double {
        state.withLock { state in
            Self.settleIdle(&state)
            return state.temperature
        }
    }

    /// The current level and factors (idle cooling accounted up to now).
    package var pressure: Pressure {
        state.withLock { state in
            Self.settleIdle(&state)
            return Self.pressure(state)
        }
    }

    /// A stream starts heating the module with `workload`.
    package func beginHeating(_ workload: Workload) {
        state.withLock { state in
            Self.settleIdle(&state)
            state.workload = workload
        }
    }

    /// The stream changed its workload (format or frame rate) at a frame boundary.
    package func setWorkload(_ workload: Workload) {
        state.withLock { if $0.workload != nil { $0.workload = workload } }
    }

    /// The stream ended: from now on the module cools in wall-clock time.
    package func endHeating() {
        state.withLock { state in
            state.workload = nil
            state.idleSince = HostClock.now()
        }
    }

    /// Advances the model by `seconds` of stream time (scaled) under the current workload;
    /// returns the pressure after it.
    @discardableResult
    package func advance(streamSeconds seconds: Double) -> Pressure {
        state.withLock { state in
            Self.step(&state, modelSeconds: seconds * state.timeScale)
            return Self.pressure(state)
        }
    }

    /// Back to ambient, nominal and real time (for tests).
    package func reset() {
        state.withLock { state in
            let workload = state.workload
            state = State()
            state.workload = workload
        }
    }

    // MARK: Model

    /// Accounts idle cooling from `idleSince` to now; a no-op while a stream heats.
    private static func settleIdle(_ state: inout State) {
        guard state.workload == nil else { return }
        let now = HostClock.now()
        let elapsed = Double(now - state.idleSince) / Double(HostClock.timescale)
        state.idleSince = now
        if elapsed > 0 { Self.step(&state, modelSeconds: elapsed * state.timeScale) }
    }

    private static func steadyState(_ workload: Workload?) -> Double {
        guard let workload else { return ambient }
        return ambient + risePerGigapixel * workload.pixelsPerSecond / 1e9
            + (workload.torch ? torchRise : 0) + (workload.hdr ? hdrRise : 0)
    }

    /// Exact solution of the first-order equation over `modelSeconds`, then the level.
    private static func step(_ state: inout State, modelSeconds: Double) {
        guard modelSeconds > 0 else { return }
        let target = steadyState(state.workload)
        state.temperature = target + (state.temperature - target) * exp(-modelSeconds / timeConstant)
        state.level = level(for: state.temperature, from: state.level)
    }

    /// The level for a temperature: rising at a threshold, falling only `hysteresis` below it.
    static func level(for temperature: Double, from current: Int) -> Int {
        var level = current
        while level < thresholds.count && temperature >= thresholds[level] { level += 1 }
        while level > 0 && temperature < thresholds[level - 1] - hysteresis { level -= 1 }
        return level
    }

    private static func pressure(_ state: State) -> Pressure {
        guard state.level > 0 else { return Pressure(level: 0, factors: 0) }
        var factors = systemTemperatureFactor
        if state.workload?.torch == true { factors |= peakPowerFactor }
        if state.workload?.hdr == true { factors |= cameraTemperatureFactor }
        return Pressure(level: state.level, factors: factors)
    }
}

import Foundation
import Synchronization

/// Which of a session's devices system pressure has interrupted.
///
/// A device is `pending` from its first shutdown frame until the session has stopped its
/// stream (so the many frames in flight trigger one interruption), then `interrupted` until
/// it cools. `generation` changes when the session stops, retiring the watchers.
final class InterruptionTracker: Sendable {
    private struct State {
        var pending: Set<ObjectIdentifier> = []
        var interrupted: Set<ObjectIdentifier> = []
        var generation = 0
    }

    private let state = Mutex(State())

    var isInterrupted: Bool { state.withLock { !$0.interrupted.isEmpty } }

    /// Marks a device pending and returns the generation; nil if it already is pending or interrupted.
    func claim(_ key: ObjectIdentifier) -> Int? {
        state.withLock { state in
            guard !state.pending.contains(key), !state.interrupted.contains(key) else { return nil }
            state.pending.insert(key)
            return state.generation
        }
    }

    /// Moves a pending device to interrupted; false if the session stopped meanwhile.
    func interrupt(_ key: ObjectIdentifier, generation: Int) -> Bool {
        state.withLock { state in
            state.pending.remove(key)
            guard state.generation == generation else { return false }
            state.interrupted.insert(key)
            return true
        }
    }

    /// Drops a pending device that will not be interrupted after all (the session stopped).
    func abandon(_ key: ObjectIdentifier) {
        state.withLock { _ = $0.pending.remove(key) }
    }

    /// Ends a device's interruption; false if it was not interrupted in this generation.
    func end(_ key: ObjectIdentifier, generation: Int) -> Bool {
        state.withLock { state in
            guard state.generation == generation else { return false }
            return state.interrupted.remove(key) != nil
        }
    }

    func isCurrent(_ generation: Int) -> Bool { state.withLock { $0.generation == generation } }

    /// The session stopped: every interruption ends silently.
    func reset() {
        state.withLock { state in
            state = State(generation: state.generation + 1)
        }
    }
}

extension AVCaptureSession {
    /// Where interruptions are applied and cooling is watched: never the capture thread,
    /// which must not wait on the configuration lock while the session stops its stream.
    private static let interruptionQueue = DispatchQueue(label: "OpenCapture.session.interruption")
    /// How often a watcher looks at an interrupted camera's temperature, in real time.
    static let coolingPollInterval = DispatchTimeInterval.milliseconds(20)
    /// The highest level at which an interrupted device resumes: below `.shutdown` with a
    /// margin, so sustained load does not bounce straight back into shutdown.
    static let resumePressureLevel = 2

    /// A frame of `device` reported `.shutdown` (called on its capture thread).
    func deviceReachedShutdownPressure(_ device: AVCaptureDevice, state: AVCaptureSystemPressureState) {
        let key = ObjectIdentifier(device.core)
        guard let generation = interruptions.claim(key) else { return }
        Self.interruptionQueue.async { [self] in
            interrupt(device, key: key, generation: generation, state: state)
        }
    }

    /// Stops the device's stream but keeps it (`SessionRun.interrupt`), so the session
    /// stays running and a configuration change meanwhile does not restart it.
    private func interrupt(_ device: AVCaptureDevice, key: ObjectIdentifier, generation: Int, state: AVCaptureSystemPressureState) {
        configurationLock.lock()
        defer { configurationLock.unlock() }
        guard onRunner({ $0.interrupt(key, generation: generation, self) }) else { return }
        postOnMainQueue(Self.wasInterruptedNotification, object: self, userInfo: [
            AVCaptureSessionInterruptionReasonKey: NSNumber(value: InterruptionReason.videoDeviceNotAvailableDueToSystemPressure.rawValue),
            AVCaptureSessionInterruptionSystemPressureStateKey: state,
        ])
        watchCooling(device, key: key, generation: generation)
    }

    /// Polls the device's pressure until it has cooled enough, then resumes it.
    private func watchCooling(_ device: AVCaptureDevice, key: ObjectIdentifier, generation: Int) {
        Self.interruptionQueue.asyncAfter(deadline: .now() + Self.coolingPollInterval) { [self] in
            guard interruptions.isCurrent(generation) else { return }
            let level = (device.backend as? any ThermalPressureReporting)?.systemPressure.level ?? 0
            if level > Self.resumePressureLevel { return watchCooling(device, key: key, generation: generation) }
            resume(key: key, generation: generation)
        }
    }

    /// Restarts the interrupted stream through `applyConfiguration` and tells the app.
    private func resume(key: ObjectIdentifier, generation: Int) {
        configurationLock.lock()
        defer { configurationLock.unlock() }
        guard interruptions.end(key, generation: generation), isRunning else { return }
        onRunner { $0.forgetInterruptedStream(key) }
        applyConfiguration()
        postOnMainQueue(Self.interruptionEndedNotification, object: self)
    }
}

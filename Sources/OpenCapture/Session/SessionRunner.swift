import Foundation

/// Runs a session's start, stop and reconfiguration jobs on one serial queue, which owns the
/// session's `SessionRun` (its run state, epoch and device streams): the run is reachable
/// only through `perform`, so nothing else can touch it.
///
/// Threads: `perform` blocks until its job has run on the queue (`startRunning()` returns
/// once the devices stream or failed, as on iOS). A job already on the queue that performs
/// again runs inline rather than waiting for itself. `isRunning` may be read anywhere.
/// Nothing is ever dispatched to the queue asynchronously: every job comes through
/// `perform`, whose callers hold the session's configuration lock, and no job takes that
/// lock, so the `sync` under it never waits behind a job that needs it. Keep it so.
final class SessionRunner: Sendable {
    private let queue = DispatchQueue(label: "OpenCapture.session.runner")
    private let marker = DispatchSpecificKey<ObjectIdentifier>()
    private let run = SessionRun()

    init() {
        queue.setSpecific(key: marker, value: ObjectIdentifier(run))
    }

    /// Whether the session is starting or running (one atomic load).
    var isRunning: Bool { run.isRunning }

    /// Runs `job` on the queue with the run, and returns what it answered and the delegate
    /// calls it left to wait out (to be waited for once the caller let go of its locks).
    func perform<Result>(_ job: (SessionRun) -> Result) -> (Result, waits: [() -> Void]) {
        func body() -> (Result, waits: [() -> Void]) {
            let result = job(run)
            return (result, run.takeWaits())
        }
        if DispatchQueue.getSpecific(key: marker) == ObjectIdentifier(run) { return body() }
        return queue.sync { body() }
    }
}

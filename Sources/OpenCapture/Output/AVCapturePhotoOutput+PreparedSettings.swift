import Foundation

/// Prepared settings, as AVCapturePhotoOutput.h describes `setPreparedPhotoSettingsArray`:
/// the call may come before the output is in a session or the session runs, and raises
/// nothing; the preparation happens once the session runs and no configuration transaction
/// is open ("preparation is deferred until you call -[AVCaptureSession commitConfiguration]");
/// a second call makes a first call's handler, if it has not fired, fire at once with
/// `prepared == NO`; prepared settings persist across starts, stops and configuration changes.
extension AVCapturePhotoOutput {
    /// A preparation asked for and not done yet: the settings and the app's handler.
    struct PendingPreparation {
        let settings: [AVCapturePhotoSettings]
        let handler: ((Bool, (any Error)?) -> Void)?
    }

    var preparedPhotoSettingsArrayBacking: [AVCapturePhotoSettings] { settingsState.withLock { $0.prepared } }

    func setPreparedPhotoSettingsArrayBacking(_ preparedPhotoSettingsArray: [AVCapturePhotoSettings]) async throws -> Bool {
        try await withCheckedThrowingContinuation { continuation in
            setPreparedPhotoSettingsArray(preparedPhotoSettingsArray) { prepared, error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: prepared) }
            }
        }
    }

    func setPreparedPhotoSettingsArrayRequest(
        _ settingsArray: [AVCapturePhotoSettings], completionHandler: ((Bool, (any Error)?) -> Void)?
    ) {
        // Recorded first, then the session checked: a session starting (or this output being
        // added to a running one) meanwhile finds the request and does it.
        let pending = UncheckedSendable(PendingPreparation(settings: settingsArray, handler: completionHandler))
        let superseded = settingsState.withLock { state in
            defer { state.pendingPreparation = pending.value }
            return state.pendingPreparation
        }
        if let handler = superseded?.handler {
            let boxed = UncheckedSendable(handler)
            callbackQueue.async { boxed.value(false, nil) }
        }
        guard let session else { return }
        session.configurationLock.lock()
        defer { session.configurationLock.unlock() }
        if session.isRunning, !session.isConfiguring { runPendingPreparation() }
    }

    /// Does the preparation waiting, if any: each settings is checked as a capture would
    /// check it (without using it up); the handler hears `true` and `preparedPhotoSettingsArray`
    /// becomes the settings, or, for settings this configuration cannot take, `false` and an
    /// `AVError.unsupportedOutputSettings` naming the rule. Called by the session with its
    /// configuration lock held, while it runs and no transaction is open; the handler and
    /// key-value observers are called on the callback queue, never under the lock.
    func runPendingPreparation() {
        guard let pending = settingsState.withLock({ state -> PendingPreparation? in
            defer { state.pendingPreparation = nil }
            return state.pendingPreparation
        }) else { return }
        var failure: AVError?
        for settings in pending.settings {
            do {
                _ = try validate(settings, consuming: false, selector: "setPreparedPhotoSettingsArray:completionHandler:")
            } catch {
                failure = AVError(.unsupportedOutputSettings, error.reason)
                break
            }
        }
        if failure == nil {
            let prepared = UncheckedSendable(pending.settings)
            let old = settingsState.withLock { state in
                defer { state.prepared = prepared.value }
                return state.prepared
            }
            KeyValueChange.didChange(self, key: "preparedPhotoSettingsArray", from: old, on: callbackQueue)
        }
        guard let handler = pending.handler else { return }
        let boxed = UncheckedSendable(handler)
        let result = failure
        callbackQueue.async { boxed.value(result == nil, result) }
    }
}

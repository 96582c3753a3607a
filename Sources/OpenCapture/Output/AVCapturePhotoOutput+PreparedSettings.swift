import Foundation

extension AVCapturePhotoOutput {
    var preparedPhotoSettingsArrayBacking: [AVCapturePhotoSettings] { state.withLock { $0.prepared } }

    func setPreparedPhotoSettingsArrayBacking(_ preparedPhotoSettingsArray: [AVCapturePhotoSettings]) async throws -> Bool {
        try await withCheckedThrowingContinuation { continuation in
            setPreparedPhotoSettingsArray(preparedPhotoSettingsArray) { prepared, error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: prepared) }
            }
        }
    }

    /// The checked form of `setPreparedPhotoSettingsArray(_:completionHandler:)` (Linux addition).
    public func setPreparedPhotoSettingsArrayChecked(
        _ settingsArray: [AVCapturePhotoSettings], completionHandler: ((Bool, (any Error)?) -> Void)? = nil
    ) throws(AVCaptureException) {
        for settings in settingsArray { _ = try validate(settings, consuming: false, selector: "setPreparedPhotoSettingsArray:completionHandler:") }
        let change = KeyValueChange.willChange(self, keys: ["preparedPhotoSettingsArray"])
        let handler = UncheckedSendable(completionHandler)
        let prepared = UncheckedSendable(settingsArray)
        let waiting = state.withLock { state -> Bool in
            state.prepared = prepared.value
            let waits = !settingsArray.isEmpty && !(session?.isRunning ?? false)
            if waits, let handler = handler.value { state.preparationHandlers.append(handler) }
            return waits
        }
        change?.didChange()
        if !waiting, handler.value != nil {
            callbackQueue.async { handler.value?(true, nil) }
        }
    }

    /// The session started: preparations waiting for it are done.
    func sessionDidStartForPreparation() {
        let handlers = state.withLock { state -> [(Bool, (any Error)?) -> Void] in
            defer { state.preparationHandlers.removeAll() }
            return state.preparationHandlers
        }
        guard !handlers.isEmpty else { return }
        let boxed = UncheckedSendable(handlers)
        callbackQueue.async { for handler in boxed.value { handler(true, nil) } }
    }
}

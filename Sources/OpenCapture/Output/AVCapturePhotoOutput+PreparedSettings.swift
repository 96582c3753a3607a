import Foundation

extension AVCapturePhotoOutput {
    /// The settings last prepared with `setPreparedPhotoSettingsArray(_:completionHandler:)`.
    public var preparedPhotoSettingsArray: [AVCapturePhotoSettings] { state.withLock { $0.prepared } }

    /// Declares the kinds of photos the app will take, so the output can get ready for them.
    /// Each settings object is checked as `capturePhoto(with:delegate:)` checks it (without
    /// using it up), raising Apple's exception for what the output does not offer. Nothing
    /// needs allocating ahead here (encoders are set up per photo), so preparing succeeds
    /// once the session runs: the handler gets `true` on the output's callback queue at
    /// once if the session is running, else when it starts; an empty array releases the
    /// preparation and reports `true` at once.
    public func setPreparedPhotoSettingsArray(
        _ preparedPhotoSettingsArray: [AVCapturePhotoSettings], completionHandler: ((Bool, (any Error)?) -> Void)? = nil
    ) {
        enforce { try setPreparedPhotoSettingsArrayChecked(preparedPhotoSettingsArray, completionHandler: completionHandler) }
    }

    /// The async form: returns whether the output prepared.
    public func setPreparedPhotoSettingsArray(_ preparedPhotoSettingsArray: [AVCapturePhotoSettings]) async throws -> Bool {
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

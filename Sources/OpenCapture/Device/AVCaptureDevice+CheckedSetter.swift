import Foundation

/// The one path every device property setter takes (see "Adding a device property" in
/// docs/ARCHITECTURE.md): the lock rule, the support check, the key-value announcement and
/// the backend request, in Apple's order.
extension AVCaptureDevice {
    /// What a setter asks the backend for, once its checks passed.
    struct ControlChange {
        /// The request; `changeProperty` gives it the device's next request id.
        var request: ControlRequest
        /// Runs with the presentation time of the first frame that carries the request.
        var completionHandler: ((CMTime) -> Void)?
        /// Stores the requested value with its request id in the concern's settings, before the
        /// backend sees the request (a frame that acknowledges the id then supersedes it).
        var record: (UInt64) -> Void

        /// Pass both closures by label: a trailing closure would bind to `completionHandler`.
        init(_ request: ControlRequest, completionHandler: ((CMTime) -> Void)? = nil, record: @escaping (UInt64) -> Void = { _ in }) {
            self.request = request
            self.completionHandler = completionHandler
            self.record = record
        }
    }

    /// Sets a device property as Apple's setters do, in this order:
    ///
    /// 1. announces `keys` to key-value observers (prior notifications now, the ones after
    ///    when this returns, also when it throws); no keys, no announcement; and reads
    ///    `watching`, keys the change may move as a consequence (a virtual device's
    ///    constituent after a zoom), announced after the change only if they changed, just
    ///    before the after-notifications of `keys`;
    /// 2. requires the configuration lock: `NSGenericException`
    ///    "*** -[AVCaptureDevice <selector>] May not be called without first successfully
    ///    calling -lockForConfiguration:";
    /// 3. requires `supported`: `NSInvalidArgumentException` with `unsupported`;
    /// 4. runs `change`, which checks the value (throwing Apple's exception), stores what
    ///    needs no backend in its settings (`DeviceUnit`), and returns the request for the backend, if any;
    /// 5. numbers that request (`ControlRequestQueue`, which keeps the handler), lets the
    ///    settings record the id, and hands it to the backend, as one step (`submit`).
    ///
    /// Returns the request id, nil when nothing went to the backend. Call with no lock held.
    @discardableResult
    func changeProperty(
        _ selector: String, announcing keys: [String] = [], watching consequences: [String] = [],
        supported: @autoclosure () -> Bool = true, unsupported: @autoclosure () -> String = "",
        _ change: () throws(AVCaptureException) -> ControlChange?
    ) throws(AVCaptureException) -> UInt64? {
        let observed = keys.isEmpty ? nil : KeyValueChange.willChange(self, keys: keys)
        defer { observed?.didChange() }
        let followed = consequences.isEmpty ? nil : KeyValueChange.watch(self, keys: consequences)
        defer { followed?.didChange() }
        try requireLock(selector)
        guard supported() else {
            throw AVCaptureException(.invalidArgument, selectorReason("AVCaptureDevice", selector, unsupported()))
        }
        guard let control = try change() else { return nil }
        return submit(control)
    }

    /// Numbers a request, records it in its settings and sends it to the backend (also for
    /// changes the device makes itself, such as a new format resetting a limit), as one step
    /// under the request queue's submit lock: of two threads setting at once, the one
    /// recorded last is the one the backend got last. `record` and `backend.apply` only
    /// store and queue, so nothing else runs under that lock.
    @discardableResult
    func submit(_ control: ControlChange) -> UInt64 {
        core.controls.submit(control.completionHandler) { id in
            var request = control.request
            request.id = id
            control.record(id)
            backend.apply(request)
        }
    }

    /// The async form of a setter with a completion handler: the presentation time of the
    /// first frame that carries the change.
    func syncTime(of set: (@escaping (CMTime) -> Void) -> Void) async -> CMTime {
        await withCheckedContinuation { continuation in
            set { continuation.resume(returning: $0) }
        }
    }
}

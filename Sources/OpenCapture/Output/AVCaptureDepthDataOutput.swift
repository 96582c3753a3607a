import Foundation
import Synchronization

/// Delivers depth maps from a depth camera (AVCaptureDepthDataOutput.h).
///
/// No camera here has depth formats, so, as with a session whose camera lacks depth,
/// `AVCaptureSession.canAddOutput(_:)` answers false for it and `addOutput(_:)` raises
/// `NSInvalidArgumentException`; its delegate is never called.
open class AVCaptureDepthDataOutput: AVCaptureOutput, @unchecked Sendable {
    private let settings = Mutex<Settings>(Settings())
    /// Observers of the output (see `AVCaptureOutput+KeyValueObserving.swift`).
    let depthKeyValueObservers = KeyValueObserverRegistry(label: "depthDataOutput")
    private struct Settings {
        var delegate: UncheckedSendable<(any AVCaptureDepthDataOutputDelegate)?> = UncheckedSendable(nil)
        var queue: DispatchQueue?
        var alwaysDiscardsLateDepthData = true
        var isFilteringEnabled = true
    }

    public override init() { super.init() }

    override var acceptedMediaTypes: [AVMediaType] { [.depthData] }

    /// Sets the delegate and the queue it is called on. A delegate without a queue raises
    /// `NSInvalidArgumentException`, as on iOS.
    open func setDelegate(_ delegate: (any AVCaptureDepthDataOutputDelegate)?, callbackQueue: DispatchQueue?) {
        if delegate != nil && callbackQueue == nil {
            AVCaptureException(
                .invalidArgument, selectorReason("AVCaptureDepthDataOutput", "setDelegate:callbackQueue:", "callbackQueue cannot be NULL"))
                .raise()
        }
        let boxed = UncheckedSendable(delegate)
        settings.withLock {
            $0.delegate = boxed
            $0.queue = delegate == nil ? nil : callbackQueue
        }
    }

    /// The delegate given to `setDelegate(_:callbackQueue:)`.
    open var delegate: (any AVCaptureDepthDataOutputDelegate)? { settings.withLock { $0.delegate.value } }
    /// The queue the delegate is called on.
    open var delegateCallbackQueue: DispatchQueue? { settings.withLock { $0.queue } }

    /// Whether late depth maps are dropped rather than queued (default true).
    open var alwaysDiscardsLateDepthData: Bool {
        get { settings.withLock { $0.alwaysDiscardsLateDepthData } }
        set {
            let observed = KeyValueChange.willChange(self, keys: ["alwaysDiscardsLateDepthData"])  // KVO: prior now, after on return
            defer { observed?.didChange() }
            settings.withLock { $0.alwaysDiscardsLateDepthData = newValue }
        }
    }

    /// Whether holes in the maps are filled (default true).
    open var isFilteringEnabled: Bool {
        get { settings.withLock { $0.isFilteringEnabled } }
        set {
            let observed = KeyValueChange.willChange(self, keys: ["filteringEnabled"])  // KVO: prior now, after on return
            defer { observed?.didChange() }
            settings.withLock { $0.isFilteringEnabled = newValue }
        }
    }
}

/// Receives an `AVCaptureDepthDataOutput`'s depth maps on its callback queue. Both methods
/// are optional, as on iOS.
public protocol AVCaptureDepthDataOutputDelegate: NSObjectProtocol {
    /// A new depth map.
    func depthDataOutput(_ output: AVCaptureDepthDataOutput, didOutput depthData: AVDepthData, timestamp: CMTime, connection: AVCaptureConnection)
    /// A depth map was dropped, for `reason`.
    func depthDataOutput(
        _ output: AVCaptureDepthDataOutput, didDrop depthData: AVDepthData, timestamp: CMTime, connection: AVCaptureConnection,
        reason: AVCaptureOutput.DataDroppedReason)
}

extension AVCaptureDepthDataOutputDelegate {
    public func depthDataOutput(_ output: AVCaptureDepthDataOutput, didOutput depthData: AVDepthData, timestamp: CMTime, connection: AVCaptureConnection) {}
    public func depthDataOutput(
        _ output: AVCaptureDepthDataOutput, didDrop depthData: AVDepthData, timestamp: CMTime, connection: AVCaptureConnection,
        reason: AVCaptureOutput.DataDroppedReason
    ) {}
}

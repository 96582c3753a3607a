import Dispatch
import Foundation
import Synchronization

/// Whether a queued-sample-buffer renderer is rendering (AVQueuedSampleBufferRendering.h).
public enum AVQueuedSampleBufferRenderingStatus: Int, Sendable {
    case unknown = 0
    case rendering = 1
    case failed = 2
}

/// Shows video sample buffers an app enqueues, each at its time (AVSampleBufferDisplayLayer.h):
/// what filter-camera apps put their processed frames on.
///
/// Like `AVCaptureVideoPreviewLayer` it is a `CALayer` of OpenCapture's QuartzCore and renders
/// the picture shown into `contents`, an opaque BGRA `CVPixelBuffer` the size of its bounds
/// placed by `videoGravity`; a program shows it from `setDisplayHandler(queue:_:)` or by
/// reading `contents`.
///
/// Timing: a buffer is shown once `timebase` reaches its presentation time, and the newest
/// such buffer wins (older ones are skipped, as a display skips late frames). `timebase` is
/// `controlTimebase` when the app sets one; otherwise the layer's own, on the host clock,
/// which starts at the first buffer's time when it is enqueued, so buffers play at their
/// own pace. A buffer with `kCMSampleAttachmentKey_DisplayImmediately` is shown at once; one
/// with `kCMSampleAttachmentKey_DoNotDisplay` never is. Buffers must hold pixel buffers
/// (420v, 420f, y420, f420, x420, BGRA): compressed video would need decoding, which this
/// layer does not do, so such a buffer fails the layer (`status` `.failed`, `error`
/// `AVError.decodeFailed`, `failedToDecodeNotification`).
///
/// Threads: the layer keeps at most `maximumQueuedBuffers` waiting (`isReadyForMoreMediaData`);
/// the block of `requestMediaDataWhenReady(on:using:)` and the display handler run on the
/// queues given; rendering runs on the layer's own queue.
open class AVSampleBufferDisplayLayer: CALayer, @unchecked Sendable {
    /// Posted (object: the layer) when a buffer could not be decoded; `userInfo` holds the
    /// error under `AVSampleBufferDisplayLayerFailedToDecodeNotificationErrorKey`.
    public static let failedToDecodeNotification = NSNotification.Name("AVSampleBufferDisplayLayerFailedToDecodeNotification")
    /// Posted when `requiresFlushToResumeDecoding` changes (never here: decoding never stops).
    public static let requiresFlushToResumeDecodingDidChangeNotification = NSNotification.Name(
        "AVSampleBufferDisplayLayerRequiresFlushToResumeDecodingDidChangeNotification")
    /// Buffers waiting at most before `isReadyForMoreMediaData` turns false.
    public static let maximumQueuedBuffers = 8

    struct State {
        var gravity = AVLayerVideoGravity.resizeAspect
        var controlTimebase: CMTimebase?
        /// The layer's own timebase, set going by the first buffer when there is no control
        /// timebase (again after a flush).
        var ownTimebase: CMTimebase?
        var ownTimebaseStarted = false
        var queued: [CMSampleBuffer] = []
        var status = AVQueuedSampleBufferRenderingStatus.unknown
        var error: (any Error)?
        var requester: (queue: DispatchQueue, block: @Sendable () -> Void)?
        var requestInFlight = false
        var preventsDisplaySleep = false
        var displayQueue: DispatchQueue?
        var displayHandler: (@Sendable (CVPixelBuffer) -> Void)?
        /// Bumped by a flush, so a render that started before it draws nothing.
        var flushes = 0
    }

    let state = Mutex(State())
    let renderQueue = DispatchQueue(label: "OpenCapture.AVSampleBufferDisplayLayer")
    // Used on the render queue only.
    var renderer = LayerPictureRenderer()
    var timer: DispatchSourceTimer?
    let renderedCount = Atomic<Int>(0)
    private let storedRenderer = Mutex<AVSampleBufferVideoRenderer?>(nil)

    public override init() {
        super.init()
    }

    /// How the picture fills the bounds (default `.resizeAspect`).
    open var videoGravity: AVLayerVideoGravity {
        get { state.withLock { $0.gravity } }
        set { state.withLock { $0.gravity = newValue } }
    }

    /// The timebase buffers are shown by; nil (the default) for the layer's own.
    open var controlTimebase: CMTimebase? {
        get { state.withLock { $0.controlTimebase } }
        set {
            state.withLock { $0.controlTimebase = newValue }
            renderQueue.async { [self] in showDueBuffers() }
        }
    }

    /// The timebase in use: `controlTimebase`, else the layer's own.
    open var timebase: CMTimebase {
        state.withLock { s in
            if let control = s.controlTimebase { return control }
            if let own = s.ownTimebase { return own }
            let made = Self.hostTimebase()
            s.ownTimebase = made
            return made
        }
    }

    /// `.rendering` once a buffer was enqueued, `.failed` after a failure, else `.unknown`.
    open var status: AVQueuedSampleBufferRenderingStatus { state.withLock { $0.status } }

    /// Why the layer failed, when `status` is `.failed`.
    open var error: (any Error)? { state.withLock { $0.error } }

    /// Whether the layer takes another buffer now: fewer than `maximumQueuedBuffers` wait.
    open var isReadyForMoreMediaData: Bool { state.withLock { $0.queued.count < Self.maximumQueuedBuffers } }

    /// Whether enough is queued to start playing without a stall: any buffer waiting.
    open var hasSufficientMediaDataForReliablePlaybackStart: Bool { state.withLock { !$0.queued.isEmpty } }

    /// Whether decoding stopped until a flush: never here.
    open var requiresFlushToResumeDecoding: Bool { false }

    /// Whether the output is hidden for lack of external protection: never (no protected media).
    open var outputObscuredDueToInsufficientExternalProtection: Bool { false }

    /// Whether the display stays awake while video plays (default false). Linux has no
    /// display-sleep control here, so the value is kept and changes nothing.
    open var preventsDisplaySleepDuringVideoPlayback: Bool {
        get { state.withLock { $0.preventsDisplaySleep } }
        set { state.withLock { $0.preventsDisplaySleep = newValue } }
    }

    /// The renderer object of this layer (iOS 17): enqueueing through it is enqueueing here.
    open var sampleBufferRenderer: AVSampleBufferVideoRenderer {
        storedRenderer.withLock { box in
            if let existing = box { return existing }
            let made = AVSampleBufferVideoRenderer(layer: self)
            box = made
            return made
        }
    }

    /// Pictures rendered since the layer was made (Linux addition).
    public var renderedFrameCount: Int { renderedCount.load(ordering: .relaxed) }

    /// Calls `handler` on `queue` with each picture rendered into `contents` (Linux
    /// addition: where the picture goes to a screen); nil stops it.
    public func setDisplayHandler(queue: DispatchQueue, _ handler: (@Sendable (CVPixelBuffer) -> Void)?) {
        state.withLock {
            $0.displayQueue = handler == nil ? nil : queue
            $0.displayHandler = handler
        }
    }

    /// Queues a buffer for display at its presentation time.
    open func enqueue(_ sampleBuffer: CMSampleBuffer) {
        // The own timebase is set going outside the lock: setting a timebase posts its
        // notifications, which run observers' code.
        let (accepted, starting) = state.withLock { s -> (Bool, CMTimebase?) in
            guard s.status != .failed else { return (false, nil) }
            s.status = .rendering
            var starting: CMTimebase?
            if s.controlTimebase == nil, !s.ownTimebaseStarted {
                let own = s.ownTimebase ?? Self.hostTimebase()
                s.ownTimebase = own
                s.ownTimebaseStarted = true
                starting = own
            }
            s.queued.append(sampleBuffer)
            return (true, starting)
        }
        guard accepted else { return }
        if let starting {
            CMTimebaseSetTime(starting, time: sampleBuffer.presentationTimeStamp.isNumeric ? sampleBuffer.presentationTimeStamp : .zero)
            CMTimebaseSetRate(starting, rate: 1)
        }
        renderQueue.async { [self] in showDueBuffers() }
    }

    /// Drops every queued buffer; the picture shown stays.
    open func flush() { flush(removingImage: false) }

    /// Drops every queued buffer and clears the picture.
    open func flushAndRemoveImage() { flush(removingImage: true) }

    /// Calls `block` on `queue` whenever the layer is ready for more, until
    /// `stopRequestingMediaData()`; the block should enqueue while `isReadyForMoreMediaData`.
    open func requestMediaDataWhenReady(on queue: DispatchQueue, using block: @escaping @Sendable () -> Void) {
        state.withLock {
            $0.requester = (queue, block)
            $0.requestInFlight = false
        }
        askForMore()
    }

    /// Ends `requestMediaDataWhenReady(on:using:)`.
    open func stopRequestingMediaData() { state.withLock { $0.requester = nil } }

    open override var description: String {
        "<AVSampleBufferDisplayLayer: frame \(frame), \(videoGravity.rawValue), status \(status.rawValue)>"
    }
}

/// The key of the error in `AVSampleBufferDisplayLayer.failedToDecodeNotification`'s `userInfo`.
public let AVSampleBufferDisplayLayerFailedToDecodeNotificationErrorKey = "AVSampleBufferDisplayLayerFailedToDecodeNotificationErrorKey"

/// The renderer behind an `AVSampleBufferDisplayLayer` (iOS 17): the queued-buffer calls of
/// the layer, on the layer.
open class AVSampleBufferVideoRenderer: NSObject, @unchecked Sendable {
    private weak var layer: AVSampleBufferDisplayLayer?

    init(layer: AVSampleBufferDisplayLayer) {
        self.layer = layer
        super.init()
    }

    open var status: AVQueuedSampleBufferRenderingStatus { layer?.status ?? .unknown }
    open var error: (any Error)? { layer?.error }
    open var isReadyForMoreMediaData: Bool { layer?.isReadyForMoreMediaData ?? false }
    open var hasSufficientMediaDataForReliablePlaybackStart: Bool { layer?.hasSufficientMediaDataForReliablePlaybackStart ?? false }
    open var requiresFlushToResumeDecoding: Bool { false }
    open var timebase: CMTimebase? { layer?.timebase }
    open func enqueue(_ sampleBuffer: CMSampleBuffer) { layer?.enqueue(sampleBuffer) }
    open func flush() { layer?.flush() }
    /// Flushes, and calls `handler` on the layer's queue once the flush (and the picture's
    /// removal) is done.
    open func flush(removingDisplayedImage removeDisplayedImage: Bool, completionHandler handler: (@Sendable () -> Void)? = nil) {
        guard let layer else {
            handler?()
            return
        }
        if removeDisplayedImage { layer.flushAndRemoveImage() } else { layer.flush() }
        // The flush's own work is queued on the render queue first, so this runs after it.
        if let handler { layer.renderQueue.async(execute: handler) }
    }
    open func requestMediaDataWhenReady(on queue: DispatchQueue, using block: @escaping @Sendable () -> Void) {
        layer?.requestMediaDataWhenReady(on: queue, using: block)
    }
    open func stopRequestingMediaData() { layer?.stopRequestingMediaData() }
}

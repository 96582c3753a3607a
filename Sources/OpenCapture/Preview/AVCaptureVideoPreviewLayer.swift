import Dispatch
import Foundation
import ImageOps
import Synchronization

/// Shows a session's video, as Apple's preview layer does. It is a `CALayer` (OpenCapture's
/// QuartzCore: geometry and a layer tree, no compositor), and renders each frame into
/// `contents`, an opaque BGRA `CVPixelBuffer` the size of its bounds (one pixel per
/// point) with the gravity, rotation and mirroring applied. A program shows it with
/// whatever draws pixels (SDL, GTK, a terminal: `capture preview`), from
/// `setDisplayHandler(queue:_:)` or by reading `contents`.
///
/// A session with only a preview layer streams, as on iOS: no output is needed. The
/// connection mirrors front cameras by default. Rendering runs on a queue of the layer's
/// own, newest frame first: a slow display skips frames, the capture never waits for it.
///
/// Threads: the display handler is called on the queue given to `setDisplayHandler(queue:_:)`.
open class AVCaptureVideoPreviewLayer: CALayer, @unchecked Sendable {
    private struct State {
        var session: AVCaptureSession?
        var connection: AVCaptureConnection?
        /// Whether a new input should be connected to the layer (not for `sessionWithNoConnection`).
        var connectsAutomatically = false
        var gravity = AVLayerVideoGravity.resizeAspect
        var displayQueue: DispatchQueue?
        var displayHandler: (@Sendable (CVPixelBuffer) -> Void)?
    }

    /// A frame waiting for the render queue; newer frames replace it.
    private struct Pending {
        var buffer: CVPixelBuffer
        var rotation: Int
        var mirrored: Bool
    }

    private let previewState = Mutex(State())
    private let pending = Mutex<Pending?>(nil)
    private let renderQueue = DispatchQueue(label: "OpenCapture.preview")
    private let wake: DispatchSourceUserDataAdd
    // Used on the render queue only.
    private var renderer = LayerPictureRenderer()
    private let renderedCount = Atomic<Int>(0)
    private let deferredStart = Atomic<Bool>(false)
    /// Key-value observers of the layer.
    let layerKeyValueObservers = KeyValueObserverRegistry(label: "previewLayer")

    /// A layer with no session.
    public override init() {
        wake = DispatchSource.makeUserDataAddSource(queue: renderQueue)
        super.init()
        wake.setEventHandler { [weak self] in self?.renderPending() }
        wake.activate()
    }

    /// Whether the layer can wait for deferred start (iOS 26): true.
    open var isDeferredStartSupported: Bool { true }

    /// Whether the session starts this layer's preview only when it runs deferred start,
    /// after `startRunning()` returns (default false: a preview is what shows first). Set it
    /// before the session starts.
    open var isDeferredStartEnabled: Bool {
        get { deferredStart.load(ordering: .acquiring) }
        set { deferredStart.store(newValue, ordering: .releasing) }
    }

    // MARK: iOS 4 orientation and mirroring (deprecated in iOS 6), forwarded to the connection

    /// Whether `orientation` can be set: the connection's `isVideoOrientationSupported`.
    @available(*, deprecated, message: "Use AVCaptureConnection's isVideoOrientationSupported")
    open var isOrientationSupported: Bool { connection?.isVideoOrientationSupported ?? false }

    /// The connection's `videoOrientation` (`.portrait` without a connection).
    @available(*, deprecated, message: "Use AVCaptureConnection's videoOrientation")
    open var orientation: AVCaptureVideoOrientation {
        get { connection?.videoOrientation ?? .portrait }
        set { connection?.videoOrientation = newValue }
    }

    /// Whether `isMirrored` can be set: the connection's `isVideoMirroringSupported`.
    @available(*, deprecated, message: "Use AVCaptureConnection's isVideoMirroringSupported")
    open var isMirroringSupported: Bool { connection?.isVideoMirroringSupported ?? false }

    /// The connection's `automaticallyAdjustsVideoMirroring`.
    @available(*, deprecated, message: "Use AVCaptureConnection's automaticallyAdjustsVideoMirroring")
    open var automaticallyAdjustsMirroring: Bool {
        get { connection?.automaticallyAdjustsVideoMirroring ?? true }
        set { connection?.automaticallyAdjustsVideoMirroring = newValue }
    }

    /// The connection's `isVideoMirrored`; setting it while `automaticallyAdjustsMirroring`
    /// is true raises, as the connection does.
    @available(*, deprecated, message: "Use AVCaptureConnection's isVideoMirrored")
    open var isMirrored: Bool {
        get { connection?.isVideoMirrored ?? false }
        set { connection?.isVideoMirrored = newValue }
    }

    /// A layer showing `session`'s camera: connected to its video input now, or to the
    /// first one added.
    public convenience init(session: AVCaptureSession) {
        self.init()
        self.session = session
    }

    /// A layer for `session` with no connection: add one made with
    /// `AVCaptureConnection(inputPort:videoPreviewLayer:)`.
    public convenience init(sessionWithNoConnection session: AVCaptureSession) {
        self.init()
        setSessionWithNoConnection(session)
    }

    deinit {
        wake.cancel()
    }

    /// The session shown. Setting it removes the connection to the previous session and
    /// connects to the new one's camera.
    open var session: AVCaptureSession? {
        get { previewState.withLock { $0.session } }
        set { attach(to: newValue, connecting: true) }
    }

    /// Sets the session without connecting it (add a connection yourself).
    open func setSessionWithNoConnection(_ session: AVCaptureSession) {
        attach(to: session, connecting: false)
    }

    /// The connection from the session's camera to the layer, nil until there is one.
    open var connection: AVCaptureConnection? { previewState.withLock { $0.connection } }

    /// How the picture fits the bounds (default `.resizeAspect`).
    open var videoGravity: AVLayerVideoGravity {
        get { previewState.withLock { $0.gravity } }
        set {
            let observed = KeyValueChange.willChange(self, keys: ["videoGravity"])  // KVO: prior now, after on return
            defer { observed?.didChange() }
            previewState.withLock { $0.gravity = newValue }
        }
    }

    /// Whether the layer is showing video: its connection is enabled and its session runs.
    open var isPreviewing: Bool { connection?.isActive ?? false }

    /// Pictures rendered since the layer was made.
    public var renderedFrameCount: Int { renderedCount.load(ordering: .relaxed) }

    /// Calls `handler` on `queue` with each new picture (Linux addition; nil stops). The
    /// buffer comes from a small pool: copy it if you keep it for longer than a frame.
    public func setDisplayHandler(queue: DispatchQueue, _ handler: (@Sendable (CVPixelBuffer) -> Void)?) {
        previewState.withLock {
            $0.displayQueue = handler == nil ? nil : queue
            $0.displayHandler = handler
        }
    }

    // MARK: Coordinates

    /// The capture device point (0,0 top left ... 1,1 bottom right of the unrotated sensor
    /// image) shown at `pointInLayer`, for focus and exposure points of interest.
    open func captureDevicePointConverted(fromLayerPoint pointInLayer: CGPoint) -> CGPoint {
        geometry.devicePoint(fromLayerPoint: pointInLayer)
    }

    /// The layer point that shows `captureDevicePointOfInterest`.
    open func layerPointConverted(fromCaptureDevicePoint captureDevicePointOfInterest: CGPoint) -> CGPoint {
        geometry.layerPoint(fromDevicePoint: captureDevicePointOfInterest)
    }

    /// A layer rectangle in device coordinates (0 ... 1, unrotated), as metadata outputs use.
    open func metadataOutputRectConverted(fromLayerRect rectInLayerCoordinates: CGRect) -> CGRect {
        geometry.deviceRect(fromLayerRect: rectInLayerCoordinates)
    }

    /// A device-coordinate rectangle (0 ... 1, unrotated) in layer coordinates.
    open func layerRectConverted(fromMetadataOutputRect rectInMetadataOutputCoordinates: CGRect) -> CGRect {
        geometry.layerRect(fromDeviceRect: rectInMetadataOutputCoordinates)
    }

    /// A metadata object with its bounds and corners in layer coordinates, through the
    /// layer's gravity, rotation and mirroring; nil when the layer has no connection.
    open func transformedMetadataObject(for metadataObject: AVMetadataObject) -> AVMetadataObject? {
        guard connection != nil else { return nil }
        let geometry = self.geometry
        return metadataObject.transformed(point: geometry.layerPoint(fromDevicePoint:), rect: geometry.layerRect(fromDeviceRect:))
    }

    /// The geometry now: the active format's size, the connection's rotation and mirroring.
    var geometry: PreviewGeometry {
        let connection = self.connection
        let dimensions = connection?.device?.activeFormat.formatDescription.dimensions
        let transform = connection?.transform ?? (rotation: 0, mirrored: false, enabled: true)
        let bounds = CGRect(origin: .zero, size: self.bounds.size)
        let gravity = videoGravity
        return PreviewGeometry(
            imageSize: CGSize(width: Int(dimensions?.width ?? 0), height: Int(dimensions?.height ?? 0)),
            rotation: transform.rotation, mirrored: transform.mirrored, bounds: bounds, gravity: gravity)
    }

    // MARK: Session wiring

    private func attach(to session: AVCaptureSession?, connecting: Bool) {
        // `session` is announced on return; `connection` and `isPreviewing` by the sessions
        // themselves, as they let go of their configuration locks (see ConfigurationLock).
        let observed = KeyValueChange.watch(self, keys: ["session"])
        defer { observed?.didChange() }
        let (old, oldConnection) = previewState.withLock { ($0.session, $0.connection) }
        if let old, let oldConnection { old.removeConnection(oldConnection) }
        if let old, old !== session { old.forgetPreviewLayer(self) }
        previewState.withLock {
            $0.session = session
            $0.connectsAutomatically = connecting
        }
        session?.adoptPreviewLayer(self, connect: connecting)
    }

    /// Whether the session should connect its camera to the layer.
    var wantsConnection: Bool { previewState.withLock { $0.connectsAutomatically && $0.connection == nil } }

    func connectionWasAdded(_ connection: AVCaptureConnection) { previewState.withLock { $0.connection = connection } }

    func connectionWasRemoved(_ connection: AVCaptureConnection) {
        previewState.withLock { if $0.connection === connection { $0.connection = nil } }
    }

    // MARK: Rendering

    /// Takes a frame from the capture thread: the newest wins, the render queue draws it.
    func show(_ buffer: CVPixelBuffer, rotation: Int, mirrored: Bool) {
        pending.withLock { $0 = Pending(buffer: buffer, rotation: rotation, mirrored: mirrored) }
        wake.add(data: 1)
    }

    private func renderPending() {
        guard let frame = pending.withLock({ value -> Pending? in defer { value = nil }; return value }) else { return }
        let size = bounds.size
        guard size.width.rounded() > 0, size.height.rounded() > 0 else {
            contents = nil
            return
        }
        guard let picture = renderer.render(frame.buffer, rotation: frame.rotation, mirrored: frame.mirrored, size: size, gravity: videoGravity)
        else { return }
        renderedCount.add(1, ordering: .relaxed)
        contents = picture
        let (queue, handler) = previewState.withLock { state -> (DispatchQueue?, (@Sendable (CVPixelBuffer) -> Void)?) in
            (state.displayQueue, state.displayHandler)
        }
        if let queue, let handler { queue.async { handler(picture) } }
    }

    open override var description: String {
        let (frame, gravity) = (self.frame, videoGravity)
        return "<AVCaptureVideoPreviewLayer: frame \(frame), \(gravity.rawValue), connection \(connection.map { "\($0)" } ?? "none")>"
    }
}

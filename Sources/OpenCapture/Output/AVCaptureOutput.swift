import Foundation
import Synchronization

/// A destination for a session's media. Use a concrete output such as `AVCaptureVideoDataOutput`.
open class AVCaptureOutput: NSObject, @unchecked Sendable {
    private let links = Mutex<Links>(Links())

    private struct Links {
        var connections: [AVCaptureConnection] = []
        weak var session: AVCaptureSession?
    }

    /// Why an output dropped a frame, as `captureOutput(_:didDrop:from:)` reports it.
    public enum DataDroppedReason: Int, Sendable {
        case none = 0
        case lateData = 1
        case outOfBuffers = 2
        case discontinuity = 3
    }

    private let deferredStart = Atomic<Bool>(false)
    /// The data output synchronizer delivering this output's data, if one took it over.
    let synchronizerTakeoverState = Mutex<SynchronizerTakeover?>(nil)

    override init() { super.init() }

    // MARK: Deferred start (iOS 26)

    /// Whether the output can wait for deferred start: true for video data outputs (which
    /// say so); photo and movie outputs always start with the session on Linux.
    open var isDeferredStartSupported: Bool { false }

    /// Whether the session starts this output only after `startRunning()` returns, when it
    /// runs deferred start (default false). Setting true where `isDeferredStartSupported` is
    /// false raises `NSInvalidArgumentException`, as on iOS. Set it before the session
    /// starts (or before committing a configuration); a running session keeps what it started.
    open var isDeferredStartEnabled: Bool {
        get { deferredStart.load(ordering: .acquiring) }
        set { enforce { try setDeferredStartEnabled(newValue) } }
    }

    /// The checked form of setting `isDeferredStartEnabled` (Linux addition).
    public func setDeferredStartEnabled(_ enabled: Bool) throws(AVCaptureException) {
        let observed = KeyValueChange.willChange(anyObject: self, keys: ["deferredStartEnabled"])  // KVO: prior now, after on return
        defer { observed?.didChange() }
        guard !enabled || isDeferredStartSupported else {
            throw AVCaptureException(.invalidArgument, selectorReason(
                String(describing: type(of: self)), "setDeferredStartEnabled:", "Deferred start is not supported - check isDeferredStartSupported"))
        }
        deferredStart.store(enabled, ordering: .releasing)
    }

    /// The connections feeding this output.
    open var connections: [AVCaptureConnection] { links.withLock { $0.connections } }

    /// The first connection carrying the media type, or `nil`.
    open func connection(with mediaType: AVMediaType) -> AVCaptureConnection? {
        connections.first { connection in connection.inputPorts.contains { $0.mediaType == mediaType } }
    }

    /// Converts a rectangle in the output's coordinates (the pixels of what it delivers:
    /// rotated, mirrored and scaled as its video connection says) to metadata-output
    /// coordinates ((0, 0) top left to (1, 1) bottom right of the unrotated sensor image),
    /// as a metadata output's `rectOfInterest` takes them. Without a video connection the
    /// rectangle comes back unchanged.
    open func metadataOutputRectConverted(fromOutputRect rectInOutputCoordinates: CGRect) -> CGRect {
        guard let geometry = outputGeometry else { return rectInOutputCoordinates }
        return geometry.deviceRect(fromLayerRect: rectInOutputCoordinates)
    }

    /// Converts a rectangle in metadata-output coordinates to the output's pixel coordinates;
    /// the inverse of `metadataOutputRectConverted(fromOutputRect:)`.
    open func outputRectConverted(fromMetadataOutputRect rectInMetadataOutputCoordinates: CGRect) -> CGRect {
        guard let geometry = outputGeometry else { return rectInMetadataOutputCoordinates }
        return geometry.layerRect(fromDeviceRect: rectInMetadataOutputCoordinates)
    }

    /// The size of what the output delivers, after rotation (and scaling, for outputs that
    /// scale); subclasses that scale say so.
    var outputCoordinateSize: CGSize? {
        guard let connection = connection(with: .video), let device = connection.device else { return nil }
        let dims = device.activeFormat.formatDescription.dimensions
        let rotation = connection.transform.rotation
        return rotation == 90 || rotation == 270
            ? CGSize(width: Int(dims.height), height: Int(dims.width)) : CGSize(width: Int(dims.width), height: Int(dims.height))
    }

    /// The sensor image's placement in the output's pixels: no crop, the output is the
    /// whole image (rotated, mirrored, scaled).
    var outputGeometry: PreviewGeometry? {
        guard let connection = connection(with: .video), let device = connection.device, let size = outputCoordinateSize else { return nil }
        let dims = device.activeFormat.formatDescription.dimensions
        let transform = connection.transform
        return PreviewGeometry(
            imageSize: CGSize(width: Int(dims.width), height: Int(dims.height)), rotation: transform.rotation,
            mirrored: transform.mirrored, bounds: CGRect(origin: .zero, size: size), gravity: .resize)
    }

    /// How many connections of this kind the output can take (video data outputs take one).
    var maximumConnectionCount: Int { 1 }

    /// Whether a connection from `ports` fits beside the output's connections: one in all,
    /// or one of each media type (`takesOneConnectionPerMediaType`).
    func hasRoom(for ports: [AVCaptureInput.Port]) -> Bool {
        guard takesOneConnectionPerMediaType else { return connections.count < maximumConnectionCount }
        guard let mediaType = ports.first?.mediaType else { return false }
        // Each metadata input is a track of its own.
        if mediaType == .metadata { return true }
        return !connections.contains { $0.inputPorts.contains { $0.mediaType == mediaType } }
    }

    /// The largest scale-and-crop factor a video connection to the output takes (1: none).
    var maximumScaleAndCropFactor: CGFloat { 1 }

    /// The media the output takes from input ports (video, unless it says otherwise).
    var acceptedMediaTypes: [AVMediaType] { [.video] }

    /// Whether the output takes one connection of each accepted media type (a camera and a
    /// microphone) rather than one connection in all.
    var takesOneConnectionPerMediaType: Bool { false }

    package var session: AVCaptureSession? { links.withLock { $0.session } }

    func attach(to session: AVCaptureSession?) { links.withLock { $0.session = session } }

    func add(_ connection: AVCaptureConnection) {
        links.withLock { $0.connections.append(connection) }
        didAdd(connection)
    }

    /// A connection was added (subclasses apply settings made before it existed).
    func didAdd(_ connection: AVCaptureConnection) {}

    func remove(_ connection: AVCaptureConnection) {
        links.withLock { $0.connections.removeAll { $0 === connection } }
    }

    // MARK: Apple-declared members overridable by subclasses (helpers in AVCaptureOutput+Metadata.swift)

    /// A metadata object (in metadata-output coordinates) with its bounds and corners in this
    /// output's coordinates through `connection` (its pixels, rotated and mirrored as the
    /// connection says), as `outputRectConverted(fromMetadataOutputRect:)` converts rectangles.
    /// Nil if `connection` is not this output's video connection.
    open func transformedMetadataObject(for metadataObject: AVMetadataObject, connection: AVCaptureConnection) -> AVMetadataObject? {
        guard connection.output === self, connection.inputPorts.contains(where: { $0.mediaType == .video }), let geometry = outputGeometry else {
            return nil
        }
        return metadataObject.transformed(point: geometry.layerPoint(fromDevicePoint:), rect: geometry.layerRect(fromDeviceRect:))
    }
}

import Foundation

/// Detects machine-readable codes in a camera's frames and hands them to a delegate.
///
/// Linux detects the code types of `BarcodeReader.supportedTypes` (zxing-cpp) and, where
/// the face-detector plugin and OpenCV's cascades are installed, faces (`FaceReader`);
/// bodies and salient objects are never available, as on a device without those detectors.
///
/// Threads: detection runs on the output's own queue on the newest frame it can take (a
/// slow detector skips frames, never delays video; in virtual time every frame is read).
/// The delegate is called on `metadataObjectsCallbackQueue`, never with a lock held.
open class AVCaptureMetadataOutput: AVCaptureOutput, @unchecked Sendable {
    private let settings = Mutex<Settings>(Settings())
    /// Observers of the output (see `AVCaptureOutput+KeyValueObserving.swift`).
    let metadataKeyValueObservers = KeyValueObserverRegistry(label: "metadataOutput")
    let scanner = MetadataScanner()

    private struct Settings {
        weak var delegate: (any AVCaptureMetadataOutputObjectsDelegate)?
        var queue: DispatchQueue?
        var types: [AVMetadataObject.ObjectType] = []
        var rectOfInterest = CGRect(x: 0, y: 0, width: 1, height: 1)
    }

    public override init() { super.init() }

    override var acceptedMediaTypes: [AVMediaType] { [.metadataObject] }

    // MARK: Delegate

    /// Sets the delegate and the serial queue it is called on; nil for both stops delivery.
    /// A delegate without a queue raises `NSInvalidArgumentException`, as on iOS.
    open func setMetadataObjectsDelegate(_ objectsDelegate: (any AVCaptureMetadataOutputObjectsDelegate)?, queue objectsCallbackQueue: DispatchQueue?) {
        if objectsDelegate != nil, objectsCallbackQueue == nil {
            AVCaptureException(.invalidArgument, selectorReason(
                "AVCaptureMetadataOutput", "setMetadataObjectsDelegate:queue:", "Cannot specify a nil queue with a non-nil delegate")).raise()
        }
        settings.withLock {
            $0.delegate = objectsDelegate
            $0.queue = objectsDelegate == nil ? nil : objectsCallbackQueue
        }
    }

    /// The delegate (held weakly).
    open var metadataObjectsDelegate: (any AVCaptureMetadataOutputObjectsDelegate)? { settings.withLock { $0.delegate } }

    /// The queue the delegate is called on.
    open var metadataObjectsCallbackQueue: DispatchQueue? { settings.withLock { $0.queue } }

    // MARK: Types

    /// The types the output can detect: none until it is connected to a camera, then
    /// `.face` (when face detection is installed, see `FaceReader.isAvailable`) and the code
    /// types Linux reads, in Apple's header order.
    open var availableMetadataObjectTypes: [AVMetadataObject.ObjectType] {
        guard let connection = connections.first, let device = connection.device, device.hasMediaType(.video) else { return [] }
        return (FaceReader.isAvailable ? [.face] : []) + BarcodeReader.supportedTypes
    }

    /// The types Cinematic video needs the output to detect while an input records it (iOS
    /// 26): none, as no input here can enable Cinematic video.
    open var requiredMetadataObjectTypesForCinematicVideoCapture: [AVMetadataObject.ObjectType] { [] }

    /// The types to detect (default none). A type not in `availableMetadataObjectTypes`
    /// raises `NSInvalidArgumentException`, as on iOS; nil means none.
    open var metadataObjectTypes: [AVMetadataObject.ObjectType]! {
        get { settings.withLock { $0.types } }
        set { enforce { try setMetadataObjectTypes(newValue) } }
    }

    /// The checked form of setting `metadataObjectTypes` (Linux addition).
    public func setMetadataObjectTypes(_ types: [AVMetadataObject.ObjectType]?) throws(AVCaptureException) {
        let observed = KeyValueChange.willChange(self, keys: ["metadataObjectTypes"])  // KVO: prior now, after on return
        defer { observed?.didChange() }
        let types = types ?? []
        let available = Set(availableMetadataObjectTypes)
        guard types.allSatisfy(available.contains) else {
            throw AVCaptureException(.invalidArgument, selectorReason(
                "AVCaptureMetadataOutput", "setMetadataObjectTypes:", "Unsupported type found - use -availableMetadataObjectTypes"))
        }
        settings.withLock { $0.types = types }
    }

    // MARK: Rect of interest

    /// Where to look, in metadata-output coordinates ((0, 0) top left to (1, 1) bottom right
    /// of the unrotated sensor image; `AVCaptureVideoPreviewLayer.metadataOutputRectConverted(fromLayerRect:)`
    /// converts from a layer). Default the whole picture. Any rectangle is kept, none raises:
    /// AVCaptureMetadataOutput.h names no exception, only "Metadata objects whose bounds do
    /// not intersect with the rectOfInterest will not be returned", so the scanner looks at
    /// the part of the picture inside it (none for a rectangle beside the picture).
    open var rectOfInterest: CGRect {
        get { settings.withLock { $0.rectOfInterest } }
        set {
            let observed = KeyValueChange.willChange(self, keys: ["rectOfInterest"])  // KVO: prior now, after on return
            defer { observed?.didChange() }
            settings.withLock { $0.rectOfInterest = newValue }
        }
    }

    /// What the scanner needs for one frame, or nil when nothing is asked for.
    var scanRequest: MetadataScanner.Request? {
        let takeover = synchronizerTakeover
        return settings.withLock { s -> MetadataScanner.Request? in
            guard !s.types.isEmpty else { return nil }
            if let takeover, let synchronizer = takeover.synchronizer {
                // A synchronizer took the output over: every frame read is reported to it,
                // with its time, objects or none.
                return MetadataScanner.Request(
                    types: Set(s.types), rectOfInterest: s.rectOfInterest, delegate: nil, synchronizer: synchronizer, queue: takeover.queue)
            }
            guard let delegate = s.delegate, let queue = s.queue else { return nil }
            return MetadataScanner.Request(types: Set(s.types), rectOfInterest: s.rectOfInterest, delegate: delegate, queue: queue)
        }
    }
}

import Foundation

/// The abstract class of what a metadata output detects: a time, a duration, bounds and a
/// type. Apps never make one; `AVCaptureMetadataOutput` hands out concrete subclasses
/// (`AVMetadataMachineReadableCodeObject` on Linux).
open class AVMetadataObject: NSObject, @unchecked Sendable {
    /// The kind of a metadata object (Apple's `AVMetadataObjectType` string constants).
    public struct ObjectType: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public init(_ rawValue: String) { self.rawValue = rawValue }
    }

    private let storedTime: CMTime
    /// The presentation time of the frame the object was found in.
    open var time: CMTime { storedTime }
    private let storedDuration: CMTime
    /// The duration of that frame.
    open var duration: CMTime { storedDuration }
    private let storedBounds: CGRect
    /// The object's axis-aligned bounds, in metadata-output coordinates ((0, 0) top left to
    /// (1, 1) bottom right of the unrotated, unmirrored sensor image) as the output gives
    /// them; converted by `transformedMetadataObject` into an output's or a layer's.
    open var bounds: CGRect { storedBounds }
    private let storedType: ObjectType
    /// What the object is.
    open var type: ObjectType { storedType }

    /// The object's identity across frames (iOS 26): a face's `faceID`, a body's `bodyID`, a
    /// salient object's own number; -1 for objects that have none (codes).
    open var objectID: Int { -1 }
    /// The group of objects belonging to one subject, such as a person's face and body
    /// (iOS 26): -1 (invalid), as nothing here groups objects.
    open var groupID: Int { -1 }
    /// The Cinematic video focus on this object (iOS 26): `.none`, as no camera here records
    /// Cinematic video.
    open var cinematicVideoFocusMode: AVCaptureDevice.CinematicVideoFocusMode { .none }
    /// Whether the object stands for Cinematic video's fixed focus (iOS 26): no.
    open var isFixedFocus: Bool { false }

    init(type: ObjectType, time: CMTime, duration: CMTime, bounds: CGRect) {
        self.storedType = type
        self.storedTime = time
        self.storedDuration = duration
        self.storedBounds = bounds
        super.init()
    }

    /// The same object with its geometry mapped by `point` (corners) and `rect` (bounds);
    /// subclasses with more geometry override it.
    func transformed(point: (CGPoint) -> CGPoint, rect: (CGRect) -> CGRect) -> AVMetadataObject {
        AVMetadataObject(type: type, time: time, duration: duration, bounds: rect(bounds))
    }

    open override var description: String {
        "<\(Swift.type(of: self)): type=\"\(type.rawValue)\", bounds={\(bounds.origin.x),\(bounds.origin.y) \(bounds.width)x\(bounds.height)}, time \(time.value)/\(time.timescale)>"
    }
}

import Foundation

// Body and salient-object metadata (iOS 13, 17). Linux detects none of them: their types
// are never among a metadata output's available types, as on a device without the
// detectors; the classes exist so iOS code compiles.

/// The abstract class of detected bodies.
open class AVMetadataBodyObject: AVMetadataObject, NSCopying, @unchecked Sendable {
    private let storedBodyID: Int
    /// A number for the body, kept while it stays in the picture.
    open var bodyID: Int { storedBodyID }
    /// The body's number (iOS 26's name for it).
    open override var objectID: Int { storedBodyID }

    init(type: ObjectType, bodyID: Int, time: CMTime, duration: CMTime, bounds: CGRect) {
        self.storedBodyID = bodyID
        super.init(type: type, time: time, duration: duration, bounds: bounds)
    }

    public func copy(with zone: NSZone? = nil) -> Any { self }
}

/// A human body.
open class AVMetadataHumanBodyObject: AVMetadataBodyObject, @unchecked Sendable {}
/// A human full body.
open class AVMetadataHumanFullBodyObject: AVMetadataBodyObject, @unchecked Sendable {}
/// A cat's body.
open class AVMetadataCatBodyObject: AVMetadataBodyObject, @unchecked Sendable {}
/// A dog's body.
open class AVMetadataDogBodyObject: AVMetadataBodyObject, @unchecked Sendable {}

/// A salient area of the picture.
open class AVMetadataSalientObject: AVMetadataObject, NSCopying, @unchecked Sendable {
    private let storedObjectID: Int
    /// A number for the object, kept while it stays in the picture.
    open override var objectID: Int { storedObjectID }

    init(objectID: Int, time: CMTime, duration: CMTime, bounds: CGRect) {
        self.storedObjectID = objectID
        super.init(type: .salientObject, time: time, duration: duration, bounds: bounds)
    }

    public func copy(with zone: NSZone? = nil) -> Any { self }
}

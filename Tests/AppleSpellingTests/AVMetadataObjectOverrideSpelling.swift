// Subclasses of the AVMetadataObject.h classes overriding their members (compile-only).
import AVFoundation
import CoreMedia
import Foundation

/// Overrides every `AVMetadataObject` member.
final class MetadataObjectDouble: AVMetadataObject, @unchecked Sendable {
    override var time: CMTime { super.time }
    override var duration: CMTime { super.duration }
    override var bounds: CGRect { super.bounds }
    override var type: ObjectType { super.type }
}

/// Overrides the face object's identity and angle flags.
final class FaceObjectDouble: AVMetadataFaceObject, @unchecked Sendable {
    override var faceID: Int { super.faceID }
    override var hasRollAngle: Bool { super.hasRollAngle }
    override var hasYawAngle: Bool { super.hasYawAngle }
}

/// Overrides the code object's corners and string.
final class CodeObjectDouble: AVMetadataMachineReadableCodeObject, @unchecked Sendable {
    override var corners: [CGPoint] { super.corners }
    override var stringValue: String? { super.stringValue }
}

/// Overrides the body object's identity.
final class BodyObjectDouble: AVMetadataBodyObject, @unchecked Sendable {
    override var bodyID: Int { super.bodyID }
}

/// Overrides the salient object's identity.
final class SalientObjectDouble: AVMetadataSalientObject, @unchecked Sendable {
    override var objectID: Int { super.objectID }
}

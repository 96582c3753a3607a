import Foundation

/// A face a metadata output found (OpenCV's cascades, see `FaceReader`): its square bounds
/// in metadata-output coordinates, a number kept while it stays in the picture, and its
/// roll and yaw in the steps iOS devices report (roll a multiple of 30°, yaw 0, 45, 90,
/// 270 or 315).
open class AVMetadataFaceObject: AVMetadataObject, NSCopying, @unchecked Sendable {
    private let storedFaceID: Int
    /// A number for the face, kept while it stays in the picture (a face missed in up to two
    /// reads in a row keeps it); never reused for a new face.
    open var faceID: Int { storedFaceID }
    /// The face's number (iOS 26's name for it).
    open override var objectID: Int { storedFaceID }
    private let storedHasRollAngle: Bool
    /// Whether `rollAngle` holds a value.
    open var hasRollAngle: Bool { storedHasRollAngle }
    private let storedHasYawAngle: Bool
    /// Whether `yawAngle` holds a value.
    open var hasYawAngle: Bool { storedHasYawAngle }
    private let roll: CGFloat
    private let yaw: CGFloat

    init(faceID: Int, roll: CGFloat?, yaw: CGFloat?, time: CMTime, duration: CMTime, bounds: CGRect) {
        self.storedFaceID = faceID
        storedHasRollAngle = roll != nil
        storedHasYawAngle = yaw != nil
        self.roll = roll ?? 0
        self.yaw = yaw ?? 0
        super.init(type: .face, time: time, duration: duration, bounds: bounds)
    }

    /// The face's roll (tilt) in degrees, 0 ... 330 in steps of 30, clockwise in the
    /// unrotated sensor image (0 level, 90 lying on its side); raises `NSGenericException` when `hasRollAngle` is false, as on iOS.
    open var rollAngle: CGFloat {
        if !hasRollAngle { AVCaptureException(.generic, selectorReason("AVMetadataFaceObject", "rollAngle", "Face object has no roll angle")).raise() }
        return roll
    }

    /// The face's yaw (turn) in degrees: 0 facing the camera, 90 in profile looking towards
    /// the sensor image's left, 270 towards its right, 45 or 315 half turned; raises `NSGenericException` when `hasYawAngle` is false, as on iOS.
    open var yawAngle: CGFloat {
        if !hasYawAngle { AVCaptureException(.generic, selectorReason("AVMetadataFaceObject", "yawAngle", "Face object has no yaw angle")).raise() }
        return yaw
    }

    public func copy(with zone: NSZone? = nil) -> Any { self }

    override func transformed(point: (CGPoint) -> CGPoint, rect: (CGRect) -> CGRect) -> AVMetadataObject {
        AVMetadataFaceObject(
            faceID: faceID, roll: hasRollAngle ? roll : nil, yaw: hasYawAngle ? yaw : nil, time: time, duration: duration, bounds: rect(bounds))
    }
}

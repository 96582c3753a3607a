import Foundation

/// A face a metadata output found. Linux has no face detector, so `.face` is not among a
/// metadata output's available types and no face object is ever made (as on a device
/// without face detection); the class exists so iOS code compiles.
open class AVMetadataFaceObject: AVMetadataObject, NSCopying, @unchecked Sendable {
    /// A number for the face, kept while it stays in the picture.
    public let faceID: Int
    /// Whether `rollAngle` holds a value.
    public let hasRollAngle: Bool
    /// Whether `yawAngle` holds a value.
    public let hasYawAngle: Bool
    private let roll: CGFloat
    private let yaw: CGFloat

    init(faceID: Int, roll: CGFloat?, yaw: CGFloat?, time: CMTime, duration: CMTime, bounds: CGRect) {
        self.faceID = faceID
        hasRollAngle = roll != nil
        hasYawAngle = yaw != nil
        self.roll = roll ?? 0
        self.yaw = yaw ?? 0
        super.init(type: .face, time: time, duration: duration, bounds: bounds)
    }

    /// The face's roll (tilt) in degrees; raises `NSGenericException` when `hasRollAngle` is false, as on iOS.
    open var rollAngle: CGFloat {
        if !hasRollAngle { AVCaptureException(.generic, selectorReason("AVMetadataFaceObject", "rollAngle", "Face object has no roll angle")).raise() }
        return roll
    }

    /// The face's yaw (turn) in degrees; raises `NSGenericException` when `hasYawAngle` is false, as on iOS.
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

// AVMetadataObject.h (iOS 18 SDK), spelled as iOS code spells it. Objects come only from a
// metadata output (AV_INIT_UNAVAILABLE), so the spelling takes them as parameters.
import AVFoundation
import CoreMedia
import Foundation
import Testing

/// Touches every declaration of AVMetadataObject.h; compiled, never called.
func spellAVMetadataObject(
    _ object: AVMetadataObject, _ code: AVMetadataMachineReadableCodeObject, _ face: AVMetadataFaceObject,
    _ human: AVMetadataHumanBodyObject, _ full: AVMetadataHumanFullBodyObject, _ cat: AVMetadataCatBodyObject,
    _ dog: AVMetadataDogBodyObject, _ salient: AVMetadataSalientObject
) {
    let time: CMTime = object.time
    let duration: CMTime = object.duration
    let bounds: CGRect = object.bounds
    let type: AVMetadataObject.ObjectType = object.type
    let corners: [CGPoint] = code.corners
    let string: String? = code.stringValue
    let descriptor: CIBarcodeDescriptor? = code.descriptor
    let faceID: Int = face.faceID
    let hasRoll: Bool = face.hasRollAngle
    let roll: CGFloat = face.rollAngle
    let hasYaw: Bool = face.hasYawAngle
    let yaw: CGFloat = face.yawAngle
    let faceCopy: Any = face.copy()
    let bodies: [AVMetadataBodyObject] = [human, full, cat, dog]
    let bodyID: Int = human.bodyID
    let objectID: Int = salient.objectID
    let salientCopy: Any = salient.copy()
    _ = (time, duration, bounds, type, corners, string, descriptor, faceID, hasRoll, roll, hasYaw, yaw, faceCopy)
    _ = (bodies, bodyID, objectID, salientCopy)
}

/// Every AVMetadataObjectType constant of the header.
let spelledMetadataObjectTypes: [AVMetadataObject.ObjectType] = [
    .humanBody, .humanFullBody, .catBody, .dogBody, .salientObject, .face, .upce, .code39, .code39Mod43, .ean13, .ean8, .code93,
    .code128, .pdf417, .qr, .aztec, .interleaved2of5, .itf14, .dataMatrix, .codabar, .gs1DataBar, .gs1DataBarExpanded,
    .gs1DataBarLimited, .microQR, .microPDF417,
]

@Suite("AVMetadataObject spelling")
struct AVMetadataObjectSpellingTests {
    @Test("the type constants are distinct strings, the iOS 7/8 ones as an iPhone prints them")
    func typeConstants() {
        #expect(Set(spelledMetadataObjectTypes.map(\.rawValue)).count == spelledMetadataObjectTypes.count)
        #expect(AVMetadataObject.ObjectType.qr.rawValue == "org.iso.QRCode")
        #expect(AVMetadataObject.ObjectType.ean13.rawValue == "org.gs1.EAN-13")
        #expect(AVMetadataObject.ObjectType.code93.rawValue == "com.intermec.Code93")
        #expect(AVMetadataObject.ObjectType.face.rawValue == "face")
        #expect(AVMetadataObject.ObjectType(rawValue: "org.iso.QRCode") == .qr)
    }
}

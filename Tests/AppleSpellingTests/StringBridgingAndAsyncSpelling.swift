// Two things iOS code leans on that come from the Swift overlay rather than the headers:
// string-backed types bridge to NSString (`AVMetadataKey.commonKeyTitle as NSString`), and
// an async method imported from one with a nullable completion handler discards its result
// (`await device.setExposureTargetBias(0)` with no `_ =`). Compiled with warnings as errors.
import AVFoundation
import Foundation
import Testing

/// Touches the bridged and discardable forms; compiled, never called.
func spellStringBridgingAndAsync(_ device: AVCaptureDevice, _ photoOutput: AVCapturePhotoOutput, item: AVMutableMetadataItem) async throws {
    item.key = AVMetadataKey.commonKeyDescription as NSString
    item.keySpace = .common
    let names: [NSString] = [AVFileType.mov as NSString, AVMediaType.video as NSString, AVVideoCodecType.hevc as NSString]
    let back: AVMetadataKey? = (item.key as Any) as? AVMetadataKey
    await device.setExposureTargetBias(0)
    await device.setExposureModeCustom(duration: AVCaptureDevice.currentExposureDuration, iso: AVCaptureDevice.currentISO)
    await device.setWhiteBalanceModeLocked(with: AVCaptureDevice.currentWhiteBalanceGains)
    await device.setFocusModeLocked(lensPosition: AVCaptureDevice.currentLensPosition)
    try await photoOutput.setPreparedPhotoSettingsArray([AVCapturePhotoSettings()])
    _ = (names, back)
}

@Suite("String-backed types bridge to NSString, as their Swift overlay does on Apple")
struct StringBridgingTests {
    @Test("as NSString gives the raw value; an NSString, or Any holding one, casts back")
    func bridges() {
        #expect(AVMetadataKey.commonKeyDescription as NSString == NSString(string: AVMetadataKey.commonKeyDescription.rawValue))
        #expect(String(AVFileType.mov as NSString) == AVFileType.mov.rawValue)
        let held: Any = NSString(string: AVMetadataIdentifier.quickTimeMetadataLocationISO6709.rawValue)
        #expect(held as? AVMetadataIdentifier == .quickTimeMetadataLocationISO6709)
        #expect((NSString(string: "vide") as Any) as? AVMediaType == .video)
        let session: Any = AVCaptureSession.Preset.photo as NSString
        #expect(session as? AVCaptureSession.Preset == .photo)
    }
}

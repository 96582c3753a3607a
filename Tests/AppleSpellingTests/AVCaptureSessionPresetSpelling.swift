// AVCaptureSessionPreset.h (iOS 18 SDK), spelled as iOS code spells it. The 320x240 and
// 960x540 presets are macOS-only and are not here.
import AVFoundation
import Foundation
import Testing

/// Touches every iOS preset; compiled, never called.
func spellAVCaptureSessionPreset(_ session: AVCaptureSession) {
    let presets: [AVCaptureSession.Preset] = [
        .photo, .high, .medium, .low, .cif352x288, .vga640x480, .hd1280x720, .hd1920x1080, .hd4K3840x2160,
        .iFrame960x540, .iFrame1280x720, .inputPriority,
    ]
    let raw: String = AVCaptureSession.Preset.photo.rawValue
    let made = AVCaptureSession.Preset(rawValue: raw)
    session.sessionPreset = .hd1280x720
    let current: AVCaptureSession.Preset = session.sessionPreset
    let can: Bool = session.canSetSessionPreset(.hd4K3840x2160)
    _ = (presets, made, current, can)
}

@Suite("AVCaptureSessionPreset spelling")
struct AVCaptureSessionPresetSpellingTests {
    @Test("raw values are Apple's constant strings; the default preset is .high")
    func rawValues() {
        #expect(AVCaptureSession.Preset.photo.rawValue == "AVCaptureSessionPresetPhoto")
        #expect(AVCaptureSession.Preset.cif352x288.rawValue == "AVCaptureSessionPreset352x288")
        #expect(AVCaptureSession.Preset.hd4K3840x2160.rawValue == "AVCaptureSessionPreset3840x2160")
        #expect(AVCaptureSession.Preset.iFrame960x540.rawValue == "AVCaptureSessionPresetiFrame960x540")
        #expect(AVCaptureSession.Preset.inputPriority.rawValue == "AVCaptureSessionPresetInputPriority")
        #expect(AVCaptureSession().sessionPreset == .high)
        #expect(!AVCaptureSession().canSetSessionPreset(AVCaptureSession.Preset(rawValue: "AVCaptureSessionPreset320x240")))
    }
}

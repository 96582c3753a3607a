// AVCaptureControl.h, AVCaptureSlider.h, AVCaptureIndexPicker.h, AVCaptureSystemZoomSlider.h
// and AVCaptureSystemExposureBiasSlider.h (iOS 18 SDK), spelled as iOS code spells them.
import AVFoundation
import Foundation
import Testing

/// Touches every declaration of the capture-control headers; compiled, never called.
func spellAVCaptureControl(_ device: AVCaptureDevice, _ session: AVCaptureSession) {
    let queue = DispatchQueue(label: "controls")
    let slider: AVCaptureSlider = AVCaptureSlider("Level", symbolName: "dial.low", in: 0...1)
    let stepped: AVCaptureSlider = AVCaptureSlider("Level", symbolName: "dial.low", in: 0...10, step: 1)
    let listed: AVCaptureSlider = AVCaptureSlider("Level", symbolName: "dial.low", values: [1, 2, 4])
    slider.value = 0.5
    slider.localizedValueFormat = "%.1f"
    slider.prominentValues = [0, 1]
    slider.accessibilityIdentifier = "level"
    slider.setActionQueue(queue) { (value: Float) in _ = value }
    let sliderFields: (Float, String?, [Float], String, String, String?) = (
        slider.value, slider.localizedValueFormat, slider.prominentValues, slider.localizedTitle, slider.symbolName,
        slider.accessibilityIdentifier)
    let picker: AVCaptureIndexPicker = AVCaptureIndexPicker("Mode", symbolName: "camera", numberOfIndexes: 3)
    let transformed: AVCaptureIndexPicker = AVCaptureIndexPicker("Mode", symbolName: "camera", numberOfIndexes: 3) { "\($0)" }
    let titled: AVCaptureIndexPicker = AVCaptureIndexPicker("Mode", symbolName: "camera", localizedIndexTitles: ["A", "B"])
    picker.selectedIndex = 1
    picker.accessibilityIdentifier = "mode"
    picker.setActionQueue(queue) { (index: Int) in _ = index }
    let pickerFields: (Int, String, String, Int, [String], String?) = (
        picker.selectedIndex, picker.localizedTitle, picker.symbolName, picker.numberOfIndexes, picker.localizedIndexTitles,
        picker.accessibilityIdentifier)
    let zoom: AVCaptureSystemZoomSlider = AVCaptureSystemZoomSlider(device: device)
    let zoomAction: AVCaptureSystemZoomSlider = AVCaptureSystemZoomSlider(device: device) { (factor: CGFloat) in _ = factor }
    let bias: AVCaptureSystemExposureBiasSlider = AVCaptureSystemExposureBiasSlider(device: device)
    let biasAction: AVCaptureSystemExposureBiasSlider = AVCaptureSystemExposureBiasSlider(device: device) { (bias: Float) in _ = bias }
    let control: AVCaptureControl = slider
    control.isEnabled = false
    let enabled: Bool = control.isEnabled
    let sessionFields: (Bool, Int, [AVCaptureControl], Bool) = (
        session.supportsControls, session.maxControlsCount, session.controls, session.canAddControl(zoom))
    if session.canAddControl(bias) { session.addControl(bias) }
    session.removeControl(bias)
    _ = (stepped, listed, sliderFields, transformed, titled, pickerFields, zoomAction, biasAction, enabled, sessionFields)
}

@Suite("AVCaptureControl spelling")
struct AVCaptureControlSpellingTests {
    @Test("controls keep their values; sessions take them as on an iPhone with a Camera Control")
    func controlsAsValues() throws {
        let slider = AVCaptureSlider("Level", symbolName: "dial.low", in: 0...10, step: 1)
        slider.value = 3
        #expect(slider.value == 3 && slider.localizedTitle == "Level" && slider.symbolName == "dial.low")
        let picker = AVCaptureIndexPicker("Mode", symbolName: "camera", localizedIndexTitles: ["A", "B"])
        picker.selectedIndex = 1
        #expect(picker.selectedIndex == 1 && picker.numberOfIndexes == 2)
        let device = try #require(AVCaptureDevice(uniqueID: "sim:back-wide"))
        let session = AVCaptureSession()
        #expect(session.supportsControls && session.maxControlsCount > 0)
        let zoom = AVCaptureSystemZoomSlider(device: device)
        #expect(session.canAddControl(zoom))
        session.addControl(zoom)
        #expect(session.controls == [zoom])
    }
}

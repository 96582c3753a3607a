// iOS 26's Cinematic video members (AVCaptureDevice.h, AVCaptureInput.h,
// AVCaptureMetadataOutput.h, AVMetadataObject.h), spelled as Apple's "Capturing Cinematic
// video" sample spells them.
import AVFoundation
import Foundation

/// Touches the Cinematic video declarations; compiled, never called.
func spellCinematicVideo(_ device: AVCaptureDevice, _ input: AVCaptureDeviceInput, _ output: AVCaptureMetadataOutput, _ object: AVMetadataObject) throws {
    output.metadataObjectTypes = output.requiredMetadataObjectTypesForCinematicVideoCapture
    let format = device.activeFormat
    try device.lockForConfiguration()
    if input.isCinematicVideoCaptureSupported, format.isCinematicVideoCaptureSupported {
        input.isCinematicVideoCaptureEnabled = true
        input.simulatedAperture = format.defaultSimulatedAperture
    }
    let apertures: (Float, Float, Float) = (format.minSimulatedAperture, format.maxSimulatedAperture, input.simulatedAperture)
    let zoom: (CGFloat, CGFloat, AVFrameRateRange?) = (
        format.videoMinZoomFactorForCinematicVideo, format.videoMaxZoomFactorForCinematicVideo, format.videoFrameRateRangeForCinematicVideo)
    let mode: AVCaptureDevice.CinematicVideoFocusMode = object.cinematicVideoFocusMode == .weak ? .strong : .weak
    device.setCinematicVideoTrackingFocus(detectedObjectID: object.objectID, focusMode: mode)
    device.setCinematicVideoTrackingFocus(at: CGPoint(x: 0.5, y: 0.5), focusMode: .none)
    device.setCinematicVideoFixedFocus(at: CGPoint(x: 0.5, y: 0.5), focusMode: .strong)
    device.unlockForConfiguration()
    let statuses: Set<AVCaptureSceneMonitoringStatus> = device.cinematicVideoCaptureSceneMonitoringStatuses
    let dark: Bool = statuses.contains(.notEnoughLight)
    let identity: (Int, Int, Bool) = (object.groupID, object.objectID, object.isFixedFocus)
    _ = (apertures, zoom, dark, identity)
}

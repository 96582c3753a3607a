// Subclasses of the AVCaptureStillImageOutput.h classes overriding their bracket members (compile-only).
import AVFoundation
import CoreMedia
import Foundation

/// Overrides the still image output's bracket members.
final class StillImageBracketDouble: AVCaptureStillImageOutput, @unchecked Sendable {
    override var maxBracketedCaptureStillImageCount: Int { super.maxBracketedCaptureStillImageCount }
    override var isLensStabilizationDuringBracketedCaptureSupported: Bool { super.isLensStabilizationDuringBracketedCaptureSupported }
    override var isLensStabilizationDuringBracketedCaptureEnabled: Bool {
        get { super.isLensStabilizationDuringBracketedCaptureEnabled }
        set { super.isLensStabilizationDuringBracketedCaptureEnabled = newValue }
    }
    override func prepareToCaptureStillImageBracket(from connection: AVCaptureConnection, withSettingsArray settings: [AVCaptureBracketedStillImageSettings], completionHandler handler: @escaping (Bool, (any Error)?) -> Void) { super.prepareToCaptureStillImageBracket(from: connection, withSettingsArray: settings, completionHandler: handler) }
    override func captureStillImageBracketAsynchronously(from connection: AVCaptureConnection, withSettingsArray settings: [AVCaptureBracketedStillImageSettings], completionHandler handler: @escaping (CMSampleBuffer?, AVCaptureBracketedStillImageSettings?, (any Error)?) -> Void) { super.captureStillImageBracketAsynchronously(from: connection, withSettingsArray: settings, completionHandler: handler) }
}

/// Overrides a manual bracket entry's members.
final class ManualBracketSettingsDouble: AVCaptureManualExposureBracketedStillImageSettings, @unchecked Sendable {
    override var exposureDuration: CMTime { super.exposureDuration }
    override var iso: Float { super.iso }
}

/// Overrides an auto bracket entry's member.
final class AutoBracketSettingsDouble: AVCaptureAutoExposureBracketedStillImageSettings, @unchecked Sendable {
    override var exposureTargetBias: Float { super.exposureTargetBias }
}

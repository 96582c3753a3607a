import Foundation
import OpenCapture

/// Builds a session from a capture plan: the camera, the scene, the format, frame rate,
/// white balance and the connections' rotation and mirroring, for every command.
enum SessionSetup {
    static func configure(_ session: AVCaptureSession, plan: CapturePlan, outputs: [AVCaptureOutput]) throws {
        let device = plan.device
        if let seed = plan.seed { device.simulation?.seed = seed }
        if plan.virtualTime {
            device.simulation?.pacing = .virtual
            device.deck?.pacing = .virtual
        }
        if let illuminant = plan.illuminant { device.simulation?.sceneIlluminant = illuminant }
        try plan.scene.apply(to: device)
        let input = try AVCaptureDeviceInput(device: device)
        session.beginConfiguration()
        defer { session.commitConfiguration() }
        if let preset = plan.preset { try session.setSessionPreset(preset) }
        try session.addInputChecked(input)
        for output in outputs { try session.addOutputChecked(output) }
        try device.lockForConfiguration()
        defer { device.unlockForConfiguration() }
        if let format = plan.format { try device.setActiveFormat(format) }
        try plan.video.apply(to: device, session: session)
        device.simulation?.deliversRawMosaic = plan.raw
        try plan.whiteBalance?.apply(to: device)
        try plan.exposure.apply(to: device)
        try plan.lens.apply(to: device)
        if let speed = plan.speed { try device.setTransportControlsPlaybackModeChecked(.playing, speed: speed) }
        if let duration = plan.frameDuration {
            try device.setActiveVideoMinFrameDuration(duration)
            try device.setActiveVideoMaxFrameDuration(duration)
        }
        for output in outputs {
            guard let connection = output.connection(with: .video) else { continue }
            try connection.setVideoRotationAngle(plan.rotation)
            connection.automaticallyAdjustsVideoMirroring = false
            try connection.setVideoMirrored(plan.mirrored)
        }
    }

}

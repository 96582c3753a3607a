import Foundation

/// Zoom, constituent switching and the newest frame, under one lock (`DeviceCore.zoom`):
/// a virtual device's active constituent is read from all three at once (the constituent
/// held, else the newest frame's once it carries the last zoom request, else the one the
/// zoom asked for chooses), and the zoom in force from the zoom asked for and that frame.
struct ZoomAndSwitchingSettings: Sendable {
    /// The zoom asked for and the requests that asked (`LensSettings`).
    var lens = LensSettings()
    /// How a virtual device may switch constituents, and when (`.auto` if it has them).
    var switching = ConstituentSwitching()
    /// The metadata of the newest frame the device produced (`AVCaptureDevice.record(_:)`):
    /// what acknowledges requests, and where the values the camera produces are read.
    var newestFrame = FrameMetadata()

    /// The newest frame's zoom once it carries the last zoom request, else the zoom set.
    var zoomInForce: Double {
        newestFrame.appliedRequest >= lens.zoomRequest && lens.zoomRequest > 0
            ? newestFrame.zoomFactor : Double(lens.videoZoomFactor)
    }

    /// Whether a ramp is under way: asked for and not yet reached a frame, or the newest
    /// frame still ramping.
    var isRampingZoom: Bool {
        guard lens.rampRequest > 0 else { return false }
        return newestFrame.appliedRequest < lens.rampRequest || newestFrame.isRampingVideoZoom
    }

    /// The index of a virtual device's active constituent (`model` is its backend).
    func activeConstituent(of model: any ConstituentCameras) -> Int {
        if let pinned = switching.pinned { return pinned }
        let current = newestFrame.presentationTime.isValid && newestFrame.appliedRequest >= lens.zoomRequest
        return current ? newestFrame.activeConstituent : model.constituentIndex(forZoom: Double(lens.videoZoomFactor))
    }

    /// Records a zoom request: the zoom asked for (`factor`, nil to keep the zoom in force,
    /// as a ramp or a cancelled ramp does) and whether the request starts a ramp.
    mutating func recordZoom(_ factor: CGFloat?, request: UInt64, ramp: Bool) {
        lens.videoZoomFactor = factor ?? CGFloat(zoomInForce)
        lens.zoomRequest = request
        lens.rampRequest = ramp ? request : 0
    }
}

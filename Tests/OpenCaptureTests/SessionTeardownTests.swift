import Foundation
import Testing
import TestSupport

@testable import OpenCapture

/// A session that goes away lets go of its outputs and their frames: a V4L2 device's
/// mapped buffers (and so the driver) stay busy while anything holds a frame.
@Suite("Session teardown")
struct SessionTeardownTests {
    @Test func outputsAndFramesAreFreedWithTheSession() throws {
        weak var output: AVCaptureVideoDataOutput?
        weak var session: AVCaptureSession?
        weak var collector: FrameCollector?
        do {
            let rig = try TestRig()
            rig.session.startRunning()
            try rig.collector.waitForFrames(3)
            rig.stop()
            output = rig.output
            session = rig.session
            collector = rig.collector
        }
        // Delivery blocks still queued may hold them a moment longer.
        eventually("the session, its output and the delegate were freed") {
            session == nil && output == nil && collector == nil
        }
    }
}

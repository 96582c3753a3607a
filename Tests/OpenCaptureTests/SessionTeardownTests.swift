import Foundation
import Testing
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
            rig.collector.waitForFrames(3)
            rig.stop()
            output = rig.output
            session = rig.session
            collector = rig.collector
        }
        // Give queued delivery blocks a moment to finish.
        Thread.sleep(forTimeInterval: 0.2)
        #expect(session == nil)
        #expect(output == nil)
        #expect(collector == nil)
    }
}

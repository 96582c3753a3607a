import Foundation
import Testing
import TestSupport

/// The test daemon itself (Tests/TestSupport/PipeWireDaemon.swift): it starts headless,
/// GStreamer's camera appears on it as a Video/Source node with the Camera role, a reader
/// linked by the test gets frames, and stopping it ends everything.
@Suite(.serialized, .enabled(if: PipeWireDaemon.isInstalled))
struct PipeWireDaemonTests {
    @Test func startsHeadlessAndCarriesFramesBetweenNodesItLinks() throws {
        let daemon = try PipeWireDaemon()
        let drivers = try daemon.nodes().map(\.name)
        #expect(drivers.contains("Dummy-Driver"))
        #expect(drivers.contains("Freewheel-Driver"))

        let camera = try daemon.startTestCamera(name: "oc-test-camera", caps: "video/x-raw,format=YUY2,width=320,height=240,framerate=30/1")
        defer { camera.kill() }
        let node = try #require(daemon.waitForNode(named: "oc-test-camera"))
        #expect(node.mediaClass == "Video/Source")
        #expect(node.role == "Camera")

        // Ten frames through a link the test made, then the reader ends by itself.
        let reader = try daemon.gstreamer(["pipewiresrc", "stream-properties=props,node.name=oc-test-reader", "num-buffers=10", "!", "fakesink"])
        try daemon.link(output: "oc-test-camera", input: "oc-test-reader")
        let outcome = try reader.wait(within: .seconds(60))
        #expect(outcome.succeeded, "\(outcome.stderr)")

        daemon.stop()
        #expect(!daemon.isRunning)
        #expect(!FileManager.default.fileExists(atPath: daemon.socket))
    }
}

import CaptureCore
import Foundation
import PipeWireCamera
import Synchronization
import Testing
import TestSupport

/// One OpenCapture program reading another's virtual camera: `capture virtual-camera` (the
/// package's tool, beside the test bundle) publishes, and this process's PipeWire backend
/// finds the node as a camera, lists its three formats, reads NV12 frames with increasing
/// host-clock timestamps (the publisher's `spa_meta_header` pts), and sees the camera
/// disconnect when the tool is interrupted.
@Suite(.serialized, .enabled(if: PipeWireDaemon.isInstalled))
struct VirtualCameraRoundTripTests {
    static var tool: URL { URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("capture") }

    @Test func anotherOpenCaptureProgramReadsIt() throws {
        let daemon = try PipeWireDaemon()
        defer { daemon.stop() }
        let publisher = try ChildProcess(
            Self.tool, ["virtual-camera", "--preset", "cif352x288", "--name", "oc-round-trip"], environment: daemon.environment)
        defer { publisher.kill() }
        _ = try #require(daemon.waitForNode(named: "oc-round-trip"))

        let provider = PipeWireDeviceProvider(remote: daemon.socket)
        let found = provider.discover { _ in }
        let camera = try #require(found.compactMap { $0 as? PipeWireCamera }.first { $0.node.name == "oc-round-trip" })
        #expect(camera.descriptor.uniqueID == "pipewire:oc-round-trip")
        let formats = camera.descriptor.formats
        // NV12 ('420v'), I420 ('y420') and YUY2 ('yuvs'), each at the camera's size.
        let yuy2: OSType = 0x7975_7673
        #expect(Set(formats.map(\.mediaSubType)) == [kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, kCVPixelFormatType_420YpCbCr8Planar, yuy2])
        #expect(formats.allSatisfy { ($0.width, $0.height) == (352, 288) })
        let nv12 = try #require(formats.firstIndex { $0.mediaSubType == kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange })

        let sink = RecordingSink<Int64> { _, metadata in metadata.presentationTime.value }
        try camera.start(
            StreamConfiguration(
                formatIndex: nv12, minFrameDuration: CMTime(value: 1, timescale: 30), maxFrameDuration: CMTime(value: 1, timescale: 30),
                pixelFormat: .yuv420BiPlanarVideoRange),
            sink: sink)
        let times = try sink.waitForFrames(20)
        let negotiated = try #require(camera.negotiatedMode)
        #expect(negotiated.mode.code == .nv12)
        #expect((negotiated.mode.width, negotiated.mode.height) == (352, 288))
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 }, "timestamps \(times)")
        let now = CMClockGetTime(CMClockGetHostTimeClock()).value
        #expect(try #require(times.last) <= now && now - times.last! < 10_000_000_000)
        #expect(sink.failures.isEmpty)

        // Ctrl-C: the tool removes its node and ends; the reader sees the camera go.
        publisher.signal(SIGINT)
        let outcome = try publisher.wait(within: .seconds(30))
        #expect(outcome.status == 0, "\(outcome.stderr)")
        eventually("the reader was told of the disconnection") { sink.failures == [.deviceWasDisconnected] }
        #expect(!camera.isConnected)
        camera.stop()
    }
}

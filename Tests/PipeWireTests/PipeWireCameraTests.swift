import CaptureCore
import Foundation
import PipeWireCamera
import Synchronization
import Testing
import TestSupport

/// PipeWire cameras (Sources/PipeWireCamera) read from GStreamer's camera on a daemon of the
/// test's own: found with their formats, frames in the negotiated format with the pattern's
/// pixels on increasing host-clock timestamps, and a disconnection when the producer dies.
@Suite(.serialized, .enabled(if: PipeWireDaemon.isInstalled))
struct PipeWireCameraTests {
    /// One frame's centre luma and chroma and its time.
    struct Sample: Sendable {
        var luma: UInt8
        var cb: UInt8
        var cr: UInt8
        var time: Int64
        var sequence: Int64
    }

    static func sample(_ buffer: CVPixelBuffer, _ metadata: FrameMetadata) -> Sample {
        let y = buffer.planeAddress(0).load(fromByteOffset: buffer.bytesPerRow(0) * buffer.height / 2 + buffer.width / 2, as: UInt8.self)
        let chroma = buffer.planeAddress(1) + buffer.bytesPerRow(1) * (buffer.height / 4) + (buffer.width / 4) * 2
        return Sample(
            luma: y, cb: chroma.load(as: UInt8.self), cr: chroma.load(fromByteOffset: 1, as: UInt8.self),
            time: metadata.presentationTime.value, sequence: metadata.sequence)
    }

    @Test func readsTheSharedCameraAndSeesItsProducerDie() throws {
        let daemon = try PipeWireDaemon()
        defer { daemon.stop() }
        // A white picture: BT.601 video-range white is Y 235, Cb and Cr 128.
        let producer = try daemon.startTestCamera(
            name: "oc-white-camera", caps: "video/x-raw,format=YUY2,width=320,height=240,framerate=30/1", pattern: "white")
        defer { producer.kill() }
        _ = try #require(daemon.waitForNode(named: "oc-white-camera"))

        let provider = PipeWireDeviceProvider(remote: daemon.socket)
        let changes = Mutex<[String]>([])
        let found = provider.discover { change in
            if case .added(let devices) = change { changes.withLock { $0 += devices.map { "added \($0.descriptor.uniqueID)" } } }
        }
        let camera = try #require(found.compactMap { $0 as? PipeWireCamera }.first { $0.node.name == "oc-white-camera" })
        #expect(camera.descriptor.uniqueID == "pipewire:oc-white-camera")
        #expect(camera.descriptor.supportsExposureControl == false)
        let format = try #require(camera.descriptor.formats.first)
        #expect(camera.descriptor.formats.count == 1)
        #expect((format.width, format.height) == (320, 240))
        #expect(format.mediaSubType == 0x7975_7673)  // 'yuvs': YUY2
        #expect(format.frameRateRanges == [30...30])
        let disconnected = Mutex(0)
        camera.onDisconnect { disconnected.withLock { $0 += 1 } }

        let sink = RecordingSink<Sample>(extract: Self.sample)
        try camera.start(
            StreamConfiguration(
                formatIndex: 0, minFrameDuration: CMTime(value: 1, timescale: 30), maxFrameDuration: CMTime(value: 1, timescale: 30),
                pixelFormat: .yuv420BiPlanarVideoRange),
            sink: sink)
        let frames = try sink.waitForFrames(30)
        let negotiated = try #require(camera.negotiatedMode)
        #expect(negotiated.mode.code == .yuyv)
        #expect((negotiated.mode.width, negotiated.mode.height) == (320, 240))
        for frame in frames {
            #expect(abs(Int(frame.luma) - 235) <= 1, "luma \(frame.luma)")
            #expect(abs(Int(frame.cb) - 128) <= 1 && abs(Int(frame.cr) - 128) <= 1, "chroma \(frame.cb) \(frame.cr)")
        }
        let times = frames.map(\.time)
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 }, "timestamps \(times)")
        // On the host clock: the newest frame is at most seconds old.
        let now = CMClockGetTime(CMClockGetHostTimeClock()).value
        #expect(try #require(times.last) <= now && now - times.last! < 10_000_000_000)
        #expect(sink.failures.isEmpty)

        // The producer dies: the stream fails with a disconnection, once, and the camera is gone.
        producer.kill()
        eventually("the stream told of the disconnection") { sink.failures == [.deviceWasDisconnected] }
        eventually("the camera's disconnect handler ran") { disconnected.withLock { $0 } == 1 }
        #expect(!camera.isConnected)
        camera.stop()
        #expect(disconnected.withLock { $0 } == 1)
    }

    @Test func readsAMotionJPEGCamera() throws {
        let daemon = try PipeWireDaemon()
        defer { daemon.stop() }
        // A camera that sends JPEG frames, as most USB webcams do at their larger sizes.
        let producer = try daemon.gstreamer([
            "videotestsrc", "is-live=true", "pattern=white", "!", "video/x-raw,width=320,height=240,framerate=30/1", "!", "jpegenc", "!",
            "image/jpeg,width=320,height=240,framerate=30/1", "!", "pipewiresink", "mode=provide",
            "stream-properties=props,media.role=Camera,media.class=Video/Source,node.name=oc-jpeg-camera,node.description=oc-jpeg-camera",
        ])
        defer { producer.kill() }
        _ = try #require(daemon.waitForNode(named: "oc-jpeg-camera"))
        let provider = PipeWireDeviceProvider(remote: daemon.socket)
        let camera = try #require(provider.discover { _ in }.compactMap { $0 as? PipeWireCamera }.first { $0.node.name == "oc-jpeg-camera" })
        let format = try #require(camera.descriptor.formats.first)
        #expect(camera.descriptor.formats.count == 1)
        #expect((format.width, format.height) == (320, 240))
        #expect(format.mediaSubType == 0x646D_6231)  // 'dmb1': Motion JPEG, as V4L2's MJPEG formats
        let sink = RecordingSink<Sample>(extract: Self.sample)
        try camera.start(
            StreamConfiguration(
                formatIndex: 0, minFrameDuration: CMTime(value: 1, timescale: 30), maxFrameDuration: CMTime(value: 1, timescale: 30),
                pixelFormat: .yuv420BiPlanarVideoRange),
            sink: sink)
        defer { camera.stop() }
        let frames = try sink.waitForFrames(10)
        #expect(camera.negotiatedMode?.mode.code == .mjpeg)
        // Decoded as JFIF says, full range: jpegenc wrote videotestsrc's video-range white (Y
        // 235) unscaled, so it reads as 235 of 255 and lands at 16 + 219 x 235 / 255 = 218.
        for frame in frames {
            #expect(abs(Int(frame.luma) - 218) <= 3, "luma \(frame.luma)")
            #expect(abs(Int(frame.cb) - 128) <= 3 && abs(Int(frame.cr) - 128) <= 3, "chroma \(frame.cb) \(frame.cr)")
        }
        #expect(sink.failures.isEmpty)
    }

    @Test func followsCamerasThatComeAndGo() throws {
        let daemon = try PipeWireDaemon()
        defer { daemon.stop() }
        let provider = PipeWireDeviceProvider(remote: daemon.socket)
        let added = Mutex<[String]>([])
        #expect(provider.discover { change in
            if case .added(let devices) = change { added.withLock { $0 += devices.map(\.descriptor.uniqueID) } }
        }.isEmpty)
        let producer = try daemon.startTestCamera(
            name: "oc-late-camera", caps: "video/x-raw,format=NV12,width=640,height=480,framerate=15/1")
        defer { producer.kill() }
        eventually("the new camera reported") { added.withLock { $0 } == ["pipewire:oc-late-camera"] }
        let camera = try #require(provider.cameras.first)
        #expect(camera.descriptor.formats.map { [$0.width, $0.height] } == [[640, 480]])
        #expect(camera.descriptor.formats.first?.pixelFormat == .yuv420BiPlanarVideoRange)
        #expect(camera.isConnected)
        // The producer goes (killed: gst-launch started by the test runner inherits its blocked
        // SIGINT and SIGTERM and ends on neither).
        producer.kill()
        eventually("the camera disconnected when its node went") { !camera.isConnected }
    }
}

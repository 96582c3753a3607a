import CaptureCore
import Foundation
import PipeWireCamera
import Synchronization
import Testing
import TestSupport

/// A real camera shared through PipeWire, in the vivid VM (`make test`'s VIVID_RUN): a
/// daemon of the test's own holds vivid through the SPA v4l2 plug-in, and two readers open it
/// through PipeWire at once, one of them changing the driver's brightness through the node.
///
/// The daemon is a `VMPipeWireDaemon` (started through the shell).
@Suite(.serialized, .enabled(if: ProcessInfo.processInfo.environment["OPENCAPTURE_VIVID"] == "1"))
struct PipeWireVividTests {
    /// The mean luma of a frame's centre rows, and its sequence number.
    struct Sample: Sendable {
        var luma: Int
        var sequence: Int64
    }

    static func shell(_ command: String) -> String { VMPipeWireDaemon.shell(command) }

    static func sample(_ buffer: CVPixelBuffer, _ metadata: FrameMetadata) -> Sample {
        let row = buffer.planeAddress(0) + buffer.bytesPerRow(0) * (buffer.height / 2)
        let sum = (0..<buffer.width).reduce(0) { $0 + Int(row.load(fromByteOffset: $1, as: UInt8.self)) }
        return Sample(luma: sum / max(1, buffer.width), sequence: metadata.sequence)
    }

    /// vivid's first video node (the suites before this one reload vivid, and its nodes may
    /// not be numbered from 0 again), found through sysfs.
    static func vividNode() -> String? {
        let nodes = (try? FileManager.default.contentsOfDirectory(atPath: "/sys/class/video4linux")) ?? []
        return nodes.filter { node in
            node.hasPrefix("video")
                && ((try? String(contentsOfFile: "/sys/class/video4linux/\(node)/name", encoding: .utf8)) ?? "").hasPrefix("vivid")
        }.sorted { Int($0.dropFirst(5)) ?? 0 < Int($1.dropFirst(5)) ?? 0 }.first.map { "/dev/\($0)" }
    }

    @Test func twoReadersShareVividThroughPipeWireAndItsControlsReachTheDriver() throws {
        let device = try #require(Self.vividNode(), "no vivid video node")
        let daemon = try VMPipeWireDaemon(name: "vivid", objects: [PipeWireDaemon.v4l2Camera(name: "oc-vivid", path: device)])
        let socket = daemon.socket
        defer {
            daemon.stop()
            _ = Self.shell("v4l2-ctl -d \(device) -c brightness=128")
        }
        if !eventually("the daemon's socket", { FileManager.default.fileExists(atPath: socket) }) {
            Issue.record("the daemon's log: \(daemon.log)")
        }

        // The node is found like any PipeWire camera (once the daemon has made it), as a V4L2 device's.
        let first = PipeWireDeviceProvider(remote: socket)
        _ = first.discover { _ in }
        eventually("the vivid node") { first.cameras.contains { $0.node.name == "oc-vivid" } }
        #expect(first.connectionFailure == nil, "\(first.connectionFailure ?? "")")
        let camera = try #require(first.cameras.first { $0.node.name == "oc-vivid" }, "\(daemon.log)")
        // vivid's controls, passed on by the node under the driver's names; its own device
        // path, name and fd are not among them.
        let names = camera.driverControls.map(\.name)
        #expect(names.starts(with: ["Brightness", "Contrast", "Saturation", "Hue"]), "\(names)")
        #expect(!names.contains("The V4L2 fd"))
        let brightness = try #require(camera.driverControls.first { $0.name == "Brightness" })
        #expect((brightness.minimum, brightness.maximum, brightness.defaultValue) == (0, 255, 128))
        let menu = try #require(camera.driverControls.first { $0.name == "Horizontal Movement" })
        #expect(menu.menu.count == 7 && menu.menu.first?.name == "Move Left Fast", "\(menu.menu)")

        // Two readers at once: this one and a second connection's.
        let index = try #require(camera.modes.firstIndex { $0.mode.width == 640 && $0.mode.height == 360 }, "\(camera.modes.map(\.mode))")
        let configurationOfStream = StreamConfiguration(
            formatIndex: index, minFrameDuration: CMTime(value: 1, timescale: 30), maxFrameDuration: CMTime(value: 1, timescale: 30),
            pixelFormat: .yuv420BiPlanarVideoRange)
        let sink = RecordingSink<Sample>(extract: Self.sample)
        try camera.start(configurationOfStream, sink: sink)
        defer { camera.stop() }
        let second = PipeWireDeviceProvider(remote: socket)
        let other = try #require(second.discover { _ in }.compactMap { $0 as? PipeWireCamera }.first { $0.node.name == "oc-vivid" })
        let otherSink = RecordingSink<Sample>(extract: Self.sample)
        try other.start(configurationOfStream, sink: otherSink)
        defer { other.stop() }
        let before = try sink.waitForFrames(10)
        try otherSink.waitForFrames(10)
        #expect(sink.failures.isEmpty && otherSink.failures.isEmpty)
        // The daemon holds the device: a program opening it for itself cannot stream.
        let direct = Self.shell("v4l2-ctl -d \(device) --stream-mmap --stream-count=1 --stream-to=/dev/null")
        #expect(direct.contains("Device or resource busy") || direct.contains("EBUSY"), "\(direct)")

        // Brightness through PipeWire: the driver has it, and the frames of both readers brighten.
        #expect(try camera.setValue(200, of: brightness) == 200)
        #expect(Self.shell("v4l2-ctl -d \(device) -C brightness").contains("brightness: 200"))
        #expect(try camera.value(of: brightness) == 200)
        let written = try #require(sink.frames.last).sequence
        let after = try sink.waitForMoreFrames(10).filter { $0.sequence > written + 4 }
        let otherAfter = try otherSink.waitForMoreFrames(10).suffix(4)
        let dimmer = before.map(\.luma).max() ?? 0
        #expect(!after.isEmpty && after.allSatisfy { $0.luma > dimmer + 20 }, "before \(before.map(\.luma)), after \(after.map(\.luma))")
        #expect(otherAfter.allSatisfy { $0.luma > dimmer + 20 }, "the other reader: \(otherAfter.map(\.luma))")
    }

    /// The virtual camera of a real camera: `capture virtual-camera` publishes vivid (a V4L2
    /// camera) on a daemon of the test's own, and this process reads the node through PipeWire.
    @Test func aVividCameraPublishedAsAVirtualCamera() throws {
        let daemon = try VMPipeWireDaemon(name: "virtual", objects: [])
        let socket = daemon.socket
        defer { daemon.stop() }
        if !eventually("the daemon's socket", { FileManager.default.fileExists(atPath: socket) }) {
            Issue.record("the daemon's log: \(daemon.log)")
        }
        let device = try #require(Self.vividNode(), "no vivid video node")
        let id = try #require(
            Self.shell("capture devices").split(separator: "\n").map(String.init).first { $0.hasPrefix("v4l2:") && $0.contains("vivid") }?
                .split(separator: " ").first.map(String.init), "no vivid camera in 'capture devices' (\(device))")
        _ = Self.shell(
            "PIPEWIRE_REMOTE=\(socket) capture virtual-camera --device \(id) --size 640x360 --name oc-virtual-vivid --duration 60 "
                + ">\(daemon.directory)/publisher.log 2>&1 & echo $! >\(daemon.directory)/publisher.pid")
        defer { _ = Self.shell("kill $(cat \(daemon.directory)/publisher.pid)") }

        let provider = PipeWireDeviceProvider(remote: socket)
        _ = provider.discover { _ in }
        eventually("the virtual camera's node", within: .seconds(60)) { provider.cameras.contains { $0.node.name == "oc-virtual-vivid" } }
        let camera = try #require(
            provider.cameras.first { $0.node.name == "oc-virtual-vivid" }, "\(Self.shell("cat \(daemon.directory)/publisher.log"))")
        let index = try #require(camera.modes.firstIndex { $0.mode.width == 640 && $0.mode.height == 360 }, "\(camera.modes.map(\.mode))")
        let sink = RecordingSink<Sample>(extract: Self.sample)
        try camera.start(
            StreamConfiguration(
                formatIndex: index, minFrameDuration: CMTime(value: 1, timescale: 30), maxFrameDuration: CMTime(value: 1, timescale: 30),
                pixelFormat: .yuv420BiPlanarVideoRange),
            sink: sink)
        defer { camera.stop() }
        // vivid's test pattern (colour bars): a picture, not a blank frame.
        let frames = try sink.waitForFrames(10)
        #expect(frames.allSatisfy { $0.luma > 16 }, "\(frames.map(\.luma))")
        #expect(sink.failures.isEmpty)
    }
}

import CaptureCore
import Foundation
import PipeWireCamera
import Testing
import TestSupport

/// A libcamera camera shared through PipeWire, in the vimc VM (`make test`'s VIMC_RUN): a
/// daemon of the test's own (a `VMPipeWireDaemon`) holds vimc's "Sensor B" through the SPA
/// libcamera plug-in (pipewire-libcamera), as a desktop shares an IPU6 laptop's camera, and
/// OpenCapture reads it through PipeWire with its float controls.
@Suite(
    .serialized,
    .enabled(if: ProcessInfo.processInfo.environment["OPENCAPTURE_VIVID"] == "1" && ProcessInfo.processInfo.environment["VIVID_VM_VIMC"] == "1"))
struct PipeWireVimcTests {
    /// The mean luma of a frame's centre row, and its sequence number.
    struct Sample: Sendable {
        var luma: Int
        var sequence: Int64
    }

    static func sample(_ buffer: CVPixelBuffer, _ metadata: FrameMetadata) -> Sample {
        let row = buffer.planeAddress(0) + buffer.bytesPerRow(0) * (buffer.height / 2)
        let sum = (0..<buffer.width).reduce(0) { $0 + Int(row.load(fromByteOffset: $1, as: UInt8.self)) }
        return Sample(luma: sum / max(1, buffer.width), sequence: metadata.sequence)
    }

    @Test func vimcThroughTheSPALibcameraPlugIn() throws {
        let daemon = try VMPipeWireDaemon(
            name: "vimc", objects: [PipeWireDaemon.libcameraCamera(name: "oc-vimc", id: "platform/vimc.0 Sensor B")])
        defer { daemon.stop() }
        let socket = daemon.socket
        if !eventually("the daemon's socket", { FileManager.default.fileExists(atPath: socket) }) {
            Issue.record("the daemon's log: \(daemon.log)")
        }
        let provider = PipeWireDeviceProvider(remote: socket)
        _ = provider.discover { _ in }
        eventually("the vimc node") { provider.cameras.contains { $0.node.name == "oc-vimc" } }
        let camera = try #require(provider.cameras.first { $0.node.name == "oc-vimc" }, "\(daemon.log)")

        // libcamera's float controls, in thousandths: Brightness -1...1, default 0.
        let brightness = try #require(camera.driverControls.first { $0.name == "Brightness" }, "\(camera.driverControls.map(\.name))")
        #expect((brightness.minimum, brightness.maximum, brightness.defaultValue) == (-1000, 1000, 0))

        // The smallest format of at least 320x240: frames arrive in order.
        let candidates = camera.modes.indices.filter { camera.modes[$0].mode.width >= 320 && camera.modes[$0].mode.height >= 240 }
        let index = try #require(
            candidates.min { camera.modes[$0].mode.width * camera.modes[$0].mode.height < camera.modes[$1].mode.width * camera.modes[$1].mode.height },
            "\(camera.modes.map(\.mode))")
        let sink = RecordingSink<Sample>(extract: Self.sample)
        try camera.start(
            StreamConfiguration(
                formatIndex: index, minFrameDuration: CMTime(value: 1, timescale: 30), maxFrameDuration: CMTime(value: 1, timescale: 30),
                pixelFormat: .yuv420BiPlanarVideoRange),
            sink: sink)
        defer { camera.stop() }
        let frames = try sink.waitForFrames(10)
        let sequences = frames.map(\.sequence)
        #expect(zip(sequences, sequences.dropFirst()).allSatisfy { $0 < $1 }, "\(sequences)")
        #expect(sink.failures.isEmpty)

        // Brightness up through PipeWire: libcamera applies it to the sensor, the frames brighten.
        #expect(try camera.setValue(500, of: brightness) == 500)
        let written = try #require(sink.frames.last).sequence
        let after = try sink.waitForMoreFrames(12).filter { $0.sequence > written + 6 }
        let dimmer = frames.map(\.luma).max() ?? 0
        #expect(!after.isEmpty && after.allSatisfy { $0.luma > dimmer + 10 }, "before \(frames.map(\.luma)), after \(after.map(\.luma))")

        // vimc keeps its sensor's brightness across processes: put it back, and see it back,
        // before the VM's next suite.
        _ = try camera.setValue(0, of: brightness)
        eventually("the brightness back in the frames") {
            (try? sink.waitForMoreFrames(1).last.map { $0.luma <= dimmer + 5 }) ?? false
        }
    }
}

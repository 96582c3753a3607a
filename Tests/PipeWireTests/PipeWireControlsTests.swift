import CaptureCore
import Foundation
import PipeWireCamera
import Testing
import TestSupport

/// A PipeWire node's properties as driver controls (PipeWireCamera+DriverControls.swift),
/// on a camera node of SPA's own test source made by a daemon of the test's own: what its
/// PropInfo params describe, the values its Props param reports, and a write that changes
/// the frames.
@Suite(.serialized, .enabled(if: PipeWireDaemon.isInstalled))
struct PipeWireControlsTests {
    /// The luma at a point in the top left of a frame (on the first colour bar of the SMPTE
    /// pattern), and the frame's sequence number.
    struct Sample: Sendable {
        var luma: UInt8
        var sequence: Int64
    }

    static func sample(_ buffer: CVPixelBuffer, _ metadata: FrameMetadata) -> Sample {
        let luma = buffer.planeAddress(0).load(fromByteOffset: buffer.bytesPerRow(0) * (buffer.height / 4) + buffer.width / 16, as: UInt8.self)
        return Sample(luma: luma, sequence: metadata.sequence)
    }

    @Test func theNodesPropertiesAreControlsAndAWriteChangesTheFrames() throws {
        let daemon = try PipeWireDaemon(objects: [PipeWireDaemon.spaTestCamera(name: "oc-spa-camera")])
        defer { daemon.stop() }
        let provider = PipeWireDeviceProvider(remote: daemon.socket)
        let found = provider.discover { _ in }
        let camera = try #require(found.compactMap { $0 as? PipeWireCamera }.first { $0.node.name == "oc-spa-camera" })

        // What SPA's videotestsrc describes: a live-mode switch and a pattern menu.
        let controls = camera.driverControls
        #expect(controls.map(\.name) == ["Configure live mode of the source", "The pattern"])
        let live = try #require(controls.first)
        #expect((live.minimum, live.maximum, live.defaultValue, live.menu.isEmpty) == (0, 1, 1, true))
        #expect(try camera.value(of: live) == 1)
        let pattern = try #require(controls.last)
        #expect(pattern.id == 0x10005)  // SPA_PROP_patternType (SPA_PROP_START_CUSTOM + 5)
        #expect(pattern.menu.map(\.index) == [0, 1] && pattern.menu.map(\.name) == ["SMPTE snow", "Snow"])
        #expect((pattern.minimum, pattern.maximum, pattern.defaultValue) == (0, 1, 0))
        #expect(try camera.value(of: pattern) == 0)

        // SMPTE snow's bars hold still from frame to frame; Snow is new noise in each.
        let index = try #require(camera.modes.firstIndex { $0.mode.width == 320 && $0.mode.height == 240 }, "\(camera.modes.map(\.mode))")
        let sink = RecordingSink<Sample>(extract: Self.sample)
        try camera.start(
            StreamConfiguration(
                formatIndex: index, minFrameDuration: CMTime(value: 1, timescale: 25), maxFrameDuration: CMTime(value: 1, timescale: 25),
                pixelFormat: .yuv420BiPlanarVideoRange),
            sink: sink)
        defer { camera.stop() }
        let bars = try sink.waitForFrames(10)
        #expect(Set(bars.map(\.luma)).count == 1, "bars \(bars.map(\.luma))")

        #expect(try camera.setValue(1, of: pattern) == 1)
        #expect(try camera.value(of: pattern) == 1)  // as written: the daemon's cache still says 0
        // The frames made after the write: past those that may have been on their way (a few
        // buffers) when it was answered.
        let written = try #require(sink.frames.last).sequence
        let after = try sink.waitForMoreFrames(12).filter { $0.sequence > written + 3 }
        #expect(after.count >= 8)
        #expect(Set(after.map(\.luma)).count > 1, "snow \(after.map(\.luma))")
        #expect(sink.failures.isEmpty)
    }
}

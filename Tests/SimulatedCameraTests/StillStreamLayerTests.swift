import Dispatch
import Foundation
import Synchronization
import Testing
import TestSupport

@testable import CaptureCore
@testable import SimulatedCamera

/// A virtual-time sink that holds the stream before frame `gate` until `open()`, so a still
/// asked for meanwhile is taken at that boundary in every run, then holds it again at the
/// next frame until `finish()`, which ends the stream (no frames rendered in between).
private final class GatedSink: FrameSink, @unchecked Sendable {
    private let gate: Int
    private let frames = Mutex(0)
    let reachedGate = DispatchSemaphore(value: 0)
    private let opened = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)

    init(gate: Int) { self.gate = gate }

    func backendDidCapture(_ buffer: CVPixelBuffer, metadata: FrameMetadata) { frames.withLock { $0 += 1 } }
    func backendDidDrop(count: Int, reason: DropReason, metadata: FrameMetadata) {}
    func backendDidFail(_ error: BackendError) {}

    func waitUntilReadyForNextFrame() -> Bool {
        let count = frames.withLock { $0 }
        if count == gate {
            reachedGate.signal()
            opened.wait()
        } else if count > gate {
            finished.wait()
            return false
        }
        return true
    }

    func open() { opened.signal() }
    func finish() { finished.signal() }
}

/// The bytes of a BGRA buffer's pixels, row by row (without row padding).
private func pixelBytes(_ buffer: CVPixelBuffer) -> [UInt8] {
    let base = buffer.planeAddress(0).assumingMemoryBound(to: UInt8.self)
    var bytes: [UInt8] = []
    bytes.reserveCapacity(buffer.width * buffer.height * 4)
    for row in 0..<buffer.height {
        bytes.append(contentsOf: UnsafeBufferPointer(start: base + row * buffer.bytesPerRow(0), count: buffer.width * 4))
    }
    return bytes
}

/// A still at the stream's own view renders from the stream's static layer (rasterised and
/// blurred by the lens already) instead of making its own: the pixels must be the same.
@Suite("Stills from the stream's layer")
struct StillStreamLayerTests {
    /// A 4032x3024 still of the back camera streaming its photo format, at the boundary of
    /// frame 8, with or without the stream's layer; and how many stills used it.
    private func still(usingStreamLayer: Bool) throws -> (pixels: [UInt8], sequence: Int64, borrowed: Int) {
        let camera = SimulatedCameraCatalog.builtInCameras()[0]
        camera.pacing = .virtual
        camera.seed = 11
        camera.stillsUseStreamLayer = usingStreamLayer
        let format = camera.descriptor.presetFormats["AVCaptureSessionPresetPhoto"]!
        #expect(camera.descriptor.formats[format].width == 4032 && camera.descriptor.formats[format].height == 3024)
        let sink = GatedSink(gate: 8)
        let frameDuration = CMTime(value: 1, timescale: 30, flags: .valid, epoch: 0)
        try camera.start(
            StreamConfiguration(
                formatIndex: format, minFrameDuration: frameDuration, maxFrameDuration: frameDuration,
                pixelFormat: .yuv420BiPlanarVideoRange),
            sink: sink)
        defer {
            sink.finish()
            camera.stop()
        }
        #expect(sink.reachedGate.wait(timeout: .now() + 120) == .success)
        let result = Completion<Result<StillCapture, BackendError>>("the still")
        camera.captureStill(StillRequest(width: 4032, height: 3024, pixelFormat: .bgra, flash: false), completion: result.fulfil)
        sink.open()
        let capture = try result.wait(within: .seconds(120)).get()
        return (pixelBytes(capture.buffer), capture.metadata.sequence, camera.stillsFromStreamLayer)
    }

    @Test func stillFromTheStreamsLayerEqualsOneFromItsOwn() throws {
        let lent = try still(usingStreamLayer: true)
        let own = try still(usingStreamLayer: false)
        #expect(lent.borrowed == 1)
        #expect(own.borrowed == 0)
        #expect(lent.sequence == own.sequence)
        #expect(lent.pixels.count == 4032 * 3024 * 4)
        let differing = zip(lent.pixels, own.pixels).reduce(0) { $0 + ($1.0 == $1.1 ? 0 : 1) }
        #expect(differing == 0, "\(differing) bytes differ between the still from the stream's layer and the one from its own")
    }
}

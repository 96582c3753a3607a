import Foundation
import Synchronization
import Testing
import TestSupport

@testable import CaptureCore
@testable import SimulatedCamera

/// A stopped simulated camera keeps what its stream allocated (static layer, pool, render
/// threads) and the next start at the same size uses it again, with the same pixels as
/// if it had been made anew; another size, or `releaseCachedMemory()`, frees it.
@Suite("Simulated camera restarts")
struct SimulatedRestartTests {
    private func camera() -> SimulatedCamera {
        let camera = SimulatedCameraCatalog.builtInCameras()[0]
        camera.pacing = .virtual
        camera.seed = 5
        return camera
    }

    private func configuration(_ camera: SimulatedCamera, _ preset: String) -> StreamConfiguration {
        StreamConfiguration(
            formatIndex: camera.descriptor.presetFormats[preset]!,
            minFrameDuration: CMTime(value: 1, timescale: 30, flags: .valid, epoch: 0),
            maxFrameDuration: CMTime(value: 1, timescale: 30, flags: .valid, epoch: 0), pixelFormat: .yuv420BiPlanarVideoRange)
    }

    /// Streams `frames` frames and returns a checksum of each.
    private func run(_ camera: SimulatedCamera, _ preset: String = "AVCaptureSessionPreset352x288", frames: Int = 3) throws -> [UInt64] {
        let sink = RecordingSink<UInt64>(limit: frames, extract: { buffer, _ in checksum(buffer) })
        try camera.start(configuration(camera, preset), sink: sink)
        try sink.wait(thenStop: camera)
        return sink.log.frames
    }

    @Test func aRestartReusesTheLayerPoolAndThreadsWithTheSamePixels() throws {
        let reusing = camera(), rebuilding = camera()
        #expect(try run(reusing) == run(rebuilding))
        let kept = try #require(reusing.resourceCache.peek())
        let layer = try #require(kept.renderer?.layer)
        let pool = try #require(kept.pool)
        rebuilding.releaseCachedMemory()
        #expect(!rebuilding.resourceCache.isHolding)
        // The second run starts from the first one's exposure and focus on both cameras;
        // only the memory differs: kept on one, made anew on the other.
        #expect(try run(reusing) == run(rebuilding))
        let again = try #require(reusing.resourceCache.peek())
        #expect(again === kept && again.renderer?.layer === layer && again.pool === pool)
    }

    @Test func anotherSizeFreesTheKeptLayerAndPool() throws {
        let camera = camera()
        _ = try run(camera)
        weak let layer = camera.resourceCache.peek()?.renderer?.layer
        weak let pool = camera.resourceCache.peek()?.pool
        #expect(layer != nil && pool != nil)
        _ = try run(camera, "AVCaptureSessionPreset640x480")
        #expect(layer == nil && pool == nil)
        #expect(camera.resourceCache.peek()?.pool?.width == 640)
        #expect(camera.resourceCache.peek()?.renderer?.layer?.width == 640)
    }

    @Test func releasingCachedMemoryFreesItAndTheNextStartMakesItAgain() throws {
        let camera = camera()
        let first = try run(camera)
        weak let resources = camera.resourceCache.peek()
        weak let layer = resources?.renderer?.layer
        #expect(resources != nil && layer != nil)
        camera.releaseCachedMemory()
        #expect(resources == nil && layer == nil)
        #expect(try run(camera).count == first.count)
        #expect(camera.resourceCache.isHolding)
    }
}

/// FNV-1a over the visible bytes of every plane.
private func checksum(_ buffer: CVPixelBuffer) -> UInt64 {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    let geometry = buffer.format.planeGeometry(width: buffer.width, height: buffer.height)
    for (index, plane) in geometry.enumerated() {
        let base = buffer.planeAddress(index).assumingMemoryBound(to: UInt8.self)
        for row in 0..<plane.height {
            let line = base + row * buffer.bytesPerRow(index)
            for byte in 0..<(plane.width * plane.bytesPerPixel) { hash = (hash ^ UInt64(line[byte])) &* 0x100_0000_01B3 }
        }
    }
    return hash
}

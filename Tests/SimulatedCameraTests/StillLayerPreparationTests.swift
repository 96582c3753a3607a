import Foundation
import Testing
import TestSupport

@testable import CaptureCore
@testable import ColorScience
@testable import SimulatedCamera

/// A still rendered from a layer the still processor rasterised ahead (`prepareLayer`, as a
/// stream asks at its start) has the pixels of one that rasterised its own.
@Suite struct StillLayerPreparationTests {
    /// The back camera's smallest format whose photo size is its own (the case prepared).
    private static func photoSizedFormat() -> (SimulatedCameraModel, DeviceFormatSpec) {
        let model = SimulatedCameraCatalog.builtInCameras()[0].model
        let format = model.descriptor.formats
            .filter { $0.maxPhotoWidth == $0.width && $0.maxPhotoHeight == $0.height && !$0.isBinned }
            .min { $0.width < $1.width }!
        return (model, format)
    }

    /// A boundary of a stream of `format`, its lens focused close (so the chart is blurred:
    /// defocus acts on the layer) under `temperature` kelvin.
    private static func frame(_ model: SimulatedCameraModel, _ format: DeviceFormatSpec, temperature: Double) -> StillFrame {
        let configuration = StreamConfiguration(
            formatIndex: model.descriptor.formats.firstIndex(of: format)!,
            minFrameDuration: CMTime(value: 1, timescale: 30, flags: .valid, epoch: 0),
            maxFrameDuration: CMTime(value: 1, timescale: 30, flags: .valid, epoch: 0), pixelFormat: .bgra)
        return StillFrame(
            camera: model, scene: Scene(seed: 11), time: 0.4, zoom: 1, format: format,
            illuminant: TemperatureTint(temperature: temperature, tint: 0),
            autoExposure: AutoExposure(limits: CaptureStream.limits(format, configuration)), gains: SIMD3(1.9, 1, 1.6),
            colorMatrix: .identity, metadata: FrameMetadata(),
            lens: LensState(minimumFocusDistance: 0.1, lensPosition: 0.05, torchLevel: 0))
    }

    /// Renders a still of `frame` on `processor` and waits for it.
    private static func still(_ processor: StillProcessor, _ frame: StillFrame, noise: Int64) throws -> CVBuffer {
        let result = Completion<Result<StillCapture, BackendError>>("the still")
        let request = StillRequest(width: frame.format.width, height: frame.format.height, pixelFormat: .bgra, flash: false)
        processor.submit(
            StillJob(frame, request: request, flash: false, noiseFrame: noise, completion: result.fulfil, fromRecentFrames: false))
        return try result.wait(within: .seconds(120)).get().buffer
    }

    private static func samePixels(_ a: CVBuffer, _ b: CVBuffer) -> Bool {
        guard a.width == b.width, a.height == b.height else { return false }
        let rowBytes = 4 * a.width
        return (0..<a.height).allSatisfy { y in
            memcmp(a.planeAddress(0) + y * a.bytesPerRow(0), b.planeAddress(0) + y * b.bytesPerRow(0), rowBytes) == 0
        }
    }

    @Test func firstStillFromAPreparedLayerIsTheStillItWouldHaveRendered() throws {
        let (model, format) = Self.photoSizedFormat()
        let frame = Self.frame(model, format, temperature: 5000)
        let ahead = StillProcessor(name: "test.still.ahead")
        ahead.prepareLayer(for: frame)
        let prepared = try Self.still(ahead, frame, noise: -1)
        let own = try Self.still(StillProcessor(name: "test.still.own"), frame, noise: -1)
        #expect(Self.samePixels(prepared, own))
    }

    /// A layer refilled ahead under new light after a still had blurred it is sharp again:
    /// the next still blurs it afresh instead of taking the old blur as done.
    @Test func layerRefilledAheadIsBlurredAgainByTheNextStill() throws {
        let (model, format) = Self.photoSizedFormat()
        let warm = Self.frame(model, format, temperature: 5000), cool = Self.frame(model, format, temperature: 6500)
        let ahead = StillProcessor(name: "test.still.ahead")
        _ = try Self.still(ahead, warm, noise: -1)
        ahead.prepareLayer(for: cool)
        let prepared = try Self.still(ahead, cool, noise: -2)
        let own = try Self.still(StillProcessor(name: "test.still.own"), cool, noise: -2)
        #expect(Self.samePixels(prepared, own))
    }
}

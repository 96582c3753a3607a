import Foundation
import Testing
import TestSupport

@testable import CaptureCore
@testable import SimulatedCamera

/// The green photosites of a frame's raw mosaic in the centre, as doubles, with the metadata.
private struct GreenSites: Sendable {
    var metadata: FrameMetadata
    var values: [Double]

    init(buffer: CVPixelBuffer, metadata: FrameMetadata) {
        self.metadata = metadata
        guard let mosaic = CVBufferCopyAttachment(buffer, kOpenCaptureRawMosaicKey, nil) as? RawMosaic else {
            values = []
            return
        }
        values = mosaic.withSamples { samples in
            var green: [Double] = []
            let width = mosaic.width, height = mosaic.height
            for y in height / 3..<2 * height / 3 {
                // RGGB: green at odd columns of even rows and even columns of odd rows.
                let first = (width / 3) & ~1 + (y % 2 == 0 ? 1 : 0)
                for x in stride(from: first, to: 2 * width / 3, by: 2) { green.append(Double(samples[y * width + x])) }
            }
            return green
        }
    }
}

/// Mean and pair variance (σ²(A − B)/2, which cancels fixed patterns) of two frames' green sites.
private func photonTransferPoint(_ a: GreenSites, _ b: GreenSites) -> (mean: Double, variance: Double) {
    let n = Double(a.values.count)
    let mean = (a.values.reduce(0, +) + b.values.reduce(0, +)) / (2 * n)
    let d = zip(a.values, b.values).map { $0 - $1 }
    let dMean = d.reduce(0, +) / n
    return (mean, d.reduce(0) { $0 + ($1 - dMean) * ($1 - dMean) } / (n - 1) / 2)
}

@Suite("Simulated raw mosaic")
struct SimulatedRawTests {
    /// The mosaic is the sensor's own data: photon transfer on pairs of raw flat-field frames
    /// at two light levels recovers the system gain K the sensor model uses, within 5 %, and
    /// the dark level is the black level. Frames without the switch carry no mosaic.
    @Test func rawMosaicFollowsTheSensorModel() throws {
        let camera = SimulatedCameraCatalog.builtInCameras()[0]
        camera.pacing = .virtual
        camera.sceneContent = .flat(reflectance: 0.5)
        camera.deliversRawMosaic = true
        camera.apply(ControlRequest(id: 1, exposure: .custom(duration: 1.0 / 1000, iso: 34)))
        let frameDuration = CMTime(value: 1, timescale: 30, flags: .valid, epoch: 0)
        let format = camera.descriptor.presetFormats["AVCaptureSessionPreset640x480"]!
        let configuration = StreamConfiguration(
            formatIndex: format, minFrameDuration: frameDuration, maxFrameDuration: frameDuration, pixelFormat: .yuv420BiPlanarVideoRange)
        var points: [(mean: Double, variance: Double)] = []
        for lux: Float in [0, 300, 1200] {
            camera.sceneIlluminance = lux
            let sink = RecordingSink(limit: 6, extract: GreenSites.init, onFrame: { _ in })
            try camera.start(configuration, sink: sink)
            try sink.wait(thenStop: camera)
            let frames = sink.frames
            #expect(frames.last!.metadata.exposureDuration == 1.0 / 1000)
            points.append(photonTransferPoint(frames[4], frames[5]))
        }
        let spec = camera.descriptor.formats[format]
        let expected = Sensor(camera.model.sensor).exposure(
            luminanceScale: 100, optics: camera.model.optics(for: spec), exposureDuration: 1.0 / 1000, iso: 34,
            outputWidth: spec.width)
        #expect(abs(points[0].mean - Double(expected.blackLevel)) < 1.5, "dark mean \(points[0].mean)")
        let k = (points[2].variance - points[1].variance) / (points[2].mean - points[1].mean)
        #expect(abs(k / Double(expected.varianceSlope) - 1) < 0.05, "K \(k) vs \(expected.varianceSlope)")
        #expect(points[2].mean < Double(expected.blackLevel + 0.7 * expected.fullWellDN), "below saturation")

        camera.deliversRawMosaic = false
        let sink = RecordingSink(limit: 3, extract: GreenSites.init, onFrame: { _ in })
        try camera.start(configuration, sink: sink)
        try sink.wait(thenStop: camera)
        #expect(sink.frames.last!.values.isEmpty)
    }
}

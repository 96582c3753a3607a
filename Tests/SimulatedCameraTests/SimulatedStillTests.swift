import Foundation
import Testing
import TestSupport

@testable import CaptureCore
@testable import SimulatedCamera

/// A sink that takes frames until the camera stops, a little slowly (so that in virtual time
/// the stream does not hog the cores a still is rendered on), recording their metadata and
/// any drops.
private func streamingSink(pause: Duration? = .milliseconds(2)) -> MetadataSink {
    MetadataSink(keepingPixelsOf: 0, pause: pause)
}

private func time(_ value: Int64, _ scale: Int32) -> CMTime {
    CMTime(value: value, timescale: scale, flags: .valid, epoch: 0)
}

/// A catalog camera in virtual time, streaming a preset at 30 frames/s into a new sink
/// until `frames` frames have arrived (enough for auto exposure and white balance to settle).
private func streamingCamera(
    _ index: Int = 0, preset: String = "AVCaptureSessionPreset640x480", luminance: Float? = nil,
    temperature: Double? = nil, frames: Int = 40
) throws -> (SimulatedCamera, MetadataSink) {
    let camera = SimulatedCameraCatalog.builtInCameras()[index]
    camera.pacing = .virtual
    camera.seed = 7
    if let luminance { camera.sceneLuminanceScale = luminance }
    if let temperature { camera.illuminant = (temperature, 0) }
    let sink = streamingSink()
    let configuration = StreamConfiguration(
        formatIndex: camera.descriptor.presetFormats[preset]!, minFrameDuration: time(1, 30),
        maxFrameDuration: time(1, 30), pixelFormat: .yuv420BiPlanarVideoRange)
    try camera.start(configuration, sink: sink)
    do {
        try sink.waitForFrames(frames)
    } catch {
        camera.stop()
        throw error
    }
    return (camera, sink)
}

/// Takes a still and waits for it.
private func still(
    _ camera: SimulatedCamera, width: Int = 4032, height: Int = 3024, format: PixelFormat = .bgra, flash: Bool = false,
    sourceLocation: SourceLocation = #_sourceLocation
) throws -> Result<StillCapture, BackendError> {
    let result = Completion<Result<StillCapture, BackendError>>("the still")
    camera.captureStill(StillRequest(width: width, height: height, pixelFormat: format, flash: flash), completion: result.fulfil)
    return try result.wait(within: .seconds(120), sourceLocation: sourceLocation)
}

/// Per-channel mean and standard deviation of a BGRA region in relative coordinates, and
/// the same for BT.709 luma.
private func region(
    _ buffer: CVPixelBuffer, x: ClosedRange<Double>, y: ClosedRange<Double>
) -> (rgb: SIMD3<Double>, luma: Double, lumaDeviation: Double) {
    let base = buffer.planeAddress(0).assumingMemoryBound(to: UInt8.self)
    var sum = SIMD3<Double>(), luma = 0.0, squares = 0.0, count = 0.0
    for row in Int(y.lowerBound * Double(buffer.height))..<Int(y.upperBound * Double(buffer.height)) {
        for column in Int(x.lowerBound * Double(buffer.width))..<Int(x.upperBound * Double(buffer.width)) {
            let p = base + row * buffer.bytesPerRow(0) + 4 * column
            let rgb = SIMD3(Double(p[2]), Double(p[1]), Double(p[0]))
            let y = 0.2126 * rgb.x + 0.7152 * rgb.y + 0.0722 * rgb.z
            sum += rgb
            luma += y
            squares += y * y
            count += 1
        }
    }
    let mean = luma / count
    return (sum / count, mean, (squares / count - mean * mean).squareRoot())
}

/// The middle of the chart's "neutral 5" patch (row 4, column 4): flat grey, unlike the
/// textured background, so its spread is the noise alone.
private func greyPatch(_ buffer: CVPixelBuffer) -> (rgb: SIMD3<Double>, luma: Double, lumaDeviation: Double) {
    region(buffer, x: 0.52...0.56, y: 0.625...0.66)
}

@Suite("Simulated camera stills")
struct SimulatedStillTests {
    @Test func fullResolutionStillWhileStreaming() throws {
        let (camera, sink) = try streamingCamera(preset: "AVCaptureSessionPreset1280x720", frames: 12)
        let capture = try still(camera).get()
        let taken = sink.frames.count
        try sink.waitForFrames(taken + 10)
        camera.stop()

        let buffer = capture.buffer
        #expect(buffer.format == .bgra && buffer.width == 4032 && buffer.height == 3024)
        #expect(!capture.flashFired)
        let m = capture.metadata
        #expect(m.width == 4032 && m.height == 3024)
        // Markers where the scene has them, at full resolution.
        let white = region(buffer, x: 0.07...0.13, y: 0.07...0.13).rgb
        let red = region(buffer, x: 0.87...0.93, y: 0.07...0.13).rgb
        #expect(white.min() > 240)
        #expect(red.x > 150 && red.y < 80 && red.z < 80)
        // Taken at a frame boundary with that frame's exposure and white balance.
        let frames = sink.frames
        let frame = try #require(frames.first { $0.sequence == m.sequence })
        #expect(m.presentationTime == frame.presentationTime)
        #expect(m.exposureDuration == frame.exposureDuration && m.iso == frame.iso)
        #expect(m.whiteBalanceGains == frame.whiteBalanceGains)
        #expect(m.lensAperture == 1.78 && m.sceneTemperature == 6500)
        #expect(m.meanLuma > 0.3 && m.meanLuma < 0.6)
        // The video went on meanwhile: sequence numbers unbroken, nothing dropped.
        #expect(frames.map(\.sequence) == Array(0..<Int64(frames.count)))
        #expect(frames.count >= taken + 10 && m.sequence < Int64(taken))
        #expect(sink.drops.isEmpty)
        #expect(frames.allSatisfy { $0.width == 1280 && $0.height == 720 })
    }

    /// In real time the still shares the cores with the stream: a frame may come late (more
    /// likely on a loaded machine), but every one is accounted for, captured or reported
    /// dropped, and the stream goes on.
    @Test func realTimeStreamAccountsForEveryFrame() throws {
        let camera = SimulatedCameraCatalog.builtInCameras()[0]
        camera.pacing = .realTime
        let sink = streamingSink(pause: nil)
        try camera.start(
            StreamConfiguration(
                formatIndex: camera.descriptor.presetFormats["AVCaptureSessionPreset1280x720"]!,
                minFrameDuration: time(1, 30), maxFrameDuration: time(1, 30), pixelFormat: .yuv420BiPlanarVideoRange),
            sink: sink)
        try sink.waitForFrames(5)
        let capture = try still(camera).get()
        let taken = sink.frames.count
        try sink.waitForFrames(taken + 5)
        camera.stop()
        let frames = sink.frames, drops = sink.drops
        var sequences = frames.map(\.sequence)
        for drop in drops { sequences += drop.metadata.sequence..<(drop.metadata.sequence + Int64(drop.count)) }
        #expect(sequences.sorted() == Array(0..<Int64(sequences.count)))
        #expect(drops.allSatisfy { $0.reason == .discontinuity })
        // How many were skipped depends on the machine's load: a figure, not a rule. The
        // stream recovers: frames come again after the still.
        print("real-time 1280x720 stream with a still: \(frames.count) frames captured, \(drops.reduce(0) { $0 + $1.count }) dropped")
        #expect(frames.count >= taken + 5)
        #expect(frames.contains { $0.sequence == capture.metadata.sequence })
    }

    @Test func flashLightsADimRoom() throws {
        // A dim, warm room: 5 cd/m² white under 3200 K.
        let (camera, sink) = try streamingCamera(luminance: 5, temperature: 3200, frames: 60)
        // Quarter-size stills: the flash's metering, light and colour, not the size, are tested.
        let ambient = try still(camera, width: 1008, height: 756).get()
        let flash = try still(camera, width: 1008, height: 756, flash: true).get()
        camera.stop()
        #expect(camera.hasFlash && flash.flashFired && !ambient.flashFired)
        let streamISO = try #require(sink.frames.last?.iso)
        #expect(ambient.metadata.iso == streamISO || abs(ambient.metadata.iso / streamISO - 1) < 0.05)
        // Metered for the flash: lower ISO, properly exposed, and so far less noise.
        #expect(flash.metadata.iso < ambient.metadata.iso / 3)
        #expect(flash.metadata.exposureDuration <= FlashLight.pulseDuration)
        #expect(flash.metadata.meanLuma > 0.38 && flash.metadata.meanLuma < 0.55, "\(flash.metadata.meanLuma)")
        let lit = greyPatch(flash.buffer), dim = greyPatch(ambient.buffer)
        #expect(lit.luma >= dim.luma * 0.9)
        let snrFlash = lit.luma / lit.lumaDeviation, snrAmbient = dim.luma / dim.lumaDeviation
        #expect(snrFlash > 1.8 * snrAmbient, "SNR \(snrFlash) with flash, \(snrAmbient) without")
        // The light is mostly the 5500 K flash, and the photo is balanced for the mixture.
        #expect(flash.metadata.sceneTemperature > 4500 && flash.metadata.sceneTemperature < 5500)
        #expect(ambient.metadata.sceneTemperature == 3200)
        #expect(abs(lit.rgb.x - lit.rgb.y) < 6 && abs(lit.rgb.z - lit.rgb.y) < 6, "grey patch \(lit.rgb)")
        #expect(flash.metadata.whiteBalanceGains != ambient.metadata.whiteBalanceGains)
    }

    @Test func flashBrightensADarkRoom() throws {
        // So dark that the stream runs out of exposure (1/30 s at the highest ISO).
        let (camera, sink) = try streamingCamera(luminance: 0.1, frames: 30)
        let ambient = try still(camera, width: 1008, height: 756).get()
        let flash = try still(camera, width: 1008, height: 756, flash: true).get()
        camera.stop()
        let format = camera.descriptor.formats[camera.descriptor.presetFormats["AVCaptureSessionPreset640x480"]!]
        #expect(sink.frames.last?.iso == format.maxISO)
        #expect(ambient.metadata.iso == format.maxISO)
        #expect(ambient.metadata.meanLuma < 0.3)
        #expect(flash.metadata.meanLuma > ambient.metadata.meanLuma + 0.1)
        #expect(flash.metadata.iso < format.maxISO / 8)
        let lit = greyPatch(flash.buffer), dark = greyPatch(ambient.buffer)
        #expect(lit.luma > dark.luma + 30)
        #expect(lit.luma / lit.lumaDeviation > 2 * dark.luma / dark.lumaDeviation)
    }

    /// A full-resolution still has each photosite's noise; a quarter-size one averages
    /// 4×4 photosites per pixel and so has about a quarter of the noise.
    @Test func fullResolutionKeepsPhotositeNoise() throws {
        let (camera, _) = try streamingCamera(luminance: 20, frames: 30)
        let full = try still(camera).get()
        let quarter = try still(camera, width: 1008, height: 756).get()
        camera.stop()
        let a = greyPatch(full.buffer), b = greyPatch(quarter.buffer)
        #expect(abs(a.luma - b.luma) < 8)
        let ratio = a.lumaDeviation / b.lumaDeviation
        #expect(ratio > 2.5 && ratio < 5.5, "noise ratio \(ratio)")
    }

    @Test func onlyTheBackCamerasHaveAFlash() throws {
        let cameras = SimulatedCameraCatalog.builtInCameras()
        #expect(cameras.map(\.hasFlash) == [true, true, true, false])
        // Asking the front camera for flash gives an ordinary still.
        let (front, sink) = try streamingCamera(3, luminance: 5, frames: 20)
        let capture = try still(front, width: 640, height: 480, flash: true).get()
        // The still is handed out before its frame reaches the stream's sink, and a stop
        // ends sink calls: the frame is awaited first.
        _ = waitUntil(within: .seconds(20)) { sink.frames.contains { $0.sequence == capture.metadata.sequence } }
        front.stop()
        #expect(!capture.flashFired)
        let frame = try #require(sink.frames.first { $0.sequence == capture.metadata.sequence })
        #expect(capture.metadata.iso == frame.iso && capture.metadata.exposureDuration == frame.exposureDuration)
    }

    @Test func stillNeedsAStreamAndASizeWithinTheSensor() throws {
        let camera = SimulatedCameraCatalog.builtInCameras()[0]
        let idle = try still(camera, width: 640, height: 480)
        #expect(throws: BackendError.streamFailed("not streaming")) { try idle.get() }
        let (streaming, _) = try streamingCamera(frames: 3)
        let tooBig = try still(streaming, width: 4033, height: 3024)
        #expect(throws: BackendError.self) { try tooBig.get() }
        streaming.stop()
        let stopped = try still(streaming, width: 640, height: 480)
        #expect(throws: BackendError.streamFailed("not streaming")) { try stopped.get() }
    }

    @Test(arguments: PixelFormat.pictureFormats)
    func stillsComeInEveryPixelFormat(format: PixelFormat) throws {
        let (camera, _) = try streamingCamera(frames: 15)
        let capture = try still(camera, width: 1024, height: 768, format: format).get()
        camera.stop()
        #expect(capture.buffer.format == format && capture.buffer.width == 1024 && capture.buffer.height == 768)
        #expect(capture.metadata.meanLuma > 0.3 && capture.metadata.meanLuma < 0.6, "\(format.fourCC)")
        if format.isYUV {
            #expect(capture.buffer.attachmentStore.withLock { $0[kCVImageBufferYCbCrMatrixKey] } != nil)
        }
    }
}

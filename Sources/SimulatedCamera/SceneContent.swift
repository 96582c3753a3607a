import CaptureCore
import Foundation

/// What a simulated camera looks at: the kinds of scene `Scene` can draw.
///
/// Every kind is a reflectance map (linear Rec.709 RGB relative to a perfect diffuse white
/// under D65) lit by the scene's illuminance; light sources in view (the chart's marker,
/// the hdr scene's sky) are given as relative radiance above 1. The scene's `luminanceScale`
/// is the luminance of a perfect white, L = E·ρ/π with ρ = 1 (see `SceneLighting`).
///
/// Object distances for the depth model (`Scene+Depth`, another change) are listed with
/// each kind's layout: `ChartExtras`/`Scene` for the chart, `LowLightRoom`, `WindowScene`,
/// `MotionScene`; a flat field and an image are a plane 2 m away.
package enum SceneContent: Sendable, Equatable {
    /// The default test scene: colour chart, grey ramp, glyph strokes, markers, moving ball.
    case chart
    /// A uniform field of one neutral reflectance (0 ... 1), no texture, markers or ball.
    case flat(reflectance: Float)
    /// A dim living room (`LowLightRoom`); choosing it sets 5 lux.
    case lowlight
    /// A dark interior with a window onto a bright sky, > 1000:1 (`WindowScene`); 150 lux.
    case hdr
    /// Several balls moving across a textured wall (`MotionScene`).
    case motion
    /// A picture used as reflectance (`SceneImage`), stretched over the frame.
    case image(SceneImage)

    /// Whether the chart's moving ball is drawn.
    var hasChartBall: Bool { self == .chart }
}

/// A decoded picture as reflectance: `width`×`height` samples, row-major, top row first,
/// sampled as linear Rec.709 values. Compared by identity, so a scene holding one compares
/// in constant time.
///
/// A picture from a file keeps its 8-bit sRGB codes (3 bytes a pixel, page-mapped: 36 MB
/// at 12 MP, where floats took 16 bytes a pixel) and linearises them when sampled.
package final class SceneImage: Sendable, Equatable, CustomStringConvertible {
    package let width: Int
    package let height: Int
    /// Where it came from, for messages.
    package let name: String
    private let storage: Storage

    private enum Storage: Sendable {
        case sRGB8(PageBuffer)
        case linear([SIMD3<Float>])
    }

    /// Linear value of each 8-bit sRGB code.
    private static let decode: [Float] = (0..<256).map { code -> Float in
        let v = Float(code) / 255
        return v <= 0.04045 ? v / 12.92 : Float(pow(Double((v + 0.055) / 1.055), 2.4))
    }

    /// An image from 8-bit sRGB-encoded RGB samples (3 bytes a pixel, row-major), kept as they are.
    package init(width: Int, height: Int, sRGB8 samples: PageBuffer, name: String) {
        precondition(width > 0 && height > 0 && samples.count >= 3 * width * height, "image size does not match its samples")
        self.width = width
        self.height = height
        self.name = name
        storage = .sRGB8(samples)
    }

    /// An image from 8-bit sRGB-encoded RGB samples in an array (copied).
    package convenience init(width: Int, height: Int, sRGB8 bytes: [UInt8], name: String) {
        self.init(width: width, height: height, sRGB8: PageBuffer(bytes), name: name)
    }

    /// An image from linear Rec.709 reflectance (components may lie outside 0 ... 1 for
    /// colours beyond sRGB).
    package init(width: Int, height: Int, linear: [SIMD3<Float>], name: String) {
        precondition(width > 0 && height > 0 && linear.count == width * height, "image size does not match its samples")
        self.width = width
        self.height = height
        self.name = name
        storage = .linear(linear)
    }

    /// The reflectance at normalised (x, y), nearest sample, edges clamped.
    func sample(x: Double, y: Double) -> SIMD3<Float> {
        let column = min(max(Int(x * Double(width)), 0), width - 1)
        let row = min(max(Int(y * Double(height)), 0), height - 1)
        let index = row * width + column
        switch storage {
        case .sRGB8(let samples):
            let codes = samples.bytes + 3 * index
            return SIMD3(Self.decode[Int(codes[0])], Self.decode[Int(codes[1])], Self.decode[Int(codes[2])])
        case .linear(let values):
            return values[index]
        }
    }

    package static func == (a: SceneImage, b: SceneImage) -> Bool { a === b }

    package var description: String { "image \(name) (\(width)x\(height))" }
}

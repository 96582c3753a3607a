import CaptureCore
import ColorScience

/// How a simulated camera's sensor turns the scene's light into native RGB, after the DNG
/// model (docs `color-and-sensor.md` §3).
///
/// Scene objects are defined by their reflectance in linear sRGB as seen under D65. Under an
/// illuminant of white W (temperature and tint), the light they send is
/// XYZ = Bradford(D65 → W) · M(sRGB → XYZ) · rgb: a neutral surface sends W itself, and
/// colours shift as a von Kries adaptation says they would. The sensor's response to that
/// light is the device's colour matrix interpolated at W, CM(W) · XYZ, the same model the
/// API layer uses to convert gains (so the simulated camera is exactly the camera its
/// calibration describes). The signal is scaled so that W's strongest channel is 1: a white
/// surface gives camera `neutral(W)`, not (1, 1, 1), as on a real sensor.
struct CameraResponse: Sendable {
    let calibration: ColorCalibration
    let model: CameraColorModel

    init(_ calibration: ColorCalibration) {
        self.calibration = calibration
        model = CameraColorModel(
            colorMatrix1: Matrix3x3(rowMajor: calibration.colorMatrix1), temperature1: calibration.temperature1,
            colorMatrix2: Matrix3x3(rowMajor: calibration.colorMatrix2), temperature2: calibration.temperature2)
    }

    /// The largest gain the ISP may apply per channel.
    var maxGain: Double { Double(calibration.maxWhiteBalanceGain) }

    /// Reflectance (linear sRGB under D65) → camera-native signal under `illuminant`,
    /// relative to the illuminant's white (strongest channel 1).
    func sceneToCamera(under illuminant: TemperatureTint) -> Matrix3x3 {
        let white = illuminant.chromaticity.pinned
        let light = ChromaticAdaptation.bradford(from: .d65, to: white) * RGBColorSpace.sRGB.toXYZ
        let camera = model.colorMatrix(forWhite: white) * light
        // Camera RGB of a perfect white under W, i.e. neutral(W) before its scaling.
        let whiteSignal = camera * SIMD3(1, 1, 1)
        return (1 / whiteSignal.max()) * camera
    }
}

/// A 3×3 matrix in `Float` for per-pixel colour conversions, row by row.
struct ColorTransform: Sendable, Equatable {
    var row0, row1, row2: SIMD3<Float>

    init(_ m: Matrix3x3) {
        row0 = SIMD3<Float>(m.rows.0)
        row1 = SIMD3<Float>(m.rows.1)
        row2 = SIMD3<Float>(m.rows.2)
    }

    static let identity = ColorTransform(.identity)

    /// Entry at row `r`, column `c`.
    subscript(r: Int, c: Int) -> Float {
        switch r {
        case 0: row0[c]
        case 1: row1[c]
        default: row2[c]
        }
    }

    /// Matrix times column vector.
    @inline(__always)
    func apply(_ v: SIMD3<Float>) -> SIMD3<Float> {
        SIMD3((row0 * v).sum(), (row1 * v).sum(), (row2 * v).sum())
    }
}

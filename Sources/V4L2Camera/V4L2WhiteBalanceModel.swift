import CaptureCore
import ColorScience

/// How white-balance gains relate to the colour temperature a V4L2 camera takes.
///
/// Webcams apply white balance inside the sensor or bridge and deliver sRGB, so the model
/// treats them as an sRGB camera: XYZ → linear sRGB as the colour matrix at both DNG
/// calibration illuminants. Gains and temperature/tint then convert as for any DNG camera.
package enum V4L2WhiteBalanceModel {
    /// The largest gain the API accepts for these devices.
    package static let maxGain: Float = 4

    package static let calibration: ColorCalibration = {
        let toSRGB = RGBColorSpace.sRGB.fromXYZ
        let rows = [toSRGB.rows.0, toSRGB.rows.1, toSRGB.rows.2].flatMap { [$0.x, $0.y, $0.z] }
        return ColorCalibration(colorMatrix1: rows, temperature1: 2856, colorMatrix2: rows, temperature2: 6504, maxWhiteBalanceGain: maxGain)
    }()

    private static let model = CameraColorModel(colorMatrix: RGBColorSpace.sRGB.fromXYZ)

    /// The correlated colour temperature, kelvin, that gains neutralise.
    package static func temperature(red: Float, green: Float, blue: Float) -> Double {
        let white = model.white(forGains: SIMD3(Double(red), Double(green), Double(blue)))
        return TemperatureTint(white).temperature
    }

    /// Gains (green 1 before normalising to the smallest = 1) that neutralise light of `temperature`.
    package static func gains(temperature: Double) -> (red: Float, green: Float, blue: Float) {
        let gains = model.gains(forWhite: TemperatureTint(temperature: temperature, tint: 0).chromaticity)
        let smallest = min(gains.x, gains.y, gains.z)
        return (Float(gains.x / smallest), Float(gains.y / smallest), Float(gains.z / smallest))
    }
}

import ColorScience
import Foundation

extension AVCaptureDevice {
    func chromaticityValuesBacking(for whiteBalanceGains: WhiteBalanceGains) -> WhiteBalanceChromaticityValues {
        var result = WhiteBalanceChromaticityValues()
        enforce { result = try chromaticityValuesChecked(for: whiteBalanceGains) }
        return result
    }

    /// The checked form of `chromaticityValues(for:)` (Linux addition).
    public func chromaticityValuesChecked(for gains: WhiteBalanceGains) throws(AVCaptureException) -> WhiteBalanceChromaticityValues {
        try validateGains(gains, selector: "chromaticityValuesForDeviceWhiteBalanceGains:")
        let white = conversionModel.white(for: gains)
        return WhiteBalanceChromaticityValues(x: Float(white.x), y: Float(white.y))
    }

    func temperatureAndTintValuesBacking(for whiteBalanceGains: WhiteBalanceGains) -> WhiteBalanceTemperatureAndTintValues {
        var result = WhiteBalanceTemperatureAndTintValues()
        enforce { result = try temperatureAndTintValuesChecked(for: whiteBalanceGains) }
        return result
    }

    /// The checked form of `temperatureAndTintValues(for:)` (Linux addition).
    public func temperatureAndTintValuesChecked(for gains: WhiteBalanceGains) throws(AVCaptureException) -> WhiteBalanceTemperatureAndTintValues {
        try validateGains(gains, selector: "temperatureAndTintValuesForDeviceWhiteBalanceGains:")
        let white = conversionModel.white(for: gains)
        let values = TemperatureTint(white)
        return WhiteBalanceTemperatureAndTintValues(temperature: Float(values.temperature), tint: Float(values.tint))
    }

    func deviceWhiteBalanceGainsBacking(for chromaticityValues: WhiteBalanceChromaticityValues) -> WhiteBalanceGains {
        var result = WhiteBalanceGains()
        enforce { result = try deviceWhiteBalanceGainsChecked(for: chromaticityValues) }
        return result
    }

    /// The checked form of `deviceWhiteBalanceGains(for:)` with chromaticity (Linux addition).
    public func deviceWhiteBalanceGainsChecked(for values: WhiteBalanceChromaticityValues) throws(AVCaptureException) -> WhiteBalanceGains {
        let selector = "deviceWhiteBalanceGainsForChromaticityValues:"
        guard (0...1).contains(values.x), (0...1).contains(values.y) else {
            throw AVCaptureException(
                .range, selectorReason("AVCaptureDevice", selector, "Chromaticity values (\(values.x), \(values.y)) out of range [0, 1]"))
        }
        return conversionModel.gains(for: Chromaticity(x: Double(values.x), y: Double(values.y)))
    }

    func deviceWhiteBalanceGainsBacking(for temperatureAndTintValues: WhiteBalanceTemperatureAndTintValues) -> WhiteBalanceGains {
        conversionModel.gains(temperature: Double(temperatureAndTintValues.temperature), tint: Double(temperatureAndTintValues.tint))
    }

    /// The device's own colour model; nil for a camera without colour calibration.
    var whiteBalanceConverter: WhiteBalanceConverter? {
        descriptor.colorCalibration.map(WhiteBalanceConverter.init)
    }

    /// The model the conversions use. AVCaptureDevice.h names no exception for a device
    /// and promises "a fully populated" result, so a camera without calibration (a V4L2
    /// camera, a file deck) converts as one whose RGB is linear sRGB: gains of 1 balance
    /// D65, as its own white balance already rendered it.
    private var conversionModel: WhiteBalanceConverter { whiteBalanceConverter ?? .uncalibrated }
}

/// Converts between device gains, chromaticity and temperature/tint with a device's DNG
/// colour model (see ColorScience's `CameraColorModel`).
struct WhiteBalanceConverter {
    let model: CameraColorModel
    let maxGain: Float

    init(_ calibration: ColorCalibration) {
        model = CameraColorModel(
            colorMatrix1: Matrix3x3(rowMajor: calibration.colorMatrix1), temperature1: calibration.temperature1,
            colorMatrix2: Matrix3x3(rowMajor: calibration.colorMatrix2), temperature2: calibration.temperature2)
        maxGain = calibration.maxWhiteBalanceGain
    }

    init(model: CameraColorModel, maxGain: Float) {
        self.model = model
        self.maxGain = maxGain
    }

    /// A camera whose RGB is linear sRGB (XYZ to camera is XYZ to sRGB), whose only gain is 1.
    static let uncalibrated = WhiteBalanceConverter(model: CameraColorModel(colorMatrix: RGBPrimaries.sRGB.xyzToRGB), maxGain: 1)

    func white(for gains: AVCaptureDevice.WhiteBalanceGains) -> Chromaticity {
        model.white(forGains: SIMD3(Double(gains.redGain), Double(gains.greenGain), Double(gains.blueGain)))
    }

    func gains(for white: Chromaticity) -> AVCaptureDevice.WhiteBalanceGains {
        let gains = model.gains(forWhite: white)
        return AVCaptureDevice.WhiteBalanceGains(redGain: Float(gains.x), greenGain: Float(gains.y), blueGain: Float(gains.z))
    }

    func gains(temperature: Double, tint: Double) -> AVCaptureDevice.WhiteBalanceGains {
        gains(for: TemperatureTint(temperature: temperature, tint: tint).chromaticity)
    }

    func clampedGains(_ gains: AVCaptureDevice.WhiteBalanceGains) -> AVCaptureDevice.WhiteBalanceGains {
        func clamp(_ value: Float) -> Float { min(max(value, 1), maxGain) }
        return AVCaptureDevice.WhiteBalanceGains(redGain: clamp(gains.redGain), greenGain: clamp(gains.greenGain), blueGain: clamp(gains.blueGain))
    }
}

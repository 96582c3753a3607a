import Foundation
import OpenCapture

/// Parses the white-balance values people type: "2,1,1.5", "0.3127,0.329", "5000" or "5000,10".
enum WhiteBalanceArguments {
    /// `count` comma-separated decimals (no spaces, no hex or exponents), each finite.
    static func numbers(_ text: String, option: String, count: ClosedRange<Int>) throws -> [Double] {
        guard let values = StrictNumber.decimals(text), count.contains(values.count), values.allSatisfy(\.isFinite) else {
            let shape = count.lowerBound == count.upperBound ? "\(count.lowerBound)" : "\(count.lowerBound) to \(count.upperBound)"
            throw UsageError.value(option, text, allowed: "\(shape) comma-separated numbers")
        }
        return values
    }

    /// The largest gain any check accepts before a device's own maximum is known.
    static let largestGain = 64.0

    /// Gains in the device's range.
    static func gains(_ values: [Double], device: AVCaptureDevice, option: String) throws -> AVCaptureDevice.WhiteBalanceGains {
        let gains = AVCaptureDevice.WhiteBalanceGains(redGain: Float(values[0]), greenGain: Float(values[1]), blueGain: Float(values[2]))
        let maximum = device.maxWhiteBalanceGain
        for value in [gains.redGain, gains.greenGain, gains.blueGain] where !(value >= 1 && value <= maximum) {
            throw UsageError("\(option): each gain must lie in 1...\(format(maximum)) for \(device.uniqueID), got \(format(value))")
        }
        return gains
    }

    /// A temperature (K) and optional tint, validated.
    static func temperatureTint(_ values: [Double], option: String) throws -> AVCaptureDevice.WhiteBalanceTemperatureAndTintValues {
        let temperature = values[0]
        let tint = values.count > 1 ? values[1] : 0
        guard (1000...100_000).contains(temperature) else {
            throw UsageError("\(option): the temperature must lie in 1000...100000 K, got \(format(Float(temperature)))")
        }
        guard (-150...150).contains(tint) else { throw UsageError("\(option): the tint must lie in -150...150, got \(format(Float(tint)))") }
        return AVCaptureDevice.WhiteBalanceTemperatureAndTintValues(temperature: Float(temperature), tint: Float(tint))
    }

    /// 4 as "4", 1.5 as "1.5"; huge or infinite values in %g form rather than through `Int`.
    static func format(_ value: Float) -> String {
        value.rounded() == value && abs(value) < 1e9 ? String(Int(value)) : String(format: "%.4g", value)
    }

    /// Gains for a temperature, or a message saying the device cannot reach them.
    static func gains(for values: AVCaptureDevice.WhiteBalanceTemperatureAndTintValues, device: AVCaptureDevice, option: String) throws -> AVCaptureDevice.WhiteBalanceGains {
        let gains = device.deviceWhiteBalanceGains(for: values)
        let maximum = device.maxWhiteBalanceGain
        guard [gains.redGain, gains.greenGain, gains.blueGain].allSatisfy({ $0 >= 0.999 && $0 <= maximum + 0.001 }) else {
            throw UsageError(
                "\(option): \(format(values.temperature)) K, tint \(format(values.tint)) needs gains \(String(format: "%.3f,%.3f,%.3f", gains.redGain, gains.greenGain, gains.blueGain)), outside 1...\(format(maximum)) for \(device.uniqueID)")
        }
        func clamp(_ value: Float) -> Float { min(max(value, 1), maximum) }
        return AVCaptureDevice.WhiteBalanceGains(redGain: clamp(gains.redGain), greenGain: clamp(gains.greenGain), blueGain: clamp(gains.blueGain))
    }
}

/// What `--wb` asks for.
enum WhiteBalanceChoice {
    case auto
    case continuous
    case locked(AVCaptureDevice.WhiteBalanceGains)

    /// Checks how a `--wb` value is written: auto, continuous, K[,TINT] with a temperature in
    /// 1000...100000 K and a tint in -150...150, or R,G,B gains of at least 1 (the device's
    /// maximum is checked later, against the camera).
    @Sendable static func check(_ option: String, _ text: String) throws {
        guard !["auto", "continuous"].contains(text.lowercased()) else { return }
        guard let values = StrictNumber.decimals(text), (1...3).contains(values.count) else {
            throw UsageError.value(option, text, allowed: "auto, continuous, K[,TINT] or R,G,B gains")
        }
        if values.count == 3 {
            guard values.allSatisfy({ (1...WhiteBalanceArguments.largestGain).contains($0) }) else {
                throw UsageError.value(option, text, allowed: "R,G,B gains of at least 1 each (up to the device's maximum)")
            }
        } else {
            _ = try WhiteBalanceArguments.temperatureTint(values, option: option)
        }
    }

    init(_ text: String, device: AVCaptureDevice) throws {
        guard device.isWhiteBalanceModeSupported(.locked) else {
            throw UsageError("\(device.localizedName) has no white-balance control; --wb does not apply to it")
        }
        switch text.lowercased() {
        case "auto": self = .auto
        case "continuous": self = .continuous
        default:
            let values = try WhiteBalanceArguments.numbers(text, option: "--wb", count: 1...3)
            if values.count == 3 {
                self = .locked(try WhiteBalanceArguments.gains(values, device: device, option: "--wb"))
            } else {
                let temperature = try WhiteBalanceArguments.temperatureTint(values, option: "--wb")
                self = .locked(try WhiteBalanceArguments.gains(for: temperature, device: device, option: "--wb"))
            }
        }
    }

    /// Applies the choice; the device must be locked for configuration.
    func apply(to device: AVCaptureDevice) throws {
        switch self {
        case .auto: try device.setWhiteBalanceMode(.autoWhiteBalance)
        case .continuous: try device.setWhiteBalanceMode(.continuousAutoWhiteBalance)
        case .locked(let gains): try device.setWhiteBalanceModeLockedChecked(with: gains)
        }
    }
}

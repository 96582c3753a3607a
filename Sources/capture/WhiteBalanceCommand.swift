import Foundation
import OpenCapture

/// `capture wb`: converts between device gains, chromaticity and temperature/tint.
enum WhiteBalanceCommand {
    static let spec = CommandSpec(
        name: "wb", summary: "Convert white balance between gains, xy chromaticity and temperature/tint",
        synopsis: "[--device ID] (--gains R,G,B | --xy X,Y | --temperature K[,TINT]) [--json]",
        description: """
            Converts a white balance between the device's gains, CIE 1931 xy chromaticity and
            correlated colour temperature with tint (Adobe DNG scale, -150...+150, positive is
            greener), using the device's colour calibration, and prints all three.
            """,
        options: [
            .value("--device", "ID", help: "Camera unique ID (default: the default camera)", validate: DeviceLookup.checkID),
            .value("--gains", "R,G,B", help: "Device gains, each in 1...maxWhiteBalanceGain") { option, text in
                _ = try WhiteBalanceArguments.numbers(text, option: option, count: 3...3)
            },
            .value("--xy", "X,Y", help: "Chromaticity of the white: x and y above 0, x + y below 1") { option, text in
                let values = try WhiteBalanceArguments.numbers(text, option: option, count: 2...2)
                guard values.allSatisfy({ $0 > 0 }), values[0] + values[1] < 1 else {
                    throw UsageError.value(option, text, allowed: "a chromaticity X,Y with x > 0, y > 0 and x + y < 1")
                }
            },
            .value("--temperature", "K[,T]", help: "Temperature in kelvin (1000...100000) and optional tint (-150...150)") { option, text in
                _ = try WhiteBalanceArguments.temperatureTint(WhiteBalanceArguments.numbers(text, option: option, count: 1...2), option: option)
            },
            .flag("--json", help: "Print JSON"),
        ],
        run: run)

    static func run(_ args: Arguments) throws -> Int32 {
        let device = try DeviceLookup.device(args.value("--device"))
        let given = ["--gains", "--xy", "--temperature"].filter { args.value($0) != nil }
        guard given.count == 1 else {
            throw UsageError(given.isEmpty ? "give one of --gains, --xy or --temperature" : "give only one of \(given.joined(separator: ", "))")
        }
        guard device.isLockingWhiteBalanceWithCustomDeviceGainsSupported else {
            throw UsageError("\(device.uniqueID) has no colour calibration, so its gains cannot be converted")
        }
        let gains: AVCaptureDevice.WhiteBalanceGains
        if let text = args.value("--gains") {
            gains = try WhiteBalanceArguments.gains(WhiteBalanceArguments.numbers(text, option: "--gains", count: 3...3), device: device, option: "--gains")
        } else if let text = args.value("--xy") {
            let values = try WhiteBalanceArguments.numbers(text, option: "--xy", count: 2...2)
            gains = try device.deviceWhiteBalanceGainsChecked(for: .init(x: Float(values[0]), y: Float(values[1])))
        } else {
            let values = try WhiteBalanceArguments.temperatureTint(
                WhiteBalanceArguments.numbers(args.value("--temperature")!, option: "--temperature", count: 1...2), option: "--temperature")
            gains = device.deviceWhiteBalanceGains(for: values)
        }
        guard [gains.redGain, gains.greenGain, gains.blueGain].allSatisfy({ $0.isFinite && $0 > 0 }) else {
            throw UsageError("\(given[0]) \(args.value(given[0])!) is not a white \(device.uniqueID)'s calibration can convert")
        }
        let maximum = device.maxWhiteBalanceGain
        let inRange = [gains.redGain, gains.greenGain, gains.blueGain].allSatisfy { $0 >= 0.9995 && $0 <= maximum + 0.0005 }
        // Chromaticity and temperature come back from the gains, so all three lines agree.
        let usable = AVCaptureDevice.WhiteBalanceGains(
            redGain: min(max(gains.redGain, 1), maximum), greenGain: min(max(gains.greenGain, 1), maximum),
            blueGain: min(max(gains.blueGain, 1), maximum))
        let xy = try device.chromaticityValuesChecked(for: usable)
        let tt = try device.temperatureAndTintValuesChecked(for: usable)
        if args.has("--json") {
            let report: [String: Any] = [
                "device": device.uniqueID,
                "gains": ["red": Double(gains.redGain), "green": Double(gains.greenGain), "blue": Double(gains.blueGain)],
                "gains_in_range": inRange, "max_gain": Double(maximum),
                "chromaticity": ["x": Double(xy.x), "y": Double(xy.y)],
                "temperature": Double(tt.temperature), "tint": Double(tt.tint),
            ]
            let data = try JSONSerialization.data(withJSONObject: report, options: [.prettyPrinted, .sortedKeys])
            print(String(decoding: data, as: UTF8.self))
        } else {
            print(String(format: "gains         red %.4f  green %.4f  blue %.4f  %@", gains.redGain, gains.greenGain, gains.blueGain,
                inRange ? "(within 1...\(WhiteBalanceArguments.format(maximum)))" : "(OUTSIDE 1...\(WhiteBalanceArguments.format(maximum)): clamped below)"))
            print(String(format: "chromaticity  x %.5f  y %.5f", xy.x, xy.y))
            print(String(format: "temperature   %.0f K  tint %+.2f", tt.temperature, tt.tint))
        }
        return 0
    }
}

import OpenCapture

/// The names the web API uses for AVFoundation's modes (Apple's case names).
protocol ModeNames {
    associatedtype Mode: Equatable
    static var names: [(String, Mode)] { get }
}

extension ModeNames {
    static func name(_ mode: Mode) -> String { names.first { $0.1 == mode }?.0 ?? "unknown" }
    static func mode(_ name: String) -> Mode? { names.first { $0.0 == name }?.1 }
    static var allNames: String { names.map(\.0).joined(separator: ", ") }
}

enum ExposureModeName: ModeNames {
    static let names: [(String, AVCaptureDevice.ExposureMode)] = [
        ("locked", .locked), ("autoExpose", .autoExpose), ("continuousAutoExposure", .continuousAutoExposure), ("custom", .custom),
    ]
}

enum WhiteBalanceModeName: ModeNames {
    static let names: [(String, AVCaptureDevice.WhiteBalanceMode)] = [
        ("locked", .locked), ("autoWhiteBalance", .autoWhiteBalance), ("continuousAutoWhiteBalance", .continuousAutoWhiteBalance),
    ]
}

enum FocusModeName: ModeNames {
    static let names: [(String, AVCaptureDevice.FocusMode)] = [
        ("locked", .locked), ("autoFocus", .autoFocus), ("continuousAutoFocus", .continuousAutoFocus),
    ]
}

enum TorchModeName: ModeNames {
    static let names: [(String, AVCaptureDevice.TorchMode)] = [("off", .off), ("on", .on), ("auto", .auto)]
}

enum ColorSpaceName: ModeNames {
    static let names: [(String, AVCaptureColorSpace)] = [("sRGB", .sRGB), ("P3_D65", .P3_D65), ("HLG_BT2020", .HLG_BT2020), ("appleLog", .appleLog)]
}

import CPipeWireRuntime
import CaptureCore
import V4L2Camera

/// One format a PipeWire node offers, in the terms of V4L2 modes: PipeWire's cameras are
/// V4L2 or libcamera devices underneath (or applications' streams of the same pixel
/// formats), so their frames take the same conversions (`V4L2FrameConverter`).
package struct PipeWireMode: Sendable, Equatable {
    package var mode: V4L2Mode
    /// The plug-in's format (OCPWFormat).
    package var format: Int32

    /// The mode of a node's EnumFormat entry; nil for formats frames cannot be converted from
    /// (BGRx, BGRA: no V4L2 code).
    package init?(_ mode: OCPWMode) {
        guard let code = Self.code(mode.format), mode.width > 0, mode.height > 0 else { return nil }
        let rates = withUnsafeBytes(of: mode.rate_num) { numbers in
            withUnsafeBytes(of: mode.rate_den) { denominators in
                (0..<Int(min(mode.rate_count, OCPW_MAX_RATES))).map {
                    (numbers.load(fromByteOffset: $0 * 4, as: Int32.self), denominators.load(fromByteOffset: $0 * 4, as: Int32.self))
                }
            }
        }.filter { $0.0 > 0 && $0.1 > 0 }
        guard !rates.isEmpty else { return nil }
        // V4L2 modes list frame intervals (seconds per frame): the reciprocal of the rates.
        let intervals: V4L2Mode.Intervals
        if mode.rate_is_range != 0 && rates.count >= 2 {
            let slowest = rates[0], fastest = rates[1]
            intervals = .range(
                min: .init(UInt32(fastest.1), UInt32(fastest.0)), max: .init(UInt32(slowest.1), UInt32(slowest.0)), step: .init(1, 1_000_000))
        } else {
            intervals = .discrete(rates.map { .init(UInt32($0.1), UInt32($0.0)) })
        }
        self.mode = V4L2Mode(code: code, width: Int(mode.width), height: Int(mode.height), intervals: intervals)
        format = mode.format
    }

    /// The V4L2 code of the same memory layout.
    static func code(_ format: Int32) -> V4L2PixelCode? {
        switch UInt32(bitPattern: format) {
        case OCPW_FORMAT_NV12.rawValue: .nv12
        case OCPW_FORMAT_I420.rawValue: .yu12
        case OCPW_FORMAT_YUY2.rawValue: .yuyv
        case OCPW_FORMAT_UYVY.rawValue: .uyvy
        case OCPW_FORMAT_RGB.rawValue: .rgb24
        case OCPW_FORMAT_BGR.rawValue: .bgr24
        case OCPW_FORMAT_MJPEG.rawValue: .mjpeg
        default: nil
        }
    }

    /// The plug-in's mode asking for this format and size.
    var request: OCPWMode {
        var request = OCPWMode()
        request.format = format
        request.width = Int32(mode.width)
        request.height = Int32(mode.height)
        return request
    }

    /// The format as `AVCaptureDevice.Format` shows it: the size, the rates, the pixel format
    /// frames are delivered in without conversion when there is one, the device's own
    /// encoding as the media subtype. No exposure, ISO or zoom control (PipeWire carries none
    /// of a camera's controls to its readers here).
    var spec: DeviceFormatSpec {
        let ranges = mode.frameRateRanges
        var spec = DeviceFormatSpec(
            width: mode.width, height: mode.height, pixelFormat: mode.code.sameLayout ?? .yuv420BiPlanarVideoRange,
            frameRateRanges: ranges, minISO: 100, maxISO: 100,
            minExposureDuration: 1 / (ranges.map(\.upperBound).max() ?? 30), maxExposureDuration: 1 / (ranges.map(\.lowerBound).min() ?? 30),
            fieldOfView: 0, maxZoomFactor: 1, mediaSubType: mode.code.mediaSubType)
        spec.autoFocusSystem = 0
        return spec
    }
}

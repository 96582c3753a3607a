import Foundation
import OpenCapture

/// What `--hdr` and `--color-space` ask for, validated against the format that will be used.
struct VideoRangeChoice {
    enum HDR { case on, off, auto }
    var hdr: HDR?
    var colorSpace: AVCaptureColorSpace?

    init(_ args: Arguments, format: AVCaptureDevice.Format) throws {
        if let text = args.value("--hdr") {
            switch text.lowercased() {
            case "on": hdr = .on
            case "off": hdr = .off
            case "auto": hdr = .auto
            default: throw UsageError("--hdr must be on, off or auto, not '\(text)'")
            }
            if hdr == .on, !format.isVideoHDRSupported {
                throw UsageError("--hdr on needs a format with video HDR; \(format.formatDescription.dimensions) has none (try --preset 1920x1080)")
            }
        }
        if let text = args.value("--color-space") {
            switch text.lowercased() {
            case "srgb": colorSpace = .sRGB
            case "p3": colorSpace = .P3_D65
            default: throw UsageError("--color-space must be srgb or p3, not '\(text)'")
            }
            if let colorSpace, !format.supportedColorSpaces.contains(colorSpace) {
                throw UsageError("--color-space p3 needs a wide-colour format; \(format.formatDescription.dimensions) is sRGB only")
            }
        }
    }

    /// Applies the choice; the device must be locked and in its final format. A colour
    /// space given here is kept: the session's automatic wide-colour choice is turned off.
    func apply(to device: AVCaptureDevice, session: AVCaptureSession) throws {
        switch hdr {
        case .on?:
            try device.setAutomaticallyAdjustsVideoHDREnabled(false)
            try device.setVideoHDREnabled(true)
        case .off?:
            try device.setAutomaticallyAdjustsVideoHDREnabled(false)
            try device.setVideoHDREnabled(false)
        case .auto?: try device.setAutomaticallyAdjustsVideoHDREnabled(true)
        case nil: break
        }
        if let colorSpace {
            session.automaticallyConfiguresCaptureDeviceForWideColor = false
            try device.setActiveColorSpace(colorSpace)
        }
    }
}

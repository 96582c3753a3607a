import Foundation
import OpenCapture

/// What `/status` reports: the camera's state as AVFoundation exposes it, read from the
/// device's public API, and the stream's frame counts (`frames`: what the output delivered
/// and where each frame went, see `LiveFrames.Ledger`, and what it dropped, by reason).
enum CameraStatus {
    static func json(device: AVCaptureDevice, frames: LiveFrames) -> [String: Any] {
        let counts = frames.counts
        let gains = device.deviceWhiteBalanceGains
        let format = device.activeFormat
        let dimensions = CMVideoFormatDescriptionGetDimensions(format.formatDescription)
        // A device without colour calibration (a file deck, a V4L2 camera without white-balance
        // controls) has no temperature for its gains: the conversion would raise.
        let temperature = try? device.temperatureAndTintValuesChecked(for: gains)
        var status: [String: Any] = [
            "device": ["uniqueID": device.uniqueID, "name": device.localizedName, "connected": device.isConnected],
            "format": ["width": Int(dimensions.width), "height": Int(dimensions.height)],
            "frames": [
                "delivered": counts.ledger.delivered, "encoded": counts.ledger.encoded, "superseded": counts.ledger.superseded,
                "unwatched": counts.ledger.unwatched, "failed": counts.ledger.failed, "queued": counts.ledger.queued,
                "dropped": counts.dropped, "dropReasons": counts.dropReasons, "fps": (counts.fps * 100).rounded() / 100,
            ],
            "exposure": [
                "mode": ExposureModeName.name(device.exposureMode), "iso": device.iso,
                "duration": device.exposureDuration.seconds, "targetBias": device.exposureTargetBias,
                "targetOffset": device.exposureTargetOffset,
                "minISO": format.minISO, "maxISO": format.maxISO,
                "minDuration": format.minExposureDuration.seconds, "maxDuration": format.maxExposureDuration.seconds,
                "minBias": device.minExposureTargetBias, "maxBias": device.maxExposureTargetBias,
            ],
            "whiteBalance": [
                "mode": WhiteBalanceModeName.name(device.whiteBalanceMode),
                "gains": ["red": gains.redGain, "green": gains.greenGain, "blue": gains.blueGain],
                "temperature": temperature.map { $0.temperature as Any } ?? NSNull(), "tint": temperature.map { $0.tint as Any } ?? NSNull(),
            ],
            "focus": [
                "mode": FocusModeName.name(device.focusMode), "lensPosition": device.lensPosition,
                "pointOfInterest": [Double(device.focusPointOfInterest.x), Double(device.focusPointOfInterest.y)],
            ],
            "transport": [
                "supported": device.transportControlsSupported,
                "mode": device.transportControlsPlaybackMode == .playing ? "playing" : "notPlaying", "speed": device.transportControlsSpeed,
            ],
            "zoom": [
                "factor": Double(device.videoZoomFactor), "min": Double(device.minAvailableVideoZoomFactor),
                "max": Double(device.maxAvailableVideoZoomFactor),
            ],
            "systemPressure": device.systemPressureState.level.rawValue,
            "histogram": frames.lumaHistogram,
            "formats": device.formats.enumerated().map { index, format in formatJSON(format, index: index) },
            "activeFormat": device.formats.firstIndex { $0 === format } ?? -1,
            "frameRate": 1 / device.activeVideoMinFrameDuration.seconds,
            "videoHDREnabled": device.isVideoHDREnabled,
            "colorSpace": ColorSpaceName.name(device.activeColorSpace),
        ]
        if device.hasTorch {
            status["torch"] = ["mode": TorchModeName.name(device.torchMode), "level": device.torchLevel]
        }
        return status
    }

    /// A format as the page's format menu lists it.
    static func formatJSON(_ format: AVCaptureDevice.Format, index: Int) -> [String: Any] {
        let dimensions = CMVideoFormatDescriptionGetDimensions(format.formatDescription)
        let subtype = CMFormatDescriptionGetMediaSubType(format.formatDescription)
        let code = String(decoding: [24, 16, 8, 0].map { UInt8((subtype >> $0) & 0xFF) }, as: UTF8.self)
        return [
            "index": index, "width": Int(dimensions.width), "height": Int(dimensions.height), "pixelFormat": code,
            "frameRates": format.videoSupportedFrameRateRanges.map { [$0.minFrameRate, $0.maxFrameRate] },
            "videoHDR": format.isVideoHDRSupported, "colorSpaces": format.supportedColorSpaces.map(ColorSpaceName.name),
        ]
    }
}

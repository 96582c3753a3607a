import CaptureCore

/// Builds a simulated camera's format list and its session-preset map, iPhone style.
struct FormatListBuilder {
    /// Horizontal fields of view: 4:3 formats see the whole sensor width; 16:9 formats
    /// are reported narrower, as phones crop them for stabilisation margins.
    var fieldOfView43: Float
    var fieldOfView169: Float
    var minISO: Float
    var maxISO: Float
    var minExposure = 1.0 / 60000
    private(set) var formats: [DeviceFormatSpec] = []

    init(fieldOfView43: Float, fieldOfView169: Float, minISO: Float, maxISO: Float) {
        self.fieldOfView43 = fieldOfView43
        self.fieldOfView169 = fieldOfView169
        self.minISO = minISO
        self.maxISO = maxISO
    }

    /// Appends a format streaming 1 ... `maxFPS` frames per second.
    ///
    /// `tenBit` makes it an iPhone-style 10-bit format: native pixel format 'x420'
    /// (`formatDescription.mediaSubType`), colour spaces sRGB and HLG_BT2020, no EDR video
    /// HDR, never picked by a session preset. Such formats come after the 8-bit ones of
    /// their size, as separate entries, as on iPhones.
    mutating func add(
        _ width: Int, _ height: Int, maxFPS: Double, zoom: Double = 16, binned: Bool = false, hdr: Bool = false,
        wideColor: Bool? = nil, tenBit: Bool = false
    ) {
        let minFPS = 1.0
        let wide = 16 * height == 9 * width
        // Large formats take full-resolution stills of their aspect; binned and small
        // ones take stills of their own size.
        let photo: (Int, Int) =
            binned || width < 1280 ? (width, height) : (wide ? (4032, 2268) : (4032, 3024))
        formats.append(
            DeviceFormatSpec(
                width: width, height: height, pixelFormat: tenBit ? .yuv420TenBitBiPlanarVideoRange : .yuv420BiPlanarVideoRange,
                frameRateRanges: [minFPS...maxFPS], minISO: minISO, maxISO: maxISO, minExposureDuration: minExposure,
                // Exposure can never outlast the longest frame.
                maxExposureDuration: 1 / minFPS, fieldOfView: wide ? fieldOfView169 : fieldOfView43,
                maxZoomFactor: zoom, isBinned: binned, isHDRSupported: hdr && !tenBit,
                colorSpaces: tenBit ? [0, 2] : (wideColor ?? (!binned && width >= 1280)) ? [0, 1] : [0], maxPhotoWidth: photo.0,
                maxPhotoHeight: photo.1))
        // Electronic stabilisation (`CameraShake`): standard and preview-optimised at every
        // size; the cinematic modes, which crop more, up to 60 fps.
        formats[formats.count - 1].stabilizationModes = maxFPS <= 60 ? [1, 2, 3, 4, 5] : [1, 4]
    }

    /// Appends a format made elsewhere (a virtual device's, from its constituents').
    mutating func append(_ spec: DeviceFormatSpec) {
        formats.append(spec)
    }

    /// Each session preset the formats can serve, mapped to the first non-binned 8-bit format
    /// of its size; among formats of one size that is the standard (30/60 fps) one.
    var presetFormats: [String: Int] {
        let sizes: [(String, Int, Int)] = [
            ("AVCaptureSessionPresetPhoto", 4032, 3024),
            ("AVCaptureSessionPresetHigh", 1920, 1080),
            ("AVCaptureSessionPresetMedium", 480, 360),
            ("AVCaptureSessionPresetLow", 192, 144),
            ("AVCaptureSessionPreset352x288", 352, 288),
            ("AVCaptureSessionPreset640x480", 640, 480),
            ("AVCaptureSessionPreset1280x720", 1280, 720),
            ("AVCaptureSessionPreset1920x1080", 1920, 1080),
            ("AVCaptureSessionPreset3840x2160", 3840, 2160),
            ("AVCaptureSessionPresetiFrame960x540", 960, 540),
            ("AVCaptureSessionPresetiFrame1280x720", 1280, 720),
        ]
        var map: [String: Int] = [:]
        for (preset, width, height) in sizes {
            if let index = formats.firstIndex(where: {
                $0.width == width && $0.height == height && !$0.isBinned && !$0.pixelFormat.isTenBit
            }) {
                map[preset] = index
            }
        }
        return map
    }
}

import Foundation
import MediaIO
import OpenCapture

/// Everything a capturing command was asked to do with the camera, checked against the
/// camera before it starts: a mistake here is a `UsageError`, exit status 2.
struct CapturePlan {
    let device: AVCaptureDevice
    let preset: AVCaptureSession.Preset?
    let format: AVCaptureDevice.Format?
    let frameDuration: CMTime?
    let pixelFormat: OSType
    let pixelFormatName: String
    let count: Int
    let seed: UInt64?
    let virtualTime: Bool
    /// `--speed`: the file deck's transport speed (frames only).
    let speed: Float?
    let rotation: CGFloat
    let mirrored: Bool
    let illuminant: AVCaptureDevice.WhiteBalanceTemperatureAndTintValues?
    let whiteBalance: WhiteBalanceChoice?
    let exposure: ExposureChoice
    let scene: SceneChoice
    let video: VideoRangeChoice
    /// `--pixel-format raw`: write the sensor's mosaic instead of the processed frames.
    let raw: Bool
    let lens: LensChoice

    /// The names `--pixel-format` takes.
    static let pixelFormatNames = ["420v", "420f", "y420", "f420", "BGRA", "raw"]

    init(_ args: Arguments, defaultPreset: AVCaptureSession.Preset? = nil) throws {
        let device = try DeviceLookup.device(args.value("--device"))
        self.device = device
        if args.value("--preset") != nil && args.value("--size") != nil {
            throw UsageError("--preset and --size are alternatives; give one")
        }
        if let text = args.value("--preset") {
            let preset = try PresetNames.preset(text)
            guard device.supportsSessionPreset(preset) else {
                throw UsageError("\(device.localizedName) does not support preset \(ErrorText.quoted(text))")
            }
            self.preset = preset
        } else {
            preset = args.value("--size") == nil ? defaultPreset : nil
        }
        let fps = args.decimal("--fps")
        format = try args.size("--size").map { try Self.format(of: $0, fps: fps, device: device) }
        let candidate = Self.formatToUse(device: device, format: format, preset: preset)
        frameDuration = try fps.map { try Self.frameDuration(fps: $0, format: candidate) }
        let requested = Self.pixelFormatNames.first { $0.lowercased() == args.value("--pixel-format")?.lowercased() } ?? "420v"
        raw = requested == "raw"
        if raw { try RawCapture.check(args, device: device) }
        // The option's check lets only the names above through, and each is a known format.
        let parsed = PixelFormat(fourCC: raw ? "420v" : requested) ?? .yuv420BiPlanarVideoRange
        pixelFormat = parsed.rawValue
        pixelFormatName = raw ? "raw mono16" : parsed.fourCC
        count = args.integer("--count") ?? 30
        seed = args.value("--seed").flatMap(StrictNumber.unsigned)
        rotation = CGFloat(args.integer("--rotation") ?? 0)
        mirrored = args.has("--mirror")
        if args.value("--cct") != nil || args.value("--tint") != nil {
            guard device.simulation != nil else { throw UsageError("--cct and --tint set a simulated scene; \(device.uniqueID) is a real camera") }
            illuminant = try WhiteBalanceArguments.temperatureTint(
                [args.decimal("--cct") ?? 6500, args.decimal("--tint") ?? 0], option: args.value("--cct") != nil ? "--cct" : "--tint")
        } else {
            illuminant = nil
        }
        whiteBalance = try args.value("--wb").map { try WhiteBalanceChoice($0, device: device) }
        exposure = try ExposureChoice(args, device: device, format: candidate)
        scene = try SceneChoice(args, device: device)
        video = try VideoRangeChoice(args, format: candidate)
        lens = try LensChoice(args, device: device, format: candidate)
        virtualTime = args.has("--virtual-time")
        speed = try Self.speed(args, device: device)
        if virtualTime && device.simulation == nil && device.deck == nil {
            throw UsageError("--virtual-time needs a simulated camera; \(device.uniqueID) is real")
        }
    }

    /// The format of `size` for `--size`: among the formats of that size, the first that runs
    /// at `fps` (when given), preferring one that is not binned.
    /// `--speed S`, which only a file deck takes.
    static let speedOption = OptionSpec.value(
        "--speed", "S", help: "File decks (--device file:PATH): play at S times normal speed, 0.25 to 8 either way (negative plays backwards from the end; default 1)"
    ) { option, text in
        guard let value = StrictNumber.decimal(text), AVCaptureDevice.Deck.speedMagnitudes.contains(Float(abs(value))) else {
            throw UsageError.value(option, text, allowed: "a speed of 0.25 to 8 or -8 to -0.25")
        }
    }

    private static func speed(_ args: Arguments, device: AVCaptureDevice) throws -> Float? {
        guard let value = args.decimal("--speed") else { return nil }
        guard device.deck != nil else { throw UsageError("--speed needs a file deck (--device file:PATH); \(device.uniqueID) is a camera") }
        return Float(value)
    }

    static func format(of size: (width: Int, height: Int), fps: Double?, device: AVCaptureDevice) throws -> AVCaptureDevice.Format {
        let matches = device.formats.filter {
            Int($0.formatDescription.dimensions.width) == size.width && Int($0.formatDescription.dimensions.height) == size.height
        }
        guard !matches.isEmpty else {
            let sizes = Set(device.formats.map { "\($0.formatDescription.dimensions)" }).sorted().joined(separator: ", ")
            throw UsageError("\(device.localizedName) has no \(size.width)x\(size.height) format (sizes: \(sizes))")
        }
        let usable = fps.map { fps in matches.filter { supports($0, fps: fps) } } ?? matches
        guard let best = usable.first(where: { !$0.isVideoBinned }) ?? usable.first else {
            throw UsageError("--fps \(StrictNumber.describe(fps ?? 0)) is outside the \(size.width)x\(size.height) formats' frame rates (\(ranges(matches)) fps)")
        }
        return best
    }

    /// The frame duration for `fps`, which must lie in one of `format`'s frame-rate ranges.
    /// `fps` passed the option's check (0.1...1000), so every conversion below is exact or
    /// within range.
    static func frameDuration(fps: Double, format: AVCaptureDevice.Format) throws -> CMTime {
        guard supports(format, fps: fps) else {
            throw UsageError("--fps \(StrictNumber.describe(fps)) is outside the format's frame rates (\(ranges([format])) fps)")
        }
        if fps.rounded() == fps { return CMTime(value: 1, timescale: CMTimeScale(fps)) }
        // 29.97 as 1000/29970: exact for rates given to a thousandth.
        return CMTime(value: 1000, timescale: CMTimeScale((fps * 1000).rounded()))
    }

    /// The format a capture will use: the one asked for, else the preset's (default `.high`).
    static func formatToUse(device: AVCaptureDevice, format: AVCaptureDevice.Format?, preset: AVCaptureSession.Preset?) -> AVCaptureDevice.Format {
        if let format { return format }
        if let index = device.formatIndex(for: preset ?? .high) { return device.formats[index] }
        return device.activeFormat
    }

    private static func supports(_ format: AVCaptureDevice.Format, fps: Double) -> Bool {
        format.videoSupportedFrameRateRanges.contains { $0.minFrameRate <= fps && fps <= $0.maxFrameRate }
    }

    /// "1-60, 1-240".
    private static func ranges(_ formats: [AVCaptureDevice.Format]) -> String {
        formats.flatMap(\.videoSupportedFrameRateRanges).map { "\(FormatsCommand.rate($0.minFrameRate))-\(FormatsCommand.rate($0.maxFrameRate))" }
            .joined(separator: ", ")
    }
}

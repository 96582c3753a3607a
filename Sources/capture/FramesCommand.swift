import Foundation
import MediaIO
import OpenCapture

/// `capture frames`: captures frames to a Y4M file, with optional per-frame metadata.
enum FramesCommand {
    static let help = """
        Usage: capture frames [options] -o FILE.y4m

        Captures frames from a camera into a YUV4MPEG2 file that ffmpeg and mpv read.
          --device ID          Camera unique ID (see 'capture devices'; default: the default camera)
          --preset NAME        Session preset: high, medium, low, photo, 352x288, 640x480,
                               1280x720, 1920x1080, 3840x2160, iframe960x540, iframe1280x720
          --size WxH           Pick the camera format of this size instead of a preset
          --fps N              Frame rate (must lie in the format's frame-rate ranges)
          --pixel-format PF    420v, 420f, y420, f420 or BGRA (default 420v; BGRA is stored as
                               full-range 4:2:0 because Y4M holds Y'CbCr only), or raw: the
                               simulated sensor's RGGB mosaic as 16-bit grey (Y4M 'C mono16')
          --count N            Frames to capture (default 30)
          --seed N             Scene seed of a simulated camera (default 1)
          --cct K              Scene illuminant colour temperature, simulated cameras (default 6500)
          --tint T             Scene illuminant tint, -150...150 (default 0)
          --scene S            Simulated scene: chart (default), flat:<reflectance>, lowlight,
                               hdr, motion or image:<file.png|file.jpg>
          --lux E              Illuminance on the simulated scene in lux (white = E/pi cd/m2)
          --hdr MODE           Video HDR: on, off or auto (default auto: on when the scene needs it)
          --color-space CS     srgb or p3 (default: the session's choice, sRGB for video)
          --wb MODE            White balance: auto (settle, then lock), continuous (default),
                               K[,TINT] (lock to a temperature) or R,G,B (lock to device gains)
          --exposure-mode M    locked, auto (settle, then lock), continuous (default) or custom
          --shutter T          Exposure time for custom exposure: 0.004, 1/250 or 4ms
          --iso N              ISO for custom exposure (within the format's range)
          --bias EV            Exposure target bias, -8...8 EV
        \(LensChoice.help)
          --virtual-time       Simulated cameras: run as fast as frames are written, timestamps
                               still spaced by the frame duration
          --rotation DEG       Rotate delivered frames clockwise by 0, 90, 180 or 270
          --mirror             Mirror delivered frames left to right
          --metadata FILE      Also write one JSON object per frame (JSON lines)
          -o, --output FILE    The .y4m file to write (required)
        """

    /// The device, format and scene options every capturing command takes.
    static let sharedOptions: Set<String> = [
        "--device", "--preset", "--size", "--fps", "--seed", "--output", "--rotation", "--cct", "--tint", "--wb",
        "--exposure-mode", "--shutter", "--iso", "--bias", "--scene", "--lux", "--hdr", "--color-space", "--focus", "--zoom", "--torch",
    ]
    static let sharedSwitches: Set<String> = ["--help", "--virtual-time", "--mirror"]

    /// Help lines for the shared options, reused by photo and record.
    static let sharedHelp = """
          --device ID          Camera unique ID (see 'capture devices'; default: the default camera)
          --preset NAME        Session preset (high, 1280x720, 640x480, photo, ...; see 'capture frames --help')
          --size WxH           Pick the camera format of this size instead of a preset
          --fps N              Frame rate (must lie in the format's frame-rate ranges)
          --seed N             Scene seed of a simulated camera (default 1)
          --cct K, --tint T    Scene illuminant of a simulated camera (default 6500 K, tint 0)
          --scene S, --lux E   Simulated scene (chart, flat:R, lowlight, hdr, motion, image:FILE) and lux
          --hdr MODE           Video HDR: on, off or auto (default)
          --color-space CS     srgb or p3
          --wb MODE            auto, continuous (default), K[,TINT] or R,G,B device gains
          --exposure-mode M    locked, auto (settle, then lock), continuous (default) or custom
          --shutter T          Exposure time for custom exposure: 0.004, 1/250 or 4ms
          --iso N              ISO for custom exposure (within the format's range)
          --bias EV            Exposure target bias, -8...8 EV
        \(LensChoice.help)
          --rotation DEG       0, 90, 180 or 270 degrees clockwise
          --mirror             Mirror left to right
          --virtual-time       Simulated cameras: run as fast as possible, timestamps still real
        """

    static func run(_ words: ArraySlice<String>) throws -> Int32 {
        let args = try Arguments(
            Array(words),
            options: FramesCommand.sharedOptions.union(["--pixel-format", "--count", "--metadata"]),
            switches: FramesCommand.sharedSwitches, aliases: ["-o": "--output", "-h": "--help"])
        if args.has("--help") { print(help); return 0 }
        guard args.positionals.isEmpty else { throw UsageError("unexpected argument '\(args.positionals[0])'") }
        let plan = try CapturePlan(args)
        let result = try FrameRecorder(plan: plan).record()
        let summary = String(
            format: "wrote %d frames (%dx%d %@, %.2f fps, %d dropped) to %@",
            result.frames, result.width, result.height, plan.pixelFormatName, result.framesPerSecond, result.drops, plan.output.path)
        FileHandle.standardError.write(Data((summary + "\n").utf8))
        return 0
    }
}

/// Everything `capture frames` was asked to do, validated before the camera starts.
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
    let rotation: CGFloat
    let mirrored: Bool
    let output: URL
    let metadata: URL?
    let illuminant: AVCaptureDevice.WhiteBalanceTemperatureAndTintValues?
    let whiteBalance: WhiteBalanceChoice?
    let exposure: ExposureChoice
    let scene: SceneChoice
    let video: VideoRangeChoice
    /// `--pixel-format raw`: write the sensor's mosaic instead of the processed frames.
    let raw: Bool
    let lens: LensChoice

    /// `writesFile` false: a command that writes no file (`preview`); `output` is /dev/null.
    init(_ args: Arguments, defaultPreset: AVCaptureSession.Preset? = nil, writesFile: Bool = true) throws {
        device = try DeviceLookup.device(args.value("--device"))
        guard let path = args.value("--output") ?? (writesFile ? nil : "/dev/null") else {
            throw UsageError("missing -o FILE.y4m (where to write the frames)")
        }
        output = URL(fileURLWithPath: path)
        metadata = args.value("--metadata").map { URL(fileURLWithPath: $0) }
        for url in (writesFile ? [output] : []) + (metadata.map { [$0] } ?? []) {
            try CapturePlan.checkWritable(url)
        }
        if args.value("--preset") != nil && args.value("--size") != nil {
            throw UsageError("--preset and --size are alternatives; give one")
        }
        if let text = args.value("--preset") {
            let preset = try PresetNames.preset(text)
            guard device.supportsSessionPreset(preset) else {
                throw UsageError("\(device.localizedName) does not support preset '\(text)'")
            }
            self.preset = preset
        } else {
            preset = args.value("--size") == nil ? defaultPreset : nil
        }
        if let (width, height) = try args.size("--size") {
            let matches = device.formats.filter {
                Int($0.formatDescription.dimensions.width) == width && Int($0.formatDescription.dimensions.height) == height
            }
            guard let best = matches.first(where: { !$0.isVideoBinned }) ?? matches.first else {
                let sizes = Set(device.formats.map { "\($0.formatDescription.dimensions)" }).sorted().joined(separator: ", ")
                throw UsageError("\(device.localizedName) has no \(width)x\(height) format (sizes: \(sizes))")
            }
            format = best
        } else {
            format = nil
        }
        if let fps = try args.positiveNumber("--fps") {
            let duration = CMTime(seconds: 1 / fps, preferredTimescale: 1_000_000)
            let candidate = CapturePlan.formatToUse(device: device, format: format, preset: preset)
            let exact = fps.rounded() == fps ? CMTime(value: 1, timescale: CMTimeScale(fps)) : duration
            guard candidate.videoSupportedFrameRateRanges.contains(where: { $0.minFrameRate <= fps && fps <= $0.maxFrameRate }) else {
                let ranges = candidate.videoSupportedFrameRateRanges.map { "\(Int($0.minFrameRate))-\(Int($0.maxFrameRate))" }.joined(separator: ", ")
                let shown = fps.rounded() == fps ? String(Int(fps)) : String(fps)
                throw UsageError("--fps \(shown) is outside the format's frame rates (\(ranges) fps)")
            }
            frameDuration = exact
        } else {
            frameDuration = nil
        }
        let requested = args.value("--pixel-format") ?? "420v"
        raw = requested.lowercased() == "raw"
        if raw { try RawCapture.check(args, device: device) }
        let name = raw ? "420v" : requested
        guard let parsed = PixelFormat(fourCC: name) ?? PixelFormat(fourCC: name.uppercased() == "BGRA" ? "BGRA" : name) else {
            throw UsageError("unknown pixel format '\(name)' (pixel formats: 420v, 420f, y420, f420, BGRA, raw)")
        }
        pixelFormat = parsed.rawValue
        pixelFormatName = raw ? "raw mono16" : parsed.fourCC
        count = try args.integer("--count", in: 1...1_000_000) ?? 30
        if let text = args.value("--seed") {
            guard let value = UInt64(text) else { throw UsageError("--seed must be a whole number >= 0, not '\(text)'") }
            seed = value
        } else {
            seed = nil
        }
        if let angle = try args.integer("--rotation", in: 0...270) {
            guard [0, 90, 180, 270].contains(angle) else { throw UsageError("--rotation must be 0, 90, 180 or 270, not \(angle)") }
            rotation = CGFloat(angle)
        } else {
            rotation = 0
        }
        mirrored = args.has("--mirror")
        if args.value("--cct") != nil || args.value("--tint") != nil {
            guard device.simulation != nil else { throw UsageError("--cct and --tint set a simulated scene; \(device.uniqueID) is a real camera") }
            let temperature = try args.value("--cct").map { try WhiteBalanceArguments.numbers($0, option: "--cct", count: 1...1)[0] } ?? 6500
            let tint = try args.value("--tint").map { try WhiteBalanceArguments.numbers($0, option: "--tint", count: 1...1)[0] } ?? 0
            illuminant = try WhiteBalanceArguments.temperatureTint([temperature, tint], option: args.value("--cct") != nil ? "--cct" : "--tint")
        } else {
            illuminant = nil
        }
        if let text = args.value("--wb") {
            whiteBalance = try WhiteBalanceChoice(text, device: device)
        } else {
            whiteBalance = nil
        }
        exposure = try ExposureChoice(args, device: device, format: CapturePlan.formatToUse(device: device, format: format, preset: preset))
        scene = try SceneChoice(args, device: device)
        video = try VideoRangeChoice(args, format: CapturePlan.formatToUse(device: device, format: format, preset: preset))
        lens = try LensChoice(args, device: device, format: CapturePlan.formatToUse(device: device, format: format, preset: preset))
        virtualTime = args.has("--virtual-time")
        if virtualTime && device.simulation == nil {
            throw UsageError("--virtual-time needs a simulated camera; \(device.uniqueID) is real")
        }
    }

    /// The format a capture will use: the one asked for, else the preset's (default `.high`).
    static func formatToUse(device: AVCaptureDevice, format: AVCaptureDevice.Format?, preset: AVCaptureSession.Preset?) -> AVCaptureDevice.Format {
        if let format { return format }
        if let index = device.formatIndex(for: preset ?? .high) { return device.formats[index] }
        return device.activeFormat
    }

    /// Refuses a path whose folder is missing or not writable, before any capture starts.
    static func checkWritable(_ url: URL) throws {
        let folder = url.deletingLastPathComponent().path
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw UsageError("cannot write '\(url.path)': folder '\(folder)' does not exist")
        }
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), isFolder.boolValue {
            throw UsageError("cannot write '\(url.path)': it is a folder")
        }
        guard FileManager.default.isWritableFile(atPath: folder) else {
            throw UsageError("cannot write '\(url.path)': folder '\(folder)' is not writable")
        }
    }
}

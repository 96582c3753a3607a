import Foundation
import OpenCapture

/// `capture photo`: takes one full-resolution JPEG or HEIC with EXIF, or a raw DNG.
enum PhotoCommand {
    static let spec = CommandSpec(
        name: "photo", summary: "Take a full-resolution JPEG or HEIC photo with EXIF, or a raw DNG", synopsis: "[options] -o FILE.jpg|.heic|.dng",
        description: """
            Starts the camera (preset photo unless --preset or --size says otherwise), lets
            exposure and white balance settle, and takes one photo at the format's full photo
            resolution (4032x3024 with the photo preset), written as JPEG with EXIF (exposure, ISO,
            f-number, focal length, white balance, flash, orientation, date, make and model).
            '-o -' writes the JPEG to standard output. FILE is written under a temporary name
            beside it and put in place when complete; if writing fails (a full disk), nothing
            is left. --codec hevc writes HEIC (.heic); --raw writes the sensor's Bayer mosaic
            as DNG (.dng; simulated cameras, and libcamera cameras whose pipeline streams
            raw); the file's extension must match. --quality quality
            fuses a burst of frames (less noise, slower); speed compresses fastest. --live
            takes a Live Photo: the still, and beside it FILE with the extension .mov, a
            QuickTime movie of about 1.5 s either side of the still sharing its content
            identifier (the camera runs 1.5 s first to fill its ring of frames).
            """,
        options: CaptureOptions.camera + [
            .choice("--flash", "MODE", ["off", "on", "auto"], help: "off (default), on or auto (fires in dim light); cameras without a flash accept only off"),
            .integer("--settle", in: 0...10_000, help: "Video frames to run before the photo (default 15)"),
            .choice("--codec", "CODEC", ["jpeg", "hevc"], help: "jpeg (default, .jpg) or hevc (HEIC, .heic)"),
            .choice("--quality", "PRIORITY", ["speed", "balanced", "quality"], help: "speed, balanced (default) or quality (multi-frame fusion)"),
            .flag("--raw", help: "Write the raw Bayer photo as DNG (.dng); simulated and raw libcamera cameras"),
            .flag("--live", help: "A Live Photo: also write the movie as FILE's name with .mov; simulated cameras only"),
            CaptureOptions.overwrite,
            OutputOptions.option("FILE", help: "The .jpg file to write (required); '-' is standard output"),
        ],
        run: run)

    static func run(_ args: Arguments) throws -> Int32 {
        // Photos default to the photo preset (the full 4:3 sensor), as camera apps use.
        let plan = try CapturePlan(args, defaultPreset: .photo)
        let flash: AVCaptureDevice.FlashMode
        switch args.value("--flash")?.lowercased() {
        case "on": flash = .on
        case "auto": flash = .auto
        default: flash = .off
        }
        if flash != .off && !plan.device.hasFlash {
            throw UsageError("\(plan.device.localizedName) has no flash; use --flash off")
        }
        let settle = args.integer("--settle") ?? 15
        // The extension is checked first: a wrong one is the mistake to report, whatever the file.
        let kind = try PhotoKind(args, path: args.value("--output"))
        let target = try OutputOptions.target(args, placeholder: "FILE.jpg", missing: "where to write the photo")
        var movie: URL?
        if args.has("--live") {
            if kind.raw { throw UsageError("--live takes a processed photo; it takes no --raw") }
            guard target.isCreatedByUs else { throw UsageError("--live writes a movie beside the photo; name a file with -o") }
            let url = URL(fileURLWithPath: target.path).deletingPathExtension().appendingPathExtension("mov")
            if FileManager.default.fileExists(atPath: url.path) {
                guard args.has("--overwrite") else { throw UsageError("\(url.path) exists; use --overwrite to replace it") }
            }
            movie = url
        }
        let taker = PhotoTaker(plan: plan, flash: flash, settleFrames: settle, kind: kind, liveMovie: movie)
        let result = try taker.take()
        // Opened only now, so that a photo that fails (or Ctrl-C while settling) leaves no file.
        let file = try OutputFile(target)
        do {
            try file.write(result.data)
            try file.commit()
        } catch {
            file.discard()
            if let movie { try? FileManager.default.removeItem(at: movie) }
            let what = target.isCreatedByUs ? "no photo written" : "the photo was not written in full"
            throw CommandFailure(message: "\(ErrorText.line(error)) (\(what))")
        }
        // A file deck or a V4L2 camera does not know its aperture (0): say so, as `formats` does.
        let aperture = result.aperture > 0 ? String(format: "f/%.1f", result.aperture) : "aperture unknown"
        let report = String(
            format: "wrote %dx%d %@ (%d KB) to %@: exposure 1/%.0f s, ISO %.0f, %@, flash %@",
            result.width, result.height, kind.name, result.data.count / 1024, target.name, 1 / result.exposure, result.iso, aperture,
            result.flashFired ? "fired" : "off")
            + (result.movieDuration.map { String(format: "; Live Photo movie %.1f s to %@", $0, movie?.path ?? "") } ?? "")
        FileHandle.standardError.write(Data((report + "\n").utf8))
        return 0
    }
}

/// Runs a session until exposure settles, takes the photo and waits for it.
final class PhotoTaker: NSObject, AVCapturePhotoCaptureDelegate, AVCaptureVideoDataOutputSampleBufferDelegate, @unchecked Sendable {
    struct Result {
        var data: Data
        var width: Int
        var height: Int
        var exposure: Double
        var iso: Double
        var aperture: Double
        var flashFired: Bool
        /// The Live Photo movie's length, when one was written.
        var movieDuration: Double?
    }

    private let plan: CapturePlan
    private let flash: AVCaptureDevice.FlashMode
    private let settleFrames: Int
    private let kind: PhotoKind
    /// Where a Live Photo's movie goes (nil: a still only).
    private let liveMovie: URL?
    private var movieDuration: Double?
    private let settled = DispatchSemaphore(value: 0)
    private let done = DispatchSemaphore(value: 0)
    private let queue = DispatchQueue(label: "capture.photo.frames")
    private var frames = 0
    private var result: Result?
    private var failure: (any Error)?

    /// Seconds without a frame while settling, and for the photo, before giving up.
    static let stallLimit = 10.0
    // A 12 MP HEIC is compressed in software (x265): several seconds, more on a busy machine.
    static let photoLimit = 120.0

    init(plan: CapturePlan, flash: AVCaptureDevice.FlashMode, settleFrames: Int, kind: PhotoKind = PhotoKind(), liveMovie: URL? = nil) {
        self.plan = plan
        self.flash = flash
        // A Live Photo needs the ring full: 1.5 s of frames before the still.
        let rate = 1 / max(plan.device.activeVideoMinFrameDuration.seconds, 1.0 / 240)
        self.settleFrames = liveMovie == nil ? settleFrames : max(settleFrames, Int((1.6 * rate).rounded(.up)))
        self.kind = kind
        self.liveMovie = liveMovie
    }

    func take() throws -> Result {
        let session = AVCaptureSession()
        let photoOutput = AVCapturePhotoOutput()
        let frameOutput = AVCaptureVideoDataOutput()
        frameOutput.setSampleBufferDelegate(self, queue: queue)
        try SessionSetup.configure(session, plan: plan, outputs: [frameOutput, photoOutput])
        if let liveMovie {
            guard photoOutput.isLivePhotoCaptureSupported else {
                throw UsageError("--live needs a camera that takes Live Photos (a simulated one)")
            }
            photoOutput.isLivePhotoCaptureEnabled = true  // before the session starts, as Apple asks
            try? FileManager.default.removeItem(at: liveMovie)  // only there with --overwrite
        }
        try session.startRunningChecked()
        defer { session.stopRunning() }
        // Waits end when the camera stops delivering, so that a stalled camera cannot hang
        // the tool: settling goes on as long as frames keep coming.
        var seen = -1
        var progressed = DispatchTime.now()
        while settleFrames > 0, settled.wait(timeout: .now() + 0.05) == .timedOut {
            let now = queue.sync { frames }
            // A file deck stopped at the end of a file shorter than the settling shows its last frame: that is the photo.
            if now > 0 && plan.device.transportControlsSupported && plan.device.transportControlsPlaybackMode == .notPlaying { break }
            if now > seen {
                seen = now
                progressed = .now()
            } else if DispatchTime.now().uptimeNanoseconds - progressed.uptimeNanoseconds > UInt64(Self.stallLimit * 1e9) {
                throw CommandFailure(message: "\(plan.device.localizedName) delivered no frames for \(Int(Self.stallLimit)) s")
            }
        }
        let settings = try kind.settings(for: photoOutput)
        settings.flashMode = flash
        settings.livePhotoMovieFileURL = liveMovie
        if settings.photoQualityPrioritization > photoOutput.maxPhotoQualityPrioritization {
            photoOutput.maxPhotoQualityPrioritization = settings.photoQualityPrioritization
        }
        try photoOutput.capturePhotoChecked(with: settings, delegate: self)
        guard done.wait(timeout: .now() + Self.photoLimit) == .success else {
            throw CommandFailure(message: "\(plan.device.localizedName) delivered no photo within \(Int(Self.photoLimit)) s")
        }
        if let failure { throw failure }
        guard var result else { throw CommandFailure(message: "the camera returned no photo") }
        result.movieDuration = movieDuration
        return result
    }

    func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        frames += 1
        if frames == settleFrames { settled.signal() }
    }

    func photoOutput(_ output: AVCapturePhotoOutput, didFinishProcessingPhoto photo: AVCapturePhoto, error: (any Error)?) {
        if let error {
            failure = error
            return
        }
        guard let data = photo.fileDataRepresentation() else {
            failure = CommandFailure(message: "the camera returned no photo data")
            return
        }
        let exif = photo.metadata["{Exif}"] as? [String: Any] ?? [:]
        let size = photo.isRawPhoto ? photo.resolvedSettings.rawPhotoDimensions : photo.resolvedSettings.photoDimensions
        result = Result(
            data: data, width: Int(size.width), height: Int(size.height),
            exposure: exif["ExposureTime"] as? Double ?? 0, iso: Double((exif["ISOSpeedRatings"] as? [Int])?.first ?? 0),
            aperture: exif["FNumber"] as? Double ?? 0, flashFired: photo.resolvedSettings.isFlashEnabled)
    }

    func photoOutput(
        _ output: AVCapturePhotoOutput, didFinishProcessingLivePhotoToMovieFileAt outputFileURL: URL, duration: CMTime,
        photoDisplayTime: CMTime, resolvedSettings: AVCaptureResolvedPhotoSettings, error: (any Error)?
    ) {
        if let error {
            if failure == nil { failure = CommandFailure(message: "the Live Photo movie was not written: \(ErrorText.line(error))") }
        } else {
            movieDuration = duration.seconds
        }
    }

    func photoOutput(_ output: AVCapturePhotoOutput, didFinishCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings, error: (any Error)?) {
        if let error, failure == nil { failure = error }
        done.signal()
    }
}

/// What `capture photo` writes: codec or raw, and the quality prioritization, checked
/// against the output file's extension.
struct PhotoKind {
    var codec = AVVideoCodecType.jpeg
    var raw = false
    var priority = AVCapturePhotoOutput.QualityPrioritization.balanced

    init() {}

    init(_ args: Arguments, path: String?) throws {
        if args.value("--codec")?.lowercased() == "hevc" { codec = .hevc }
        raw = args.has("--raw")
        if raw && args.value("--codec") != nil { throw UsageError("--raw writes DNG; it takes no --codec") }
        let quality = args.value("--quality")?.lowercased()
        switch quality {
        case "speed": priority = .speed
        case "quality": priority = .quality
        default: priority = .balanced
        }
        if raw {
            // Apple's rule: a Bayer raw photo is taken at speed prioritization, nothing else.
            if let quality, quality != "speed" {
                throw UsageError("--raw takes --quality speed only (Bayer raw photos are taken at speed prioritization), not --quality \(quality)")
            }
            priority = .speed
        }
        guard let path, path != "-" else { return }
        // Only a photo extension of another kind is refused: a device (/dev/full, a FIFO) or
        // a name without a photo extension takes what it is given, as before the codecs.
        let pathExtension = (path as NSString).pathExtension.lowercased()
        guard extensions.contains(pathExtension) || !Self.photoExtensions.contains(pathExtension) else {
            throw UsageError("\(name) photos are written to .\(extensions[0]) files, not '\(path)'; name the file FILE.\(extensions[0])")
        }
    }

    /// Every extension of a photo file `capture photo` can write.
    static let photoExtensions: Set<String> = ["jpg", "jpeg", "heic", "heif", "dng"]

    /// The file extensions that fit, the usual one first.
    var extensions: [String] { raw ? ["dng"] : codec == .hevc ? ["heic", "heif"] : ["jpg", "jpeg"] }
    var name: String { raw ? "DNG" : codec == .hevc ? "HEIC" : "JPEG" }

    /// The settings for one photo from `output`.
    func settings(for output: AVCapturePhotoOutput) throws -> AVCapturePhotoSettings {
        let settings: AVCapturePhotoSettings
        if raw {
            guard let format = output.availableRawPhotoPixelFormatTypes.first else {
                throw UsageError("--raw needs a camera with raw photos (a simulated one, or a libcamera camera whose pipeline streams raw)")
            }
            settings = AVCapturePhotoSettings(rawPixelFormatType: format)
        } else {
            settings = AVCapturePhotoSettings(format: [AVVideoCodecKey: codec])
        }
        settings.photoQualityPrioritization = priority
        return settings
    }
}

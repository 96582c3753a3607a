import Foundation
import OpenCapture

/// `capture photo`: takes one full-resolution JPEG with EXIF.
enum PhotoCommand {
    static let spec = CommandSpec(
        name: "photo", summary: "Take a full-resolution JPEG photo with EXIF", synopsis: "[options] -o FILE.jpg",
        description: """
            Starts the camera (preset photo unless --preset or --size says otherwise), lets
            exposure and white balance settle, and takes one photo at the format's full photo
            resolution (4032x3024 with the photo preset), written as JPEG with EXIF (exposure, ISO,
            f-number, focal length, white balance, flash, orientation, date, make and model).
            '-o -' writes the JPEG to standard output. FILE is written under a temporary name
            beside it and put in place when complete; if writing fails (a full disk), nothing
            is left.
            """,
        options: CaptureOptions.camera + [
            .choice("--flash", "MODE", ["off", "on", "auto"], help: "off (default), on or auto (fires in dim light); cameras without a flash accept only off"),
            .integer("--settle", in: 0...10_000, help: "Video frames to run before the photo (default 15)"),
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
        let target = try OutputOptions.target(args, placeholder: "FILE.jpg", missing: "where to write the photo")
        let taker = PhotoTaker(plan: plan, flash: flash, settleFrames: settle)
        let result = try taker.take()
        // Opened only now, so that a photo that fails (or Ctrl-C while settling) leaves no file.
        let file = try OutputFile(target)
        do {
            try file.write(result.data)
            try file.commit()
        } catch {
            file.discard()
            let what = target.isCreatedByUs ? "no photo written" : "the photo was not written in full"
            throw CommandFailure(message: "\(ErrorText.line(error)) (\(what))")
        }
        let report = String(
            format: "wrote %dx%d JPEG (%d KB) to %@: exposure 1/%.0f s, ISO %.0f, f/%.1f, flash %@",
            result.width, result.height, result.data.count / 1024, target.name, 1 / result.exposure, result.iso, result.aperture,
            result.flashFired ? "fired" : "off")
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
    }

    private let plan: CapturePlan
    private let flash: AVCaptureDevice.FlashMode
    private let settleFrames: Int
    private let settled = DispatchSemaphore(value: 0)
    private let done = DispatchSemaphore(value: 0)
    private let queue = DispatchQueue(label: "capture.photo.frames")
    private var frames = 0
    private var result: Result?
    private var failure: (any Error)?

    /// Seconds without a frame while settling, and for the photo, before giving up.
    static let stallLimit = 10.0
    static let photoLimit = 30.0

    init(plan: CapturePlan, flash: AVCaptureDevice.FlashMode, settleFrames: Int) {
        self.plan = plan
        self.flash = flash
        self.settleFrames = settleFrames
    }

    func take() throws -> Result {
        let session = AVCaptureSession()
        let photoOutput = AVCapturePhotoOutput()
        let frameOutput = AVCaptureVideoDataOutput()
        frameOutput.setSampleBufferDelegate(self, queue: queue)
        try SessionSetup.configure(session, plan: plan, outputs: [frameOutput, photoOutput])
        try session.startRunningChecked()
        defer { session.stopRunning() }
        // Waits end when the camera stops delivering, so that a stalled camera cannot hang
        // the tool: settling goes on as long as frames keep coming.
        var seen = -1
        while settleFrames > 0, settled.wait(timeout: .now() + Self.stallLimit) == .timedOut {
            let now = queue.sync { frames }
            guard now > seen else { throw CommandFailure(message: "\(plan.device.localizedName) delivered no frames for \(Int(Self.stallLimit)) s") }
            seen = now
        }
        let settings = AVCapturePhotoSettings()
        settings.flashMode = flash
        try photoOutput.capturePhotoChecked(with: settings, delegate: self)
        guard done.wait(timeout: .now() + Self.photoLimit) == .success else {
            throw CommandFailure(message: "\(plan.device.localizedName) delivered no photo within \(Int(Self.photoLimit)) s")
        }
        if let failure { throw failure }
        guard let result else { throw CommandFailure(message: "the camera returned no photo") }
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
        result = Result(
            data: data, width: Int(photo.resolvedSettings.photoDimensions.width), height: Int(photo.resolvedSettings.photoDimensions.height),
            exposure: exif["ExposureTime"] as? Double ?? 0, iso: Double((exif["ISOSpeedRatings"] as? [Int])?.first ?? 0),
            aperture: exif["FNumber"] as? Double ?? 0, flashFired: photo.resolvedSettings.isFlashEnabled)
    }

    func photoOutput(_ output: AVCapturePhotoOutput, didFinishCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings, error: (any Error)?) {
        if let error, failure == nil { failure = error }
        done.signal()
    }
}

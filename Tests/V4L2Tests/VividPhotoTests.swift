import Foundation
import MediaIO
import Synchronization
import Testing
import TestSupport
@testable import OpenCapture
@testable import V4L2Camera

/// Photos from the real vivid driver, in the VM (`scripts/vivid-vm`): a photo is a frame
/// vivid sent, read back from the file; zero shutter lag; unplugging during a photo; the
/// command-line tool.
@Suite("vivid: photos on the real kernel driver", .serialized, .enabled(if: Vivid.isPresent))
struct VividPhotoTests {
    /// A session streaming 640x360 NV12 at 25 fps to a video data output (which notes each
    /// frame's timestamp and the luma of vivid's colour bars) and a photo output.
    final class PhotoRig: NSObject, AVCaptureVideoDataOutputSampleBufferDelegate, AVCapturePhotoCaptureDelegate, @unchecked Sendable {
        let session = AVCaptureSession()
        let video = AVCaptureVideoDataOutput()
        let photos = AVCapturePhotoOutput()
        let device: AVCaptureDevice
        private let queue = DispatchQueue(label: "vivid.photo.frames")
        private let state = Mutex<(frames: [Int64: [Double]], finished: [(AVCapturePhoto?, (any Error)?, Int64)], captureDone: Int, drops: [String])>(([:], [], 0, []))

        init(device: AVCaptureDevice) throws {
            self.device = device
            super.init()
            session.beginConfiguration()
            session.addInput(try AVCaptureDeviceInput(device: device))
            video.videoSettings = [kCVPixelBufferPixelFormatTypeKey as String: PixelFormat.yuv420BiPlanarVideoRange.rawValue]
            video.setSampleBufferDelegate(self, queue: queue)
            session.addOutput(video)
            session.addOutput(photos)
            try device.lockForConfiguration()
            device.activeFormat = try #require(Vivid.format(device, .nv12, 640, 360))
            device.activeVideoMinFrameDuration = CMTime(value: 1, timescale: 25)
            device.activeVideoMaxFrameDuration = CMTime(value: 1, timescale: 25)
            device.unlockForConfiguration()
            session.commitConfiguration()
        }

        /// Bar lumas (full range) of a frame, in the rows below vivid's text overlay.
        func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
            guard let image = sampleBuffer.imageBuffer else { return }
            CVPixelBufferLockBaseAddress(image, .readOnly)
            defer { CVPixelBufferUnlockBaseAddress(image, .readOnly) }
            let base = CVPixelBufferGetBaseAddressOfPlane(image, 0)!.assumingMemoryBound(to: UInt8.self)
            let stride = CVPixelBufferGetBytesPerRowOfPlane(image, 0)
            let bars = PhotoRig.bars(width: 640, height: 360) { x, y in (Double(base[y * stride + x]) - 16) * 255 / 219 }
            let time = sampleBuffer.presentationTimeStamp.value
            state.withLock { $0.frames[time] = bars }
        }

        /// Mean luma of the middle of each of the 8 bars over rows 300..<350.
        static func bars(width: Int, height: Int, luma: (Int, Int) -> Double) -> [Double] {
            (0..<8).map { bar in
                let x0 = width * (2 * bar + 1) / 16 - 8
                var sum = 0.0
                for y in 300..<350 { for x in x0..<(x0 + 16) { sum += luma(x, y) } }
                return sum / (50 * 16)
            }
        }

        func captureOutput(_ output: AVCaptureOutput, didDrop sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
            let reason = sampleBuffer.attachments[.droppedFrameReason]?.value as? String ?? "?"
            state.withLock { $0.drops.append(reason) }
        }

        /// The reason of each frame the video data output was told was dropped.
        var drops: [String] { state.withLock { $0.drops } }

        func photoOutput(_ output: AVCapturePhotoOutput, didFinishProcessingPhoto photo: AVCapturePhoto, error: (any Error)?) {
            let now = CMClockGetTime(CMClockGetHostTimeClock()).value
            state.withLock { $0.finished.append((photo, error, now)) }
        }

        func photoOutput(_ output: AVCapturePhotoOutput, didFinishCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings, error: (any Error)?) {
            state.withLock { $0.captureDone += 1 }
        }

        /// Takes one JPEG photo; returns it (or its error), the request's and the delegate's host times.
        func takePhoto(_ settings: AVCapturePhotoSettings = AVCapturePhotoSettings()) -> (photo: AVCapturePhoto?, error: (any Error)?, requested: Int64, delivered: Int64) {
            let count = state.withLock { $0.finished.count }
            let requested = CMClockGetTime(CMClockGetHostTimeClock()).value
            photos.capturePhoto(with: settings, delegate: self)
            eventually("the photo delegate was called") { state.withLock { $0.finished.count > count } }
            eventually("the capture finished") { state.withLock { $0.captureDone > count } }
            let result = state.withLock { $0.finished.count > count ? $0.finished[count] : (nil, nil, 0) }
            return (result.0, result.1, requested, result.2)
        }

        /// Takes one capture of `count` photos (a bracket); returns the photos delivered.
        func takePhotos(_ settings: AVCapturePhotoSettings, count: Int) -> [AVCapturePhoto] {
            let (finished, done) = state.withLock { ($0.finished.count, $0.captureDone) }
            photos.capturePhoto(with: settings, delegate: self)
            eventually("the capture finished") { state.withLock { $0.captureDone > done } }
            return state.withLock { Array($0.finished[finished...]) }.compactMap { photo, error, _ in error == nil ? photo : nil }
        }

        func bars(at time: Int64) -> [Double]? { state.withLock { $0.frames[time] } }
        var latestFrameTime: Int64? { state.withLock { $0.frames.keys.max() } }
        var frameCount: Int { state.withLock { $0.frames.count } }
    }

    /// The file's pixels, size and EXIF.
    static func readBack(_ photo: AVCapturePhoto) throws -> (PictureDecoder.Picture, ExifReader) {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("vivid-photo-\(UUID().uuidString).jpg")
        try #require(photo.fileDataRepresentation()).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let data = try Data(contentsOf: url)
        let picture = try PictureDecoder.decode(data, fitting: .init(width: 8192, height: 8192))
        let exif = try #require(JPEGSegments.exifPayload(in: data).flatMap { ExifReader(tiff: $0) })
        return (picture, exif)
    }

    static func rational(_ value: ExifValue?) -> Double? {
        guard case .rational(let values)? = value, let first = values.first, first.denominator != 0 else { return nil }
        return Double(first.numerator) / Double(first.denominator)
    }

    /// A photo at the stream's size with zero shutter lag off: the first frame vivid stamped
    /// after the request; the file's pixels are that frame's, its EXIF what the driver did.
    @Test func photoAtTheStreamSizeIsTheNextFrame() throws {
        let device = try #require(Vivid.device())
        let camera = Vivid.camera(device)
        let gain = try #require(camera.controls.first { $0.id == V4L2ControlID.gain && $0.defaultValue > 0 })
        try Vivid.set(device, "gain_automatic", 0)
        try Vivid.set(device, "gain", gain.defaultValue + 20)
        defer { try? Vivid.set(device, "gain_automatic", 1) }
        let rig = try PhotoRig(device: device)
        rig.photos.isZeroShutterLagEnabled = false
        rig.session.startRunning()
        defer { rig.session.stopRunning() }
        eventually("frames arrive") { rig.frameCount >= 3 }
        var lags: [Double] = []
        for _ in 0..<5 {
            let shot = rig.takePhoto()
            #expect(shot.error == nil, "\(String(describing: shot.error))")
            let photo = try #require(shot.photo)
            #expect(photo.timestamp.value >= shot.requested, "the still is a frame stamped after the request")
            lags.append(Double(shot.delivered - shot.requested) / 1e6)
            let (picture, exif) = try Self.readBack(photo)
            #expect(picture.width == 640 && picture.height == 360)
            // vivid has no exposure control: the frame interval; gain 20 over its default.
            #expect(Self.rational(exif.exif[.exposureTime]).map { abs($0 - 1.0 / 25) < 1e-6 } == true, "\(String(describing: exif.exif[.exposureTime]))")
            let iso = 100 * Double(gain.defaultValue + 20) / Double(gain.defaultValue)
            #expect(exif.exif[.isoSpeedRatings] == .short([UInt16(iso.rounded())]), "\(String(describing: exif.exif[.isoSpeedRatings]))")
            #expect(exif.ifd0[.make] == .ascii("vivid"))
            let sent = try #require(rig.bars(at: photo.timestamp.value), "the photo's timestamp is a frame vivid sent")
            let rgb = picture.rgb
            let got = PhotoRig.bars(width: 640, height: 360) { x, y in
                let i = 3 * (y * 640 + x)
                return 0.299 * Double(rgb[i]) + 0.587 * Double(rgb[i + 1]) + 0.114 * Double(rgb[i + 2])
            }
            for (a, b) in zip(sent, got) { #expect(abs(a - b) <= 4, "bars: sent \(sent), photo \(got)") }
        }
        let sorted = lags.sorted()
        Vivid.log("shutter lag 640x360 NV12 25 fps, request to didFinishProcessingPhoto: median \(sorted[2]) ms, min \(sorted[0]) ms, max \(sorted[4]) ms")
    }

    /// A still larger than the stream: the 640x360 format lists vivid's larger frame sizes as
    /// photo sizes (settings default to the smallest, the stream's); a 1280x720 photo switches
    /// vivid to 1280x720 NV12 for one frame and back: the file is 1280x720 with vivid's bars,
    /// EXIF exposure time the 1280x720 format's frame interval (vivid has no exposure control),
    /// the video resumes and the gap comes to the video data output as dropped frames with
    /// the discontinuity reason; the next default photo is at the stream's size again.
    @Test func photoLargerThanTheStreamSwitchesTheFormatAndBack() throws {
        let device = try #require(Vivid.device())
        let rig = try PhotoRig(device: device)
        let sizes = device.activeFormat.supportedMaxPhotoDimensions.map { "\($0.width)x\($0.height)" }
        #expect(sizes == ["640x360", "640x480", "1280x720", "1920x1080", "3840x2160"], "\(sizes)")
        #expect(rig.photos.maxPhotoDimensions.width == 3840, "the output's default is the format's largest")
        rig.photos.isZeroShutterLagEnabled = false
        rig.session.startRunning()
        defer { rig.session.stopRunning() }
        eventually("frames arrive") { rig.frameCount >= 3 }
        let large = AVCapturePhotoSettings()
        large.maxPhotoDimensions = CMVideoDimensions(width: 1280, height: 720)
        let before = rig.frameCount
        let shot = rig.takePhoto(large)
        #expect(shot.error == nil, "\(String(describing: shot.error))")
        let photo = try #require(shot.photo)
        #expect(photo.resolvedSettings.photoDimensions.width == 1280 && photo.resolvedSettings.photoDimensions.height == 720)
        let (picture, exif) = try Self.readBack(photo)
        #expect(picture.width == 1280 && picture.height == 720)
        let still = try #require(Vivid.format(device, .nv12, 1280, 720))
        let fastest = try #require(still.videoSupportedFrameRateRanges.map(\.maxFrameRate).max())
        let exposure = Self.rational(exif.exif[.exposureTime])
        #expect(exposure.map { abs($0 - 1 / fastest) < 1e-4 } == true, "EXIF \(String(describing: exposure)), format 1/\(fastest)")
        let rgb = picture.rgb
        let got = (0..<8).map { bar -> Double in
            let x0 = 1280 * (2 * bar + 1) / 16 - 16
            var sum = 0.0
            for y in 600..<700 {
                for x in x0..<(x0 + 32) {
                    let i = 3 * (y * 1280 + x)
                    sum += 0.299 * Double(rgb[i]) + 0.587 * Double(rgb[i + 1]) + 0.114 * Double(rgb[i + 2])
                }
            }
            return sum / (100 * 32)
        }
        let latest = try #require(rig.latestFrameTime)
        let sent = try #require(rig.bars(at: latest))
        for (a, b) in zip(sent, got) { #expect(abs(a - b) <= 4, "bars: streamed \(sent), large photo \(got)") }
        eventually("the stream resumed after the still") { rig.frameCount >= before + 5 }
        let drops = rig.drops
        #expect(drops.contains(kCMSampleBufferDroppedFrameReason_Discontinuity), "\(drops)")
        // Four more for the shutter-lag figure (PERFORMANCE.md), each after the stream resumed.
        var lags = [Double(shot.delivered - shot.requested) / 1e6]
        for _ in 0..<4 {
            let count = rig.frameCount
            eventually("the stream runs between stills") { rig.frameCount >= count + 3 }
            let settings = AVCapturePhotoSettings()
            settings.maxPhotoDimensions = CMVideoDimensions(width: 1280, height: 720)
            let again = rig.takePhoto(settings)
            #expect(again.error == nil && again.photo?.resolvedSettings.photoDimensions.width == 1280)
            lags.append(Double(again.delivered - again.requested) / 1e6)
        }
        let sorted = lags.sorted()
        Vivid.log("shutter lag 1280x720 still from a 640x360 NV12 25 fps stream (format switch), request to didFinishProcessingPhoto: median \(sorted[2]) ms, min \(sorted[0]) ms, max \(sorted[4]) ms; first switch dropped \(drops.count) frames (\(Set(drops)))")
        let small = rig.takePhoto()
        #expect(small.error == nil)
        #expect(try #require(small.photo).resolvedSettings.photoDimensions.width == 640, "settings default to the smallest photo size")
    }

    /// A bracket of three ISOs on vivid, whose only exposure control is gain (ISO = 100 ×
    /// gain / default): each still's EXIF ISO is its entry's, the stills come in order, each
    /// after the one before, the stream keeps its own gain afterwards; and what the frames'
    /// statistics saw of each change is logged (vivid's gain does not alter its picture, so
    /// the means stay and each still is the first frame after the write).
    @Test func bracketOfThreeISOsSetsTheGainForEachStill() throws {
        let device = try #require(Vivid.device())
        let rig = try PhotoRig(device: device)
        #expect(rig.photos.maxBracketedCapturePhotoCount == 3)
        #expect(device.activeFormat.minISO == 1 && device.activeFormat.maxISO == 255)
        try Vivid.set(device, "gain_automatic", 0)
        try Vivid.set(device, "gain", 100)
        defer { try? Vivid.set(device, "gain_automatic", 1) }
        rig.session.startRunning()
        defer { rig.session.stopRunning() }
        eventually("frames arrive") { rig.frameCount >= 3 }
        let isos: [Float] = [50, 100, 200]
        let bracket = AVCapturePhotoBracketSettings(
            rawPixelFormatType: 0, processedFormat: [AVVideoCodecKey: AVVideoCodecType.jpeg],
            bracketedSettings: isos.map { AVCaptureManualExposureBracketedStillImageSettings.manualExposureSettings(exposureDuration: AVCaptureDevice.currentExposureDuration, iso: $0) })
        let photos = rig.takePhotos(bracket, count: 3)
        #expect(photos.count == 3)
        var means: [Double] = []
        for (index, photo) in photos.enumerated() {
            let (picture, exif) = try Self.readBack(photo)
            #expect(exif.exif[.isoSpeedRatings] == .short([UInt16(isos[index])]), "still \(index): \(String(describing: exif.exif[.isoSpeedRatings]))")
            if index > 0 { #expect(photo.timestamp > photos[index - 1].timestamp) }
            let rgb = picture.rgb
            means.append(stride(from: 1, to: rgb.count, by: 3 * 97).reduce(0.0) { $0 + Double(rgb[$1]) } / Double((rgb.count + 3 * 97 - 2) / (3 * 97)))
        }
        #expect(try device.linuxControlValue("gain") == 100, "the stream's gain came back")
        Vivid.log("bracket ISO \(isos) on vivid (gain \(isos.map { Int($0) })): still means \(means.map { ($0 * 10).rounded() / 10 })")
    }

    /// How the bracket picker fares on the real driver's frames. vivid's exposure controls
    /// (gain) leave its picture alone, so a bracket there always falls back; its brightness
    /// control does change the picture, so it is written here as a bracket writes an
    /// exposure: the picker must see the step and take the first frame stamped after the
    /// write that shows it.
    @Test func bracketPickerSeesVividsBrightnessStep() throws {
        let device = try #require(Vivid.device())
        let camera = Vivid.camera(device)
        let rig = try PhotoRig(device: device)
        let original = try device.linuxControlValue("brightness")
        defer { try? Vivid.set(device, "brightness", original) }
        rig.session.startRunning()
        defer { rig.session.stopRunning() }
        eventually("frames arrive") { rig.frameCount >= 3 }
        var report: [String] = []
        for level in [min(original + 80, 255), max(original - 80, 0)] {
            let picker = V4L2BracketPicker()
            // Each frame as the picker sees it: after the write when it came armed and not
            // before the arming moment (one lock around the offer and the arming, so the two
            // never disagree).
            let gate = Mutex<(armedAt: Int64?, frames: [(time: Int64, mean: Double, afterWrite: Bool)])>((nil, []))
            camera.stills.watchFrames { buffer, metadata in
                gate.withLock { gate in
                    let after = gate.armedAt.map { V4L2BracketPicker.moment(of: metadata) >= $0 } ?? false
                    gate.frames.append((metadata.presentationTime.value, V4L2BracketPicker.meanLuma(buffer), after))
                    picker.offer(buffer, metadata)
                }
            }
            try #require(picker.waitForBaseline(seconds: 2))
            try Vivid.set(device, "brightness", level)
            gate.withLock { gate in
                let now = CMClockGetTime(CMClockGetHostTimeClock()).value
                gate.armedAt = now
                picker.arm(at: now)
            }
            let pick = picker.wait(seconds: 3)
            camera.stills.watchFrames(nil)
            let picked = try #require(pick, "no pick after brightness \(level)")
            let frames = gate.withLock { $0.frames }
            let baseline = try #require(frames.last { !$0.afterWrite }?.mean)
            let after = frames.filter(\.afterWrite)
            let index = after.firstIndex { $0.time == picked.metadata.presentationTime.value }
            let firstChanged = after.firstIndex { abs($0.mean - baseline) > V4L2BracketPicker.threshold(baseline) }
            #expect(picked.detected, "brightness \(level): means after the write \(after.map(\.mean))")
            #expect(index != nil && index == firstChanged, "picked frame \(String(describing: index)), first changed \(String(describing: firstChanged))")
            report.append("brightness \(original)→\(level): mean \((baseline * 10).rounded() / 10)→\((picked.mean * 10).rounded() / 10), picked frame \(index.map(String.init) ?? "?") after the write, detected \(picked.detected)")
            // Back to the stream's look, shown for a few frames before the next step.
            try Vivid.set(device, "brightness", original)
            let count = rig.frameCount
            eventually("frames after the restore") { rig.frameCount >= count + 3 }
        }
        Vivid.log("bracket picker on vivid brightness steps: \(report.joined(separator: "; "))")
    }

    /// Flash on a webcam without one, as Apple answers for a camera without a flash: no
    /// flash, only `.off`, `.on` refused with Apple's reason, never a flash scene, and a photo
    /// resolved without flash.
    @Test func noFlashAnswersAsAppleDoes() throws {
        let device = try #require(Vivid.device())
        let rig = try PhotoRig(device: device)
        #expect(!device.hasFlash && !device.isFlashAvailable)
        #expect(rig.photos.supportedFlashModes == [.off])
        let monitoring = AVCapturePhotoSettings()
        monitoring.flashMode = .off
        rig.photos.photoSettingsForSceneMonitoring = monitoring
        rig.session.startRunning()
        defer { rig.session.stopRunning() }
        eventually("frames arrive") { rig.frameCount >= 3 }
        #expect(!rig.photos.isFlashScene)
        let flash = AVCapturePhotoSettings()
        flash.flashMode = .on
        let refused = #expect(throws: AVCaptureException.self) { try rig.photos.capturePhotoChecked(with: flash, delegate: rig) }
        #expect(refused?.reason.contains("flashMode must be set to a value present in the supportedFlashModes array") == true)
        let shot = rig.takePhoto()
        #expect(try #require(shot.photo).resolvedSettings.isFlashEnabled == false)
    }

    /// Quality prioritization on a V4L2 camera: every level takes one frame (no multi-frame
    /// fusion: a webcam denoises in its own pipeline, and fusing a moving scene would blur);
    /// `.speed` encodes at JPEG quality 80, `.balanced` and `.quality` at 92, so the same
    /// frame of vivid's bars makes a smaller file at `.speed`; a level above
    /// `maxPhotoQualityPrioritization` is refused.
    @Test func qualityPrioritizationPicksTheEncoding() throws {
        let device = try #require(Vivid.device())
        let rig = try PhotoRig(device: device)
        rig.photos.maxPhotoQualityPrioritization = .quality
        rig.session.startRunning()
        defer { rig.session.stopRunning() }
        eventually("frames arrive") { rig.frameCount >= 3 }
        var sizes: [AVCapturePhotoOutput.QualityPrioritization: Int] = [:]
        for level in [AVCapturePhotoOutput.QualityPrioritization.speed, .balanced, .quality] {
            let settings = AVCapturePhotoSettings()
            settings.photoQualityPrioritization = level
            let shot = rig.takePhoto(settings)
            let photo = try #require(shot.photo, "\(level.rawValue): \(String(describing: shot.error))")
            #expect(photo.resolvedSettings.fusedFrames == 1)
            sizes[level] = try #require(photo.fileDataRepresentation()).count
        }
        let speed = try #require(sizes[.speed]), balanced = try #require(sizes[.balanced]), quality = try #require(sizes[.quality])
        #expect(speed < balanced && abs(balanced - quality) * 50 < quality, "JPEG bytes: speed \(speed), balanced \(balanced), quality \(quality)")
        rig.photos.maxPhotoQualityPrioritization = .speed
        let tooHigh = AVCapturePhotoSettings()
        tooHigh.photoQualityPrioritization = .balanced
        #expect(throws: AVCaptureException.self) { try rig.photos.capturePhotoChecked(with: tooHigh, delegate: rig) }
    }

    /// Zero shutter lag: the still is a frame stamped before the request, from the history.
    @Test func zeroShutterLagStillIsAFrameFromBeforeTheRequest() throws {
        let device = try #require(Vivid.device())
        let rig = try PhotoRig(device: device)
        #expect(rig.photos.isZeroShutterLagSupported && rig.photos.isZeroShutterLagEnabled)
        rig.session.startRunning()
        defer { rig.session.stopRunning() }
        let camera = Vivid.camera(device)
        eventually("the history holds frames") { camera.recentFrameBytes >= 2 * 640 * 360 * 3 / 2 }
        let shot = rig.takePhoto()
        let photo = try #require(shot.photo)
        #expect(shot.error == nil)
        #expect(photo.timestamp.value <= shot.requested, "stamped \(photo.timestamp.value), requested \(shot.requested)")
        #expect(rig.bars(at: photo.timestamp.value) != nil, "the photo's timestamp is a frame vivid sent")
        let (picture, _) = try Self.readBack(photo)
        #expect(picture.width == 640 && picture.height == 360)
    }

    /// The command-line tool takes a JPEG from vivid, and records a movie (FFmpeg is loaded
    /// with dlopen, so the VM must carry it).
    @Test func commandLinePhotoAndRecord() throws {
        let tool = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("capture").path
        let photo = try Vivid.run("/bin/sh", ["-c", "\(tool) photo --device v4l2:platform:vivid-000 -o /tmp/p.jpg; echo status=$?"])
        #expect(photo.contains("status=0"), "\(photo)")
        let data = try Data(contentsOf: URL(fileURLWithPath: "/tmp/p.jpg"))
        #expect(data.prefix(2) == Data([0xFF, 0xD8]))
        #expect((try? PictureDecoder.decode(data, fitting: .init(width: 8192, height: 8192))) != nil)
        let record = try Vivid.run("/bin/sh", ["-c", "\(tool) record --device v4l2:platform:vivid-000 --duration 1 -o /tmp/r.mp4; echo status=$?"])
        #expect(record.contains("status=0") && !record.contains("cannot load FFmpeg"), "\(record)")
        let size = (try? FileManager.default.attributesOfItem(atPath: "/tmp/r.mp4")[.size] as? Int) ?? 0
        #expect(size > 1000)
    }

    /// Every other command on vivid: photo as HEIC and as a Live Photo pair, record with
    /// sound from the default microphone (the VM's ALSA test cards), scan, serve with its
    /// Photo and Record buttons (POSTs from busybox wget), and stream to an RTMP listener
    /// (ffmpeg, when the run brought it as /opt/bin/ffmpeg).
    @Test func everyCommandOnVivid() throws {
        let tool = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("capture").path
        let id = "v4l2:platform:vivid-000"
        func run(_ script: String) throws -> String {
            let output = try Vivid.run("/bin/sh", ["-c", script + "; echo status=$?"])
            #expect(output.contains("status=0"), "\(script): \(output)")
            return output
        }
        func bytes(_ path: String) -> Data { (try? Data(contentsOf: URL(fileURLWithPath: path))) ?? Data() }

        _ = try run("\(tool) photo --device \(id) --codec hevc -o /tmp/p.heic")
        #expect(bytes("/tmp/p.heic").dropFirst(4).prefix(8) == Data("ftypheic".utf8))
        _ = try run("\(tool) photo --device \(id) --live -o /tmp/l.jpg")
        #expect(bytes("/tmp/l.jpg").prefix(2) == Data([0xFF, 0xD8]))
        #expect(bytes("/tmp/l.mov").range(of: Data("moov".utf8)) != nil, "the Live Photo's movie")

        _ = try run("timeout 60 \(tool) record --device \(id) --duration 2 -o /tmp/s.mp4")
        let movie = bytes("/tmp/s.mp4")
        #expect(movie.range(of: Data("vide".utf8)) != nil && movie.range(of: Data("soun".utf8)) != nil, "a video and a sound track")

        _ = try run("timeout 60 \(tool) scan --device \(id) --frames 20")

        // serve: the page's buttons are POST /photo and POST /record {"action": ...}; the VM
        // boots with its loopback interface down.
        let serve = try run(
            "(ifconfig lo 127.0.0.1 up || ip link set lo up); mkdir -p /tmp/saved && (timeout 60 \(tool) serve --device \(id) --listen 127.0.0.1:8089 --save-dir /tmp/saved > /tmp/serve.log 2>&1 &) && sleep 3"
                + " && wget -q -O - --header 'Content-Type: application/json' --post-data '{}' http://127.0.0.1:8089/photo"
                + " && wget -q -O - --header 'Content-Type: application/json' --post-data '{\"action\": \"start\"}' http://127.0.0.1:8089/record && sleep 2"
                + " && wget -q -O - --header 'Content-Type: application/json' --post-data '{\"action\": \"stop\"}' http://127.0.0.1:8089/record"
                + "; kill $(pidof capture) 2>/dev/null; sleep 1; ls /tmp/saved")
        #expect(serve.contains(".jpg") && serve.contains(".mov"), "\(serve)")

        if FileManager.default.isExecutableFile(atPath: "/opt/bin/ffmpeg") {
            let stream = try run(
                "(timeout 30 /opt/bin/ffmpeg -loglevel error -listen 1 -i rtmp://127.0.0.1:1935/live/vivid -c copy -y /tmp/got.flv &) && sleep 2"
                    + " && timeout 30 \(tool) stream rtmp://127.0.0.1:1935/live/vivid --device \(id) --duration 3 && sleep 2")
            #expect(bytes("/tmp/got.flv").count > 10_000, "the RTMP listener received the stream: \(stream)")
        } else {
            Vivid.log("stream not tried: this run has no /opt/bin/ffmpeg")
        }
    }

    /// What v4l2-ctl and cjpeg take to do a photo's job in one run (one frame to a file, then
    /// JPEG), against which the shutter lag above is recorded in PERFORMANCE.md. Measures; asserts
    /// only that the job was done.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/opt/bin/cjpeg")))
    func referenceOneFrameToJPEG() throws {
        let script = "v4l2-ctl -d /dev/video0 --set-fmt-video=width=640,height=360,pixelformat=RGB3 --stream-mmap --stream-count=1 --stream-to=/tmp/f.raw"
            + " && { printf 'P6\\n640 360\\n255\\n'; cat /tmp/f.raw; } > /tmp/f.ppm && /opt/bin/cjpeg -quality 90 /tmp/f.ppm > /tmp/f.jpg; echo status=$?"
        var times: [Double] = []
        for _ in 0..<5 {
            let start = ContinuousClock.now
            let output = try Vivid.run("/bin/sh", ["-c", script])
            times.append((ContinuousClock.now - start).seconds * 1000)
            #expect(output.contains("status=0"), "\(output)")
        }
        let sorted = times.sorted()
        Vivid.log("v4l2-ctl one frame + cjpeg 640x360: median \(sorted[2]) ms, min \(sorted[0]) ms, max \(sorted[4]) ms")
    }

    /// Unplugging while a photo waits for its frame: the delegate gets an error, nothing hangs.
    /// vivid drops every buffer first, so the photo is surely waiting; vivid is reloaded after.
    @Test func unplugDuringAPhotoFailsIt() throws {
        do {
            let device = try #require(Vivid.device())
            let rig = try PhotoRig(device: device)
            rig.photos.isZeroShutterLagEnabled = false
            rig.session.startRunning()
            eventually("frames arrive") { rig.frameCount >= 3 }
            try Vivid.set(device, "percentage_of_dropped_buffers", 100)
            let unplug = DispatchQueue(label: "vivid.unplug")
            unplug.asyncAfter(deadline: .now() + 0.5) { try? Vivid.set(device, "disconnect") }
            let shot = rig.takePhoto()
            #expect(shot.error != nil, "the photo failed")
            Vivid.log("photo during unplug: \(String(describing: shot.error))")
            rig.session.stopRunning()
        }
        // Fresh vivid for whatever runs next.
        #expect(Vivid.reload())
    }
}

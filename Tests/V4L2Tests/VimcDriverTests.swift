import Foundation
import MediaIO
import Synchronization
import Testing
import TestSupport

@testable import CaptureCore
@testable import LibcameraCamera
@testable import OpenCapture
@testable import V4L2Camera

/// Whether this process runs in the vivid VM started with `--vimc` (`scripts/vivid-vm`):
/// vimc loaded, libcamera and its plug-in beside the test program.
enum Vimc {
    static let isPresent = ProcessInfo.processInfo.environment["VIVID_VM_VIMC"] == "1"
    static let id = "libcamera:platform/vimc.0 Sensor B"

    static func device() -> AVCaptureDevice? { AVCaptureDevice(uniqueID: id) }

    static func format(_ device: AVCaptureDevice, _ width: Int32, _ height: Int32) -> AVCaptureDevice.Format? {
        device.formats.first {
            let size = CMVideoFormatDescriptionGetDimensions($0.formatDescription)
            return size.width == width && size.height == height
        }
    }
}

/// A session streaming one vimc format in BGRA to a video data output (each frame's
/// metadata and mean brightness noted) and a photo output.
final class VimcRig: NSObject, AVCaptureVideoDataOutputSampleBufferDelegate, AVCapturePhotoCaptureDelegate, @unchecked Sendable {
    let session = AVCaptureSession()
    let video = AVCaptureVideoDataOutput()
    let photos = AVCapturePhotoOutput()
    private let queue = DispatchQueue(label: "vimc.frames")
    private let state = Mutex<(frames: [(FrameMetadata, Double, Int)], photos: [(AVCapturePhoto?, (any Error)?)], drops: [String])>(
        ([], [], []))

    init(device: AVCaptureDevice, width: Int32, height: Int32) throws {
        super.init()
        session.beginConfiguration()
        session.addInput(try AVCaptureDeviceInput(device: device))
        video.videoSettings = [kCVPixelBufferPixelFormatTypeKey as String: PixelFormat.bgra.rawValue]
        video.setSampleBufferDelegate(self, queue: queue)
        session.addOutput(video)
        session.addOutput(photos)
        try device.lockForConfiguration()
        device.activeFormat = try #require(Vimc.format(device, width, height))
        device.unlockForConfiguration()
        session.commitConfiguration()
    }

    func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        guard let image = sampleBuffer.imageBuffer, let metadata = sampleBuffer.metadata else { return }
        CVPixelBufferLockBaseAddress(image, .readOnly)
        defer { CVPixelBufferUnlockBaseAddress(image, .readOnly) }
        let base = CVPixelBufferGetBaseAddress(image)!.assumingMemoryBound(to: UInt8.self)
        let stride = CVPixelBufferGetBytesPerRow(image), width = CVPixelBufferGetWidth(image), height = CVPixelBufferGetHeight(image)
        var sum = 0
        for y in Swift.stride(from: 0, to: height, by: 8) {
            for x in Swift.stride(from: 0, to: width, by: 8) { sum += Int(base[y * stride + 4 * x + 1]) }  // green
        }
        let mean = Double(sum) / Double(((height + 7) / 8) * ((width + 7) / 8))
        state.withLock { $0.frames.append((metadata, mean, width)) }
    }

    func captureOutput(_ output: AVCaptureOutput, didDrop sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        let reason = sampleBuffer.attachments[.droppedFrameReason]?.value as? String ?? "?"
        state.withLock { $0.drops.append(reason) }
    }

    func photoOutput(_ output: AVCapturePhotoOutput, didFinishProcessingPhoto photo: AVCapturePhoto, error: (any Error)?) {
        state.withLock { $0.photos.append((photo, error)) }
    }

    var frames: [(metadata: FrameMetadata, mean: Double, width: Int)] { state.withLock { $0.frames.map { ($0.0, $0.1, $0.2) } } }
    var photosTaken: [(AVCapturePhoto?, (any Error)?)] { state.withLock { $0.photos } }
    var drops: [String] { state.withLock { $0.drops } }

    func waitForFrames(_ count: Int) -> Bool { waitUntil(within: .seconds(30)) { self.frames.count >= count } }
}

/// The libcamera backend against the real stack: vimc's media graph, libcamera 0.0.3's vimc
/// pipeline handler and IPA, the plug-in. Run in the VM with `--vimc` (`make test`).
@Suite("vimc: libcamera backend on the real kernel driver", .serialized, .enabled(if: Vimc.isPresent))
struct VimcDriverTests {
    @Test func sensorBIsAnExternalCamera() throws {
        let device = try #require(Vimc.device())
        #expect(device.localizedName == "Sensor B")
        // vimc's sensor gives no properties::Location: neither front nor back.
        #expect(device.position == .unspecified)
        #expect(device.deviceType == .external)
        #expect(Vimc.format(device, 640, 480) != nil)
        let listed = AVCaptureDevice.DiscoverySession(deviceTypes: [.external], mediaType: .video, position: .unspecified).devices
        #expect(listed.contains { $0.uniqueID == Vimc.id })
    }

    /// vimc's scaler takes widths in steps of 3 pixels: libcamera adjusts 640x480 to 636x480,
    /// and the frames and the camera say so rather than pretending to 640.
    @Test func adjustedConfigurationIsReported() throws {
        let device = try #require(Vimc.device())
        let camera = try #require(device.backend as? LibcameraCamera)
        let rig = try VimcRig(device: device, width: 640, height: 480)
        rig.session.startRunning()
        defer { rig.session.stopRunning() }
        #expect(rig.waitForFrames(3))
        let size = try #require(camera.streamingSize)
        #expect(size.width == 636 && size.height == 480 && size.adjusted)
        #expect(rig.frames.allSatisfy { $0.width == 636 && $0.metadata.width == 636 })
    }

    @Test func framesCountUpWithSensorTimestamps() throws {
        let device = try #require(Vimc.device())
        let rig = try VimcRig(device: device, width: 320, height: 240)
        rig.session.startRunning()
        defer { rig.session.stopRunning() }
        #expect(rig.waitForFrames(10))
        let frames = rig.frames.map(\.metadata)
        for (earlier, later) in zip(frames, frames.dropFirst()) {
            #expect(later.sequence > earlier.sequence)
            #expect(later.presentationTime.value > earlier.presentationTime.value)
        }
    }

    /// Brightness (a libcamera control without an AVFoundation name, in `linuxControls`)
    /// travels with the next request and brightens vimc's test pattern.
    @Test func brightnessBrightensTheFrames() throws {
        let device = try #require(Vimc.device())
        let control = try #require(device.linuxControls.first { $0.name == "brightness" })
        #expect(control.minimum == -1000 && control.maximum == 1000)
        let rig = try VimcRig(device: device, width: 320, height: 240)
        rig.session.startRunning()
        defer { rig.session.stopRunning() }
        #expect(rig.waitForFrames(3))
        let before = try #require(rig.frames.last).mean
        try Self.setBrightness(device, 600)
        let brighter = waitUntil(within: .seconds(30)) { (rig.frames.last?.mean ?? 0) > before + 20 }
        #expect(brighter, "mean \(before) -> \(rig.frames.last?.mean ?? -1)")
        // Back to the default while streaming, seen in the frames: vimc keeps the sensor's
        // control after the stream (and the process) ends.
        try Self.setBrightness(device, 0)
        #expect(waitUntil(within: .seconds(30)) { abs((rig.frames.last?.mean ?? 0) - before) < 2 })
    }

    static func setBrightness(_ device: AVCaptureDevice, _ value: Int64) throws {
        try device.lockForConfiguration()
        defer { device.unlockForConfiguration() }
        _ = try device.setLinuxControl("brightness", to: value)
    }

    /// vimc's pipeline reports only the sensor timestamp: the frames, the device's read-only
    /// properties and a photo's EXIF give the frame's duration as its exposure, ISO 100
    /// (unity gain), the lens at 1 and unity white-balance gains, never zeros.
    @Test func readOnlyPropertiesFollowTheFrames() throws {
        let device = try #require(Vimc.device())
        let rig = try VimcRig(device: device, width: 320, height: 240)
        rig.session.startRunning()
        defer { rig.session.stopRunning() }
        #expect(rig.waitForFrames(3))
        let frameSeconds = device.activeVideoMinFrameDuration.seconds
        #expect(frameSeconds > 0)
        for frame in rig.frames.map(\.metadata) {
            #expect(abs(frame.exposureDuration - frameSeconds) < 1e-6 && frame.iso == 100 && frame.lensPosition == 1)
        }
        #expect(abs(device.exposureDuration.seconds - frameSeconds) < 1e-6, "\(device.exposureDuration.seconds) vs \(frameSeconds)")
        #expect(device.iso == 100 && device.lensPosition == 1)
        let gains = device.deviceWhiteBalanceGains
        #expect(gains.redGain == 1 && gains.greenGain == 1 && gains.blueGain == 1)
        rig.photos.capturePhoto(with: AVCapturePhotoSettings(), delegate: rig)
        #expect(waitUntil(within: .seconds(30)) { !rig.photosTaken.isEmpty })
        let photo = try #require(rig.photosTaken.first?.0)
        let exif = photo.metadata["{Exif}"] as? [String: Any] ?? [:]
        let exposure = exif["ExposureTime"] as? Double ?? 0
        #expect(abs(exposure - frameSeconds) < 1e-4, "EXIF exposure \(exposure)")
        #expect((exif["ISOSpeedRatings"] as? [Int])?.first == 100, "\(exif)")
    }

    /// A photo is the next frame of the stream, at the size libcamera streams.
    @Test func photoIsTheNextFrame() throws {
        let device = try #require(Vimc.device())
        let rig = try VimcRig(device: device, width: 640, height: 480)
        rig.session.startRunning()
        defer { rig.session.stopRunning() }
        #expect(rig.waitForFrames(2))
        rig.photos.capturePhoto(with: AVCapturePhotoSettings(), delegate: rig)
        #expect(waitUntil(within: .seconds(30)) { !rig.photosTaken.isEmpty })
        let (photo, error) = try #require(rig.photosTaken.first)
        #expect(error == nil, "\(String(describing: error))")
        let data = try #require(photo?.fileDataRepresentation())
        #expect(data.starts(with: [0xFF, 0xD8]))
        // The size promised is the size libcamera streams and the JPEG has.
        let promised = try #require(photo).resolvedSettings.photoDimensions
        let picture = try PictureDecoder.decode(data, fitting: .init(width: 8192, height: 8192))
        #expect(promised.width == 636 && promised.height == 480 && picture.width == 636 && picture.height == 480, "\(promised), \(picture.width)x\(picture.height)")
    }

    /// A photo larger than the stream, as rpicam-still takes one: the stream (640x480, which
    /// libcamera streams as 636x480) stops, a StillCapture-role configuration at 1920x1080
    /// takes one frame, the viewfinder role is configured again and the stream resumes; the
    /// gap is reported as dropped frames. The photo is vimc's test pattern at the still's
    /// size: as bright as the stream's frames, not one flat colour. vimc's pipeline handler
    /// has no raw stream (its raw role gives BGR888), so no RAW photo is offered.
    @Test func photoLargerThanTheStreamUsesTheStillRole() throws {
        let device = try #require(Vimc.device())
        let camera = try #require(device.backend as? LibcameraCamera)
        let rig = try VimcRig(device: device, width: 640, height: 480)
        let sizes = device.activeFormat.supportedMaxPhotoDimensions.map { "\($0.width)x\($0.height)" }
        // The format's own photo size is what libcamera streams for it (636x480), as promised.
        #expect(sizes.first == "636x480" && sizes.contains("1920x1080") && sizes.last == "3840x2160", "\(sizes)")
        // vimc's scaler enlarges 3 times: widths that are not multiples of 3 (1280, 4096) would
        // be changed by libcamera, so they are not offered.
        #expect(!sizes.contains("1280x720") && !sizes.contains("4096x2160"), "\(sizes)")
        #expect(rig.photos.availableRawPhotoPixelFormatTypes.isEmpty)
        rig.session.startRunning()
        defer { rig.session.stopRunning() }
        #expect(rig.waitForFrames(3))
        let streamMean = try #require(rig.frames.last).mean
        let settings = AVCapturePhotoSettings()
        settings.maxPhotoDimensions = CMVideoDimensions(width: 1920, height: 1080)
        let before = rig.frames.count
        rig.photos.capturePhoto(with: settings, delegate: rig)
        #expect(waitUntil(within: .seconds(60)) { !rig.photosTaken.isEmpty })
        let (taken, error) = try #require(rig.photosTaken.first)
        #expect(error == nil, "\(String(describing: error))")
        let photo = try #require(taken)
        #expect(photo.resolvedSettings.photoDimensions.width == 1920 && photo.resolvedSettings.photoDimensions.height == 1080)
        let data = try #require(photo.fileDataRepresentation())
        #expect(data.count > 20_000 && data.count < 1920 * 1080 * 3, "JPEG of \(data.count) bytes")
        let picture = try PictureDecoder.decode(data, fitting: .init(width: 8192, height: 8192))
        #expect(picture.width == 1920 && picture.height == 1080)
        let rgb = picture.rgb
        var greens: [Double] = []
        for y in Swift.stride(from: 0, to: 1080, by: 8) {
            for x in Swift.stride(from: 0, to: 1920, by: 8) { greens.append(Double(rgb[3 * (y * 1920 + x) + 1])) }
        }
        let mean = greens.reduce(0, +) / Double(greens.count)
        let spread = (greens.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(greens.count)).squareRoot()
        #expect(abs(mean - streamMean) < 0.15 * streamMean + 8, "photo mean green \(mean), stream's \(streamMean)")
        #expect(spread > 10, "the photo is a pattern, not one colour (spread \(spread))")
        #expect(waitUntil(within: .seconds(30)) { rig.frames.count >= before + 5 }, "the stream resumed after the still")
        #expect(rig.drops.contains(kCMSampleBufferDroppedFrameReason_Discontinuity), "\(rig.drops)")
        let size = try #require(camera.streamingSize)
        #expect(size.width == 636 && size.height == 480, "the viewfinder configuration is back")
    }

    /// The controls in force survive the switch to the still role and back: brightness set
    /// before a larger photo brightens the photo and the frames after it.
    @Test func brightnessSurvivesTheStillSwitch() throws {
        let device = try #require(Vimc.device())
        let rig = try VimcRig(device: device, width: 640, height: 480)
        rig.session.startRunning()
        defer { rig.session.stopRunning() }
        #expect(rig.waitForFrames(3))
        let plain = try #require(rig.frames.last).mean
        try Self.setBrightness(device, 600)
        #expect(waitUntil(within: .seconds(30)) { (rig.frames.last?.mean ?? 0) > plain + 20 }, "brighter before the photo")
        let settings = AVCapturePhotoSettings()
        settings.maxPhotoDimensions = CMVideoDimensions(width: 1920, height: 1080)
        rig.photos.capturePhoto(with: settings, delegate: rig)
        #expect(waitUntil(within: .seconds(60)) { !rig.photosTaken.isEmpty })
        let after = rig.frames.count
        let photo = try #require(rig.photosTaken.first?.0)
        let picture = try PictureDecoder.decode(try #require(photo.fileDataRepresentation()), fitting: .init(width: 8192, height: 8192))
        let rgb = picture.rgb
        var sum = 0.0, samples = 0.0
        for y in Swift.stride(from: 0, to: picture.height, by: 8) {
            for x in Swift.stride(from: 0, to: picture.width, by: 8) {
                sum += Double(rgb[3 * (y * picture.width + x) + 1])
                samples += 1
            }
        }
        #expect(sum / samples > plain + 20, "photo mean green \(sum / samples), unbrightened stream \(plain)")
        #expect(rig.waitForFrames(after + 3))
        let resumed = rig.frames.suffix(from: after).map(\.mean)
        #expect(resumed.allSatisfy { $0 > plain + 20 }, "frames after the photo \(resumed), unbrightened \(plain)")
        try Self.setBrightness(device, 0)
        #expect(waitUntil(within: .seconds(30)) { abs((rig.frames.last?.mean ?? 0) - plain) < 2 })
    }

    /// vimc's capture nodes are media-controller nodes (V4L2_CAP_IO_MC) libcamera's pipeline
    /// drives: the camera is listed once, by libcamera, not also as three V4L2 devices
    /// sharing one unique ID. vivid's node, which streams on its own, stays a V4L2 camera.
    @Test func theCameraIsListedOnceByLibcamera() throws {
        let pipelineNodes = V4L2Discovery.nodePaths().filter { path in
            guard let node = try? V4L2Node(path: path), let capability = try? V4L2Capability(node: node) else { return false }
            return capability.capturesVideo && capability.isMediaControllerCentric
        }
        #expect(pipelineNodes.count == 3, "vimc's capture nodes: \(pipelineNodes)")
        // Were they listed (no libcamera), each would have an ID of its own.
        let scanned = V4L2Discovery.scan().cameras.filter { $0.capability.isMediaControllerCentric }.map(\.descriptor.uniqueID)
        #expect(Set(scanned).count == scanned.count && !scanned.isEmpty, "\(scanned)")
        let devices = AVCaptureDevice.DiscoverySession(
            deviceTypes: [.external, .builtInWideAngleCamera], mediaType: .video, position: .unspecified
        ).devices
        let ids = devices.map(\.uniqueID)
        #expect(Set(ids).count == ids.count, "\(ids)")
        #expect(ids.filter { $0 == Vimc.id }.count == 1, "\(ids)")
        let v4l2Paths = devices.compactMap { ($0.backend as? V4L2Camera)?.path }
        #expect(!v4l2Paths.contains { pipelineNodes.contains($0) }, "\(v4l2Paths)")
        #expect(devices.contains { $0.modelID.hasPrefix("vivid") }, "\(ids)")
    }

    /// The command-line tool on the libcamera camera: frames (the size libcamera streams in
    /// the Y4M header), a photo, a recording ffprobe reads, and serve's page and MJPEG
    /// stream fetched with curl (ffprobe and curl come with the run: `make test-vimc`).
    @Test func commandsOnTheLibcameraCamera() throws {
        let tool = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("capture").path
        let id = "'\(Vimc.id)'"
        func run(_ script: String) throws -> String {
            let output = try Vivid.run("/bin/sh", ["-c", script + "; echo status=$?"])
            #expect(output.contains("status=0"), "\(script): \(output)")
            return output
        }
        func bytes(_ path: String) -> Data { (try? Data(contentsOf: URL(fileURLWithPath: path))) ?? Data() }
        func count(_ pattern: String, in data: Data) -> Int {
            var found = 0, from = data.startIndex
            while let range = data.range(of: Data(pattern.utf8), in: from..<data.endIndex) {
                found += 1
                from = range.upperBound
            }
            return found
        }

        _ = try run("timeout 120 \(tool) frames --device \(id) --size 640x480 --count 10 --overwrite -o /tmp/v.y4m")
        let y4m = bytes("/tmp/v.y4m")
        let header = String(decoding: y4m.prefix { $0 != 0x0A }, as: UTF8.self)
        #expect(header.hasPrefix("YUV4MPEG2") && header.contains(" W636 ") && header.contains(" H480 "), "\(header)")
        #expect(count("FRAME", in: y4m) == 10)

        // At the stream's size the photo is a frame of the stream: the size libcamera streams.
        let said = try run("timeout 120 \(tool) photo --device \(id) --size 640x480 -o /tmp/p.jpg")
        #expect(said.contains("wrote 636x480 JPEG"), "\(said)")
        let still = try PictureDecoder.decode(bytes("/tmp/p.jpg"), fitting: .init(width: 8192, height: 8192))
        #expect(still.width == 636 && still.height == 480, "\(still.width)x\(still.height)")

        _ = try run("timeout 120 \(tool) record --device \(id) --size 640x480 --duration 2 -o /tmp/r.mp4")
        let probe = try run(
            "ffprobe -v error -select_streams v:0 -count_frames -show_entries stream=codec_type,width,height,nb_read_frames -of default=noprint_wrappers=1 /tmp/r.mp4")
        #expect(probe.contains("codec_type=video") && probe.contains("width=636") && probe.contains("height=480"), "\(probe.split(separator: "\n"))")
        let frames = probe.split(separator: "\n").first { $0.hasPrefix("nb_read_frames=") }.flatMap { Int($0.dropFirst(15)) } ?? 0
        #expect(frames >= 2, "\(probe)")

        // The VM boots with its loopback interface down; curl retries until serve listens.
        _ = try run(
            "(ifconfig lo 127.0.0.1 up || ip link set lo up); (timeout 120 \(tool) serve --device \(id) --listen 127.0.0.1:8089 > /tmp/serve.log 2>&1 &)"
                + " && curl -s --retry 60 --retry-connrefused --retry-delay 1 -o /tmp/page.html http://127.0.0.1:8089/"
                + " && { curl -s --max-time 10 -o /tmp/m.mjpg http://127.0.0.1:8089/stream.mjpg; true; }"
                + " && kill -9 $(pidof capture)")
        #expect(String(decoding: bytes("/tmp/page.html"), as: UTF8.self).lowercased().contains("<html"))
        let mjpeg = bytes("/tmp/m.mjpg")
        let start = try #require(mjpeg.range(of: Data([0xFF, 0xD8])), "a JPEG in the MJPEG stream (\(mjpeg.count) bytes)")
        let end = try #require(mjpeg.range(of: Data([0xFF, 0xD9]), in: start.upperBound..<mjpeg.endIndex))
        let frame = try PictureDecoder.decode(mjpeg[start.lowerBound..<end.upperBound], fitting: .init(width: 8192, height: 8192))
        #expect(frame.height > 0 && frame.width > 0)
    }

    /// Another process holding the camera (libcamera's `cam` capturing; libcamera locks the
    /// media devices): the input cannot be made (AVError.deviceInUseByAnotherApplication, as
    /// for a busy V4L2 node), and a session set up before starts into the session runtime
    /// error of that code; once the other process ends, the session runs.
    @Test func busyCameraIsInUseByAnotherApplication() throws {
        let device = try #require(Vimc.device())
        let rig = try VimcRig(device: device, width: 320, height: 240)
        _ = try Vivid.run("/bin/sh", ["-c", "(cam -c1 -s width=320,height=240,role=viewfinder --capture=1000000 > /tmp/cam-busy.log 2>&1 &)"])
        // SIGKILL: a program started from a test's thread inherits its blocked SIGTERM.
        var camRuns = true
        defer { if camRuns { _ = try? Vivid.run("/bin/sh", ["-c", "kill -9 $(pidof cam)"]) } }
        let holding = waitUntil(within: .seconds(30)) {
            ((try? String(contentsOfFile: "/tmp/cam-busy.log", encoding: .utf8)) ?? "").contains("Capture")
        }
        #expect(holding, "cam started capturing")
        do {
            _ = try AVCaptureDeviceInput(device: device)
            Issue.record("the input must not open a camera another process holds")
        } catch let error as AVError {
            #expect(error.code == .deviceInUseByAnotherApplication)
        }
        let note = waitForNotification(AVCaptureSession.runtimeErrorNotification, object: rig.session) { rig.session.startRunning() }
        let code = (note?.userInfo?[AVCaptureSessionErrorKey] as? NSError)?.code
        #expect(code == AVError.Code.deviceInUseByAnotherApplication.rawValue, "\(String(describing: note?.userInfo))")
        #expect(!rig.session.isRunning)
        _ = try Vivid.run("/bin/sh", ["-c", "kill -9 $(pidof cam)"])
        camRuns = false
        // Gone, or a zombie (its camera released) that init has not reaped yet.
        let living = "for p in $(pidof cam); do grep -q '^State:.*Z' /proc/$p/status 2>/dev/null || echo $p; done"
        #expect(waitUntil(within: .seconds(30)) { (try? Vivid.run("/bin/sh", ["-c", living]))?.isEmpty ?? false }, "cam ended")
        rig.session.startRunning()
        defer { rig.session.stopRunning() }
        #expect(rig.waitForFrames(3))
    }

    /// Last: unplugging vimc while it streams (its platform device unbound; rmmod itself
    /// waits for the handles libcamera keeps) disconnects the camera.
    @Test func unplugWhileStreamingDisconnects() throws {
        let device = try #require(Vimc.device())
        let rig = try VimcRig(device: device, width: 320, height: 240)
        rig.session.startRunning()
        defer { rig.session.stopRunning() }
        #expect(rig.waitForFrames(3))
        // vimc's capture nodes are V4L2 cameras too, which vanish first: wait for ours.
        let ours = Mutex(false)
        let observer = NotificationCenter.default.addObserver(forName: AVCaptureDevice.wasDisconnectedNotification, object: nil, queue: nil) {
            if ($0.object as? AVCaptureDevice)?.uniqueID == Vimc.id { ours.withLock { $0 = true } }
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        _ = try? Vivid.run("/opt/bin/vimc-unload", [])
        #expect(waitUntil(within: .seconds(30)) { ours.withLock { $0 } })
        #expect(!device.isConnected)
    }

}

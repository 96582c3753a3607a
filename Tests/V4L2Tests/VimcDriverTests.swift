import Foundation
import Synchronization
import Testing
import TestSupport

@testable import CaptureCore
@testable import LibcameraCamera
@testable import OpenCapture

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
    private let state = Mutex<(frames: [(FrameMetadata, Double, Int)], photos: [(AVCapturePhoto?, (any Error)?)])>(([], []))

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

    func photoOutput(_ output: AVCapturePhotoOutput, didFinishProcessingPhoto photo: AVCapturePhoto, error: (any Error)?) {
        state.withLock { $0.photos.append((photo, error)) }
    }

    var frames: [(metadata: FrameMetadata, mean: Double, width: Int)] { state.withLock { $0.frames.map { ($0.0, $0.1, $0.2) } } }
    var photosTaken: [(AVCapturePhoto?, (any Error)?)] { state.withLock { $0.photos } }

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
        try device.lockForConfiguration()
        _ = try device.setLinuxControl("brightness", to: 600)
        device.unlockForConfiguration()
        defer {
            try? device.lockForConfiguration()
            _ = try? device.setLinuxControl("brightness", to: 0)
            device.unlockForConfiguration()
        }
        let brighter = waitUntil(within: .seconds(30)) { (rig.frames.last?.mean ?? 0) > before + 20 }
        #expect(brighter, "mean \(before) -> \(rig.frames.last?.mean ?? -1)")
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

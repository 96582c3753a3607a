import Foundation
import Synchronization
import Testing
import TestSupport

@testable import CaptureCore
@testable import LibcameraCamera
@testable import OpenCapture

/// Raw photos on the real stack: vimc loaded as a raw sensor board
/// (`vimc-load media_driver=sun6i-csi`, scripts/vimc-raw-board.patch), which libcamera
/// 0.0.3's simple pipeline handler drives, streaming each sensor's Bayer mosaic straight from
/// its raw capture node. Its own process, last in the vimc VM run: it reloads vimc before
/// anything in the process asks libcamera for cameras.
@Suite("vimc as a raw sensor board: raw photos through libcamera's simple pipeline", .serialized, .enabled(if: Vimc.isPresent))
struct VimcRawBoardTests {
    static let id = "libcamera:platform/vimc.0 Sensor A"

    /// vimc reloaded as the raw board, once for the process.
    static let reloaded: (output: String, status: Int32) = ShellCommand.run(
        "/opt/bin/vimc-unload && /opt/bin/vimc-load media_driver=sun6i-csi")

    private func device() throws -> AVCaptureDevice {
        try #require(Self.reloaded.status == 0, "\(Self.reloaded.output)")
        return try #require(AVCaptureDevice(uniqueID: Self.id), "\(AVCaptureDevice.DiscoverySession(deviceTypes: [.external], mediaType: .video, position: .unspecified).devices.map(\.uniqueID))")
    }

    /// Each colour filter layout vimc's sensor gives is a raw format, at its deepest (12-bit)
    /// and its one size; DNG is the raw file type.
    @Test func listsTheSensorsRawLayouts() throws {
        let device = try device()
        let camera = try #require(device.backend as? LibcameraCamera)
        #expect(Set(camera.rawFormats.map(\.pattern)) == ["RGGB", "GRBG", "GBRG", "BGGR"], "\(camera.rawFormats)")
        #expect(camera.rawFormats.allSatisfy { $0.bits == 12 && !$0.packed && $0.width == 640 && $0.height == 480 }, "\(camera.rawFormats)")
        let session = AVCaptureSession()
        session.addInput(try AVCaptureDeviceInput(device: device))
        let photos = AVCapturePhotoOutput()
        session.addOutput(photos)
        #expect(
            Set(photos.availableRawPhotoPixelFormatTypes)
                == [kCVPixelFormatType_14Bayer_RGGB, kCVPixelFormatType_14Bayer_GRBG, kCVPixelFormatType_14Bayer_GBRG, kCVPixelFormatType_14Bayer_BGGR])
        #expect(photos.availableRawPhotoFileTypes == [.dng])
    }

    /// A raw plus JPEG photo in two layouts: the raw photo comes first, a DNG whose mosaic is
    /// the sensor's, bar for bar (vimc's 75% colour bars, each photosite lit as its filter's
    /// colour is in the bar); the JPEG follows; the stream resumes after the switch.
    @Test func rawPhotoIsTheSensorsMosaic() throws {
        let device = try device()
        // The peer's figure, not asserted: cam starts, takes three raw frames (with one it
        // queues one buffer, which vimc never starts on) and writes them.
        let peerStart = ContinuousClock.now
        let peer = ShellCommand.run("timeout 60 cam -c 'platform/vimc.0 Sensor A' -C3 -s role=raw,pixelformat=SGRBG12 -F/tmp/cam-raw#.bin")
        print("vimc raw board: cam's three raw frames took \(ContinuousClock.now - peerStart) (exit \(peer.status))")
        let rig = try VimcRig(device: device, width: 640, height: 480)
        rig.session.startRunning()
        defer { rig.session.stopRunning() }
        #expect(rig.waitForFrames(3), "\(rig.frames.count) frames")
        for (type, pattern) in [(kCVPixelFormatType_14Bayer_GRBG, "GRBG"), (kCVPixelFormatType_14Bayer_RGGB, "RGGB")] {
            let before = rig.photosTaken.count
            let settings = AVCapturePhotoSettings(rawPixelFormatType: type, processedFormat: [AVVideoCodecKey: AVVideoCodecType.jpeg])
            settings.photoQualityPrioritization = .speed  // Apple's rule for Bayer raw
            let asked = ContinuousClock.now
            rig.photos.capturePhoto(with: settings, delegate: rig)
            #expect(waitUntil(within: .seconds(60)) { rig.photosTaken.count >= before + 2 }, "\(pattern): \(rig.photosTaken.count - before) photos")
            // A figure, not asserted: the switch to the raw configuration and back, under TCG.
            print("vimc raw board: raw plus JPEG (\(pattern)) delivered \(ContinuousClock.now - asked) after the request")
            let taken = rig.photosTaken.dropFirst(before)
            try #require(taken.count == 2)
            let (rawPhoto, rawError) = taken[taken.startIndex]
            #expect(rawError == nil, "\(pattern): \(String(describing: rawError))")
            let raw = try #require(rawPhoto)
            #expect(raw.isRawPhoto)
            #expect(raw.resolvedSettings.rawPhotoDimensions.width == 640 && raw.resolvedSettings.rawPhotoDimensions.height == 480)
            let dng = try #require(raw.fileDataRepresentation())
            #expect(dng.prefix(4) == Data([0x49, 0x49, 0x2A, 0x00]))
            #expect(Self.cfaPattern(in: dng) == Array(pattern).map { $0 == "R" ? 0 : $0 == "G" ? 1 : 2 }, "\(pattern)")
            let mosaic = try #require(raw.pixelBuffer)
            #expect(CVPixelBufferGetPixelFormatType(mosaic) == type)
            #expect(CVPixelBufferGetWidth(mosaic) == 640 && CVPixelBufferGetHeight(mosaic) == 480)
            Self.expectBars(mosaic, pattern)
            let (processed, processedError) = taken[taken.startIndex + 1]
            #expect(processedError == nil && processed?.isRawPhoto == false, "\(pattern): \(String(describing: processedError))")
            #expect(processed?.fileDataRepresentation()?.prefix(2) == Data([0xFF, 0xD8]))
        }
        let frames = rig.frames.count
        #expect(waitUntil(within: .seconds(30)) { rig.frames.count >= frames + 3 }, "the stream did not resume after the raw photos")
        #expect(rig.drops.contains("Discontinuity"), "\(rig.drops)")
    }

    /// Each bar's middle: a photosite under a filter of a colour the bar has holds 75% of
    /// 12 bits (3071), one under another colour holds 0, away from the OSD text at the top.
    static func expectBars(_ mosaic: CVPixelBuffer, _ pattern: String) {
        CVPixelBufferLockBaseAddress(mosaic, .readOnly)
        defer { CVPixelBufferUnlockBaseAddress(mosaic, .readOnly) }
        let base = CVPixelBufferGetBaseAddress(mosaic)!.assumingMemoryBound(to: UInt8.self)
        let stride = CVPixelBufferGetBytesPerRow(mosaic), width = CVPixelBufferGetWidth(mosaic)
        let letters = Array(pattern)
        for (index, bar) in LibcameraRawFormatTests.bars.enumerated() {
            let x0 = width * index / 8 + width / 16
            for y in 300..<302 {
                for x in x0..<(x0 + 2) {
                    let code = (base + y * stride).withMemoryRebound(to: UInt16.self, capacity: width) { $0[x] }
                    let channel = letters[(y % 2) * 2 + x % 2]
                    let lit = channel == "R" ? bar.x : channel == "G" ? bar.y : bar.z
                    if lit == 1 {
                        #expect(code > 2800, "\(pattern) bar \(index) (\(x), \(y)) \(channel): \(code)")
                    } else {
                        #expect(code < 200, "\(pattern) bar \(index) (\(x), \(y)) \(channel): \(code)")
                    }
                }
            }
        }
    }

    /// The DNG's CFAPattern (tag 0x828E in IFD0 of a little-endian TIFF): 0 red, 1 green, 2 blue.
    static func cfaPattern(in dng: Data) -> [Int]? {
        let bytes = [UInt8](dng)
        func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        func u32(_ at: Int) -> Int { u16(at) | u16(at + 2) << 16 }
        guard bytes.count > 8 else { return nil }
        let ifd = u32(4)
        guard ifd + 2 <= bytes.count else { return nil }
        for entry in 0..<u16(ifd) {
            let at = ifd + 2 + entry * 12
            guard at + 12 <= bytes.count else { return nil }
            if u16(at) == 0x828E, u32(at + 4) == 4 { return (0..<4).map { Int(bytes[at + 8 + $0]) } }
        }
        return nil
    }
}

import Foundation
import Testing
import TestSupport

@testable import OpenCapture

/// A small virtual-time session whose camera looks at a picture, with a metadata output.
private final class ScanRig {
    let rig: TestRig
    let output = AVCaptureMetadataOutput()
    let collector = MetadataCollector()

    init(picture: URL? = nil, uniqueID: String = "sim:back-wide", types: [AVMetadataObject.ObjectType] = [.qr]) throws {
        rig = try TestRig(uniqueID: uniqueID, preset: .cif352x288)
        if let picture { try rig.device.simulation?.setScene(.image(path: picture.path)) }
        rig.session.addOutput(output)
        output.setMetadataObjectsDelegate(collector, queue: collector.queue)
        output.metadataObjectTypes = types
    }

    /// Runs until the scanner has read `frames` frames.
    func run(frames: Int) {
        rig.session.startRunning()
        eventually("\(frames) frames read", within: .seconds(10)) { output.scanner.counts.read >= frames }
        rig.stop()
        collector.queue.sync {}
        try? rig.device.simulation?.setScene(.chart)
    }
}

private func near(_ a: CGPoint, _ b: CGPoint, within tolerance: Double = 0.02) -> Bool {
    abs(a.x - b.x) <= tolerance && abs(a.y - b.y) <= tolerance
}

@Suite("Metadata output", .serialized)
struct MetadataOutputTests {
    @Test("no types are available until the output is connected to a camera; then faces (where installed) and the code types Linux reads")
    func availableTypes() throws {
        let output = AVCaptureMetadataOutput()
        #expect(output.availableMetadataObjectTypes.isEmpty)
        #expect(output.metadataObjectTypes == [])
        #expect(throws: AVCaptureException.self) { try output.setMetadataObjectTypes([.qr]) }
        #expect(output.rectOfInterest == CGRect(x: 0, y: 0, width: 1, height: 1))
        let rig = try TestRig(preset: .cif352x288)
        #expect(rig.session.canAddOutput(output))
        rig.session.addOutput(output)
        #expect(!rig.session.canAddOutput(AVCaptureMetadataOutput()), "one metadata output per session")
        let connection = try #require(output.connections.first)
        #expect(connection.inputPorts.map(\.mediaType) == [.metadataObject])
        #expect(output.connection(with: .metadataObject) === connection)
        let available = Set(output.availableMetadataObjectTypes)
        let codes: Set<AVMetadataObject.ObjectType> = [
            .qr, .microQR, .aztec, .dataMatrix, .pdf417, .ean8, .ean13, .upce, .code39, .code39Mod43, .code93, .code128, .itf14,
            .interleaved2of5, .codabar, .gs1DataBar, .gs1DataBarExpanded,
        ]
        // install-deps installs OpenCV's cascades, and SwiftPM builds the plugin beside this test binary.
        #expect(FaceReader.isAvailable)
        #expect(available == codes.union([.face]))
        #expect(output.availableMetadataObjectTypes.first == .face, "Apple's header order: the face before the codes")
        for absent in [AVMetadataObject.ObjectType.humanBody, .humanFullBody, .catBody, .dogBody, .salientObject, .microPDF417, .gs1DataBarLimited] {
            #expect(!available.contains(absent))
        }
        output.metadataObjectTypes = [.qr, .ean13]
        #expect(output.metadataObjectTypes == [.qr, .ean13])
        output.metadataObjectTypes = nil
        #expect(output.metadataObjectTypes == [])
        // AVCaptureMetadataOutput.h names no exception: a rectangle reaching past the picture is kept.
        output.rectOfInterest = CGRect(x: 0.5, y: 0.5, width: 0.6, height: 0.1)
        #expect(output.rectOfInterest == CGRect(x: 0.5, y: 0.5, width: 0.6, height: 0.1))
        output.rectOfInterest = CGRect(x: 0.25, y: 0, width: 0.5, height: 1)
        #expect(output.rectOfInterest == CGRect(x: 0.25, y: 0, width: 0.5, height: 1))
        // The camera input now has a metadata-object port beside its video port, as on iOS.
        #expect(rig.input.ports.map(\.mediaType) == [.video, .metadataObject])
    }

    @Test("a QR code from qrencode is read with its string and its corners within 2 % of the frame")
    func readsQRCode() throws {
        let png = try IndependentEncoder.qrPNG("OpenCapture metadata", scale: 6, margin: 4)
        defer { try? FileManager.default.removeItem(at: png) }
        let scan = try ScanRig(picture: png)
        scan.run(frames: 3)
        let codes = scan.collector.codes
        let code = try #require(codes.first)
        #expect(code.type == .qr)
        #expect(code.stringValue == "OpenCapture metadata")
        // Version 2: 25 modules and 4 of quiet zone each side, stretched over the frame.
        let lo = 4.0 / 33, hi = 29.0 / 33
        let expected = [CGPoint(x: lo, y: lo), CGPoint(x: lo, y: hi), CGPoint(x: hi, y: hi), CGPoint(x: hi, y: lo)]
        #expect(code.corners.count == 4)
        for (corner, want) in zip(code.corners, expected) { #expect(near(corner, want), "\(code.corners)") }
        #expect(abs(code.bounds.minX - lo) < 0.02 && abs(code.bounds.maxY - hi) < 0.02)
        #expect(code.time.isValid && code.duration.isValid)
        #expect(codes.allSatisfy { $0.stringValue == "OpenCapture metadata" }, "never a wrong string")
    }

    @Test("a rect of interest reaching far past the picture searches the part inside it: the code is read")
    func rectOfInterestPastThePicture() throws {
        let png = try IndependentEncoder.qrPNG("past the edge", scale: 6, margin: 4)
        defer { try? FileManager.default.removeItem(at: png) }
        let wide = try ScanRig(picture: png)
        wide.output.rectOfInterest = CGRect(x: -0.5, y: -0.5, width: 1e300, height: 1e300)
        wide.run(frames: 3)
        #expect(wide.collector.codes.first?.stringValue == "past the edge")
    }

    @Test("a code outside the rect of interest, or of a type not asked for, is not reported")
    func rectOfInterestAndTypes() throws {
        let png = try IndependentEncoder.qrPNG("outside", scale: 6, margin: 4)
        defer { try? FileManager.default.removeItem(at: png) }
        let corner = try ScanRig(picture: png)
        corner.output.rectOfInterest = CGRect(x: 0, y: 0, width: 0.3, height: 0.3)
        corner.run(frames: 3)
        #expect(corner.collector.batches.isEmpty)
        let other = try ScanRig(picture: png, types: [.ean13, .aztec])
        other.run(frames: 3)
        #expect(other.collector.batches.isEmpty)
    }

    @Test("through a rotated, mirrored video connection the transformed corners land on the code in the delivered pixels")
    func rotatedMirroredConnection() throws {
        let png = try IndependentEncoder.qrPNG("turned", scale: 6, margin: 4)
        defer { try? FileManager.default.removeItem(at: png) }
        let scan = try ScanRig(picture: png)
        let connection = scan.rig.connection
        connection.videoRotationAngle = 90
        connection.automaticallyAdjustsVideoMirroring = false
        connection.isVideoMirrored = true
        scan.rig.collector.keptPixels = 1
        scan.run(frames: 3)
        let code = try #require(scan.collector.codes.first)
        let (_, frame) = try #require(scan.rig.collector.newestFrameWithPixels)
        #expect(frame.width == 288 && frame.height == 352)
        let moved = try #require(scan.rig.output.transformedMetadataObject(for: code, connection: connection) as? AVMetadataMachineReadableCodeObject)
        #expect(moved.stringValue == "turned")
        // Read the delivered, turned and mirrored frame directly: the same corners, in its pixels.
        CVPixelBufferLockBaseAddress(frame, .readOnly)
        let direct = BarcodeReader.read(
            frame.planeAddress(0), width: frame.width, height: frame.height, bytesPerRow: frame.bytesPerRow(0), layout: .luma8, types: [.qr])
        CVPixelBufferUnlockBaseAddress(frame, .readOnly)
        let seen = try #require(direct.first)
        let tolerance = 0.02 * 352
        for corner in seen.corners {
            #expect(moved.corners.contains { abs($0.x - corner.x) <= tolerance && abs($0.y - corner.y) <= tolerance }, "\(moved.corners) vs \(seen.corners)")
        }
        // Device coordinates do not turn with the connection.
        #expect(code.corners.contains { near($0, CGPoint(x: 4.0 / 29, y: 4.0 / 29)) }, "\(code.corners)")
        #expect(scan.rig.output.transformedMetadataObject(for: code, connection: scan.output.connections[0]) == nil)
    }

    @Test("the preview layer converts a code's corners and bounds into layer points")
    func previewLayerTransform() throws {
        let rig = try TestRig(preset: .cif352x288)
        let layer = AVCaptureVideoPreviewLayer(session: rig.session)
        layer.frame = CGRect(x: 0, y: 0, width: 704, height: 576)
        layer.videoGravity = .resize
        let code = AVMetadataMachineReadableCodeObject(
            type: .qr, time: .zero, duration: .invalid,
            corners: [CGPoint(x: 0.25, y: 0.25), CGPoint(x: 0.25, y: 0.75), CGPoint(x: 0.75, y: 0.75), CGPoint(x: 0.75, y: 0.25)],
            stringValue: "x")
        let moved = try #require(layer.transformedMetadataObject(for: code) as? AVMetadataMachineReadableCodeObject)
        #expect(moved.corners[0] == CGPoint(x: 176, y: 144))
        #expect(moved.bounds == CGRect(x: 176, y: 144, width: 352, height: 288))
        #expect(layer.layerRectConverted(fromMetadataOutputRect: code.bounds) == moved.bounds)
        #expect(AVCaptureVideoPreviewLayer().transformedMetadataObject(for: code) == nil)
    }
}

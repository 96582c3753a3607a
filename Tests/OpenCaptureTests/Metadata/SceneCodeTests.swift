import Foundation
@testable import SimulatedCamera
import Testing
import TestSupport

@testable import OpenCapture

/// Codes on cards in the simulated 3-D scene, filmed and read back.
@Suite("Codes in simulated scenes", .serialized)
struct SceneCodeTests {
    /// A session at `preset` on a flat white wall, reading every code type.
    private final class Rig {
        let rig: TestRig
        let output = AVCaptureMetadataOutput()
        let collector = MetadataCollector()
        var simulation: AVCaptureDevice.Simulation { rig.device.simulation! }

        init(uniqueID: String = "sim:back-wide", preset: AVCaptureSession.Preset = .vga640x480) throws {
            rig = try TestRig(uniqueID: uniqueID, preset: preset)
            try rig.device.simulation?.setScene(.flat(reflectance: 0.85))
            rig.session.addOutput(output)
            output.setMetadataObjectsDelegate(collector, queue: collector.queue)
            output.metadataObjectTypes = output.availableMetadataObjectTypes.filter { $0 != .face }
        }

        /// Locks the lens focused at `distance` metres (a card nearer than the wall would
        /// otherwise be blurred by continuous autofocus on the wall behind it).
        func focus(at distance: Double) throws {
            let lens = LensUnit.lens((rig.device.backend as! SimulatedCamera).model, rig.device.activeFormat.index)
            try rig.device.lockForConfiguration()
            rig.device.setFocusModeLocked(lensPosition: lens.lensPosition(focusing: distance), completionHandler: nil)
            rig.device.unlockForConfiguration()
        }

        func run(frames: Int = 2) {
            rig.session.startRunning()
            eventually("\(frames) frames read", within: .seconds(10)) { output.scanner.counts.read >= frames }
            rig.stop()
            collector.queue.sync {}
            rig.device.simulation?.camera.scenePictures = []
            try? rig.device.simulation?.setScene(.chart)
        }

        /// A card with a picture made in the test, placed as `setSceneElements` places one.
        func card(_ image: SceneImage, x: Double, y: Double, width: Double, distance: Double = 0.5) -> ScenePicture {
            let format = rig.device.activeFormat
            let dimensions = format.formatDescription.dimensions
            return ScenePicture(
                image: image, centerX: x, centerY: y, width: width, distance: distance, yaw: 0, pitch: 0, roll: 0,
                horizontalFieldOfView: Double(format.videoFieldOfView), aspect: Double(dimensions.width) / Double(dimensions.height))
        }
    }

    /// A 1-D code's modules ('1' dark) as a picture: bars 30 modules high, no quiet zone (the white wall is one).
    private static func bars(_ modules: String) -> SceneImage {
        let width = modules.count, height = 30
        let row = modules.map { $0 == "1" ? SIMD3<Float>(repeating: 0.04) : SIMD3<Float>(repeating: 0.85) }
        return SceneImage(width: width, height: height, linear: Array((0..<height).map { _ in row }.joined()), name: "bars")
    }

    /// Checks a code against where its card shows it: 2-D corners each within 2 % of the
    /// frame; a 1-D code's ends within 2 % and its read line inside the bars.
    private static func check(_ code: AVMetadataMachineReadableCodeObject, against corners: [CGPoint], linear: Bool, sourceLocation: SourceLocation = #_sourceLocation) {
        let expected = AVMetadataMachineReadableCodeObject.boundingBox(corners)
        if linear {
            #expect(abs(code.bounds.minX - expected.minX) < 0.02 && abs(code.bounds.maxX - expected.maxX) < 0.02, "\(code.type.rawValue) \(code.bounds) vs \(expected)", sourceLocation: sourceLocation)
            #expect(code.bounds.minY >= expected.minY - 0.02 && code.bounds.maxY <= expected.maxY + 0.02, sourceLocation: sourceLocation)
        } else {
            for corner in corners {
                #expect(code.corners.contains { abs($0.x - corner.x) < 0.02 && abs($0.y - corner.y) < 0.02 }, "\(code.type.rawValue) \(code.corners) vs \(corners)", sourceLocation: sourceLocation)
            }
        }
    }

    @Test("codes from qrencode and python-barcode on cards are read with their strings and corners")
    func independentEncoders() throws {
        let scan = try Rig()
        try scan.focus(at: 0.4)
        let qr = try IndependentEncoder.qrPNG("https://example.org/qr", scale: 2, margin: 0)
        let micro = try IndependentEncoder.qrPNG("MICRO1", scale: 2, margin: 0, micro: true)
        defer { [qr, micro].forEach { try? FileManager.default.removeItem(at: $0) } }
        try scan.simulation.setSceneElements([
            .init(.picture(path: qr.path), x: 0.2, y: 0.25, width: 0.08, distance: 0.4),
            .init(.picture(path: micro.path), x: 0.5, y: 0.25, width: 0.05, distance: 0.4),
        ])
        var pictures = scan.simulation.camera.scenePictures
        let oneD: [(kind: String, text: String, type: AVMetadataObject.ObjectType, string: String)] = [
            ("ean13", "400638133393", .ean13, "4006381333931"), ("ean8", "9638507", .ean8, "96385074"),
            // python-barcode adds Code 39's mod 43 check character; UPC-A reads as EAN-13 with a leading 0, as on iOS.
            ("code128", "Open-42", .code128, "Open-42"), ("code39", "OC42", .code39Mod43, "OC42"),
            ("itf", "1234567890", .interleaved2of5, "1234567890"), ("upca", "03600029145", .ean13, "0036000291452"),
        ]
        let allModules = try IndependentEncoder.barModules(oneD.map { ($0.kind, $0.text) })
        for index in oneD.indices {
            let modules = allModules[index]
            pictures.append(scan.card(Self.bars(modules), x: index % 2 == 0 ? 0.27 : 0.73, y: 0.45 + 0.17 * Double(index / 2), width: 0.2, distance: 0.4))
        }
        scan.simulation.camera.scenePictures = pictures
        let corners = scan.simulation.sceneElementCorners
        scan.run()
        let found = scan.collector.codes
        func code(_ type: AVMetadataObject.ObjectType, _ string: String) -> AVMetadataMachineReadableCodeObject? {
            found.first { $0.type == type && $0.stringValue == string }
        }
        let qrCode = try #require(code(.qr, "https://example.org/qr"), "\(found.map { ($0.type.rawValue, $0.stringValue ?? "") })")
        Self.check(qrCode, against: corners[0], linear: false)
        let microCode = try #require(code(.microQR, "MICRO1"), "\(found.map { ($0.type.rawValue, $0.stringValue ?? "") })")
        Self.check(microCode, against: corners[1], linear: false)
        for (index, expected) in oneD.enumerated() {
            guard let bar = code(expected.type, expected.string) else {
                Issue.record("\(expected.kind) '\(expected.string)' not read: \(found.map { ($0.type.rawValue, $0.stringValue ?? "") })")
                continue
            }
            Self.check(bar, against: corners[2 + index], linear: true)
        }
        let strings = Set(oneD.map(\.string) + ["https://example.org/qr", "MICRO1"])
        #expect(found.allSatisfy { strings.contains($0.stringValue ?? "") }, "never a wrong string")
    }

    @Test("codes the scene draws itself, at angles, are read as their Apple types", arguments: [0, 1, 2])
    func sceneDrawnCodes(group: Int) throws {
        let scan = try Rig()
        try scan.focus(at: 0.45)
        // (text, type, the string read, x, y, width in metres, yaw, roll)
        let groups: [[(String, AVMetadataObject.ObjectType, String, Double, Double, Double, Double, Double)]] = [
            // zxing-cpp 1.4's Aztec detector starts from the middle of the picture it reads:
            // it finds an Aztec code only near the centre of the rect of interest, and here
            // (640x480, 5 px a module) only facing the camera; turned by 20° it was missed.
            [("Aztec 1", .aztec, "Aztec 1", 0.5, 0.5, 0.12, 0, 0), ("Matrix", .dataMatrix, "Matrix", 0.82, 0.5, 0.1, 25, 20)],
            [
                ("PDF417 text", .pdf417, "PDF417 text", 0.5, 0.25, 0.2, 0, 0), ("CODE93", .code93, "CODE93", 0.3, 0.75, 0.26, 0, 0),
                ("12345678901231", .itf14, "12345678901231", 0.75, 0.75, 0.26, 0, 0),
            ],
            [
                ("01234565", .upce, "01234565", 0.5, 0.18, 0.2, 0, 0), ("MOD43", .code39Mod43, "MOD43", 0.5, 0.5, 0.35, 15, 0),
                // Codabar's start and stop characters are not part of the string.
                ("A1234B", .codabar, "1234", 0.5, 0.82, 0.25, 0, 0),
            ],
        ]
        let codes = groups[group]
        try scan.simulation.setSceneElements(codes.map { c in .init(.code(c.0, type: c.1), x: c.3, y: c.4, width: c.5, distance: 0.45, yaw: c.6, roll: c.7) })
        let corners = scan.simulation.sceneElementCorners
        scan.run()
        let found = scan.collector.codes
        for (index, c) in codes.enumerated() {
            guard let code = found.first(where: { $0.type == c.1 && $0.stringValue == c.2 }) else {
                Issue.record("\(c.1.rawValue) '\(c.2)' not read: \(found.map { ($0.type.rawValue, $0.stringValue ?? "") })")
                continue
            }
            Self.check(code, against: corners[index], linear: ![.aztec, .dataMatrix, .pdf417].contains(c.1))
        }
        #expect(found.allSatisfy { code in codes.contains { $0.1 == code.type && $0.2 == code.stringValue } }, "never a wrong string")
        #expect(throws: AVCaptureDevice.Simulation.SceneError.self) { try scan.simulation.setSceneElements([.init(.code("x", type: .ean13))]) }
        #expect(throws: AVCaptureDevice.Simulation.SceneError.self) { try scan.simulation.setSceneElements([.init(.code("1", type: .gs1DataBar))]) }
        #expect(throws: AVCaptureDevice.Simulation.SceneError.self) { try scan.simulation.setSceneElements([.init(.code("x", type: .qr), yaw: 95)]) }
    }

    @Test("a code too far away, or in the dark, is not read; near and lit, it is")
    func distanceAndLight() throws {
        func reads(distance: Double, lux: Float? = nil) throws -> Bool {
            let scan = try Rig(preset: .cif352x288)
            try scan.focus(at: distance)
            try scan.simulation.setSceneElements([.init(.code("far or near", type: .qr), x: 0.5, y: 0.5, width: 0.05, distance: distance)])
            if let lux { scan.simulation.sceneIlluminance = lux }
            scan.run()
            let codes = scan.collector.codes
            #expect(codes.allSatisfy { $0.stringValue == "far or near" }, "never a wrong string")
            return !codes.isEmpty
        }
        #expect(try reads(distance: 0.25))
        #expect(try !reads(distance: 3))
        #expect(try !reads(distance: 0.25, lux: 0.01))
    }

    @Test("on the mirrored front camera the code is reported where it is on the sensor")
    func frontCamera() throws {
        let scan = try Rig(uniqueID: "sim:front-wide", preset: .cif352x288)
        #expect(scan.rig.connection.isVideoMirrored)
        try scan.simulation.setSceneElements([.init(.code("front", type: .qr), x: 0.3, y: 0.5, width: 0.06, distance: 0.3)])
        let corners = scan.simulation.sceneElementCorners[0]
        scan.run()
        let code = try #require(scan.collector.codes.first)
        #expect(code.stringValue == "front")
        Self.check(code, against: corners, linear: false)
        #expect(abs(code.bounds.midX - 0.3) < 0.02)
    }
}

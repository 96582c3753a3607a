import Foundation
@testable import SimulatedCamera
import Testing
import TestSupport

@testable import OpenCapture

/// Photos with faces from scikit-image (PyPI, installed by install-deps), an independent
/// source: Eileen Collins facing the camera (astronaut.png) and the cameraman in profile
/// (camera.png), both 512x512.
enum FacePictures {
    /// The folder of scikit-image's bundled pictures.
    static let folder: String = {
        let script = "import os, skimage.data; print(os.path.dirname(skimage.data.__file__))"
        return ((try? IndependentEncoder.run("/usr/bin/env", ["python3", "-c", script])) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
    }()

    static var astronaut: String { folder + "/astronaut.png" }
    static var cameraman: String { folder + "/camera.png" }

    /// Where the face is in each picture, as fractions of its width and height: the square
    /// from the hairline to the chin (measured on the 512x512 originals).
    static let astronautFace = (centerU: 0.44, centerV: 0.22, side: 0.18)
    static let cameramanFace = (centerU: 0.44, centerV: 0.30, side: 0.16)
}

/// Faces on picture cards in the simulated 3-D scene, filmed and detected (OpenCV's
/// cascades through the plugin).
@Suite("Faces in simulated scenes", .serialized, .tags(.slow))
struct SceneFaceTests {
    /// A VGA session (the detector's working width: no scaling) on a flat wall, reading faces.
    private final class Rig {
        let rig: TestRig
        let output = AVCaptureMetadataOutput()
        let collector = MetadataCollector()
        var simulation: AVCaptureDevice.Simulation { rig.device.simulation! }
        private let savedSeed: UInt64

        init(uniqueID: String = "sim:back-wide", types: [AVMetadataObject.ObjectType] = [.face]) throws {
            rig = try TestRig(uniqueID: uniqueID, preset: .vga640x480)
            // The camera is shared with other suites: its own seed, the old one put back in `stop`.
            savedSeed = rig.device.simulation?.seed ?? 1
            rig.device.simulation?.seed = 1
            rig.device.simulation?.cameraShake = 0
            try rig.device.simulation?.setScene(.flat(reflectance: 0.5))
            rig.session.addOutput(output)
            output.setMetadataObjectsDelegate(collector, queue: collector.queue)
            output.metadataObjectTypes = types
        }

        func focus(at distance: Double) throws {
            let lens = LensUnit.lens((rig.device.backend as! SimulatedCamera).model, rig.device.activeFormat.index)
            try rig.device.lockForConfiguration()
            rig.device.setFocusModeLocked(lensPosition: lens.lensPosition(focusing: distance), completionHandler: nil)
            rig.device.unlockForConfiguration()
        }

        /// A face card 0.8 m wide (a life-size face) at 1 m, focused there.
        func place(_ path: String = FacePictures.astronaut, x: Double = 0.5, y: Double = 0.5, roll: Double = 0, distance: Double = 1) throws {
            try focus(at: distance)
            try simulation.setSceneElements([.init(.picture(path: path), x: x, y: y, width: 0.8, distance: distance, roll: roll)])
        }

        func waitForReads(_ frames: Int) {
            eventually("\(frames) frames read", within: .seconds(60)) { output.scanner.counts.read >= frames }
        }

        func run(frames: Int = 3) {
            rig.session.startRunning()
            waitForReads(frames)
            stop()
        }

        func stop() {
            rig.stop()
            collector.queue.sync {}
            rig.device.simulation?.camera.scenePictures = []
            rig.device.simulation?.seed = savedSeed
            try? rig.device.simulation?.setScene(.chart)
        }

        /// Where the picture's face square appears: its centre and side, normalised.
        func expectedFace(_ face: (centerU: Double, centerV: Double, side: Double)) -> (center: CGPoint, width: Double) {
            let picture = simulation.camera.scenePictures[0]
            let c = picture.project(u: face.centerU, v: face.centerV)
            let left = picture.project(u: face.centerU - face.side / 2, v: face.centerV)
            let right = picture.project(u: face.centerU + face.side / 2, v: face.centerV)
            let width = hypot(right.x - left.x, right.y - left.y)
            return (CGPoint(x: c.x, y: c.y), width)
        }
    }

    /// The face's centre within 3 % of the frame of where the scene put it, its width within
    /// a third (the profile cascade's squares take in the back of the head: within 60 %).
    private static func check(
        _ face: AVMetadataFaceObject, near expected: (center: CGPoint, width: Double), widthTolerance: Double = 1.0 / 3,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(abs(face.bounds.midX - expected.center.x) < 0.03 && abs(face.bounds.midY - expected.center.y) < 0.03, "\(face.bounds) vs \(expected)", sourceLocation: sourceLocation)
        #expect(abs(face.bounds.width - expected.width) < expected.width * widthTolerance, "\(face.bounds) vs \(expected)", sourceLocation: sourceLocation)
    }

    @Test("a face on a card is found where the scene put it, frontal and level, with one faceID over the frames")
    func frontalFace() throws {
        let scan = try Rig()
        try scan.place(x: 0.4, y: 0.55)
        let expected = scan.expectedFace(FacePictures.astronautFace)
        scan.run(frames: 4)
        let faces = scan.collector.faces
        #expect(faces.count >= 3, "found in most frames: \(scan.collector.batches.map(\.count))")
        let face = try #require(faces.first)
        Self.check(face, near: expected)
        #expect(face.type == .face && face.time.isValid && face.duration.isValid)
        #expect(face.hasRollAngle && face.rollAngle == 0 && face.hasYawAngle && face.yawAngle == 0)
        #expect(Set(faces.map(\.faceID)).count == 1, "one face, one number: \(faces.map(\.faceID))")
        #expect(Set(faces.map(\.time)).count == faces.count, "each frame's own time")
        #expect(scan.collector.codes.isEmpty)
    }

    @Test("a face that leaves and comes back, and a second face, get new faceIDs")
    func newFacesNewNumbers() throws {
        let scan = try Rig()
        try scan.place(x: 0.3)
        scan.rig.session.startRunning()
        scan.waitForReads(2)
        try scan.simulation.setSceneElements([])
        let away = scan.output.scanner.counts.read
        scan.waitForReads(away + FaceTracker.patience + 2)
        try scan.simulation.setSceneElements([
            .init(.picture(path: FacePictures.astronaut), x: 0.25, width: 0.8, distance: 1),
            .init(.picture(path: FacePictures.astronaut), x: 0.75, width: 0.8, distance: 1),
        ])
        let back = scan.output.scanner.counts.read
        scan.waitForReads(back + 5)
        scan.stop()
        let faces = scan.collector.faces
        let first = try #require(faces.first)
        let later = faces.filter { $0.time > first.time && $0.faceID != first.faceID }
        #expect(Set(later.map(\.faceID)).count == 2, "two new numbers for the two faces: \(scan.collector.batches.map { $0.map { ($0 as! AVMetadataFaceObject).faceID } })")
        #expect(!later.contains { $0.faceID == first.faceID })
        #expect(scan.collector.batches.contains { $0.isEmpty }, "an empty delivery when the face left")
    }

    @Test("a face in profile has a yaw of 90 (looking to the picture's left)")
    func profileYaw() throws {
        let scan = try Rig()
        try scan.place(FacePictures.cameraman)
        let expected = scan.expectedFace(FacePictures.cameramanFace)
        scan.run(frames: 5)
        let face = try #require(scan.collector.faces.first, "\(scan.collector.batches)")
        #expect(face.hasYawAngle && face.yawAngle == 90)
        Self.check(face, near: expected, widthTolerance: 0.6)
    }

    @Test("a card rolled by 30° either way gives a roll of 30 or 330", arguments: [30.0, -30.0])
    func rolledCard(roll: Double) throws {
        let scan = try Rig()
        try scan.place(roll: roll)
        let expected = scan.expectedFace(FacePictures.astronautFace)
        scan.run(frames: 3)
        let face = try #require(scan.collector.faces.first, "\(scan.collector.batches)")
        #expect(face.hasRollAngle && face.rollAngle == (roll > 0 ? 30 : 330))
        Self.check(face, near: expected)
    }

    @Test("no faces when .face is not asked for, nor outside the rect of interest")
    func notAskedOrOutside() throws {
        let codesOnly = try Rig(types: [.qr])
        try codesOnly.place()
        codesOnly.run(frames: 3)
        #expect(codesOnly.collector.batches.isEmpty)
        let outside = try Rig()
        try outside.place(x: 0.3)
        outside.output.rectOfInterest = CGRect(x: 0.55, y: 0, width: 0.45, height: 1)
        outside.run(frames: 3)
        #expect(outside.collector.faces.isEmpty)
        let inside = try Rig()
        try inside.place(x: 0.75)
        inside.output.rectOfInterest = CGRect(x: 0.55, y: 0, width: 0.45, height: 1)
        let expected = inside.expectedFace(FacePictures.astronautFace)
        inside.run(frames: 3)
        let face = try #require(inside.collector.faces.first)
        Self.check(face, near: expected)
    }

    @Test("a face too far away, or in the dark, is not found")
    func farOrDark() throws {
        let far = try Rig()
        try far.place(distance: 8)
        far.run(frames: 3)
        #expect(far.collector.faces.isEmpty)
        let dark = try Rig()
        try dark.place()
        dark.simulation.sceneIlluminance = 0.01
        dark.run(frames: 3)
        #expect(dark.collector.faces.isEmpty)
    }

    @Test("through a mirrored video connection the transformed bounds land on the face in the delivered pixels; turned, as a code's do")
    func mirroredAndRotatedConnection() throws {
        let scan = try Rig()
        try scan.place(x: 0.35, y: 0.4)
        let connection = scan.rig.connection
        connection.automaticallyAdjustsVideoMirroring = false
        connection.isVideoMirrored = true
        scan.rig.collector.keptPixels = 1
        let expected = scan.expectedFace(FacePictures.astronautFace)
        scan.run(frames: 3)
        let face = try #require(scan.collector.faces.first)
        Self.check(face, near: expected)
        let (_, frame) = try #require(scan.rig.collector.newestFrameWithPixels)
        let moved = try #require(scan.rig.output.transformedMetadataObject(for: face, connection: connection) as? AVMetadataFaceObject)
        #expect(moved.faceID == face.faceID && moved.rollAngle == face.rollAngle && moved.yawAngle == face.yawAngle)
        // Find the face in the delivered, mirrored frame directly (a turned frame would show it
        // lying on its side, which the cascades do not look for).
        CVPixelBufferLockBaseAddress(frame, .readOnly)
        let direct = FaceReader().read(frame.planeAddress(0), width: frame.width, height: frame.height, bytesPerRow: frame.bytesPerRow(0), layout: .luma8)
        CVPixelBufferUnlockBaseAddress(frame, .readOnly)
        let seen = try #require(direct.first)
        let tolerance = 0.03 * 640
        #expect(abs(moved.bounds.midX - seen.center.x) <= tolerance && abs(moved.bounds.midY - seen.center.y) <= tolerance, "\(moved.bounds) vs \(seen)")
        #expect(moved.bounds.midX > 320, "mirrored: the face on the left of the sensor is on the right of the frame")
        // Turned by 90°: the bounds move as those of a code over the same rectangle (whose
        // corners the code tests check against the delivered pixels).
        connection.videoRotationAngle = 90
        let turned = try #require(scan.rig.output.transformedMetadataObject(for: face, connection: connection))
        let b = face.bounds
        let square = AVMetadataMachineReadableCodeObject(
            type: .qr, time: face.time, duration: face.duration,
            corners: [CGPoint(x: b.minX, y: b.minY), CGPoint(x: b.minX, y: b.maxY), CGPoint(x: b.maxX, y: b.maxY), CGPoint(x: b.maxX, y: b.minY)], stringValue: "")
        let reference = try #require(scan.rig.output.transformedMetadataObject(for: square, connection: connection))
        #expect(abs(turned.bounds.midX - reference.bounds.midX) < 1 && abs(turned.bounds.midY - reference.bounds.midY) < 1)
        #expect(abs(turned.bounds.width - reference.bounds.width) < 1 && abs(turned.bounds.height - reference.bounds.height) < 1)
        #expect(abs(turned.bounds.height - b.width * 640) < 1, "the sensor's x runs down the turned frame")
    }

    @Test("on the mirrored front camera the face is reported where it is on the sensor")
    func frontCamera() throws {
        let scan = try Rig(uniqueID: "sim:front-wide")
        #expect(scan.rig.connection.isVideoMirrored)
        try scan.place(x: 0.3)
        let expected = scan.expectedFace(FacePictures.astronautFace)
        scan.run(frames: 3)
        let face = try #require(scan.collector.faces.first)
        Self.check(face, near: expected)
        #expect(face.rollAngle == 0 && face.yawAngle == 0)
    }
}

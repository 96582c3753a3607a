import Foundation
@testable import SimulatedCamera
import Testing
import TestSupport

@testable import OpenCapture

/// Detection rate of codes and faces on cards in seeded simulated scenes, against distance,
/// angle, blur and light. `OC_DETECTION_TABLE=1 swift test --skip-build --filter DetectionRateTests`
/// prints the table of docs/ARCHITECTURE.md "Metadata"; the always-on test checks its shape.
@Suite("Detection rate", .serialized, .tags(.slow))
struct DetectionRateTests {
    /// What is on the card: a code the scene draws, or a face photo.
    struct Subject: Sendable {
        var name: String
        var type: AVMetadataObject.ObjectType
        var content: AVCaptureDevice.Simulation.SceneElement.Content
        var string: String?
        /// Card width (metres) and the distance of the other rows.
        var width: Double
        var distance: Double
        /// The distance column, metres.
        var distances: [Double]
    }

    /// One cell's change from the subject's usual conditions (in focus at its distance, facing the camera, 150 lux).
    struct Condition: Sendable {
        var label: String
        var distance: Double? = nil
        var yaw: Double = 0
        /// Focused at this many times the card's distance (1 in focus).
        var focusFactor: Double = 1
        var shake: Double = 0
        var lux: Float = 150
    }

    static let codeDistances = [0.2, 0.4, 0.6, 0.8, 1.6]
    static let subjects: [Subject] = [
        Subject(name: "qr", type: .qr, content: .code("https://example.org/42", type: .qr), string: "https://example.org/42", width: 0.05, distance: 0.3, distances: codeDistances),
        Subject(name: "ean13", type: .ean13, content: .code("4006381333931", type: .ean13), string: "4006381333931", width: 0.2, distance: 0.3, distances: codeDistances),
        Subject(name: "code128", type: .code128, content: .code("Open-42", type: .code128), string: "Open-42", width: 0.2, distance: 0.3, distances: codeDistances),
        Subject(name: "dataMatrix", type: .dataMatrix, content: .code("Matrix 42", type: .dataMatrix), string: "Matrix 42", width: 0.04, distance: 0.3, distances: codeDistances),
        Subject(name: "pdf417", type: .pdf417, content: .code("PDF417 text", type: .pdf417), string: "PDF417 text", width: 0.2, distance: 0.3, distances: codeDistances),
        Subject(name: "face", type: .face, content: .picture(path: FacePictures.astronaut), string: nil, width: 0.8, distance: 1.5, distances: [1, 2, 3, 4, 8]),
    ]

    static func conditions(for subject: Subject) -> [Condition] {
        subject.distances.map { Condition(label: "\($0) m", distance: $0) }
            + [30.0, 60, 75].map { Condition(label: "yaw \(Int($0))°", yaw: $0) }
            + [Condition(label: "focused at 2x", focusFactor: 2), Condition(label: "focused at 4x", focusFactor: 4)]
            + [Condition(label: "shake 0.01", shake: 0.01), Condition(label: "shake 0.03", shake: 0.03)]
            + ([15, 1.5, 0.15] as [Float]).map { Condition(label: "\($0) lux", lux: $0) }
    }

    /// The share of `frames` frames in which the subject was found (a code with its string).
    static func rate(_ subject: Subject, _ condition: Condition, frames: Int = 8) throws -> Double {
        let rig = try TestRig(preset: .vga640x480)
        let simulation = try #require(rig.device.simulation)
        // The camera is shared with the other suites: leave it as it was found.
        let seed = simulation.seed
        defer {
            simulation.seed = seed
            simulation.cameraShake = 0
            try? simulation.setSceneElements([])
            try? simulation.setScene(.chart)
        }
        simulation.seed = 0xDE7EC7
        try simulation.setScene(.flat(reflectance: 0.5))
        let output = AVCaptureMetadataOutput()
        let collector = MetadataCollector()
        rig.session.addOutput(output)
        output.setMetadataObjectsDelegate(collector, queue: collector.queue)
        output.metadataObjectTypes = [subject.type]
        let distance = condition.distance ?? subject.distance
        let lens = LensUnit.lens((rig.device.backend as! SimulatedCamera).model, rig.device.activeFormat.index)
        try rig.device.lockForConfiguration()
        rig.device.setFocusModeLocked(lensPosition: lens.lensPosition(focusing: distance * condition.focusFactor), completionHandler: nil)
        rig.device.unlockForConfiguration()
        try simulation.setSceneElements([.init(subject.content, width: subject.width, distance: distance, yaw: condition.yaw)])
        simulation.sceneIlluminance = condition.lux
        simulation.cameraShake = condition.shake
        rig.session.startRunning()
        eventually("\(frames) frames read", within: .seconds(120)) { output.scanner.counts.read >= frames }
        rig.stop()
        collector.queue.sync {}
        let read = max(1, output.scanner.counts.read)
        let found = collector.batches.filter { batch in
            batch.contains { object in
                object.type == subject.type && (subject.string == nil || (object as? AVMetadataMachineReadableCodeObject)?.stringValue == subject.string)
            }
        }.count
        #expect(collector.codes.allSatisfy { $0.stringValue == subject.string }, "never a wrong string")
        return Double(found) / Double(read)
    }

    @Test("the table's shape: found near and lit, not far beyond the resolvable limit nor in the dark")
    func shape() throws {
        for subject in Self.subjects where ["qr", "ean13", "face"].contains(subject.name) {
            #expect(try Self.rate(subject, Condition(label: "near")) >= 0.75, "\(subject.name) near")
            #expect(try Self.rate(subject, Condition(label: "far", distance: subject.distances.last! * 2)) == 0, "\(subject.name) far")
            #expect(try Self.rate(subject, Condition(label: "dark", lux: 0.01)) == 0, "\(subject.name) dark")
        }
    }

    @Test("the detection-rate table (OC_DETECTION_TABLE=1)", .enabled(if: ProcessInfo.processInfo.environment["OC_DETECTION_TABLE"] != nil))
    func table() throws {
        // Rows: conditions (the distance rows differ for faces); columns: subjects.
        let columns = try Self.subjects.map { subject in try Self.conditions(for: subject).map { try Self.rate(subject, $0) } }
        var lines = ["| condition | " + Self.subjects.map(\.name).joined(separator: " | ") + " |", "|---" + String(repeating: "|---", count: Self.subjects.count) + "|"]
        for (row, condition) in Self.conditions(for: Self.subjects[0]).enumerated() {
            let face = Self.conditions(for: Self.subjects.last!)[row].label
            let label = face == condition.label ? condition.label : "\(condition.label) (face \(face))"
            lines.append("| \(label) | " + columns.map { "\(Int(($0[row] * 100).rounded())) %" }.joined(separator: " | ") + " |")
        }
        print("DETECTION TABLE\n" + lines.joined(separator: "\n"))
    }
}

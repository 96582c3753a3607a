import Foundation
import Testing
import TestSupport

@testable import OpenCapture

/// The metadata output on a full-size stream in real time: detection runs off the capture
/// path on the newest frame, so video keeps its rate whatever the reader costs. The test's
/// name says `KeepsRealTime`: it runs alone, after the parallel lanes (scripts/run-host-tests).
@Suite("Metadata output at 1080p30 in real time", .serialized)
struct MetadataRealTimeTests {
    @Test("asking for every code type at 1080p30: no video frame dropped or late, the code read, frames in between skipped")
    func metadataOutputKeepsRealTimeAt1080p30() throws {
        let rig = try TestRig(preset: .hd1920x1080, pacing: .realTime)
        let simulation = try #require(rig.device.simulation)
        try simulation.setSceneElements([.init(.code("1080p30", type: .qr), x: 0.5, y: 0.5, width: 0.06, distance: 0.4)])
        defer { try? simulation.setSceneElements([]) }
        let output = AVCaptureMetadataOutput()
        let collector = MetadataCollector()
        rig.session.addOutput(output)
        output.setMetadataObjectsDelegate(collector, queue: collector.queue)
        // The code types: faces have their own figure (docs/PERFORMANCE.md).
        output.metadataObjectTypes = output.availableMetadataObjectTypes.filter { $0 != .face }
        rig.session.startRunning()
        let frames = try rig.collector.waitForFrames(150)
        rig.stop()
        collector.queue.sync {}
        #expect(rig.collector.drops.isEmpty, "\(rig.collector.drops)")
        let gaps = zip(frames.dropFirst(), frames).map { ($0.time - $1.time).seconds }
        #expect(gaps.allSatisfy { abs($0 - 1.0 / 30) < 0.002 }, "frame intervals \(gaps.filter { abs($0 - 1.0 / 30) >= 0.002 })")
        #expect(collector.codes.contains { $0.type == .qr && $0.stringValue == "1080p30" })
        let counts = output.scanner.counts
        #expect(counts.read > 0)
        print("metadata output, all \(output.metadataObjectTypes.count) code types, 1080p30: \(frames.count) frames, 0 dropped; "
            + "frames read \(counts.read), skipped \(counts.skipped)")
    }
}

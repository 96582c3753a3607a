import Foundation
import Testing
import TestSupport

@testable import OpenCapture

/// A metadata delegate that takes 0.1 s over each call, as an app working on its queue may:
/// the output's reader is busy until the call returns.
private final class SlowMetadataDelegate: NSObject, AVCaptureMetadataOutputObjectsDelegate, @unchecked Sendable {
    let queue = DispatchQueue(label: "test.metadata.slow")
    private let log = Mutex<[AVMetadataMachineReadableCodeObject]>([])

    func metadataOutput(_ output: AVCaptureMetadataOutput, didOutput metadataObjects: [AVMetadataObject], from connection: AVCaptureConnection) {
        log.withLock { $0 += metadataObjects.compactMap { $0 as? AVMetadataMachineReadableCodeObject } }
        Thread.sleep(forTimeInterval: 0.1)
    }

    var codes: [AVMetadataMachineReadableCodeObject] { log.withLock { $0 } }
}

/// The metadata output on a full-size stream in real time: detection runs off the capture
/// path on the newest frame, so a reader slower than the frame rate (here every code type at
/// 1080p and a delegate taking 0.1 s a call) passes frames by rather than holding video
/// back. What holds on any machine, however loaded, is asserted: every video frame
/// accounted for, in order on the frame grid; every frame offered to the reader, which
/// passed some by; the code read. How many frames a loaded machine drops is a measurement:
/// the test prints it, and docs/PERFORMANCE.md records it for a quiet machine.
@Suite("Metadata output at 1080p30 in real time", .serialized)
struct MetadataRealTimeTests {
    @Test("every code type at 1080p30 in real time, a slow metadata delegate: every video frame delivered or reported dropped, in order on the 1/30 s grid; the reader passes frames by, the code read")
    func metadataOutputInRealTimeAccountsForEveryFrame() throws {
        let rig = try TestRig(preset: .hd1920x1080, pacing: .realTime)
        let simulation = try #require(rig.device.simulation)
        try simulation.setSceneElements([.init(.code("1080p30", type: .qr), x: 0.5, y: 0.5, width: 0.06, distance: 0.4)])
        defer { try? simulation.setSceneElements([]) }
        let output = AVCaptureMetadataOutput()
        let collector = SlowMetadataDelegate()
        rig.session.addOutput(output)
        output.setMetadataObjectsDelegate(collector, queue: collector.queue)
        // The code types: faces have their own figure (docs/PERFORMANCE.md).
        output.metadataObjectTypes = output.availableMetadataObjectTypes.filter { $0 != .face }
        rig.session.startRunning()
        let frames = try rig.collector.waitForFrames(150)
        rig.stop()
        // The read in progress at the stop ends (and is counted) before the counts are taken.
        output.scanner.waitUntilIdle { false }
        rig.collector.queue.sync {}
        collector.queue.sync {}
        let frameDuration = CMTime(value: 1, timescale: 30)
        let account = FrameAccount(rig.collector.events, frameDuration: frameDuration)
        #expect(account.isComplete, "\(account.problems)")
        #expect(frames.allSatisfy { $0.duration == frameDuration && $0.width == 1920 && $0.height == 1080 })
        // The code was read, from a frame of the stream (its time is on the frame grid).
        let codes = collector.codes.filter { $0.type == .qr && $0.stringValue == "1080p30" }
        #expect(!codes.isEmpty, "the code was not read")
        let first = frames[0].time
        #expect(codes.allSatisfy { code in
            let steps = (code.time - first).seconds * 30
            return abs(steps - steps.rounded()) < 1e-4
        }, "\(codes.map(\.time.seconds))")
        // Every frame delivered was offered to the reader, which took it or passed it by: a
        // reader that held video back would have read them all (each read here lasts at
        // least the delegate's 0.1 s, three frame times). The capture thread hands a frame
        // to the video output (added first) before the metadata output, so the stop may
        // come between the two for the last frame only: every earlier one was offered
        // before the last reached the video output.
        let counts = output.scanner.counts
        #expect(counts.read > 0 && counts.skipped > 0, "read \(counts.read), skipped \(counts.skipped)")
        #expect(counts.read + counts.skipped >= frames.count - 1, "read \(counts.read) + skipped \(counts.skipped) of \(frames.count) frames")
        print("metadata output, all \(output.metadataObjectTypes.count) code types, 1080p30 real time: \(account); "
            + "frames read \(counts.read), passed by \(counts.skipped)")
    }
}

import CaptureCore
import Foundation
import Synchronization
import Testing
import TestSupport

@testable import OpenCapture

/// `MetadataScanner.stop()` with a detection in flight, on a detector the test holds: stop
/// returns only after that detection ends (a process exiting next must not tear the
/// detector's libraries down under it), and no delegate call comes after it returns.
@Suite("Metadata scanner stop")
struct MetadataScannerStopTests {
    /// What happened, in order, across the threads involved.
    final class Events: NSObject, AVCaptureMetadataOutputObjectsDelegate, @unchecked Sendable {
        let queue = DispatchQueue(label: "test.scanner-stop.delegate")
        private let log = Mutex<[String]>([])

        func add(_ event: String) { log.withLock { $0.append(event) } }
        var all: [String] { log.withLock { $0 } }

        func metadataOutput(_ output: AVCaptureMetadataOutput, didOutput metadataObjects: [AVMetadataObject], from connection: AVCaptureConnection) {
            add("delegate")
        }
    }

    /// A detector that reports its start, then waits until the test lets it finish.
    final class HeldDetector: @unchecked Sendable {
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let events: Events
        init(events: Events) { self.events = events }

        func detect(_ types: Set<AVMetadataObject.ObjectType>) -> [AVMetadataObject] {
            events.add("detecting")
            started.signal()
            release.wait()
            events.add("detected")
            // An object, so that a delivery to the delegate is queued after it.
            return [AVMetadataMachineReadableCodeObject(type: .qr, time: .zero, duration: .invalid, corners: [.zero, CGPoint(x: 1, y: 1)], stringValue: "x")]
        }
    }

    /// Repeated, since the frame before is delivered on the delegate's queue while its
    /// detection block is still ending: the count of frames in flight must survive that
    /// race (a flag cleared by the earlier frame's end let stop() return early, once in a
    /// CI run, and the test then waited for good).
    @Test("stop() returns only after the detection in flight, and no delegate call follows its return", arguments: 1...20)
    func stopWaitsForDetectionInFlight(round: Int) throws {
        let events = Events()
        let detector = HeldDetector(events: events)
        let scanner = MetadataScanner(detector: { detector.detect($0) })
        // An output connected to a camera (types can only be set then), for its scan request.
        let session = AVCaptureSession()
        session.addInput(try AVCaptureDeviceInput(device: try #require(AVCaptureDevice(uniqueID: "sim:back-wide"))))
        let output = AVCaptureMetadataOutput()
        session.addOutput(output)
        output.setMetadataObjectsDelegate(events, queue: events.queue)
        output.metadataObjectTypes = [.qr]
        let connection = try #require(output.connections.first)
        var made: CVPixelBuffer?
        CVPixelBufferCreate(nil, 64, 48, kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, nil, &made)
        let buffer = try #require(made)
        scanner.begin()

        // A frame read before stop reaches the delegate: the delegate path works.
        scanner.offer(buffer, metadata: FrameMetadata(), connection: connection, output: output)
        detector.started.wait()
        detector.release.signal()
        scanner.waitUntilIdle(unless: { false })
        #expect(events.all == ["detecting", "detected", "delegate"])

        // A second frame, held in the detector while stop is called.
        scanner.offer(buffer, metadata: FrameMetadata(), connection: connection, output: output)
        detector.started.wait()
        let stopped = DispatchSemaphore(value: 0)
        Thread {
            scanner.stop()
            events.add("stop returned")
            stopped.signal()
        }.start()
        // A stop that did not wait would return now; this one cannot while the detector is held.
        let returnedEarly = stopped.wait(timeout: .now() + .milliseconds(300)) == .success
        #expect(!returnedEarly, "stop() returned with a detection in flight: \(events.all)")
        detector.release.signal()
        // Its one signal was taken above when it returned early.
        if !returnedEarly { stopped.wait() }
        // Anything queued to the delegate's queue has run after this.
        events.queue.sync {}
        let after = events.all.dropFirst(3)
        #expect(Array(after) == ["detecting", "detected", "stop returned"], "\(events.all)")
    }
}

import CaptureCore
import Foundation
import OpenCapture
import Synchronization
import Testing
import TestSupport

/// `AVCaptureVirtualCameraOutput` in a running session with a simulated camera, read by
/// pipewiresrc on a daemon of the test's own: every frame read is, byte for byte, a frame
/// an NV12 video data output of the same session received; the node goes when the session
/// stops and comes back with the next run; a missing daemon is refused with one line.
@Suite(.serialized, .enabled(if: PipeWireDaemon.isInstalled))
struct VirtualCameraOutputTests {
    static let width = 352, height = 288
    static var frameBytes: Int { width * height * 3 / 2 }

    /// FNV-1a over a frame's rows without their padding: the NV12 picture, not its buffer.
    static func fingerprint(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return hash
    }

    /// The fingerprints of every frame an NV12 video data output received.
    final class Fingerprints: NSObject, AVCaptureVideoDataOutputSampleBufferDelegate, @unchecked Sendable {
        let queue = DispatchQueue(label: "test.fingerprints")
        let seen = Mutex<Set<UInt64>>([])

        func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
            guard let buffer = CMSampleBufferGetImageBuffer(sampleBuffer) else { return }
            var rows = [UInt8]()
            rows.reserveCapacity(VirtualCameraOutputTests.frameBytes)
            for (plane, height) in [(0, buffer.height), (1, (buffer.height + 1) / 2)] {
                let base = buffer.planeAddress(plane).assumingMemoryBound(to: UInt8.self)
                for row in 0..<height {
                    rows.append(contentsOf: UnsafeBufferPointer(start: base + row * buffer.bytesPerRow(plane), count: buffer.width))
                }
            }
            let print = rows.withUnsafeBytes { VirtualCameraOutputTests.fingerprint($0) }
            seen.withLock { _ = $0.insert(print) }
        }
    }

    final class Rig {
        let session = AVCaptureSession()
        let output = AVCaptureVirtualCameraOutput()
        let data = AVCaptureVideoDataOutput()
        let fingerprints = Fingerprints()

        init(daemon: PipeWireDaemon) throws {
            let device = try #require(AVCaptureDevice(uniqueID: "sim:back-wide"))
            device.simulation?.pacing = .realTime
            device.simulation?.seed = 5
            session.sessionPreset = .cif352x288
            session.addInput(try AVCaptureDeviceInput(device: device))
            data.videoSettings = [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange]
            data.alwaysDiscardsLateVideoFrames = false
            data.setSampleBufferDelegate(fingerprints, queue: fingerprints.queue)
            session.addOutput(data)
            output.pipeWireRemote = daemon.socket
            output.name = "oc-session-camera"
            output.localizedName = "OpenCapture session camera"
            session.addOutput(output)
        }

        deinit {
            output.stopPublishing()
            session.stopRunning()
        }
    }

    /// Reads `frames` frames of the node into a file and returns its bytes.
    func read(_ daemon: PipeWireDaemon, frames: Int, as name: String) throws -> [UInt8] {
        let file = daemon.directory.appendingPathComponent("\(name).raw")
        let reader = try daemon.gstreamer([
            "pipewiresrc", "stream-properties=props,node.name=\(name)", "num-buffers=\(frames)", "!",
            "video/x-raw,format=NV12,width=\(Self.width),height=\(Self.height)", "!", "filesink", "buffer-mode=unbuffered", "location=\(file.path)",
        ])
        try daemon.link(output: "oc-session-camera", input: name)
        let outcome = try reader.wait(within: .seconds(60))
        #expect(outcome.succeeded, "\(outcome.stderr)")
        return [UInt8](try Data(contentsOf: file))
    }

    @Test func publishesTheSessionsFramesAndGoesWithTheRun() throws {
        let daemon = try PipeWireDaemon()
        defer { daemon.stop() }
        let rig = try Rig(daemon: daemon)
        try rig.output.startPublishing()
        #expect(rig.output.isPublishing)
        rig.session.startRunning()

        let node = try #require(daemon.waitForNode(named: "oc-session-camera"))
        #expect(node.mediaClass == "Video/Source")
        #expect(node.role == "Camera")
        eventually("the output knows its node") { rig.output.nodeID == UInt32(node.id) }
        let dimensions = try #require(rig.output.publishedDimensions)
        #expect((dimensions.width, dimensions.height) == (Int32(Self.width), Int32(Self.height)))

        let bytes = try read(daemon, frames: 10, as: "oc-session-reader")
        #expect(bytes.count == 10 * Self.frameBytes)
        // Every frame read is one the data output received (it sees them a little later).
        let prints = (0..<bytes.count / Self.frameBytes).map { index in
            bytes[index * Self.frameBytes..<(index + 1) * Self.frameBytes].withUnsafeBytes { Self.fingerprint($0) }
        }
        #expect(Set(prints).count > 1, "the frames differ (the camera's noise and motion)")
        eventually("the data output received every frame read") { rig.fingerprints.seen.withLock { $0.isSuperset(of: prints) } }
        #expect(rig.output.publishedFrameCount >= 10)

        // The run ends: the node goes. The next run brings it back, and it is read again.
        rig.session.stopRunning()
        eventually("the node went with the run") { (try? daemon.nodes().contains { $0.name == "oc-session-camera" }) == false }
        #expect(!rig.output.isNodePublished)
        #expect(!rig.output.hasConsumers)
        rig.session.startRunning()
        _ = try #require(daemon.waitForNode(named: "oc-session-camera"))
        let again = try read(daemon, frames: 3, as: "oc-session-reader-2")
        #expect(again.count == 3 * Self.frameBytes)
        #expect(rig.output.publishedFrameCount >= 13)

        // A reader that stays: the output sees it come, then go when it is killed.
        let endless = try daemon.gstreamer(["pipewiresrc", "stream-properties=props,node.name=oc-session-endless", "!", "fakesink"])
        defer { endless.kill() }
        try daemon.link(output: "oc-session-camera", input: "oc-session-endless")
        eventually("the output sees its reader") { rig.output.hasConsumers }
        endless.kill()
        eventually("the output sees its reader go") { !rig.output.hasConsumers }

        rig.output.stopPublishing()
        #expect(!rig.output.isPublishing)
        eventually("the node went with stopPublishing") { (try? daemon.nodes().contains { $0.name == "oc-session-camera" }) == false }
        #expect(rig.output.lastError == nil)
    }

    @Test func noDaemonIsRefusedWithOneLine() throws {
        let output = AVCaptureVirtualCameraOutput()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("oc-no-daemon-\(UUID().uuidString)")
        output.pipeWireRemote = directory.appendingPathComponent("pipewire-0").path
        #expect {
            try output.startPublishing()
        } throws: { error in
            let message = (error as? AVCaptureVirtualCameraOutput.PublishingError)?.message ?? ""
            return message.contains("no PipeWire daemon") && !message.contains("\n")
        }
        #expect(!output.isPublishing)
    }
}

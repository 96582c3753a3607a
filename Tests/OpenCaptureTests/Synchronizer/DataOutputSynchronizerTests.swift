import Foundation
import Synchronization
import Testing
import TestSupport

@testable import OpenCapture

/// Collects a synchronizer's collections: for each, the outputs and data it held.
private final class SynchronizedCollector: NSObject, AVCaptureDataOutputSynchronizerDelegate, @unchecked Sendable {
    let queue = DispatchQueue(label: "synchronizer test")
    private let lock = NSLock()
    private var collected: [[(AVCaptureOutput, AVCaptureSynchronizedData)]] = []
    let primary: AVCaptureOutput
    let wanted: Int
    let done: Completion<Void>
    /// Whether collections after the wanted ones are let go at once. Kept, their sample
    /// buffers keep the camera's pixel buffers: in virtual time the camera makes frames as
    /// fast as they are taken, so a test thread slow to move on (a busy machine) lets the
    /// collector keep the whole pool, and every later frame is dropped OutOfBuffers, as on
    /// iOS for an app that holds its buffers.
    let keepsOnlyWanted: Bool

    init(primary: AVCaptureOutput, wanted: Int, keepsOnlyWanted: Bool = false) {
        self.primary = primary
        self.wanted = wanted
        self.keepsOnlyWanted = keepsOnlyWanted
        done = Completion("\(wanted) synchronized primary buffers")
    }

    func dataOutputSynchronizer(_ synchronizer: AVCaptureDataOutputSynchronizer, didOutput synchronizedDataCollection: AVCaptureSynchronizedDataCollection) {
        // Iterating yields the data in the order of the synchronizer's outputs.
        let data = Array(synchronizedDataCollection)
        let pairs = synchronizer.dataOutputs.compactMap { output in synchronizedDataCollection[output].map { (output, $0) } }
        lock.lock()
        precondition(pairs.count == synchronizedDataCollection.count && data.count == pairs.count)
        if keepsOnlyWanted && collected.filter({ $0.contains { $0.0 === primary } }).count >= wanted {
            lock.unlock()
            return
        }
        collected.append(pairs)
        let primaries = collected.filter { $0.contains { $0.0 === primary } }.count
        lock.unlock()
        if primaries >= wanted { done.fulfil() }
    }

    var collections: [[(AVCaptureOutput, AVCaptureSynchronizedData)]] {
        lock.lock()
        defer { lock.unlock() }
        return collected
    }
}

/// Counts what an output's own delegate receives.
private final class OwnVideoDelegate: NSObject, AVCaptureVideoDataOutputSampleBufferDelegate, @unchecked Sendable {
    let frames = Atomic<Int>(0)
    func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        frames.add(1, ordering: .relaxed)
    }
}

@Suite("AVCaptureDataOutputSynchronizer", .serialized)
struct DataOutputSynchronizerTests {
    @Test("video with audio (real time): each frame comes with the audio buffer that covers its timestamp, every audio buffer once")
    func videoWithAudio() throws {
        // Real time: both devices stamp on the host clock as they capture (in virtual time
        // each device runs as fast as its consumers, so the two never share a moment).
        let camera = try #require(AVCaptureDevice(uniqueID: "sim:back-wide"))
        let microphone = try #require(AVCaptureDevice.default(for: .audio))
        camera.simulation?.pacing = .realTime
        microphone.microphoneSimulation?.pacing = .realTime
        let session = AVCaptureSession()
        session.beginConfiguration()
        session.sessionPreset = .cif352x288
        session.addInput(try AVCaptureDeviceInput(device: camera))
        session.addInput(try AVCaptureDeviceInput(device: microphone))
        let video = AVCaptureVideoDataOutput(), audio = AVCaptureAudioDataOutput()
        video.alwaysDiscardsLateVideoFrames = false
        let own = OwnVideoDelegate()
        video.setSampleBufferDelegate(own, queue: DispatchQueue(label: "own video"))
        session.addOutput(video)
        session.addOutput(audio)
        session.commitConfiguration()
        let synchronizer = AVCaptureDataOutputSynchronizer(dataOutputs: [video, audio])
        let collector = SynchronizedCollector(primary: video, wanted: 60)
        synchronizer.setDelegate(collector, queue: collector.queue)
        #expect(synchronizer.delegate === collector && synchronizer.delegateCallbackQueue === collector.queue)
        session.startRunning()
        try collector.done.wait(within: .seconds(30))
        session.stopRunning()
        withExtendedLifetime(synchronizer) {}
        collector.queue.sync {}
        let collections = collector.collections
        #expect(own.frames.load(ordering: .relaxed) == 0, "the output's own delegate is not called while synchronized")

        let withVideo = collections.filter { $0.first?.0 === video }
        #expect(withVideo.count >= 60)
        var lastFrame = CMTime.negativeInfinity
        var aligned = 0
        var audioTimes: [CMTime] = []
        for collection in collections {
            for (output, data) in collection where output === audio {
                let buffer = try #require((data as? AVCaptureSynchronizedSampleBufferData)?.sampleBuffer)
                #expect(!(data as! AVCaptureSynchronizedSampleBufferData).sampleBufferWasDropped)
                audioTimes.append(buffer.presentationTimeStamp)
            }
            guard let (_, frameData) = collection.first, collection.first?.0 === video else {
                #expect(collection.count == 1, "data that is not aligned with a frame comes alone")
                continue
            }
            let frame = try #require(frameData as? AVCaptureSynchronizedSampleBufferData)
            #expect(frame.timestamp == frame.sampleBuffer.presentationTimeStamp)
            #expect(frame.timestamp > lastFrame, "frames in timestamp order")
            lastFrame = frame.timestamp
            if let (_, soundData) = collection.dropFirst().first {
                let sound = try #require(soundData as? AVCaptureSynchronizedSampleBufferData)
                // The aligned audio buffer is the one whose time range holds the frame's timestamp.
                #expect(sound.timestamp <= frame.timestamp)
                #expect(frame.timestamp < sound.timestamp + sound.sampleBuffer.duration)
                aligned += 1
            }
        }
        // Each audio buffer is delivered exactly once, in order.
        #expect(Set(audioTimes.map(\.seconds)).count == audioTimes.count)
        #expect(audioTimes == audioTimes.sorted())
        // Audio (about 21 ms a buffer) covers every frame's moment once it is flowing; a
        // frame can miss only at the very start or when held too long.
        #expect(aligned >= withVideo.count * 8 / 10, "\(aligned) of \(withVideo.count) frames had their audio")
    }

    @Test("video with metadata: each frame comes with the objects read from that frame ([] when none)")
    func videoWithMetadata() throws {
        let rig = try TestRig(preset: .vga640x480)
        let metadata = AVCaptureMetadataOutput()
        rig.session.addOutput(metadata)
        metadata.metadataObjectTypes = [.qr]
        let synchronizer = AVCaptureDataOutputSynchronizer(dataOutputs: [rig.output, metadata])
        let collector = SynchronizedCollector(primary: rig.output, wanted: 20)
        synchronizer.setDelegate(collector, queue: collector.queue)
        rig.session.startRunning()
        try collector.done.wait(within: .seconds(30))
        rig.stop()
        withExtendedLifetime(synchronizer) {}
        collector.queue.sync {}
        var withObjects = 0
        for collection in collector.collections where collection.first?.0 === rig.output {
            let frame = collection[0].1
            if let (_, objectData) = collection.dropFirst().first {
                let objects = try #require(objectData as? AVCaptureSynchronizedMetadataObjectData)
                #expect(objects.timestamp == frame.timestamp, "metadata of the frame's own time")
                #expect(objects.metadataObjects.isEmpty, "the chart has no QR code")
                withObjects += 1
            }
        }
        #expect(withObjects > 0, "frames the detector read come with their (empty) metadata")
        #expect(rig.collector.frameCount == 0, "the output's own delegate is not called while synchronized")
    }

    @Test("setDelegate(nil, queue: nil) gives the outputs their own delegates back")
    func restoresOwnDelegates() throws {
        let rig = try TestRig(preset: .cif352x288)
        let synchronizer = AVCaptureDataOutputSynchronizer(dataOutputs: [rig.output])
        let collector = SynchronizedCollector(primary: rig.output, wanted: 3, keepsOnlyWanted: true)
        let changes = Mutex<[Bool]>([])  // whether each new delegate was non-nil
        let observation = synchronizer.observe(\.delegate, options: [.new]) { _, change in
            changes.withLock { $0.append((change.newValue ?? nil) != nil) }
        }
        defer { observation.invalidate() }
        synchronizer.setDelegate(collector, queue: collector.queue)
        rig.session.startRunning()
        try collector.done.wait(within: .seconds(20))
        #expect(rig.collector.frameCount == 0)
        synchronizer.setDelegate(nil, queue: nil)
        #expect(synchronizer.delegate == nil && synchronizer.delegateCallbackQueue == nil)
        #expect(changes.withLock { $0 } == [true, false], "delegate is key-value observable")
        eventually("frames reach the output's own delegate", within: .seconds(20)) { rig.collector.frameCount >= 3 }
        rig.stop()
        withExtendedLifetime(synchronizer) {}
        #expect(rig.output.sampleBufferDelegate === rig.collector)
    }
}

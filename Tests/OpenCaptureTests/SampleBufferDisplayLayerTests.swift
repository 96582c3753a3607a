import Foundation
import Synchronization
import Testing
import TestSupport

@testable import OpenCapture

/// AVSampleBufferDisplayLayer: buffers shown at their times by the timebase, the newest due
/// one winning, placed by the gravity into `contents`; flushing, readiness and failure.
@Suite("AVSampleBufferDisplayLayer")
struct SampleBufferDisplayLayerTests {
    /// A 64x48 BGRA sample buffer of one colour (blue, green, red) at `seconds`.
    static func sample(_ colour: (UInt8, UInt8, UInt8), at seconds: Double, immediately: Bool = false) -> CMSampleBuffer {
        var made: CVPixelBuffer?
        CVPixelBufferCreate(nil, 64, 48, kCVPixelFormatType_32BGRA, nil, &made)
        let buffer = made!
        CVPixelBufferLockBaseAddress(buffer, [])
        let base = CVPixelBufferGetBaseAddress(buffer)!.assumingMemoryBound(to: UInt8.self)
        for y in 0..<48 {
            for x in 0..<64 {
                let pixel = base + y * CVPixelBufferGetBytesPerRow(buffer) + 4 * x
                (pixel[0], pixel[1], pixel[2], pixel[3]) = (colour.0, colour.1, colour.2, 255)
            }
        }
        CVPixelBufferUnlockBaseAddress(buffer, [])
        var format: CMFormatDescription?
        CMVideoFormatDescriptionCreateForImageBuffer(allocator: nil, imageBuffer: buffer, formatDescriptionOut: &format)
        var timing = CMSampleTimingInfo(
            duration: CMTime(value: 1, timescale: 30), presentationTimeStamp: CMTime(seconds: seconds, preferredTimescale: 600),
            decodeTimeStamp: .invalid)
        var sample: CMSampleBuffer?
        CMSampleBufferCreateReadyWithImageBuffer(allocator: nil, imageBuffer: buffer, formatDescription: format!, sampleTiming: &timing, sampleBufferOut: &sample)
        if immediately, let attachments = CMSampleBufferGetSampleAttachmentsArray(sample!, createIfNecessary: true) as? [NSMutableDictionary] {
            attachments.first?[kCMSampleAttachmentKey_DisplayImmediately] = kCFBooleanTrue
        }
        return sample!
    }

    static let red: (UInt8, UInt8, UInt8) = (0, 0, 255)
    static let green: (UInt8, UInt8, UInt8) = (0, 255, 0)
    static let blue: (UInt8, UInt8, UInt8) = (255, 0, 0)

    /// The (blue, green, red) of the picture shown at a point.
    static func shown(_ layer: CALayer, x: Int, y: Int) -> (UInt8, UInt8, UInt8)? {
        guard let picture = layer.contents as? CVPixelBuffer else { return nil }
        CVPixelBufferLockBaseAddress(picture, .readOnly)
        defer { CVPixelBufferUnlockBaseAddress(picture, .readOnly) }
        let pixel = CVPixelBufferGetBaseAddress(picture)!.assumingMemoryBound(to: UInt8.self) + y * CVPixelBufferGetBytesPerRow(picture) + 4 * x
        return (pixel[0], pixel[1], pixel[2])
    }

    static func isShowing(_ layer: CALayer, _ colour: (UInt8, UInt8, UInt8), x: Int = 32) -> Bool {
        shown(layer, x: x, y: 24).map { near($0, colour) } ?? false
    }

    /// Equal within what scaling rounds off (a stretched 255 reads 253).
    static func near(_ a: (UInt8, UInt8, UInt8), _ b: (UInt8, UInt8, UInt8)) -> Bool {
        abs(Int(a.0) - Int(b.0)) <= 4 && abs(Int(a.1) - Int(b.1)) <= 4 && abs(Int(a.2) - Int(b.2)) <= 4
    }

    static func pausedTimebase(at seconds: Double) -> CMTimebase {
        let timebase = AVSampleBufferDisplayLayer.hostTimebase()
        CMTimebaseSetTime(timebase, time: CMTime(seconds: seconds, preferredTimescale: 600))
        return timebase
    }

    static func layer(width: CGFloat = 64) -> AVSampleBufferDisplayLayer {
        let layer = AVSampleBufferDisplayLayer()
        layer.bounds = CGRect(x: 0, y: 0, width: width, height: 48)
        return layer
    }

    @Test("a buffer marked DisplayImmediately is shown at once, whatever its time; status turns .rendering")
    func displayImmediately() {
        let layer = Self.layer()
        #expect(layer.status == .unknown && layer.contents == nil && layer.videoGravity == .resizeAspect)
        layer.controlTimebase = Self.pausedTimebase(at: 0)
        layer.enqueue(Self.sample(Self.red, at: 50, immediately: true))
        #expect(layer.status == .rendering)
        eventually("the red picture is shown") { Self.isShowing(layer, Self.red) }
        #expect(layer.renderedFrameCount == 1)
    }

    @Test("the control timebase decides: each buffer when its time comes, only the newest due one drawn; flushes")
    func controlTimebase() {
        let layer = Self.layer()
        let timebase = Self.pausedTimebase(at: 0)
        layer.controlTimebase = timebase
        #expect(layer.timebase === timebase)
        for (colour, time) in [(Self.red, 0.0), (Self.green, 0.4), (Self.blue, 0.5), (Self.red, 2.0)] { layer.enqueue(Self.sample(colour, at: time)) }
        eventually("the buffer at 0 is shown") { Self.isShowing(layer, Self.red) }
        #expect(layer.renderedFrameCount == 1)
        CMTimebaseSetTime(timebase, time: CMTime(seconds: 1, preferredTimescale: 600))
        eventually("the newest buffer due at 1 s is shown") { Self.isShowing(layer, Self.blue) }
        #expect(layer.renderedFrameCount == 2, "the green buffer, overtaken, is skipped")
        #expect(layer.hasSufficientMediaDataForReliablePlaybackStart, "the buffer at 2 s waits")
        layer.flush()
        eventually("flushed") { !layer.hasSufficientMediaDataForReliablePlaybackStart }
        CMTimebaseSetTime(timebase, time: CMTime(seconds: 3, preferredTimescale: 600))
        layer.enqueue(Self.sample(Self.green, at: 2.5))
        eventually("a buffer after the flush is shown") { Self.isShowing(layer, Self.green) }
        #expect(layer.renderedFrameCount == 3, "the flushed buffer at 2 s never was")
        let flushed = DispatchSemaphore(value: 0)
        let removedBeforeHandler = Atomic<Bool>(false)
        layer.sampleBufferRenderer.flush(removingDisplayedImage: true) {
            removedBeforeHandler.store(layer.contents == nil, ordering: .relaxed)
            flushed.signal()
        }
        #expect(flushed.wait(timeout: .now() + 20) == .success)
        let removed = removedBeforeHandler.load(ordering: .relaxed)
        #expect(removed, "the handler runs once the picture is gone")
    }

    @Test("without a control timebase buffers play at their own pace from the first one's time")
    func ownTimebase() {
        let layer = Self.layer()
        // Each picture's green and the layer's time when it reached the display handler.
        let shownAt = Mutex<[(green: UInt8, time: CMTime)]>([])
        layer.setDisplayHandler(queue: DispatchQueue(label: "display")) { picture in
            CVPixelBufferLockBaseAddress(picture, .readOnly)
            let green = CVPixelBufferGetBaseAddress(picture)!.assumingMemoryBound(to: UInt8.self)[24 * CVPixelBufferGetBytesPerRow(picture) + 32 * 4 + 1]
            CVPixelBufferUnlockBaseAddress(picture, .readOnly)
            let time = CMTimebaseGetTime(layer.timebase)
            shownAt.withLock { $0.append((green, time)) }
        }
        layer.enqueue(Self.sample(Self.red, at: 100))
        eventually("the first buffer is shown as it comes") { shownAt.withLock { $0.count } == 1 }
        layer.enqueue(Self.sample(Self.green, at: 100.3))
        eventually("the second buffer is shown") { shownAt.withLock { $0.count } == 2 }
        let shown = shownAt.withLock { $0 }
        #expect(shown.map(\.green) == [0, 255])
        #expect(shown[0].time >= CMTime(seconds: 100, preferredTimescale: 600), "the layer's time starts at the first buffer's")
        #expect(shown[1].time >= CMTime(seconds: 100.3, preferredTimescale: 600), "the second waits for its time: \(shown[1].time.seconds)")
    }

    @Test("the gravity places the picture in the bounds: letterboxed for .resizeAspect, stretched for .resize")
    func gravity() {
        let layer = Self.layer(width: 128)
        layer.enqueue(Self.sample(Self.red, at: 0, immediately: true))
        eventually("shown") { Self.isShowing(layer, Self.red, x: 64) }
        #expect(Self.isShowing(layer, (0, 0, 0), x: 5), "black bars at the sides")
        layer.videoGravity = .resize
        layer.enqueue(Self.sample(Self.green, at: 0, immediately: true))
        eventually("stretched to the edge") { Self.isShowing(layer, Self.green, x: 5) }
    }

    @Test("readiness: not ready with eight buffers waiting; the request block runs again once they are flushed")
    func readiness() {
        let layer = Self.layer()
        layer.controlTimebase = Self.pausedTimebase(at: 0)
        for index in 1...AVSampleBufferDisplayLayer.maximumQueuedBuffers { layer.enqueue(Self.sample(Self.red, at: Double(index))) }
        #expect(!layer.isReadyForMoreMediaData && !layer.sampleBufferRenderer.isReadyForMoreMediaData)
        let calls = Atomic<Int>(0)
        layer.requestMediaDataWhenReady(on: DispatchQueue(label: "feeder")) { calls.add(1, ordering: .relaxed) }
        #expect(calls.load(ordering: .relaxed) == 0)
        layer.sampleBufferRenderer.flush()
        eventually("the block is asked for more") { calls.load(ordering: .relaxed) >= 1 }
        #expect(layer.isReadyForMoreMediaData)
        layer.stopRequestingMediaData()
    }

    @Test("a buffer without pixels fails the layer with AVError.decodeFailed and the notification; a flush resets it")
    func failure() async throws {
        let layer = Self.layer()
        let posted = Atomic<Bool>(false)
        let observer = NotificationCenter.default.addObserver(forName: AVSampleBufferDisplayLayer.failedToDecodeNotification, object: layer, queue: nil) { note in
            if note.userInfo?[AVSampleBufferDisplayLayerFailedToDecodeNotificationErrorKey] is AVError { posted.store(true, ordering: .relaxed) }
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        let audio = AssetWriterFixture.audioSample(AssetWriterFixture.tone(first: 0, count: 480), at: .zero)
        layer.enqueue(audio)
        eventually("the layer failed") { layer.status == .failed }
        #expect((layer.error as? AVError)?.code == .decodeFailed)
        eventually("the notification was posted") { posted.load(ordering: .relaxed) }
        layer.enqueue(Self.sample(Self.red, at: 0, immediately: true))
        #expect(layer.status == .failed, "a failed layer takes nothing")
        layer.flush()
        #expect(layer.status == .unknown && layer.error == nil)
    }
}

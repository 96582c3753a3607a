// AVSampleBufferDisplayLayer.h and AVQueuedSampleBufferRendering.h, spelled as a filter
// camera that shows its processed frames spells them.
import AVFoundation
import Foundation

/// Touches the display layer declarations; compiled, never called.
func spellAVSampleBufferDisplayLayer(_ sampleBuffer: CMSampleBuffer, _ host: CALayer) throws {
    let displayLayer = AVSampleBufferDisplayLayer()
    displayLayer.videoGravity = .resizeAspectFill
    displayLayer.frame = host.bounds
    host.addSublayer(displayLayer)
    var timebase: CMTimebase?
    CMTimebaseCreateWithSourceClock(allocator: kCFAllocatorDefault, sourceClock: CMClockGetHostTimeClock(), timebaseOut: &timebase)
    CMTimebaseSetTime(timebase!, time: .zero)
    CMTimebaseSetRate(timebase!, rate: 1)
    displayLayer.controlTimebase = timebase
    if displayLayer.status == .failed { displayLayer.flush() }
    if displayLayer.isReadyForMoreMediaData { displayLayer.enqueue(sampleBuffer) }
    let renderer: AVSampleBufferVideoRenderer = displayLayer.sampleBufferRenderer
    renderer.requestMediaDataWhenReady(on: DispatchQueue(label: "feed")) {
        while renderer.isReadyForMoreMediaData { renderer.enqueue(sampleBuffer) }
    }
    renderer.stopRequestingMediaData()
    renderer.flush(removingDisplayedImage: true, completionHandler: nil)
    displayLayer.flushAndRemoveImage()
    let observed = NotificationCenter.default.addObserver(forName: AVSampleBufferDisplayLayer.failedToDecodeNotification, object: displayLayer, queue: .main) { note in
        _ = note.userInfo?[AVSampleBufferDisplayLayerFailedToDecodeNotificationErrorKey] as? Error
    }
    let state: (AVQueuedSampleBufferRenderingStatus, Error?, Bool, Bool, CMTimebase) = (
        displayLayer.status, displayLayer.error, displayLayer.requiresFlushToResumeDecoding,
        displayLayer.hasSufficientMediaDataForReliablePlaybackStart, displayLayer.timebase)
    displayLayer.preventsDisplaySleepDuringVideoPlayback = true
    _ = (observed, state)
}
